//! Accounts' requests on SQLite.

use super::is_constraint;
use crate::store::account::{EXPIRY_STEP_MS, name_taken, not_adoptable};
use crate::store::{AccountOp, Reply, StoreError, StoredAccount};
use rusqlite::{Connection, OptionalExtension, params};

pub(super) fn apply(tx: &Connection, op: &AccountOp) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    match op {
        AccountOp::Register {
            name,
            name_key,
            password,
            now_ms,
        } => {
            tx.execute(
                "INSERT INTO accounts (name, name_key, password, created_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![name, name_key, password, *now_ms as i64],
            )
            .map_err(|e| {
                if is_constraint(&e) {
                    name_taken(name)
                } else {
                    failed(e)
                }
            })?;
            Ok(Reply::Registered(tx.last_insert_rowid()))
        }
        AccountOp::Find { name_key } => tx
            .query_row(
                "SELECT id, name, password FROM accounts
                 WHERE name_key = ?1 AND deleted_ms IS NULL",
                [name_key],
                account,
            )
            .optional()
            .map(Reply::Account)
            .map_err(failed),
        AccountOp::AddSession {
            account,
            token_hash,
            now_ms,
            expires_ms,
        } => {
            tx.execute(
                "DELETE FROM sessions WHERE account = ?1 AND expires_ms <= ?2",
                params![account, *now_ms as i64],
            )
            .map_err(failed)?;
            tx.execute(
                "INSERT INTO sessions (token_hash, account, created_ms, expires_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![token_hash, account, *now_ms as i64, *expires_ms as i64],
            )
            .map_err(failed)?;
            Ok(Reply::Done)
        }
        AccountOp::Session {
            token_hash,
            now_ms,
            expires_ms,
        } => {
            let found = tx
                .query_row(
                    "SELECT a.id, a.name, a.password FROM sessions s
                     JOIN accounts a ON a.id = s.account
                     WHERE s.token_hash = ?1 AND s.expires_ms > ?2 AND a.deleted_ms IS NULL",
                    params![token_hash, *now_ms as i64],
                    account,
                )
                .optional()
                .map_err(failed)?;
            if found.is_some() {
                tx.execute(
                    "UPDATE sessions SET expires_ms = ?2 WHERE token_hash = ?1 AND expires_ms < ?3",
                    params![
                        token_hash,
                        *expires_ms as i64,
                        *expires_ms as i64 - EXPIRY_STEP_MS
                    ],
                )
                .map_err(failed)?;
            }
            Ok(Reply::Account(found))
        }
        AccountOp::EndSession { token_hash } => {
            tx.execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])
                .map_err(failed)?;
            Ok(Reply::Done)
        }
        AccountOp::EndSessions { account } => {
            tx.execute("DELETE FROM sessions WHERE account = ?1", [account])
                .map_err(failed)?;
            Ok(Reply::Done)
        }
        AccountOp::SetPassword {
            account,
            password,
            keep,
        } => {
            tx.execute(
                "UPDATE accounts SET password = ?2 WHERE id = ?1 AND deleted_ms IS NULL",
                params![account, password],
            )
            .map_err(failed)?;
            tx.execute(
                "DELETE FROM sessions WHERE account = ?1 AND token_hash <> ?2",
                params![account, keep],
            )
            .map_err(failed)?;
            Ok(Reply::Done)
        }
        AccountOp::Delete { account, now_ms } => {
            for forget in [
                "DELETE FROM sessions WHERE account = ?1",
                "DELETE FROM mailed WHERE account = ?1",
                "DELETE FROM emails WHERE account = ?1",
            ] {
                tx.execute(forget, [account]).map_err(failed)?;
            }
            tx.execute(
                "UPDATE accounts SET name = NULL, password = NULL, deleted_ms = ?2
                 WHERE id = ?1 AND deleted_ms IS NULL",
                params![account, *now_ms as i64],
            )
            .map_err(failed)?;
            Ok(Reply::Done)
        }
        AccountOp::Adopt {
            code,
            seat,
            token,
            account,
        } => {
            tx.execute(
                "UPDATE games SET version = version + 1 WHERE code = ?1",
                [code],
            )
            .map_err(failed)?;
            let adopted = tx
                .execute(
                    "UPDATE seats SET account = ?4
                     WHERE code = ?1 AND seat = ?2 AND token = ?3 AND account IS NULL
                         AND NOT EXISTS (SELECT 1 FROM seats WHERE code = ?1 AND account = ?4)",
                    params![code, *seat as i64, token, account],
                )
                .map_err(failed)?;
            if adopted == 0 {
                return Err(not_adoptable(code, *seat));
            }
            Ok(Reply::Done)
        }
        AccountOp::Seats { account, limit } => seats(
            tx,
            "SELECT s.code, s.seat FROM seats s JOIN games g ON g.code = s.code
             WHERE s.account = ?1 ORDER BY g.created_ms DESC, s.code, s.seat LIMIT ?2",
            params![account, *limit as i64],
        ),
        AccountOp::SeatsIn { account, code } => seats(
            tx,
            "SELECT code, seat FROM seats WHERE account = ?1 AND code = ?2 ORDER BY seat",
            params![account, code],
        ),
    }
}

/// The seats a query's rows name, as (code, seat).
pub(super) fn seats(
    tx: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    let mut statement = tx.prepare_cached(sql).map_err(failed)?;
    let seats = statement
        .query_map(params, |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, i64>(1)?.max(0) as usize,
            ))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(failed)?;
    Ok(Reply::Seats(seats))
}

fn account(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredAccount> {
    Ok(StoredAccount {
        id: row.get(0)?,
        name: row.get(1)?,
        password: row.get(2)?,
    })
}
