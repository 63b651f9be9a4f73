//! One batch of requests as one transaction: the requests pipelined (sent without waiting
//! for each answer), then the notifications of the changes that were made and the commit.

use super::BATCH_PATIENCE;
use super::news::payloads;
use super::ratings;
use super::statements::{Query, Statements, run_one};
use crate::store::queue::Request;
use crate::store::{Op, Reply, StoreError};
use futures_util::future::{maybe_done, poll_fn};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use tokio_postgres::Client;

type Answer<'a> = Pin<
    Box<
        dyn Future<Output = Result<Option<Result<Reply, StoreError>>, tokio_postgres::Error>>
            + Send
            + 'a,
    >,
>;

pub(super) async fn run_batch(
    client: &Client,
    statements: &Statements,
    origin: &str,
    batch: &[Request],
) -> Vec<Result<Reply, StoreError>> {
    match tokio::time::timeout(
        BATCH_PATIENCE,
        run_batch_now(client, statements, origin, batch),
    )
    .await
    {
        Ok(results) => results,
        Err(_) => unknown(
            batch,
            format!(
                "the database did not answer within {} s",
                BATCH_PATIENCE.as_secs()
            ),
        ),
    }
}

/// Every request of `batch` answered alike: sent, perhaps done, but not answered.
fn unknown(batch: &[Request], why: String) -> Vec<Result<Reply, StoreError>> {
    batch
        .iter()
        .map(|_| Err(StoreError::Unknown(why.clone())))
        .collect()
}

/// Two round trips: the requests in one transaction, without waiting between them; then,
/// knowing which changes were made, the notifications of those alone and the commit
/// (which sends them only if it succeeds).
async fn run_batch_now(
    client: &Client,
    statements: &Statements,
    origin: &str,
    batch: &[Request],
) -> Vec<Result<Reply, StoreError>> {
    // Games in the order of their codes (a game's own changes keep their order): two
    // processes' transactions then lock the games' rows in the same order and cannot wait on
    // each other in a circle.
    let mut order: Vec<usize> = (0..batch.len()).collect();
    order.sort_by(|&a, &b| op_code(&batch[a].op).cmp(op_code(&batch[b].op)));
    let mut steps: Vec<Answer<'_>> = Vec::with_capacity(batch.len() + 1);
    steps.push(Box::pin(async {
        client.batch_execute("BEGIN").await.map(|()| None)
    }));
    for &index in &order {
        let query = match &batch[index].op {
            Op::Create(game) => Query::Create(game),
            Op::Load { code } => Query::Load(code),
            Op::Change(change) => Query::Change(change),
            Op::Account(op) => Query::Account(op),
            Op::Ratings(op) => Query::Ratings(op),
            Op::Challenge(op) => Query::Challenge(op),
            Op::Turns(op) => Query::Turns(op),
            Op::Mail(op) => Query::Mail(op),
        };
        steps.push(Box::pin(async move {
            run_one(client, statements, query).await.map(Some)
        }));
    }
    let mut answers: Vec<Option<Result<Reply, StoreError>>> = batch.iter().map(|_| None).collect();
    let mut refused: Option<String> = None;
    // Steps after BEGIN are the requests, in `order`.
    for (step, result) in in_order(steps).await.into_iter().enumerate() {
        match result {
            Ok(Some(answer)) => answers[order[step - 1]] = Some(answer),
            Ok(None) => {}
            Err(e) => refused = refused.or(Some(e.to_string())),
        }
    }
    if refused.is_none()
        && let Err(e) = rate_ends(client, statements, batch, &answers).await
    {
        refused = Some(e);
    }
    let news: Vec<String> = batch
        .iter()
        .zip(&answers)
        .filter(|(_, answer)| matches!(answer, Some(Ok(_))))
        .flat_map(|(request, _)| payloads(origin, &request.op))
        .collect();
    if let Some(why) = refused {
        // Nothing of a batch with a refused statement is kept, whatever refused it (a
        // statement that never left here did not abort the transaction: rolling back does).
        let _ = client.batch_execute("ROLLBACK").await;
        return batch
            .iter()
            .map(|_| Err(StoreError::Failed(why.clone())))
            .collect();
    }
    let mut ending: Vec<Answer<'_>> = Vec::with_capacity(2);
    if !news.is_empty() {
        let news = &news;
        ending.push(Box::pin(async move {
            client
                .query_one(&statements.notify, &[news])
                .await
                .map(|_| None)
        }));
    }
    ending.push(Box::pin(async {
        client.batch_execute("COMMIT").await.map(|()| None)
    }));
    let mut ended = in_order(ending).await;
    if let Some(Err(e)) = ended.pop() {
        // Sent, perhaps done, but not answered: nobody knows.
        return unknown(batch, e.to_string());
    }
    let notified = ended.pop().unwrap_or(Ok(None));
    match notified {
        // The database refused the notifications: the commit rolled back.
        Err(e) if e.as_db_error().is_some() => {
            let why = e.to_string();
            batch
                .iter()
                .map(|_| Err(StoreError::Failed(why.clone())))
                .collect()
        }
        // They never left here, but the commit did: kept, perhaps, and not announced.
        Err(e) => unknown(batch, e.to_string()),
        Ok(_) => answers
            .into_iter()
            .map(|answer| answer.unwrap_or_else(|| Err(StoreError::Failed("no answer".into()))))
            .collect(),
    }
}

/// The game a request is about.
fn op_code(op: &Op) -> &str {
    match op {
        Op::Create(game) => &game.code,
        Op::Load { code } => code,
        Op::Change(change) => &change.code,
        Op::Account(op) => op.code().unwrap_or_default(),
        Op::Ratings(_) => "",
        Op::Challenge(op) => op.code().unwrap_or_default(),
        Op::Turns(op) => op.code().unwrap_or_default(),
        Op::Mail(op) => op.code().unwrap_or_default(),
    }
}

/// Moves the ratings of the rated games this batch ended, one after another, under the
/// ratings lock. Any failure fails the whole batch: an end is never kept without its
/// ratings.
async fn rate_ends(
    client: &Client,
    statements: &Statements,
    batch: &[Request],
    answers: &[Option<Result<Reply, StoreError>>],
) -> Result<(), String> {
    let mut locked = false;
    for (request, answer) in batch.iter().zip(answers) {
        let Op::Change(change) = &request.op else {
            continue;
        };
        let (Some(end), Some(Ok(_))) = (&change.rated_end, &answer) else {
            continue;
        };
        if !locked {
            ratings::lock(client, &statements.ratings)
                .await
                .map_err(|e| e.to_string())?;
            locked = true;
        }
        ratings::rate_end(client, &statements.ratings, &change.code, end).await?;
    }
    Ok(())
}

/// Runs `futures` together, each first polled in the order given: a request to the
/// database goes out when its future is first polled, so the requests go out in this
/// order, one after another without waiting for answers (the whole batch is one round
/// trip), and the transaction holds them in this order.
async fn in_order<T>(futures: Vec<Pin<Box<dyn Future<Output = T> + Send + '_>>>) -> Vec<T> {
    let mut pending: Vec<_> = futures
        .into_iter()
        .map(|f| Box::pin(maybe_done(f)))
        .collect();
    poll_fn(|cx| {
        let mut done = true;
        for future in &mut pending {
            done &= future.as_mut().poll(cx).is_ready();
        }
        if done { Poll::Ready(()) } else { Poll::Pending }
    })
    .await;
    pending
        .iter_mut()
        .map(|f| f.as_mut().take_output().expect("every future is done"))
        .collect()
}
