//! What the store keeps of the lobby: the open challenges. Accepting one removes it and
//! creates its game in one transaction, so of two players accepting at once (on any server
//! process) exactly one gets the game.

use super::{AccountId, StoredGame};
use serde::{Deserialize, Serialize};
use tabula_protocol::lobby::ChallengeTerms;

/// An open challenge as it is kept, with its players' names read back with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredChallenge {
    pub id: String,
    pub account: AccountId,
    pub terms: ChallengeTerms,
    /// The one account it is for, if it names one.
    pub to: Option<AccountId>,
    pub posted_ms: u64,
    /// The poster's name, and the named player's (read from the accounts; never written).
    pub by: String,
    pub to_name: Option<String>,
}

#[derive(Clone, Debug)]
pub enum ChallengeOp {
    Post(Box<StoredChallenge>),
    /// Removes `account`'s challenge `id`; a conflict if it is not there (taken, or not
    /// theirs).
    Cancel {
        id: String,
        account: AccountId,
    },
    /// Removes challenge `id` and creates `game` from it, together; a conflict if the
    /// challenge is gone (taken meanwhile) or the game's code is taken, and then neither.
    /// The poster holds `poster_seat` (their account is the game's there).
    Accept {
        id: String,
        game: Box<StoredGame>,
        poster_seat: usize,
    },
    /// Every open challenge of accounts not deleted, the oldest first.
    All,
}

impl ChallengeOp {
    /// The game the request creates, if any (a batch orders its requests by game).
    pub fn code(&self) -> Option<&str> {
        match self {
            ChallengeOp::Accept { game, .. } => Some(&game.code),
            _ => None,
        }
    }
}

/// What a server process tells the others sharing its store of the lobby's changes, so
/// that one lobby shows through all of them.
#[derive(Clone, Debug, PartialEq)]
pub enum LobbyWord {
    /// A challenge posted, as kept.
    Posted(Box<StoredChallenge>),
    /// Challenges changed in ways not told: read the lobby again.
    Unknown,
    /// A challenge cancelled.
    Gone { id: String },
    /// A challenge taken: it became game `code`, where its poster holds `seat`.
    Taken {
        id: String,
        code: String,
        poster: AccountId,
        seat: usize,
    },
    /// An account deleted: its challenges, and those naming it, are gone.
    Left { account: AccountId },
}

/// The conflict for a challenge that is not open (any more).
pub(crate) fn challenge_gone(id: &str) -> super::StoreError {
    super::StoreError::Conflict(format!(
        "challenge {id} is not open: someone took it, or it was cancelled"
    ))
}
