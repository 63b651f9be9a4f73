//! Accounts' statements on PostgreSQL. As with the games', none is written to fail on a
//! conflict (a taken name inserts nothing), so an error always fails the whole batch.

use crate::store::account::{EXPIRY_STEP_MS, name_taken, not_adoptable};
use crate::store::{AccountOp, Reply, StoreError, StoredAccount};
use tokio_postgres::{Client, Row, Statement};

pub(super) struct AccountStatements {
    register: Statement,
    find: Statement,
    add_session: Statement,
    session: Statement,
    end_session: Statement,
    end_sessions: Statement,
    set_password: Statement,
    delete: Statement,
    adopt_game: Statement,
    adopt: Statement,
    seats: Statement,
    seats_in: Statement,
}

impl AccountStatements {
    pub(super) async fn prepare(client: &Client) -> Result<Self, tokio_postgres::Error> {
        Ok(AccountStatements {
            register: client
                .prepare(
                    "INSERT INTO accounts (name, name_key, password, created_ms)
                     VALUES ($1::text, $2::text, $3::text, $4::int8)
                     ON CONFLICT (name_key) DO NOTHING RETURNING id",
                )
                .await?,
            find: client
                .prepare(
                    "SELECT id, name, password FROM accounts
                     WHERE name_key = $1::text AND deleted_ms IS NULL",
                )
                .await?,
            // The account's expired sessions go as a new one comes.
            add_session: client
                .prepare(
                    "WITH expired AS (DELETE FROM sessions
                        WHERE account = $2::int8 AND expires_ms <= $3::int8)
                     INSERT INTO sessions (token_hash, account, created_ms, expires_ms)
                     VALUES ($1::text, $2::int8, $3::int8, $4::int8)
                     ON CONFLICT (token_hash) DO NOTHING",
                )
                .await?,
            // Found without a lock; the expiry written (the row locked) once a day at most.
            session: client
                .prepare(
                    "WITH found AS (
                        SELECT a.id, a.name, a.password FROM sessions s
                        JOIN accounts a ON a.id = s.account
                        WHERE s.token_hash = $1::text AND s.expires_ms > $2::int8
                            AND a.deleted_ms IS NULL
                    ), moved AS (
                        UPDATE sessions SET expires_ms = $3::int8
                        WHERE token_hash = $1::text AND expires_ms < $4::int8
                            AND EXISTS (SELECT 1 FROM found)
                    )
                    SELECT id, name, password FROM found",
                )
                .await?,
            end_session: client
                .prepare("DELETE FROM sessions WHERE token_hash = $1::text")
                .await?,
            end_sessions: client
                .prepare("DELETE FROM sessions WHERE account = $1::int8")
                .await?,
            set_password: client
                .prepare(
                    "WITH others AS (DELETE FROM sessions
                        WHERE account = $1::int8 AND token_hash <> $3::text)
                     UPDATE accounts SET password = $2::text
                     WHERE id = $1::int8 AND deleted_ms IS NULL",
                )
                .await?,
            delete: client
                .prepare(
                    "WITH s AS (DELETE FROM sessions WHERE account = $1::int8),
                        m AS (DELETE FROM mailed WHERE account = $1::int8),
                        e AS (DELETE FROM emails WHERE account = $1::int8)
                     UPDATE accounts SET name = NULL, password = NULL, deleted_ms = $2::int8
                     WHERE id = $1::int8 AND deleted_ms IS NULL",
                )
                .await?,
            // The game's row first: a join of the same game waits for it (or it for the
            // join), and the seat's statement after it sees what the other did.
            adopt_game: client
                .prepare("UPDATE games SET version = version + 1 WHERE code = $1::text")
                .await?,
            adopt: client
                .prepare(
                    "UPDATE seats SET account = $4::int8
                     WHERE code = $1::text AND seat = $2::int4 AND token = $3::text
                         AND account IS NULL
                         AND NOT EXISTS (SELECT 1 FROM seats
                             WHERE code = $1::text AND account = $4::int8)",
                )
                .await?,
            seats: client
                .prepare(
                    "SELECT s.code, s.seat FROM seats s JOIN games g ON g.code = s.code
                     WHERE s.account = $1::int8
                     ORDER BY g.created_ms DESC, s.code, s.seat LIMIT $2::int8",
                )
                .await?,
            seats_in: client
                .prepare(
                    "SELECT code, seat FROM seats
                     WHERE account = $1::int8 AND code = $2::text ORDER BY seat",
                )
                .await?,
        })
    }
}

