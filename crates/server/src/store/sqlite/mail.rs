//! E-mail addresses and the mails sent, on SQLite.

use crate::store::{MailOp, Reply, StoreError, StoredAddress, link_not_valid, link_too_soon};
use rusqlite::{Connection, OptionalExtension, params};

pub(super) fn apply(tx: &Connection, op: &MailOp) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    match op {
        MailOp::SetAddress {
            account,
            address,
            token_hash,
            now_ms,
            account_since_ms,
            address_since_ms,
        } => {
            let recent: bool = tx
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM emails
                         WHERE (account = ?1 AND asked_ms > ?2)
                             OR (address = ?3 AND confirmed_ms IS NULL AND asked_ms > ?4))",
                    params![
                        account,
                        *account_since_ms as i64,
                        address,
                        *address_since_ms as i64
                    ],
                    |row| row.get(0),
                )
                .map_err(failed)?;
            if recent {
                return Err(link_too_soon());
            }
            tx.execute("DELETE FROM mailed WHERE account = ?1", [account])
                .map_err(failed)?;
            tx.execute(
                "INSERT INTO emails (account, address, token_hash, asked_ms, confirmed_ms)
                 VALUES (?1, ?2, ?3, ?4, NULL)
                 ON CONFLICT (account) DO UPDATE SET address = excluded.address,
                     token_hash = excluded.token_hash, asked_ms = excluded.asked_ms,
                     confirmed_ms = NULL",
                params![account, address, token_hash, *now_ms as i64],
            )
            .map_err(failed)?;
            Ok(Reply::Done)
        }
        MailOp::Remove { account } => {
            tx.execute("DELETE FROM mailed WHERE account = ?1", [account])
                .map_err(failed)?;
            tx.execute("DELETE FROM emails WHERE account = ?1", [account])
                .map_err(failed)?;
            Ok(Reply::Done)
        }
        MailOp::Address { account } => {
            let found = tx
                .query_row(
                    "SELECT address, confirmed_ms IS NOT NULL FROM emails WHERE account = ?1",
                    [account],
                    |row| {
                        Ok(StoredAddress {
                            address: row.get(0)?,
                            confirmed: row.get(1)?,
                        })
                    },
                )
                .optional()
                .map_err(failed)?;
            Ok(Reply::Address(found))
        }
        MailOp::Confirm {
            token_hash,
            since_ms,
            now_ms,
        } => {
            let confirmed = tx
                .execute(
                    "UPDATE emails SET confirmed_ms = ?3, token_hash = NULL
                     WHERE token_hash = ?1 AND asked_ms > ?2",
                    params![token_hash, *since_ms as i64, *now_ms as i64],
                )
                .map_err(failed)?;
            if confirmed == 0 {
                return Err(link_not_valid());
            }
            Ok(Reply::Done)
        }
        MailOp::Claim {
            account,
            code,
            now_ms,
            since_ms,
        } => {
            let address: Option<String> = tx
                .query_row(
                    "SELECT address FROM emails
                     WHERE account = ?1 AND confirmed_ms IS NOT NULL",
                    [account],
                    |row| row.get(0),
                )
                .optional()
                .map_err(failed)?;
            let Some(address) = address else {
                return Ok(Reply::Address(None));
            };
            let counted = tx
                .execute(
                    "INSERT INTO mailed (account, code, at_ms) VALUES (?1, ?2, ?3)
                     ON CONFLICT (account, code) DO UPDATE SET at_ms = excluded.at_ms
                         WHERE mailed.at_ms <= ?4",
                    params![account, code, *now_ms as i64, *since_ms as i64],
                )
                .map_err(failed)?;
            Ok(Reply::Address((counted == 1).then_some(StoredAddress {
                address,
                confirmed: true,
            })))
        }
    }
}
