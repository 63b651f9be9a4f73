//! Ratings on PostgreSQL. A rated end's ratings are read, computed here and written, so
//! they cannot be one pipelined statement: the batch runs them after its pipelined
//! requests, one end after another, under a lock every server process takes for ratings
//! (see [`RatingStatements::lock`]), so two processes never both read a rating before
//! either writes it.

use crate::ratings::{RatedEnd, Rating, rate, rating_to_start_from, stored_rating};
use crate::store::rating::{NOT_A_BOT, leaderboard_order};
use crate::store::{PlayerRatings, RankedRow, RatingOp, Reply, StoreError};
use tabula_protocol::ratings::RatingPoint;
use tokio_postgres::{Client, Statement};

/// The lock ratings are written under ("rating" in ASCII).
const RATINGS_LOCK: i64 = 0x72_61_74_69_6e_67;

pub(super) struct RatingStatements {
    lock: Statement,
    read: Statement,
    write: Statement,
    leaderboard: Statement,
    seed: Statement,
    player: Statement,
    pools: Statement,
    history: Statement,
}

impl RatingStatements {
    pub(super) async fn prepare(client: &Client) -> Result<Self, tokio_postgres::Error> {
        Ok(RatingStatements {
            // Held until the transaction ends. Taken after the batch's games' rows, and
            // nothing that waits for a game's row is asked while it is held, so it cannot
            // close a circle of waits.
            lock: client
                .prepare(&format!("SELECT pg_advisory_xact_lock({RATINGS_LOCK})"))
                .await?,
            read: client
                .prepare(
                    "SELECT account, rating, deviation, volatility, games, updated_ms
                     FROM ratings WHERE pool = $1::text AND account = ANY($2::int8[])",
                )
                .await?,
            write: client
                .prepare(
                    "WITH r AS (
                        INSERT INTO ratings (account, pool, rating, deviation, volatility,
                            games, updated_ms)
                        SELECT t.account, $2::text, t.rating, t.deviation, t.volatility,
                            t.games, $3::int8
                        FROM unnest($4::int8[], $5::float8[], $6::float8[], $7::float8[],
                            $8::int4[]) AS t(account, rating, deviation, volatility, games)
                        ON CONFLICT (account, pool) DO UPDATE SET rating = excluded.rating,
                            deviation = excluded.deviation, volatility = excluded.volatility,
                            games = excluded.games, updated_ms = excluded.updated_ms
                     )
                     INSERT INTO rating_history (account, code, pool, at_ms, rating, deviation)
                     SELECT t.account, $1::text, $2::text, $3::int8, t.rating, t.deviation
                     FROM unnest($4::int8[], $5::float8[], $6::float8[])
                        AS t(account, rating, deviation)",
                )
                .await?,
            leaderboard: client
                .prepare(&format!(
                    "SELECT a.name, r.rating, r.deviation, r.volatility, r.games, r.updated_ms
                     FROM ratings r JOIN accounts a ON a.id = r.account
                     WHERE r.pool = $1::text AND a.deleted_ms IS NULL AND a.name IS NOT NULL
                         AND {NOT_A_BOT}
                     ORDER BY {} LIMIT $2::int8",
                    leaderboard_order()
                ))
                .await?,
            seed: client
                .prepare(
                    "INSERT INTO ratings (account, pool, rating, deviation, volatility, games,
                         updated_ms)
                     VALUES ($1::int8, $2::text, $3::float8, $4::float8, $5::float8,
                         $6::int4, 0)
                     ON CONFLICT (account, pool) DO NOTHING",
                )
                .await?,
            player: client
                .prepare(
                    "SELECT id, name FROM accounts
                     WHERE name_key = $1::text AND deleted_ms IS NULL",
                )
                .await?,
            pools: client
                .prepare(
                    "SELECT pool, rating, deviation, volatility, games, updated_ms FROM ratings
                     WHERE account = $1::int8 ORDER BY pool",
                )
                .await?,
            history: client
                .prepare(
                    "SELECT code, at_ms, rating FROM rating_history
                     WHERE account = $1::int8 AND pool = $2::text
                     ORDER BY id DESC LIMIT $3::int8",
                )
                .await?,
        })
    }
}

/// A row's rating (rating, deviation, volatility, games and when it was last moved, from
/// column `first` on), or why it is not one.
fn row_rating(row: &tokio_postgres::Row, first: usize) -> Result<Rating, StoreError> {
    let read = |e: tokio_postgres::Error| StoreError::Failed(format!("a rating row: {e}"));
    // A damaged time reads as none: the rating is not grown.
    let updated_ms = row
        .try_get::<_, i64>(first + 4)
        .ok()
        .and_then(|ms| u64::try_from(ms).ok());
    stored_rating(
        row.try_get(first).map_err(read)?,
        row.try_get(first + 1).map_err(read)?,
        row.try_get(first + 2).map_err(read)?,
        i64::from(row.try_get::<_, i32>(first + 3).map_err(read)?),
    )
    .map(|rating| Rating {
        updated_ms,
        ..rating
    })
    .map_err(StoreError::Failed)
}

