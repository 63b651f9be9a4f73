//! PostgreSQL: for a server that grows past one process. Several `tabula-server`s can
//! share one database: every change is checked against the game's version (see
//! [`super::Change`]), and each commit tells the other processes which games changed
//! (LISTEN/NOTIFY), so their players see the move at once.
//!
//! One task owns the writing connection and sends the changes that arrive together as one
//! pipelined transaction: one round trip and one disk sync for many games' moves. No
//! statement is written to fail on a conflict (a conflict is a change that matched no
//! row), so an error from the database fails the whole batch and nothing of it is kept.

use super::migrations;
use super::{
    Change, News, Op, Reply, Step, StoreError, StoredGame, StoredMove, changed_meanwhile,
    from_json, pace_name, pace_of, to_json, without_password,
};
use futures_util::future::{maybe_done, poll_fn};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, Client, NoTls, Statement};

/// The most changes committed together.
const BATCH: usize = 512;
/// How long a batch may take before the connection is taken as dead.
const BATCH_PATIENCE: Duration = Duration::from_secs(30);
/// The channel every server listens on; a payload is `ORIGIN CODE`.
const CHANNEL: &str = "tabula_games";
/// Taken while the schema is brought up to date, so two servers starting together take
/// turns ("tabula" in ASCII).
const MIGRATION_LOCK: i64 = 0x74_61_62_75_6c_61;

struct Request {
    op: Op,
    reply: oneshot::Sender<Result<Reply, StoreError>>,
}

#[derive(Clone)]
pub struct PostgresStore {
    requests: mpsc::UnboundedSender<Request>,
    url: Arc<str>,
    /// This process's name in notifications, so it passes over its own.
    origin: Arc<str>,
}

/// The statements, prepared once per connection.
struct Statements {
    create: Statement,
    load: Statement,
    claim: Statement,
    add_move: Statement,
    take_back: Statement,
    end_or_offers: Statement,
    notify: Statement,
}

/// The first part of every change: the game moves to the next version, if it is still at
/// the version the change was decided on and has not ended. `$1` code, `$2` version,
/// `$3` offers, `$4` clock start (NULL keeps it), `$5` ending (NULL while it goes on).
const BUMP: &str = "UPDATE games SET version = version + 1, offers = $3::text,
        clock_ms = COALESCE($4::int8, clock_ms), ending = $5::text
    WHERE code = $1::text AND version = $2::int8 AND ending IS NULL";

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
        let (requests, inbox) = mpsc::unbounded_channel();
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
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request { op, reply })
            .map_err(|_| StoreError::Failed("the database task stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Failed("the database task stopped".into()))?
    }

    /// Starts listening for other processes' changes.
    pub fn news(&self) -> mpsc::UnboundedReceiver<News> {
        let (tell, news) = mpsc::unbounded_channel();
        tokio::spawn(listen(self.url.clone(), self.origin.clone(), tell));
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

async fn prepare(client: &Client) -> Result<Statements, tokio_postgres::Error> {
    Ok(Statements {
        create: client
            .prepare(
                "WITH g AS (
                    INSERT INTO games (code, game, settings, pace, move_seconds, ending,
                        created_ms, clock_ms, version, offers)
                    VALUES ($1::text, $2::text, $3::text, $4::text, $5::int4, $6::text,
                        $7::int8, $8::int8, $9::int8, $10::text)
                    ON CONFLICT (code) DO NOTHING
                    RETURNING code
                ), s AS (
                    INSERT INTO seats (code, seat, token)
                    SELECT g.code, t.seat, t.token
                    FROM g, unnest($11::int4[], $12::text[]) AS t(seat, token)
                ), m AS (
                    INSERT INTO moves (code, ply, text, seat, at_ms)
                    SELECT g.code, t.ply, t.text, t.seat, t.at_ms
                    FROM g, unnest($13::int4[], $14::text[], $15::int4[], $16::int8[])
                        AS t(ply, text, seat, at_ms)
                )
                SELECT count(*) FROM g",
            )
            .await?,
        load: client
            .prepare(
                "SELECT game, settings, pace, move_seconds, ending, created_ms, clock_ms,
                    version, offers,
                    ARRAY(SELECT token FROM seats WHERE code = $1::text ORDER BY seat),
                    ARRAY(SELECT text FROM moves WHERE code = $1::text ORDER BY ply),
                    ARRAY(SELECT seat FROM moves WHERE code = $1::text ORDER BY ply),
                    ARRAY(SELECT at_ms FROM moves WHERE code = $1::text ORDER BY ply)
                FROM games WHERE code = $1::text",
            )
            .await?,
        // A seat is claimed only while it is free.
        claim: client
            .prepare(&change_statement(
                "g AS ({BUMP} AND EXISTS (SELECT 1 FROM seats
                        WHERE code = $1::text AND seat = $6::int4 AND token IS NULL)
                    RETURNING code
                ), c AS (
                    UPDATE seats SET token = $7::text FROM g
                    WHERE seats.code = g.code AND seats.seat = $6::int4
                )",
            ))
            .await?,
        // A move goes right after the last one stored: never over one, never past a gap.
        add_move: client
            .prepare(&change_statement(
                "g AS ({BUMP}
                        AND NOT EXISTS (SELECT 1 FROM moves
                            WHERE code = $1::text AND ply >= $6::int4)
                        AND ($6::int4 = 0 OR EXISTS (SELECT 1 FROM moves
                            WHERE code = $1::text AND ply = $6::int4 - 1))
                    RETURNING code
                ), m AS (
                    INSERT INTO moves (code, ply, text, seat, at_ms)
                    SELECT g.code, $6::int4, $7::text, $8::int4, $9::int8 FROM g
                )",
            ))
            .await?,
        take_back: client
            .prepare(&change_statement(
                "g AS ({BUMP} RETURNING code), d AS (
                    DELETE FROM moves USING g
                    WHERE moves.code = g.code AND moves.ply >= $6::int4
                )",
            ))
            .await?,
        end_or_offers: client
            .prepare(&change_statement("g AS ({BUMP} RETURNING code)"))
            .await?,
        notify: client
            .prepare(&format!(
                "SELECT count(pg_notify('{CHANNEL}', payload)) FROM unnest($1::text[]) AS payload"
            ))
            .await?,
    })
}

