//! What the store keeps of whose turn it is: the seat each game waits for, so that the
//! games waiting for an account's move are one question, not every game replayed.

use super::AccountId;

#[derive(Clone, Debug)]
pub enum TurnOp {
    /// The account's seats that its game waits for, or whose game's turn is not known yet,
    /// as (code, seat): [`super::Reply::Seats`], the newest games first, at most `limit`.
    Waiting { account: AccountId, limit: usize },
    /// Games whose turn is not known yet (stored before the store kept it), in the order
    /// of their codes from after `after`, at most `limit`: [`super::Reply::Codes`].
    Unknown { after: String, limit: usize },
    /// Sets the seat game `code` waits for, worked out from its moves, if it is still not
    /// known (a change made meanwhile wrote its own).
    Learn {
        code: String,
        waiting_seat: Option<usize>,
    },
    /// The accounts holding seats in game `code`: [`super::Reply::Accounts`].
    Players { code: String },
}

impl TurnOp {
    /// The game the request is about, if any.
    pub fn code(&self) -> Option<&str> {
        match self {
            TurnOp::Learn { code, .. } | TurnOp::Players { code } => Some(code),
            _ => None,
        }
    }
}