/// The ratings `accounts` have in `pool`, each row's (or why it does not read).
async fn read_ratings(
    client: &Client,
    statements: &RatingStatements,
    pool: &str,
    accounts: &[i64],
) -> Result<Vec<(i64, Result<Rating, StoreError>)>, tokio_postgres::Error> {
    let rows = client.query(&statements.read, &[&pool, &accounts]).await?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            let account: i64 = row.try_get(0).ok()?;
            Some((account, row_rating(row, 1)))
        })
        .collect())
}

/// Takes the ratings lock, for the ends that follow in this transaction.
pub(super) async fn lock(
    client: &Client,
    statements: &RatingStatements,
) -> Result<(), tokio_postgres::Error> {
    client.query_one(&statements.lock, &[]).await.map(|_| ())
}

/// Moves the ratings of the players of game `code`, which `end` ends (the lock is held).
pub(super) async fn rate_end(
    client: &Client,
    statements: &RatingStatements,
    code: &str,
    end: &RatedEnd,
) -> Result<(), String> {
    let mut kept = read_ratings(client, statements, &end.pool, &end.accounts)
        .await
        .map_err(|e| e.to_string())?;
    let before: Vec<Rating> = end
        .accounts
        .iter()
        .map(
            |&account| match kept.iter().position(|(id, _)| *id == account) {
                Some(found) => {
                    let kept = kept.swap_remove(found).1.map_err(|e| e.to_string());
                    rating_to_start_from(account, &end.pool, kept)
                }
                None => Rating::default(),
            },
        )
        .collect();
    let after = rate(&before, &end.points, end.at_ms);
    let column = |f: fn(&Rating) -> f64| after.iter().map(f).collect::<Vec<f64>>();
    let games: Vec<i32> = after
        .iter()
        .map(|r| r.games.min(i32::MAX as u32) as i32)
        .collect();
    client
        .execute(
            &statements.write,
            &[
                &code,
                &end.pool,
                &(end.at_ms as i64),
                &end.accounts,
                &column(|r| r.glicko.rating),
                &column(|r| r.glicko.deviation),
                &column(|r| r.glicko.volatility),
                &games,
            ],
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

pub(super) async fn run_ratings(
    client: &Client,
    statements: &RatingStatements,
    op: &RatingOp,
) -> Result<Result<Reply, StoreError>, tokio_postgres::Error> {
    let s = statements;
    let unreadable = |e: tokio_postgres::Error| StoreError::Failed(format!("a rating row: {e}"));
    Ok(match op {
        // A row that does not read is left off the seats.
        RatingOp::Of { pool, accounts } => Ok(Reply::Ratings(
            read_ratings(client, s, pool, accounts)
                .await?
                .into_iter()
                .filter_map(|(account, rating)| Some((account, rating.ok()?)))
                .collect(),
        )),
        RatingOp::Seed {
            pool,
            account,
            rating,
        } => {
            let g = rating.glicko;
            let games = i32::try_from(rating.games).unwrap_or(i32::MAX);
            client
                .execute(
                    &s.seed,
                    &[
                        account,
                        pool,
                        &g.rating,
                        &g.deviation,
                        &g.volatility,
                        &games,
                    ],
                )
                .await?;
            Ok(Reply::Done)
        }
        RatingOp::Leaderboard { pool, limit } => {
            let rows = client
                .query(&s.leaderboard, &[pool, &(*limit as i64)])
                .await?;
            rows.iter()
                .map(|row| {
                    Ok(RankedRow {
                        name: row.try_get(0).map_err(unreadable)?,
                        rating: row_rating(row, 1)?,
                    })
                })
                .collect::<Result<_, StoreError>>()
                .map(Reply::Leaderboard)
        }
        RatingOp::Player { name_key, points } => {
            let Some(found) = client.query_opt(&s.player, &[name_key]).await? else {
                return Ok(Ok(Reply::Player(None)));
            };
            let (account, name): (i64, String) = match (found.try_get(0), found.try_get(1)) {
                (Ok(account), Ok(name)) => (account, name),
                (Err(e), _) | (_, Err(e)) => return Ok(Err(unreadable(e))),
            };
            let mut pools = Vec::new();
            for row in client.query(&s.pools, &[&account]).await? {
                let pool: String = match row.try_get(0) {
                    Ok(pool) => pool,
                    Err(e) => return Ok(Err(unreadable(e))),
                };
                let rating = match row_rating(&row, 1) {
                    Ok(rating) => rating,
                    Err(e) => return Ok(Err(e)),
                };
                let mut history = Vec::new();
                for point in client
                    .query(&s.history, &[&account, &pool, &(*points as i64)])
                    .await?
                {
                    let read = (point.try_get(0), point.try_get(1), point.try_get(2));
                    let (Ok(code), Ok(at_ms), Ok(rating)) = read else {
                        return Ok(Err(StoreError::Failed("a rating history row".into())));
                    };
                    let (at_ms, rating): (i64, f64) = (at_ms, rating);
                    history.push(RatingPoint {
                        code,
                        at_ms: at_ms.max(0) as u64,
                        rating: rating.round() as i32,
                    });
                }
                history.reverse();
                pools.push((pool, rating, history));
            }
            Ok(Reply::Player(Some(PlayerRatings {
                account,
                name,
                pools,
            })))
        }
    })
}
