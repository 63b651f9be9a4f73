//! E-mail addresses and the mails sent, on PostgreSQL.

use crate::store::{MailOp, Reply, StoreError, StoredAddress, link_not_valid, link_too_soon};
use tokio_postgres::{Client, Statement};

pub(super) struct MailStatements {
    set: Statement,
    remove: Statement,
    address: Statement,
    confirm: Statement,
    claim: Statement,
}

impl MailStatements {
    pub(super) async fn prepare(client: &Client) -> Result<Self, tokio_postgres::Error> {
        Ok(MailStatements {
            // Nothing changes if a link went for the account or to the address lately.
            set: client
                .prepare(
                    "WITH fine AS (
                        SELECT NOT EXISTS (SELECT 1 FROM emails
                            WHERE (account = $1::int8 AND asked_ms > $5::int8)
                                OR (address = $2::text AND confirmed_ms IS NULL
                                    AND asked_ms > $6::int8)) AS fine
                    ), forgotten AS (
                        DELETE FROM mailed WHERE account = $1::int8
                            AND (SELECT fine FROM fine)
                    ), kept AS (
                        INSERT INTO emails (account, address, token_hash, asked_ms, confirmed_ms)
                        SELECT $1::int8, $2::text, $3::text, $4::int8, NULL
                        WHERE (SELECT fine FROM fine)
                        ON CONFLICT (account) DO UPDATE SET address = EXCLUDED.address,
                            token_hash = EXCLUDED.token_hash, asked_ms = EXCLUDED.asked_ms,
                            confirmed_ms = NULL
                        RETURNING 1
                    )
                    SELECT count(*) FROM kept",
                )
                .await?,
            remove: client
                .prepare(
                    "WITH forgotten AS (DELETE FROM mailed WHERE account = $1::int8)
                     DELETE FROM emails WHERE account = $1::int8",
                )
                .await?,
            address: client
                .prepare(
                    "SELECT address, confirmed_ms IS NOT NULL FROM emails
                     WHERE account = $1::int8",
                )
                .await?,
            confirm: client
                .prepare(
                    "UPDATE emails SET confirmed_ms = $3::int8, token_hash = NULL
                     WHERE token_hash = $1::text AND asked_ms > $2::int8",
                )
                .await?,
            // Counted as sent only to a confirmed address, and only if the last mail about
            // the game is old enough: the row is written (and returned) or not at all.
            claim: client
                .prepare(
                    "WITH e AS (
                        SELECT address FROM emails
                        WHERE account = $1::int8 AND confirmed_ms IS NOT NULL
                    ), m AS (
                        INSERT INTO mailed (account, code, at_ms)
                        SELECT $1::int8, $2::text, $3::int8 FROM e
                        ON CONFLICT (account, code) DO UPDATE SET at_ms = EXCLUDED.at_ms
                            WHERE mailed.at_ms <= $4::int8
                        RETURNING 1
                    )
                    SELECT e.address FROM e, m",
                )
                .await?,
        })
    }
}

pub(super) async fn run_mail(
    client: &Client,
    statements: &MailStatements,
    op: &MailOp,
) -> Result<Result<Reply, StoreError>, tokio_postgres::Error> {
    let s = statements;
    Ok(match op {
        MailOp::SetAddress {
            account,
            address,
            token_hash,
            now_ms,
            account_since_ms,
            address_since_ms,
        } => {
            let now = *now_ms as i64;
            let (account_since, address_since) =
                (*account_since_ms as i64, *address_since_ms as i64);
            let row = client
                .query_one(
                    &s.set,
                    &[
                        account,
                        address,
                        token_hash,
                        &now,
                        &account_since,
                        &address_since,
                    ],
                )
                .await?;
            match row.try_get::<_, i64>(0)? {
                0 => Err(link_too_soon()),
                _ => Ok(Reply::Done),
            }
        }
        MailOp::Remove { account } => {
            client.execute(&s.remove, &[account]).await?;
            Ok(Reply::Done)
        }
        MailOp::Address { account } => {
            let row = client.query_opt(&s.address, &[account]).await?;
            Ok(Reply::Address(match row {
                Some(row) => Some(StoredAddress {
                    address: row.try_get(0)?,
                    confirmed: row.try_get(1)?,
                }),
                None => None,
            }))
        }
        MailOp::Confirm {
            token_hash,
            since_ms,
            now_ms,
        } => {
            let (since, now) = (*since_ms as i64, *now_ms as i64);
            match client
                .execute(&s.confirm, &[token_hash, &since, &now])
                .await?
            {
                0 => Err(link_not_valid()),
                _ => Ok(Reply::Done),
            }
        }
        MailOp::Claim {
            account,
            code,
            now_ms,
            since_ms,
        } => {
            let (now, since) = (*now_ms as i64, *since_ms as i64);
            let row = client
                .query_opt(&s.claim, &[account, code, &now, &since])
                .await?;
            Ok(Reply::Address(match row {
                Some(row) => Some(StoredAddress {
                    address: row.try_get(0)?,
                    confirmed: true,
                }),
                None => None,
            }))
        }
    })
}
