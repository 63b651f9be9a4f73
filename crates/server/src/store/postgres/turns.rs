//! Whose turn it is, on PostgreSQL.

use super::accounts::seats;
use super::statements::waiting_param;
use crate::store::{Reply, StoreError, TurnOp};
use tokio_postgres::{Client, Statement};

pub(super) struct TurnStatements {
    waiting: Statement,
    unknown: Statement,
    learn: Statement,
    players: Statement,
}

impl TurnStatements {
    pub(super) async fn prepare(client: &Client) -> Result<Self, tokio_postgres::Error> {
        Ok(TurnStatements {
            waiting: client
                .prepare(
                    "SELECT s.code, s.seat FROM seats s JOIN games g ON g.code = s.code
                     WHERE s.account = $1::int8
                         AND (g.waiting_seat = s.seat OR g.waiting_seat = -1)
                     ORDER BY g.created_ms DESC, s.code LIMIT $2::int8",
                )
                .await?,
            unknown: client
                .prepare(
                    "SELECT code FROM games WHERE waiting_seat = -1 AND code > $1::text
                     ORDER BY code LIMIT $2::int8",
                )
                .await?,
            learn: client
                .prepare(
                    "UPDATE games SET waiting_seat = $2::int4
                     WHERE code = $1::text AND waiting_seat = -1",
                )
                .await?,
            players: client
                .prepare(
                    "SELECT account FROM seats WHERE code = $1::text AND account IS NOT NULL
                     ORDER BY seat",
                )
                .await?,
        })
    }
}

pub(super) async fn run_turns(
    client: &Client,
    statements: &TurnStatements,
    op: &TurnOp,
) -> Result<Result<Reply, StoreError>, tokio_postgres::Error> {
    let s = statements;
    Ok(Ok(match op {
        TurnOp::Waiting { account, limit } => {
            let rows = client
                .query(&s.waiting, &[account, &(*limit as i64)])
                .await?;
            Reply::Seats(seats(&rows)?)
        }
        TurnOp::Unknown { after, limit } => {
            let rows = client.query(&s.unknown, &[after, &(*limit as i64)]).await?;
            Reply::Codes(
                rows.iter()
                    .map(|row| row.try_get(0))
                    .collect::<Result<_, _>>()?,
            )
        }
        TurnOp::Learn { code, waiting_seat } => {
            client
                .execute(&s.learn, &[code, &waiting_param(*waiting_seat)])
                .await?;
            Reply::Done
        }
        TurnOp::Players { code } => {
            let rows = client.query(&s.players, &[code]).await?;
            Reply::Accounts(
                rows.iter()
                    .map(|row| row.try_get(0))
                    .collect::<Result<_, _>>()?,
            )
        }
    }))
}
