//! A game's rows on SQLite: made, changed a step at a time, and loaded.

use super::{is_constraint, ratings};
use crate::store::{
    Change, Reply, Step, StoreError, StoredGame, StoredMove, changed_meanwhile, from_json,
    pace_name, pace_of, shown_player, to_json, waiting_column, waiting_of,
};
use rusqlite::{Connection, OptionalExtension, params};

/// Stores a new game: its row, its seats and the moves it starts with.
pub(super) fn create(tx: &Connection, game: &StoredGame) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    tx.execute(
        "INSERT INTO games (code, game, settings, pace, move_seconds, ending, created_ms,
             clock_ms, version, offers, rated, waiting_seat)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            game.code,
            game.game,
            to_json(&game.settings),
            pace_name(game.pace),
            game.move_seconds,
            game.ending.as_ref().map(to_json),
            game.created_ms as i64,
            game.clock_ms.map(|ms| ms as i64),
            game.version as i64,
            to_json(&game.offers),
            game.rated,
            waiting_column(game.waiting_seat),
        ],
    )
    .map_err(|e| {
        if is_constraint(&e) {
            StoreError::Conflict(format!("the code {} is taken", game.code))
        } else {
            failed(e)
        }
    })?;
    for (seat, token) in game.tokens.iter().enumerate() {
        let account = game.accounts.get(seat).copied().flatten();
        tx.execute(
            "INSERT INTO seats (code, seat, token, account) VALUES (?1, ?2, ?3, ?4)",
            params![game.code, seat as i64, token, account],
        )
        .map_err(failed)?;
    }
    for (ply, mv) in game.moves.iter().enumerate() {
        insert_move(tx, &game.code, ply, mv)?;
    }
    Ok(Reply::Done)
}

pub(super) fn apply_change(tx: &Connection, change: &Change) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    let code = &change.code;
    let ending = match &change.step {
        Step::End(ending) => Some(to_json(ending)),
        _ => None,
    };
    let changed = tx
        .execute(
            "UPDATE games SET version = version + 1, offers = ?3,
                 clock_ms = COALESCE(?4, clock_ms), ending = ?5, waiting_seat = ?6
             WHERE code = ?1 AND version = ?2 AND ending IS NULL",
            params![
                code,
                change.version as i64,
                to_json(&change.offers),
                change.clock_ms.map(|ms| ms as i64),
                ending,
                waiting_column(change.waiting_seat),
            ],
        )
        .map_err(failed)?;
    if changed == 0 {
        return Err(changed_meanwhile(code));
    }
    match &change.step {
        Step::Claim {
            seat,
            token,
            account,
        } => {
            let claimed = tx
                .execute(
                    "UPDATE seats SET token = ?3, account = ?4
                     WHERE code = ?1 AND seat = ?2 AND token IS NULL
                         AND (?4 IS NULL OR NOT EXISTS
                             (SELECT 1 FROM seats WHERE code = ?1 AND account = ?4))",
                    params![code, *seat as i64, token, account],
                )
                .map_err(failed)?;
            if claimed == 0 {
                return Err(StoreError::Conflict(format!(
                    "seat {} of game {code} is taken",
                    seat + 1
                )));
            }
        }
        Step::AddMove { ply, mv } => {
            // Right after the last move stored: never over one, never past a gap.
            let held: i64 = tx
                .query_row(
                    "SELECT COUNT(*) FROM moves WHERE code = ?1",
                    [code],
                    |row| row.get(0),
                )
                .map_err(failed)?;
            if held as usize != *ply {
                return Err(changed_meanwhile(code));
            }
            insert_move(tx, code, *ply, mv)?;
        }
        Step::TakeBack { ply } => {
            tx.execute(
                "DELETE FROM moves WHERE code = ?1 AND ply >= ?2",
                params![code, *ply as i64],
            )
            .map_err(failed)?;
        }
        Step::End(_) | Step::Offers => {}
    }
    if let Some(end) = &change.rated_end {
        ratings::rate_end(tx, code, end)?;
    }
    Ok(Reply::Done)
}

fn insert_move(tx: &Connection, code: &str, ply: usize, mv: &StoredMove) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO moves (code, ply, text, seat, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![code, ply as i64, mv.text, mv.seat as i64, mv.at_ms as i64],
    )
    .map_err(|e| {
        if is_constraint(&e) {
            StoreError::Conflict(format!("move {} of game {code} is already stored", ply + 1))
        } else {
            StoreError::Failed(e.to_string())
        }
    })?;
    Ok(())
}

pub(super) fn load(tx: &Connection, code: &str) -> Result<Option<Box<StoredGame>>, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    let row = tx
        .query_row(
            "SELECT game, settings, pace, move_seconds, ending, created_ms, clock_ms, version,
                 offers, rated, waiting_seat
             FROM games WHERE code = ?1",
            [code],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, Option<u32>>(3)?,
                    row.get::<_, Option<String>>(4)?,
                    row.get::<_, i64>(5)?,
                    row.get::<_, Option<i64>>(6)?,
                    row.get::<_, i64>(7)?,
                    row.get::<_, Option<String>>(8)?,
                    row.get::<_, bool>(9)?,
                    row.get::<_, Option<i64>>(10)?,
                ))
            },
        )
        .optional()
        .map_err(failed)?;
    let Some((
        game,
        settings,
        pace,
        move_seconds,
        ending,
        created_ms,
        clock_ms,
        version,
        offers,
        rated,
        waiting_seat,
    )) = row
    else {
        return Ok(None);
    };
    let mut seats = tx
        .prepare_cached(
            "SELECT s.token, s.account, a.name, a.deleted_ms IS NOT NULL
             FROM seats s LEFT JOIN accounts a ON a.id = s.account
             WHERE s.code = ?1 ORDER BY s.seat",
        )
        .map_err(failed)?;
    let seats = seats
        .query_map([code], |row| {
            Ok((
                row.get::<_, Option<String>>(0)?,
                row.get::<_, Option<i64>>(1)?,
                shown_player(row.get(2)?, row.get::<_, Option<bool>>(3)?.unwrap_or(false)),
            ))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(failed)?;
    let tokens = seats.iter().map(|s| s.0.clone()).collect();
    let accounts = seats.iter().map(|s| s.1).collect();
    let players = seats.into_iter().map(|s| s.2).collect();
    let mut moves = tx
        .prepare_cached("SELECT text, seat, at_ms FROM moves WHERE code = ?1 ORDER BY ply")
        .map_err(failed)?;
    let moves = moves
        .query_map([code], |row| {
            Ok(StoredMove {
                text: row.get(0)?,
                seat: row.get::<_, i64>(1)?.max(0) as usize,
                at_ms: row.get::<_, i64>(2)?.max(0) as u64,
            })
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(failed)?;
    Ok(Some(Box::new(StoredGame {
        code: code.to_string(),
        game,
        settings: from_json(&settings, "settings")?,
        pace: pace_of(&pace)?,
        move_seconds,
        rated,
        tokens,
        accounts,
        players,
        moves,
        ending: ending.map(|e| from_json(&e, "ending")).transpose()?,
        created_ms: created_ms.max(0) as u64,
        clock_ms: clock_ms.map(|ms| ms.max(0) as u64),
        version: version.max(0) as u64,
        offers: offers
            .map(|o| from_json(&o, "offers"))
            .transpose()?
            .unwrap_or_default(),
        waiting_seat: waiting_of(waiting_seat),
    })))
}
