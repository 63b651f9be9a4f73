//! Ratings as the server tells them: the pools a game is rated in, a leaderboard, and a
//! player's page. The server computes them (Glicko-2); clients only show them.

use serde::{Deserialize, Serialize};

/// The pools ratings are kept in: one per game, and three-player Adamas apart (a different
/// contest from the two-player game).
pub const RATING_POOLS: &[&str] = &["absorption", "adamas", "adamas-3", "adaptoid", "adomoc"];

/// The pool a game of `game` (its key) with `seats` players is rated in.
pub fn rating_pool(game: &str, seats: usize) -> String {
    if game == "adamas" && seats == 3 {
        "adamas-3".to_string()
    } else {
        game.to_string()
    }
}

/// A pool's name as players read it.
pub fn pool_title(pool: &str) -> String {
    match pool {
        "absorption" => "Absorption".into(),
        "adamas" => "Adamas".into(),
        "adamas-3" => "Adamas, three players".into(),
        "adaptoid" => "Adaptoid".into(),
        "adomoc" => "Adomoc".into(),
        other => other.to_string(),
    }
}

/// How many players one leaderboard lists at most.
pub const LEADERBOARD_LENGTH: usize = 50;

/// A rating as shown: rounded, with how sure it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownRating {
    pub rating: i32,
    /// The Glicko-2 rating deviation: about 95% sure the strength is within twice this.
    pub deviation: u32,
    /// Too few games to be sure (a deviation above 110): shown with a `?`.
    pub provisional: bool,
    /// Rated games played in the pool.
    pub games: u32,
}

impl std::fmt::Display for ShownRating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.rating)?;
        if self.provisional {
            write!(f, "?")?;
        }
        Ok(())
    }
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankedPlayer {
    pub name: String,
    pub rating: ShownRating,
}

/// A player's rating after one rated game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// When the game ended, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    pub rating: i32,
    /// The game that moved it.
    pub code: String,
}

/// A player's rating in one pool and how it came to be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolRating {
    pub pool: String,
    pub rating: ShownRating,
    /// The oldest first.
    pub history: Vec<RatingPoint>,
}

/// A game on a player's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedGame {
    pub code: String,
    pub game: String,
    /// The player's seat.
    pub seat: usize,
    /// Every seat's player, where an account holds it.
    pub players: Vec<Option<String>>,
    pub rated: bool,
    pub moves: usize,
    /// The result in words, once the game is over.
    pub result: Option<String>,
}

/// What a player's page shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerPage {
    pub name: String,
    /// The pools the player has a rated game in.
    pub ratings: Vec<PoolRating>,
    /// The newest first.
    pub games: Vec<PlayedGame>,
}

/// How many of a player's games the page lists, and how many points each history keeps.
pub const PAGE_GAMES: usize = 20;
pub const HISTORY_POINTS: usize = 200;
