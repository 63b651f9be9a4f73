//! The lobby's challenges on SQLite.

use super::apply;
use crate::store::{
    ChallengeOp, Op, Reply, StoreError, StoredChallenge, challenge_gone, from_json, to_json,
};
use rusqlite::{Connection, params};

pub(super) fn apply_challenge(tx: &Connection, op: &ChallengeOp) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    match op {
        ChallengeOp::Post(challenge) => {
            tx.execute(
                "INSERT INTO challenges (id, account, to_account, terms, posted_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    challenge.id,
                    challenge.account,
                    challenge.to,
                    to_json(&challenge.terms),
                    challenge.posted_ms as i64
                ],
            )
            .map_err(failed)?;
            Ok(Reply::Done)
        }
        ChallengeOp::Cancel { id, account } => {
            let gone = tx
                .execute(
                    "DELETE FROM challenges WHERE id = ?1 AND account = ?2",
                    params![id, account],
                )
                .map_err(failed)?;
            if gone == 0 {
                return Err(challenge_gone(id));
            }
            Ok(Reply::Done)
        }
        ChallengeOp::Accept { id, game, .. } => {
            // Not a deleted account's (its challenges stay in the table, unshown).
            let taken = tx
                .execute(
                    "DELETE FROM challenges WHERE id = ?1 AND account IN
                         (SELECT id FROM accounts WHERE deleted_ms IS NULL)",
                    [id],
                )
                .map_err(failed)?;
            if taken == 0 {
                return Err(challenge_gone(id));
            }
            // In the request's savepoint: a code taken undoes the removal too.
            apply(tx, &Op::Create(game.clone()))
        }
        ChallengeOp::All => {
            let mut rows = tx
                .prepare_cached(
                    "SELECT c.id, c.account, c.to_account, c.terms, c.posted_ms, a.name, t.name
                     FROM challenges c JOIN accounts a ON a.id = c.account
                     LEFT JOIN accounts t ON t.id = c.to_account
                     WHERE a.deleted_ms IS NULL AND a.name IS NOT NULL
                         AND (c.to_account IS NULL OR t.deleted_ms IS NULL)
                     ORDER BY c.posted_ms, c.id",
                )
                .map_err(failed)?;
            let rows = rows
                .query_map([], |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, i64>(1)?,
                        row.get::<_, Option<i64>>(2)?,
                        row.get::<_, String>(3)?,
                        row.get::<_, i64>(4)?,
                        row.get::<_, String>(5)?,
                        row.get::<_, Option<String>>(6)?,
                    ))
                })
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(failed)?;
            let mut challenges = Vec::with_capacity(rows.len());
            for (id, account, to, terms, posted_ms, by, to_name) in rows {
                // A damaged row is left out of the lobby, not the lobby refused.
                let terms = match from_json(&terms, "challenge terms") {
                    Ok(terms) => terms,
                    Err(e) => {
                        eprintln!("challenge {id}: {e}; left out of the lobby");
                        continue;
                    }
                };
                challenges.push(StoredChallenge {
                    id,
                    account,
                    terms,
                    to,
                    posted_ms: posted_ms.max(0) as u64,
                    by,
                    to_name,
                });
            }
            Ok(Reply::Challenges(challenges))
        }
    }
}