/// A change's statement: `parts` (common table expressions, the first `g`, the game's row
/// if the change was made); its answer is how many changes were made: 1, or 0 for a
/// conflict.
fn change_statement(parts: &str) -> String {
    format!(
        "WITH {} SELECT count(*) FROM g",
        parts.replace("{BUMP}", BUMP)
    )
}

/// The writer: takes what has arrived, commits it as one transaction, answers each.
async fn write(
    url: String,
    origin: Arc<str>,
    client: Client,
    statements: Statements,
    mut inbox: mpsc::UnboundedReceiver<Request>,
) {
    let mut connection = Some((client, statements));
    while let Some(first) = inbox.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match inbox.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
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
        for (request, result) in batch.into_iter().zip(results) {
            // The asker may have gone (its connection closed); the change stands.
            let _ = request.reply.send(result);
        }
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

/// The parameters of one change, in the order its statement numbers them.
fn change_params(change: &Change) -> Vec<Box<dyn ToSql + Sync + Send>> {
    let ending = match &change.step {
        Step::End(ending) => Some(to_json(ending)),
        _ => None,
    };
    let mut params: Vec<Box<dyn ToSql + Sync + Send>> = vec![
        Box::new(change.code.clone()),
        Box::new(change.version as i64),
        Box::new(to_json(&change.offers)),
        Box::new(change.clock_ms.map(|ms| ms as i64)),
        Box::new(ending),
    ];
    match &change.step {
        Step::Claim { seat, token } => {
            params.push(Box::new(*seat as i32));
            params.push(Box::new(token.clone()));
        }
        Step::AddMove { ply, mv } => {
            params.push(Box::new(*ply as i32));
            params.push(Box::new(mv.text.clone()));
            params.push(Box::new(mv.seat as i32));
            params.push(Box::new(mv.at_ms as i64));
        }
        Step::TakeBack { ply } => params.push(Box::new(*ply as i32)),
        Step::End(_) | Step::Offers => {}
    }
    params
}

fn create_params(game: &StoredGame) -> Vec<Box<dyn ToSql + Sync + Send>> {
    let seats: Vec<i32> = (0..game.tokens.len() as i32).collect();
    vec![
        Box::new(game.code.clone()),
        Box::new(game.game.clone()),
        Box::new(to_json(&game.settings)),
        Box::new(pace_name(game.pace).to_string()),
        Box::new(game.move_seconds.map(|s| s as i32)),
        Box::new(game.ending.as_ref().map(to_json)),
        Box::new(game.created_ms as i64),
        Box::new(game.clock_ms.map(|ms| ms as i64)),
        Box::new(game.version as i64),
        Box::new(to_json(&game.offers)),
        Box::new(seats),
        Box::new(game.tokens.clone()),
        Box::new((0..game.moves.len() as i32).collect::<Vec<i32>>()),
        Box::new(
            game.moves
                .iter()
                .map(|m| m.text.clone())
                .collect::<Vec<_>>(),
        ),
        Box::new(game.moves.iter().map(|m| m.seat as i32).collect::<Vec<_>>()),
        Box::new(
            game.moves
                .iter()
                .map(|m| m.at_ms as i64)
                .collect::<Vec<_>>(),
        ),
    ]
}

/// What one request asks of the database, and how its rows answer it.
enum Query<'a> {
    Create(&'a StoredGame),
    Load(&'a str),
    Change(&'a Change),
}

async fn run_one(
    client: &Client,
    statements: &Statements,
    query: Query<'_>,
) -> Result<Result<Reply, StoreError>, tokio_postgres::Error> {
    match query {
        Query::Create(game) => {
            let params = create_params(game);
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as _).collect();
            let made: i64 = client.query_one(&statements.create, &refs).await?.get(0);
            Ok(if made == 1 {
                Ok(Reply::Done)
            } else {
                Err(StoreError::Conflict(format!(
                    "the code {} is taken",
                    game.code
                )))
            })
        }
        Query::Load(code) => {
            let row = client.query_opt(&statements.load, &[&code]).await?;
            Ok(row.map_or(Ok(Reply::Game(None)), |row| {
                stored_game(code, &row).map(|g| Reply::Game(Some(Box::new(g))))
            }))
        }
        Query::Change(change) => {
            let statement = match change.step {
                Step::Claim { .. } => &statements.claim,
                Step::AddMove { .. } => &statements.add_move,
                Step::TakeBack { .. } => &statements.take_back,
                Step::End(_) | Step::Offers => &statements.end_or_offers,
            };
            let params = change_params(change);
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as _).collect();
            let changed: i64 = client.query_one(statement, &refs).await?.get(0);
            Ok(if changed == 1 {
                Ok(Reply::Done)
            } else {
                Err(changed_meanwhile(&change.code))
            })
        }
    }
}

type Answer<'a> = Pin<
    Box<
        dyn Future<Output = Result<Option<Result<Reply, StoreError>>, tokio_postgres::Error>>
            + Send
            + 'a,
    >,
>;

async fn run_batch(
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
        };
        steps.push(Box::pin(async move {
            run_one(client, statements, query).await.map(Some)
        }));
    }
    let mut answers: Vec<Option<Result<Reply, StoreError>>> = batch.iter().map(|_| None).collect();
    let mut refused: Option<tokio_postgres::Error> = None;
    // Steps after BEGIN are the requests, in `order`.
    for (step, result) in in_order(steps).await.into_iter().enumerate() {
        match result {
            Ok(Some(answer)) => answers[order[step - 1]] = Some(answer),
            Ok(None) => {}
            Err(e) => refused = refused.or(Some(e)),
        }
    }
    let news: Vec<String> = batch
        .iter()
        .zip(&answers)
        .filter_map(|(request, answer)| match (&request.op, answer) {
            (Op::Change(change), Some(Ok(_))) => Some(news_payload(origin, change)),
            _ => None,
        })
        .collect();
    if let Some(e) = refused {
        // Nothing of a batch with a refused statement is kept, whatever refused it (a
        // statement that never left here did not abort the transaction: rolling back does).
        let _ = client.batch_execute("ROLLBACK").await;
        let why = e.to_string();
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
    }
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

