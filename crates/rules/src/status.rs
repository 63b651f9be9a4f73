use crate::Player;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Whether the game goes on, and if not, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    Ongoing,
    Win { winner: Player, reason: WinReason },
    Draw { reason: DrawReason },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinReason {
    /// Every other player was removed from the game.
    LastPlayerStanding,
    /// The game's own target was reached (a score, a position).
    Goal,
    /// Absorption: the opponent controls 3 pieces or fewer.
    Reduction,
    /// The opponent had no legal move at the start of their turn and forfeits.
    Forfeit,
    /// Adaptoid: five captures.
    CaptureTarget,
    /// Adaptoid: the opponent has no pieces left on the board.
    NoPiecesLeft,
    /// Adomoc: the prime sun reached the centre in a state of primes.
    Centre,
    /// Adomoc's Altogether variant: the higher sum of cycle numbers at the end.
    Score,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DrawReason {
    /// Adamas: two single pieces of different colours that cannot see each other.
    TwoPieceTie,
    /// The same position with the same player to move occurred for the third time
    /// (a Tabula addition; the designers' rules say nothing).
    Repetition,
    /// No capture for the configured number of plies (a Tabula addition, off by default).
    NoCaptureCap,
    /// The configured number of turns was played (a Tabula addition, off by default).
    TurnCap,
    /// Adomoc's Altogether variant: equal scores at the end.
    EqualScore,
}

impl WinReason {
    pub fn describe(self) -> &'static str {
        match self {
            WinReason::LastPlayerStanding => "the last player left",
            WinReason::Goal => "reached the goal",
            WinReason::Reduction => "the opponent controls 3 pieces or fewer",
            WinReason::Forfeit => "the opponent could not move and forfeits",
            WinReason::CaptureTarget => "reached the capture target",
            WinReason::NoPiecesLeft => "the opponent has no pieces left",
            WinReason::Centre => "the prime sun reached the centre in a state of primes",
            WinReason::Score => "the higher score",
        }
    }
}

impl Status {
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => write!(f, "ongoing"),
            Status::Win { winner, reason } => write!(f, "{winner} wins ({})", reason.describe()),
            Status::Draw { reason } => {
                let why = match reason {
                    DrawReason::TwoPieceTie => {
                        "two pieces of different colours remain and neither can be captured"
                    }
                    DrawReason::Repetition => {
                        "threefold repetition (a Tabula addition to the rules)"
                    }
                    DrawReason::NoCaptureCap => {
                        "no capture within the move cap (a Tabula addition to the rules)"
                    }
                    DrawReason::TurnCap => {
                        "the turn cap was reached (a Tabula addition to the rules)"
                    }
                    DrawReason::EqualScore => "equal scores (Altogether variant)",
                };
                write!(f, "draw: {why}")
            }
        }
    }
}
