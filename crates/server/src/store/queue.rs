//! The queue between the server's tasks and a database's one writer: each request goes in
//! on its own; the writer takes what has arrived as one batch (one transaction, one disk
//! sync) and answers each request.

use super::{Op, Reply, StoreError};
use tokio::sync::{mpsc, oneshot};

/// The most requests committed together.
const BATCH: usize = 512;

pub(super) struct Request {
    pub(super) op: Op,
    reply: oneshot::Sender<Result<Reply, StoreError>>,
}

/// Where the server's tasks put their requests.
#[derive(Clone)]
pub(super) struct Requests {
    sender: mpsc::UnboundedSender<Request>,
}

/// Where the writer takes them from.
pub(super) struct Inbox {
    receiver: mpsc::UnboundedReceiver<Request>,
}

pub(super) fn queue() -> (Requests, Inbox) {
    let (sender, receiver) = mpsc::unbounded_channel();
    (Requests { sender }, Inbox { receiver })
}

impl Requests {
    /// Asks the writer and waits for its answer.
    pub(super) async fn run(&self, op: Op) -> Result<Reply, StoreError> {
        let stopped = || StoreError::Failed("the database's writer stopped".into());
        let (reply, answer) = oneshot::channel();
        self.sender
            .send(Request { op, reply })
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

impl Inbox {
    /// The next batch, for a writer that is a task: waits for one request, then takes
    /// whatever else has arrived. `None` once every sender is gone.
    pub(super) async fn next_batch(&mut self) -> Option<Vec<Request>> {
        let first = self.receiver.recv().await?;
        Some(self.more(first))
    }

    /// The same, for a writer that is a thread of its own.
    pub(super) fn next_batch_blocking(&mut self) -> Option<Vec<Request>> {
        let first = self.receiver.blocking_recv()?;
        Some(self.more(first))
    }

    fn more(&mut self, first: Request) -> Vec<Request> {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match self.receiver.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
        batch
    }
}

/// Answers each request of `batch` with its result.
pub(super) fn answer(batch: Vec<Request>, results: Vec<Result<Reply, StoreError>>) {
    for (request, result) in batch.into_iter().zip(results) {
        // The asker may have gone (its connection closed); the change stands.
        let _ = request.reply.send(result);
    }
}
