//! The lobby's challenges on PostgreSQL. Accepting one is one statement: the challenge
//! removed and its game created together, or neither.

use super::statements::{CREATE, create_params};
use crate::store::{
    ChallengeOp, Reply, StoreError, StoredChallenge, challenge_gone, from_json, to_json,
};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Statement};

pub(super) struct ChallengeStatements {
    post: Statement,
    cancel: Statement,
    accept: Statement,
    all: Statement,
}

/// The game's statement (`$1` to `$19`) made from the challenge `$20`: the challenge's row
/// locked (if the game's code is free and its poster's account not deleted: another
/// process may not have heard yet), the game inserted from it, and the challenge
/// removed only if the game was made, so nothing is lost whatever happens between. Its
/// answer: challenges found, games of that code there already, games made.
fn accept_statement() -> String {
    CREATE
        .replacen(
            "WITH g AS (",
            "WITH taken AS (
                SELECT id FROM challenges c WHERE id = $20::text
                    AND NOT EXISTS (SELECT 1 FROM games WHERE code = $1::text)
                    AND EXISTS (SELECT 1 FROM accounts a
                        WHERE a.id = c.account AND a.deleted_ms IS NULL)
                FOR UPDATE OF c
            ), g AS (",
            1,
        )
        .replacen("VALUES (", "SELECT ", 1)
        .replacen("$19::int4)", "$19::int4 FROM taken", 1)
        .replacen(
            "SELECT count(*) FROM g",
            ", d AS (
                DELETE FROM challenges WHERE id = $20::text AND EXISTS (SELECT 1 FROM g)
            )
            SELECT (SELECT count(*) FROM taken),
                (SELECT count(*) FROM games WHERE code = $1::text), (SELECT count(*) FROM g)",
            1,
        )
}

impl ChallengeStatements {
    pub(super) async fn prepare(client: &Client) -> Result<Self, tokio_postgres::Error> {
        Ok(ChallengeStatements {
            post: client
                .prepare(
                    "INSERT INTO challenges (id, account, to_account, terms, posted_ms)
                     VALUES ($1::text, $2::int8, $3::int8, $4::text, $5::int8)",
                )
                .await?,
            cancel: client
                .prepare("DELETE FROM challenges WHERE id = $1::text AND account = $2::int8")
                .await?,
            accept: client.prepare(&accept_statement()).await?,
            all: client
                .prepare(
                    "SELECT c.id, c.account, c.to_account, c.terms, c.posted_ms, a.name, t.name
                     FROM challenges c JOIN accounts a ON a.id = c.account
                     LEFT JOIN accounts t ON t.id = c.to_account
                     WHERE a.deleted_ms IS NULL AND a.name IS NOT NULL
                         AND (c.to_account IS NULL OR t.deleted_ms IS NULL)
                     ORDER BY c.posted_ms, c.id",
                )
                .await?,
        })
    }
}

pub(super) async fn run_challenge(
    client: &Client,
    statements: &ChallengeStatements,
    op: &ChallengeOp,
) -> Result<Result<Reply, StoreError>, tokio_postgres::Error> {
    let s = statements;
    Ok(match op {
        ChallengeOp::Post(challenge) => {
            let terms = to_json(&challenge.terms);
            let posted = challenge.posted_ms as i64;
            client
                .execute(
                    &s.post,
                    &[
                        &challenge.id,
                        &challenge.account,
                        &challenge.to,
                        &terms,
                        &posted,
                    ],
                )
                .await?;
            Ok(Reply::Done)
        }
        ChallengeOp::Cancel { id, account } => {
            match client.execute(&s.cancel, &[id, account]).await? {
                0 => Err(challenge_gone(id)),
                _ => Ok(Reply::Done),
            }
        }
        ChallengeOp::Accept { id, game, .. } => {
            let mut params = create_params(game);
            params.push(Box::new(id.clone()));
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as _).collect();
            let row = client.query_one(&s.accept, &refs).await?;
            let (taken, code_held, made): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
            if made == 1 {
                Ok(Reply::Done)
            } else if code_held > 0 {
                Err(StoreError::Conflict(format!(
                    "the code {} is taken",
                    game.code
                )))
            } else if taken == 0 {
                Err(challenge_gone(id))
            } else {
                // Another process made a game of this very code meanwhile: nothing made,
                // the challenge still open; another code.
                Err(StoreError::Conflict(format!(
                    "the code {} is taken",
                    game.code
                )))
            }
        }
        ChallengeOp::All => {
            let rows = client.query(&s.all, &[]).await?;
            let mut challenges = Vec::with_capacity(rows.len());
            for row in rows {
                let read = || -> Result<StoredChallenge, String> {
                    let id: String = row.try_get(0).map_err(|e| e.to_string())?;
                    let terms: String = row.try_get(3).map_err(|e| e.to_string())?;
                    Ok(StoredChallenge {
                        terms: from_json(&terms, "challenge terms").map_err(|e| e.to_string())?,
                        account: row.try_get(1).map_err(|e| e.to_string())?,
                        to: row.try_get(2).map_err(|e| e.to_string())?,
                        posted_ms: row.try_get::<_, i64>(4).map_err(|e| e.to_string())?.max(0)
                            as u64,
                        by: row.try_get(5).map_err(|e| e.to_string())?,
                        to_name: row.try_get(6).map_err(|e| e.to_string())?,
                        id,
                    })
                };
                // A damaged row is left out of the lobby, not the lobby refused.
                match read() {
                    Ok(challenge) => challenges.push(challenge),
                    Err(e) => eprintln!("a challenge row: {e}; left out of the lobby"),
                }
            }
            Ok(Reply::Challenges(challenges))
        }
    })
}