fn stored_game(code: &str, row: &tokio_postgres::Row) -> Result<StoredGame, StoreError> {
    let failed = |e: tokio_postgres::Error| StoreError::Failed(e.to_string());
    let texts: Vec<String> = row.try_get(10).map_err(failed)?;
    let seats: Vec<i32> = row.try_get(11).map_err(failed)?;
    let at: Vec<i64> = row.try_get(12).map_err(failed)?;
    let moves = texts
        .into_iter()
        .zip(seats)
        .zip(at)
        .map(|((text, seat), at_ms)| StoredMove {
            text,
            seat: seat.max(0) as usize,
            at_ms: at_ms.max(0) as u64,
        })
        .collect();
    let settings: String = row.try_get(1).map_err(failed)?;
    let pace: String = row.try_get(2).map_err(failed)?;
    let ending: Option<String> = row.try_get(4).map_err(failed)?;
    let offers: Option<String> = row.try_get(8).map_err(failed)?;
    Ok(StoredGame {
        code: code.to_string(),
        game: row.try_get(0).map_err(failed)?,
        settings: from_json(&settings, "settings")?,
        pace: pace_of(&pace)?,
        move_seconds: row
            .try_get::<_, Option<i32>>(3)
            .map_err(failed)?
            .map(|s| s.max(0) as u32),
        tokens: row.try_get(9).map_err(failed)?,
        moves,
        ending: ending.map(|e| from_json(&e, "ending")).transpose()?,
        created_ms: row.try_get::<_, i64>(5).map_err(failed)?.max(0) as u64,
        clock_ms: row
            .try_get::<_, Option<i64>>(6)
            .map_err(failed)?
            .map(|ms| ms.max(0) as u64),
        version: row.try_get::<_, i64>(7).map_err(failed)?.max(0) as u64,
        offers: offers
            .map(|o| from_json(&o, "offers"))
            .transpose()?
            .unwrap_or_default(),
    })
}

