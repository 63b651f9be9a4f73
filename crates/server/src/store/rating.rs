//! What the store answers about ratings. Ratings change only with a rated game's end (see
//! [`super::Change::rated_end`]); these are the questions.

use super::AccountId;
use crate::ratings::{PROVISIONAL_DEVIATION, Rating};
use tabula_protocol::ratings::RatingPoint;

#[derive(Clone, Debug)]
pub enum RatingOp {
    /// The best `limit` players of `pool` who are not deleted: those sure of their
    /// rating first, then the provisional; each by rating.
    Leaderboard { pool: String, limit: usize },
    /// The account of this folded name (unless deleted) and its ratings, each with its
    /// last `points` points of history.
    Player { name_key: String, points: usize },
    /// The ratings these accounts have in `pool` (an account without one is left out).
    Of {
        pool: String,
        accounts: Vec<AccountId>,
    },
    /// Gives `account` this rating in `pool` unless it has one there already (a house
    /// bot's first rating): [`super::Reply::Done`].
    Seed {
        pool: String,
        account: AccountId,
        rating: Rating,
    },
}

/// A leaderboard's line as kept.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedRow {
    pub name: String,
    pub rating: Rating,
}

/// A player's ratings as kept.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRatings {
    pub account: AccountId,
    pub name: String,
    /// Each pool the player is rated in, by its name, with its history (the oldest first).
    pub pools: Vec<(String, Rating, Vec<RatingPoint>)>,
}

/// Which accounts a leaderboard leaves out (`a` the accounts): the house bots, whose
/// names alone end in "bot" (see [`tabula_protocol::house::is_house_bot`]); they would sit
/// at the top of every board.
pub(crate) const NOT_A_BOT: &str = "a.name_key NOT LIKE '%bot'";

/// How both databases order a leaderboard (`r` the ratings, `a` the accounts), as
/// [`RatingOp::Leaderboard`] says.
pub(crate) fn leaderboard_order() -> String {
    format!("(r.deviation > {PROVISIONAL_DEVIATION:.1}), r.rating DESC, a.name")
}
