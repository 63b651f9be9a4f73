//! What the lobby tells the connections that follow it, and who may see each change.

use crate::store::AccountId;
use axum::extract::ws::Utf8Bytes;
use tabula_protocol::ServerMsg;
use tabula_protocol::lobby::Challenge;

/// What the lobby tells the connections that follow it.
#[derive(Clone, Debug)]
pub struct LobbyNews {
    pub change: LobbyChange,
    pub open_to: OpenTo,
    /// The message as sent, made once and shared by every follower (a thousand followers
    /// made a thousand copies of each, docs/benchmarks.md).
    pub text: Utf8Bytes,
}

#[derive(Clone, Debug)]
pub enum LobbyChange {
    Posted(Box<Challenge>),
    Gone { id: String },
}

impl LobbyNews {
    pub(super) fn posted(challenge: Challenge, open_to: OpenTo) -> LobbyNews {
        let challenge = Box::new(challenge);
        LobbyNews {
            text: ServerMsg::ChallengeAdded(challenge.clone())
                .to_json()
                .into(),
            change: LobbyChange::Posted(challenge),
            open_to,
        }
    }

    pub(super) fn gone(id: &str, open_to: OpenTo) -> LobbyNews {
        let id = id.to_string();
        LobbyNews {
            text: ServerMsg::ChallengeGone { id: id.clone() }.to_json().into(),
            change: LobbyChange::Gone { id },
            open_to,
        }
    }
}

/// Who sees a challenge: everyone, or its poster and the player it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenTo {
    Everyone,
    Only { poster: AccountId, named: AccountId },
}

impl OpenTo {
    pub fn shows_to(self, account: Option<AccountId>) -> bool {
        match self {
            OpenTo::Everyone => true,
            OpenTo::Only { poster, named } => account.is_some_and(|a| a == poster || a == named),
        }
    }
}