pub(super) async fn run_account(
    client: &Client,
    statements: &AccountStatements,
    op: &AccountOp,
) -> Result<Result<Reply, StoreError>, tokio_postgres::Error> {
    let s = statements;
    // A row that does not read fails this request alone, never the batch around it.
    let unreadable = |e: tokio_postgres::Error| StoreError::Failed(format!("an account row: {e}"));
    Ok(match op {
        AccountOp::Register {
            name,
            name_key,
            password,
            now_ms,
        } => {
            let row = client
                .query_opt(&s.register, &[name, name_key, password, &(*now_ms as i64)])
                .await?;
            match row {
                Some(row) => row.try_get(0).map(Reply::Registered).map_err(unreadable),
                None => Err(name_taken(name)),
            }
        }
        AccountOp::Find { name_key } => {
            let row = client.query_opt(&s.find, &[name_key]).await?;
            row.map(|r| account(&r))
                .transpose()
                .map(Reply::Account)
                .map_err(unreadable)
        }
        AccountOp::AddSession {
            account,
            token_hash,
            now_ms,
            expires_ms,
        } => {
            client
                .execute(
                    &s.add_session,
                    &[
                        token_hash,
                        account,
                        &(*now_ms as i64),
                        &(*expires_ms as i64),
                    ],
                )
                .await?;
            Ok(Reply::Done)
        }
        AccountOp::Session {
            token_hash,
            now_ms,
            expires_ms,
        } => {
            let expires = *expires_ms as i64;
            let row = client
                .query_opt(
                    &s.session,
                    &[
                        token_hash,
                        &(*now_ms as i64),
                        &expires,
                        &(expires - EXPIRY_STEP_MS),
                    ],
                )
                .await?;
            row.map(|r| account(&r))
                .transpose()
                .map(Reply::Account)
                .map_err(unreadable)
        }
        AccountOp::EndSession { token_hash } => {
            client.execute(&s.end_session, &[token_hash]).await?;
            Ok(Reply::Done)
        }
        AccountOp::EndSessions { account } => {
            client.execute(&s.end_sessions, &[account]).await?;
            Ok(Reply::Done)
        }
        AccountOp::SetPassword {
            account,
            password,
            keep,
        } => {
            client
                .execute(&s.set_password, &[account, password, keep])
                .await?;
            Ok(Reply::Done)
        }
        AccountOp::Delete { account, now_ms } => {
            client
                .execute(&s.delete, &[account, &(*now_ms as i64)])
                .await?;
            Ok(Reply::Done)
        }
        AccountOp::Adopt {
            code,
            seat,
            token,
            account,
        } => {
            client.execute(&s.adopt_game, &[code]).await?;
            let adopted = client
                .execute(&s.adopt, &[code, &(*seat as i32), token, account])
                .await?;
            if adopted == 1 {
                Ok(Reply::Done)
            } else {
                Err(not_adoptable(code, *seat))
            }
        }
        AccountOp::Seats { account, limit } => {
            let rows = client.query(&s.seats, &[account, &(*limit as i64)]).await?;
            seats(&rows).map(Reply::Seats).map_err(unreadable)
        }
        AccountOp::SeatsIn { account, code } => {
            let rows = client.query(&s.seats_in, &[account, code]).await?;
            seats(&rows).map(Reply::Seats).map_err(unreadable)
        }
    })
}

/// The seats rows name, as (code, seat).
pub(super) fn seats(rows: &[Row]) -> Result<Vec<(String, usize)>, tokio_postgres::Error> {
    rows.iter()
        .map(|row| {
            Ok((
                row.try_get::<_, String>(0)?,
                row.try_get::<_, i32>(1)?.max(0) as usize,
            ))
        })
        .collect()
}

fn account(row: &Row) -> Result<StoredAccount, tokio_postgres::Error> {
    Ok(StoredAccount {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        password: row.try_get(2)?,
    })
}
