//! Ratings on SQLite: moved by a rated game's end, inside its transaction; and read for a
//! leaderboard or a player's page.

use crate::ratings::{RatedEnd, Rating, rate, rating_to_start_from, stored_rating};
use crate::store::rating::{NOT_A_BOT, leaderboard_order};
use crate::store::{PlayerRatings, RankedRow, RatingOp, Reply, StoreError};
use rusqlite::{Connection, OptionalExtension, params};
use tabula_protocol::ratings::RatingPoint;

fn failed(e: rusqlite::Error) -> StoreError {
    StoreError::Failed(e.to_string())
}

/// The rating a row holds from column `first` on (rating, deviation, volatility, games and
/// when it was last moved), or why it is not one. A damaged time reads as none: the rating
/// is not grown.
fn row_rating(row: &rusqlite::Row, first: usize) -> rusqlite::Result<Result<Rating, String>> {
    let updated_ms = row
        .get::<_, i64>(first + 4)
        .ok()
        .and_then(|ms| u64::try_from(ms).ok());
    Ok(stored_rating(
        row.get(first)?,
        row.get(first + 1)?,
        row.get(first + 2)?,
        row.get(first + 3)?,
    )
    .map(|rating| Rating {
        updated_ms,
        ..rating
    }))
}

/// A row's first column (a name or a pool), and the rating the next five hold.
fn labelled_rating(row: &rusqlite::Row) -> rusqlite::Result<(String, Result<Rating, String>)> {
    Ok((row.get(0)?, row_rating(row, 1)?))
}

/// `account`'s rating in `pool`, if it has one (or why the row does not read).
fn kept_rating(
    tx: &Connection,
    account: i64,
    pool: &str,
) -> Result<Option<Result<Rating, String>>, StoreError> {
    tx.query_row(
        "SELECT rating, deviation, volatility, games, updated_ms FROM ratings
         WHERE account = ?1 AND pool = ?2",
        params![account, pool],
        |row| row_rating(row, 0),
    )
    .optional()
    .map_err(failed)
}

/// Moves the ratings of the players of game `code`, which `end` ends.
pub(super) fn rate_end(tx: &Connection, code: &str, end: &RatedEnd) -> Result<(), StoreError> {
    let mut before = Vec::with_capacity(end.accounts.len());
    for &account in &end.accounts {
        before.push(match kept_rating(tx, account, &end.pool)? {
            Some(kept) => rating_to_start_from(account, &end.pool, kept),
            None => Rating::default(),
        });
    }
    let after = rate(&before, &end.points, end.at_ms);
    for (account, rating) in end.accounts.iter().zip(&after) {
        let g = rating.glicko;
        tx.execute(
            "INSERT INTO ratings (account, pool, rating, deviation, volatility, games, updated_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (account, pool) DO UPDATE SET rating = ?3, deviation = ?4,
                 volatility = ?5, games = ?6, updated_ms = ?7",
            params![
                account,
                end.pool,
                g.rating,
                g.deviation,
                g.volatility,
                rating.games,
                end.at_ms as i64
            ],
        )
        .map_err(failed)?;
        tx.execute(
            "INSERT INTO rating_history (account, code, pool, at_ms, rating, deviation)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                account,
                code,
                end.pool,
                end.at_ms as i64,
                g.rating,
                g.deviation
            ],
        )
        .map_err(failed)?;
    }
    Ok(())
}

pub(super) fn apply(tx: &Connection, op: &RatingOp) -> Result<Reply, StoreError> {
    match op {
        RatingOp::Of { pool, accounts } => {
            let mut found = Vec::new();
            for &account in accounts {
                // A row that does not read is left off the seats.
                if let Some(Ok(rating)) = kept_rating(tx, account, pool)? {
                    found.push((account, rating));
                }
            }
            Ok(Reply::Ratings(found))
        }
        RatingOp::Seed {
            pool,
            account,
            rating,
        } => {
            let g = rating.glicko;
            tx.execute(
                "INSERT INTO ratings (account, pool, rating, deviation, volatility, games,
                     updated_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)
                 ON CONFLICT (account, pool) DO NOTHING",
                params![
                    account,
                    pool,
                    g.rating,
                    g.deviation,
                    g.volatility,
                    rating.games
                ],
            )
            .map_err(failed)?;
            Ok(Reply::Done)
        }
        RatingOp::Leaderboard { pool, limit } => {
            let mut rows = tx
                .prepare_cached(&format!(
                    "SELECT a.name, r.rating, r.deviation, r.volatility, r.games, r.updated_ms
                     FROM ratings r JOIN accounts a ON a.id = r.account
                     WHERE r.pool = ?1 AND a.deleted_ms IS NULL AND a.name IS NOT NULL
                         AND {NOT_A_BOT}
                     ORDER BY {} LIMIT ?2",
                    leaderboard_order()
                ))
                .map_err(failed)?;
            let rows = rows
                .query_map(params![pool, *limit as i64], labelled_rating)
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(failed)?;
            rows.into_iter()
                .map(|(name, rating)| {
                    Ok(RankedRow {
                        name,
                        rating: rating.map_err(StoreError::Failed)?,
                    })
                })
                .collect::<Result<_, _>>()
                .map(Reply::Leaderboard)
        }
        RatingOp::Player { name_key, points } => {
            let found = tx
                .query_row(
                    "SELECT id, name FROM accounts WHERE name_key = ?1 AND deleted_ms IS NULL",
                    [name_key],
                    |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)),
                )
                .optional()
                .map_err(failed)?;
            let Some((account, name)) = found else {
                return Ok(Reply::Player(None));
            };
            let mut pools = tx
                .prepare_cached(
                    "SELECT pool, rating, deviation, volatility, games, updated_ms FROM ratings
                     WHERE account = ?1 ORDER BY pool",
                )
                .map_err(failed)?;
            let pools = pools
                .query_map([account], labelled_rating)
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(failed)?;
            let mut history = tx
                .prepare_cached(
                    "SELECT code, at_ms, rating FROM rating_history
                     WHERE account = ?1 AND pool = ?2 ORDER BY rowid DESC LIMIT ?3",
                )
                .map_err(failed)?;
            let pools = pools
                .into_iter()
                .map(|(pool, rating)| {
                    let rating = rating.map_err(StoreError::Failed)?;
                    let mut points = history
                        .query_map(params![account, pool, *points as i64], |row| {
                            Ok(RatingPoint {
                                code: row.get(0)?,
                                at_ms: row.get::<_, i64>(1)?.max(0) as u64,
                                rating: row.get::<_, f64>(2)?.round() as i32,
                            })
                        })
                        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                        .map_err(failed)?;
                    points.reverse();
                    Ok((pool, rating, points))
                })
                .collect::<Result<_, StoreError>>()?;
            Ok(Reply::Player(Some(PlayerRatings {
                account,
                name,
                pools,
            })))
        }
    }
}
