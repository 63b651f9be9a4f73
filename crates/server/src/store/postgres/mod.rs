//! PostgreSQL: for a server that grows past one process. Several `tabula-server`s can
//! share one database: every change is checked against the game's version (see
//! [`super::Change`]), and each commit tells the other processes which games changed
//! (LISTEN/NOTIFY), so their players see the move at once.
//!
//! - [`statements`]: the SQL, and how its rows answer each request.
//! - [`batch`]: one batch of requests as one transaction, in two round trips.
//! - [`news`]: what a change tells the other processes, and listening for it.
//! - [`accounts`]: accounts' statements.
//! - [`challenges`]: the lobby's challenges.
//! - [`ratings`]: ratings' statements, and a rated end's ratings moved.
//!
//! One task owns the writing connection (this file: connecting, the schema, the writer).

mod accounts;
mod batch;
mod challenges;
mod mail;
mod news;
mod ratings;
mod statements;
mod turns;

use super::migrations;
use super::queue::{Inbox, Requests, answer, queue};
use super::{News, Op, Reply, StoreError, without_password};
use batch::run_batch;
use statements::{Statements, prepare};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{Client, NoTls};

/// How long a batch may take before the connection is taken as dead.
const BATCH_PATIENCE: Duration = Duration::from_secs(30);
/// Taken while the schema is brought up to date, so two servers starting together take
/// turns ("tabula" in ASCII).
const MIGRATION_LOCK: i64 = 0x74_61_62_75_6c_61;

#[derive(Clone)]
pub struct PostgresStore {
    requests: Requests,
    url: Arc<str>,
    /// This process's name in notifications, so it passes over its own.
    origin: Arc<str>,
}

impl PostgresStore {
    pub async fn open(url: &str) -> Result<PostgresStore, String> {
        let shown = without_password(url);
        let mut client = connect(url)
            .await
            .map_err(|e| format!("cannot open the database {shown}: {e}"))?;
        migrate(&mut client)
            .await
            .map_err(|e| format!("{shown}: {e}"))?;
        let statements = prepare(&client)
            .await
            .map_err(|e| format!("{shown}: {e}"))?;
        let (requests, inbox) = queue();
        let origin: Arc<str> = crate::codes::new_token()[..12].into();
        tokio::spawn(write(
            url.to_string(),
            origin.clone(),
            client,
            statements,
            inbox,
        ));
        Ok(PostgresStore {
            requests,
            url: url.into(),
            origin,
        })
    }

    pub async fn run(&self, op: Op) -> Result<Reply, StoreError> {
        self.requests.run(op).await
    }

    /// Starts listening for other processes' changes.
    pub fn news(&self) -> mpsc::UnboundedReceiver<News> {
        let (tell, news) = mpsc::unbounded_channel();
        tokio::spawn(news::listen(self.url.clone(), self.origin.clone(), tell));
        news
    }
}

/// The connection settings of `url`, with limits so that a database gone without a word
/// (a network cut) is noticed in seconds, not hours.
fn config(url: &str) -> Result<tokio_postgres::Config, tokio_postgres::Error> {
    let mut config: tokio_postgres::Config = url.parse()?;
    config
        .connect_timeout(Duration::from_secs(10))
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(30))
        .tcp_user_timeout(Duration::from_secs(30));
    Ok(config)
}

/// A connection whose messages are read by a task of its own.
async fn connect(url: &str) -> Result<Client, tokio_postgres::Error> {
    let (client, connection) = config(url)?.connect(NoTls).await?;
    tokio::spawn(async move {
        // It ends when the client is dropped or the server goes; the writer sees the
        // client closed and connects again.
        let _ = connection.await;
    });
    Ok(client)
}

async fn migrate(client: &mut Client) -> Result<(), tokio_postgres::Error> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
        .await?;
    let done: i32 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            &[],
        )
        .await?
        .get(0);
    for (index, step) in migrations::POSTGRES
        .iter()
        .enumerate()
        .skip(done.max(0) as usize)
    {
        tx.batch_execute(step).await?;
        tx.execute(
            "INSERT INTO schema_migrations (version) VALUES ($1)",
            &[&(index as i32 + 1)],
        )
        .await?;
    }
    tx.commit().await
}

/// The writer: takes what has arrived, commits it as one transaction, answers each.
async fn write(
    url: String,
    origin: Arc<str>,
    client: Client,
    statements: Statements,
    mut inbox: Inbox,
) {
    let mut connection = Some((client, statements));
    while let Some(batch) = inbox.next_batch().await {
        if connection
            .as_ref()
            .is_none_or(|(client, _)| client.is_closed())
        {
            connection = reconnect(&url).await;
        }
        let results = match &connection {
            Some((client, statements)) => run_batch(client, statements, &origin, &batch).await,
            None => batch
                .iter()
                .map(|_| {
                    Err(StoreError::Failed(
                        "the database cannot be reached".to_string(),
                    ))
                })
                .collect(),
        };
        if results
            .iter()
            .any(|r| matches!(r, Err(StoreError::Unknown(_))))
        {
            // Whatever that connection is doing, the next batch starts on a new one.
            connection = None;
        }
        answer(batch, results);
    }
}

async fn reconnect(url: &str) -> Option<(Client, Statements)> {
    let connected = async {
        let client = connect(url).await.ok()?;
        let statements = prepare(&client).await.ok()?;
        Some((client, statements))
    };
    tokio::time::timeout(BATCH_PATIENCE, connected)
        .await
        .ok()
        .flatten()
}
