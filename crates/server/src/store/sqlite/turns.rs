//! Whose turn it is, on SQLite.

use super::accounts::seats;
use crate::store::{Reply, StoreError, TurnOp, waiting_column};
use rusqlite::{Connection, params};

pub(super) fn apply(tx: &Connection, op: &TurnOp) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    match op {
        TurnOp::Waiting { account, limit } => seats(
            tx,
            "SELECT s.code, s.seat FROM seats s JOIN games g ON g.code = s.code
             WHERE s.account = ?1 AND (g.waiting_seat = s.seat OR g.waiting_seat = -1)
             ORDER BY g.created_ms DESC, s.code LIMIT ?2",
            params![account, *limit as i64],
        ),
        TurnOp::Unknown { after, limit } => {
            let mut statement = tx
                .prepare_cached(
                    "SELECT code FROM games WHERE waiting_seat = -1 AND code > ?1
                     ORDER BY code LIMIT ?2",
                )
                .map_err(failed)?;
            let codes = statement
                .query_map(params![after, *limit as i64], |row| row.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(failed)?;
            Ok(Reply::Codes(codes))
        }
        TurnOp::Learn { code, waiting_seat } => {
            tx.execute(
                "UPDATE games SET waiting_seat = ?2 WHERE code = ?1 AND waiting_seat = -1",
                params![code, waiting_column(*waiting_seat)],
            )
            .map_err(failed)?;
            Ok(Reply::Done)
        }
        TurnOp::Players { code } => {
            let mut statement = tx
                .prepare_cached(
                    "SELECT account FROM seats WHERE code = ?1 AND account IS NOT NULL
                     ORDER BY seat",
                )
                .map_err(failed)?;
            let accounts = statement
                .query_map([code], |row| row.get::<_, i64>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(failed)?;
            Ok(Reply::Accounts(accounts))
        }
    }
}
