//! The lobby: open challenges, shown live to everyone following it, taken by whoever
//! accepts one first. Posting and accepting need an account (a stranger needs a name to be
//! found by); anyone may look.

use crate::{Pace, ShownRating};
use serde::{Deserialize, Serialize};

/// What a challenge offers: the game, its options, its pace, and which seat the poster
/// takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeTerms {
    /// The game's key (`adamas`, `absorption`, `adaptoid`, `adomoc`).
    pub game: String,
    /// The options that differ from the game's defaults.
    #[serde(default)]
    pub settings: Vec<(String, String)>,
    pub pace: Pace,
    #[serde(default)]
    pub move_seconds: Option<u32>,
    #[serde(default)]
    pub rated: bool,
    /// The poster's seat (0 moves first); none: either, drawn when it is accepted.
    #[serde(default)]
    pub seat: Option<usize>,
}

/// An open challenge as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: String,
    /// Who posted it.
    pub by: String,
    /// The poster's rating in the game's pool, once they have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<ShownRating>,
    pub terms: ChallengeTerms,
    /// The one player it is for, if it names one (only they and the poster see it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// When it was posted, in milliseconds since the Unix epoch.
    pub posted_ms: u64,
}

/// How many open challenges one account may have at once.
pub const MAX_OPEN_CHALLENGES: usize = 5;

/// How many open challenges one server keeps at once (a lobby past this is refused new
/// ones until some are taken or cancelled).
pub const MAX_LOBBY: usize = 5_000;
