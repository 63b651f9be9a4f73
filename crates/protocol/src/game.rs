//! A game as a client shows it: its state, its seats, how it ended outside the rules, an
//! undo asked for, and a line of a player's list of games.

use crate::{Pace, ShownRating};
use serde::{Deserialize, Serialize};

/// A game as a client shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub code: String,
    /// The game's key (`adamas`, `absorption`, `adaptoid`, `adomoc`).
    pub game: String,
    /// The options that differ from the game's defaults.
    pub settings: Vec<(String, String)>,
    pub pace: Pace,
    pub move_seconds: Option<u32>,
    /// Whether the game is rated (see `create`).
    #[serde(default)]
    pub rated: bool,
    pub seats: Vec<SeatState>,
    /// Every move, in order, in notation.
    pub moves: Vec<String>,
    /// How the game ended outside the rules (resigned, agreed, out of time), if it did.
    pub ending: Option<Ending>,
    /// The result in words once the game is over, by the rules or otherwise.
    pub result: Option<String>,
    /// The seats that offer a draw.
    pub draw_offers: Vec<usize>,
    pub undo_request: Option<UndoRequest>,
    pub deadline_ms: Option<u64>,
    /// The seat this connection holds, if any.
    pub your_seat: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    /// How the rules name the seat (O, X, Y; Black, White).
    pub name: String,
    /// Whether someone holds the seat.
    pub taken: bool,
    /// Whether a connection holds it now.
    pub online: bool,
    /// The name of the account that holds the seat ([`DELETED_PLAYER`] once deleted);
    /// none for a seat held without an account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// That account's rating in the game's pool, once it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<ShownRating>,
}

/// What a seat shows for an account that was deleted (no name has a space, so it is never
/// a name).
pub const DELETED_PLAYER: &str = "deleted account";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoRequest {
    pub by: usize,
    /// The game goes back to this many moves.
    pub to_ply: usize,
    /// The seats that said yes so far.
    pub accepted: Vec<usize>,
}

/// An end that the rules do not decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Ending {
    Resigned { seat: usize },
    DrawAgreed,
    OutOfTime { seat: usize },
}

impl Ending {
    /// The seat the ending names (who resigned or ran out of time), if any.
    pub fn seat(&self) -> Option<usize> {
        match *self {
            Ending::Resigned { seat } | Ending::OutOfTime { seat } => Some(seat),
            Ending::DrawAgreed => None,
        }
    }
}

impl UndoRequest {
    /// The seats the request names: the asker, then those who said yes.
    pub fn seats(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(self.by).chain(self.accepted.iter().copied())
    }
}

/// One line of a "my games" list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub code: String,
    pub game: String,
    pub your_seat: usize,
    pub moves: usize,
    /// The seat to move, while the game goes on.
    pub to_move: Option<usize>,
    pub result: Option<String>,
    /// Seats nobody has taken yet.
    pub open_seats: usize,
    /// Whether the seat is the account's, so `resume` needs no token.
    #[serde(default)]
    pub account: bool,
}