/// What a change tells the other processes: `ORIGIN CODE VERSION`, and for a move
/// `PLY SEAT AT_MS TEXT` after that, so they can play it without reading the database.
fn news_payload(origin: &str, change: &Change) -> String {
    let (code, version) = (&change.code, change.version + 1);
    match &change.step {
        Step::AddMove { ply, mv } => format!(
            "{origin} {code} {version} {ply} {} {} {}",
            mv.seat, mv.at_ms, mv.text
        ),
        _ => format!("{origin} {code} {version}"),
    }
}

/// Reads [`news_payload`]'s text, unless it came from `origin` (this process) or is not
/// news at all.
fn read_news(payload: &str, origin: &str) -> Option<News> {
    let mut words = payload.splitn(7, ' ');
    if words.next()? == origin {
        return None;
    }
    let code = words.next()?.to_string();
    let version = words.next()?.parse().ok()?;
    let Some(ply) = words.next() else {
        return Some(News::Changed { code, version });
    };
    let (ply, seat, at_ms) = (ply.parse().ok()?, words.next()?, words.next()?);
    Some(News::Moved {
        code,
        version,
        ply,
        mv: StoredMove {
            seat: seat.parse().ok()?,
            at_ms: at_ms.parse().ok()?,
            text: words.next()?.to_string(),
        },
    })
}

/// Tells `news` of every game another process changes, for as long as anyone hears it;
/// after a lost connection, connects again and says news may have been missed.
async fn listen(url: Arc<str>, origin: Arc<str>, news: mpsc::UnboundedSender<News>) {
    loop {
        let connected = match config(&url) {
            Ok(config) => config.connect(NoTls).await,
            Err(e) => Err(e),
        };
        if let Ok((client, mut connection)) = connected {
            let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
            // The LISTEN's answer comes through the connection, which is polled below.
            let command = format!("LISTEN {CHANNEL}");
            let listening = client.batch_execute(&command);
            tokio::pin!(listening);
            let mut listened = false;
            loop {
                tokio::select! {
                    done = &mut listening, if !listened => {
                        if done.is_err() { break; }
                        listened = true;
                        if news.send(News::Missed).is_err() { return; }
                    }
                    message = futures_util::StreamExt::next(&mut messages) => {
                        match message {
                            Some(Ok(AsyncMessage::Notification(note))) => {
                                if let Some(item) = read_news(note.payload(), &origin)
                                    && news.send(item).is_err()
                                {
                                    return;
                                }
                            }
                            Some(Ok(_)) => {}
                            Some(Err(_)) | None => break,
                        }
                    }
                }
            }
        }
        if news.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_is_read_back_as_written_and_a_process_passes_over_its_own() {
        let mv = StoredMove {
            text: "d2-e2 +d3".into(),
            seat: 1,
            at_ms: 1_700_000_000_123,
        };
        let change = |step| Change {
            code: "K7MQ2X".into(),
            version: 41,
            step,
            offers: Default::default(),
            clock_ms: None,
        };
        let moved = news_payload(
            "aaaa",
            &change(Step::AddMove {
                ply: 17,
                mv: mv.clone(),
            }),
        );
        assert_eq!(
            read_news(&moved, "bbbb"),
            Some(News::Moved {
                code: "K7MQ2X".into(),
                version: 42,
                ply: 17,
                mv
            })
        );
        assert_eq!(read_news(&moved, "aaaa"), None);
        let ended = news_payload("aaaa", &change(Step::Offers));
        assert_eq!(
            read_news(&ended, "bbbb"),
            Some(News::Changed {
                code: "K7MQ2X".into(),
                version: 42
            })
        );
        for junk in [
            "",
            "x",
            "x K7MQ2X",
            "x K7MQ2X v",
            "x K7MQ2X 3 p 1 2 m",
            "x K7MQ2X 3 1 1",
        ] {
            assert_eq!(read_news(junk, "aaaa"), None, "{junk:?}");
        }
    }
}
