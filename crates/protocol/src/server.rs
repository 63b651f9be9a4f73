//! What the server says ([`ServerMsg`]), and reading it as a client does.

use crate::{
    Challenge, GameState, GameSummary, MAX_SERVER_MESSAGE_BYTES, PlayerPage, RankedPlayer, house,
};
use serde::{Deserialize, Serialize};
use tabula_rules::text::shown_line;

/// What the server says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The first message on every connection.
    Hello {
        version: u32,
    },
    /// This connection holds `seat` in game `code`; only this client ever sees `token`.
    Seated {
        code: String,
        seat: usize,
        token: String,
    },
    /// The whole game, after joining, watching or coming back, and after anything but a move.
    State(Box<GameState>),
    /// A move was stored: the `ply`-th move, by `seat`.
    Moved {
        ply: usize,
        seat: usize,
        text: String,
        /// When the next move must be in, in milliseconds since the Unix epoch.
        #[serde(default)]
        deadline_ms: Option<u64>,
    },
    Games {
        games: Vec<GameSummary>,
    },
    /// The games waiting for your move (the account logged in), the one waiting longest
    /// first; sent after `follow_turns` and whenever the list changes.
    Waiting {
        games: Vec<GameSummary>,
    },
    /// The account's e-mail address, if it gave one, and whether its link was followed.
    EmailAddress {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        address: Option<String>,
        #[serde(default)]
        confirmed: bool,
    },
    /// This connection is logged in as `name`. Only this client ever sees `session`, which
    /// logs it in again (`authenticate`) until about `expires_ms` (milliseconds since the
    /// Unix epoch; each use moves it on, though the server writes it once a day, so it may
    /// come up to a day sooner).
    LoggedIn {
        name: String,
        session: String,
        expires_ms: u64,
    },
    /// This connection is no longer logged in (after `log_out`, `log_out_everywhere`, or a
    /// deleted account).
    LoggedOut,
    PasswordChanged,
    AccountDeleted,
    /// The seat is the account's now: `resume` without its token reaches it.
    SeatClaimed {
        code: String,
        seat: usize,
    },
    Leaderboard {
        pool: String,
        /// The best first: players sure of their rating before those still provisional.
        players: Vec<RankedPlayer>,
    },
    Player(Box<PlayerPage>),
    /// The open challenges this connection may see, the oldest first.
    Lobby {
        challenges: Vec<Challenge>,
        /// The server's own bots, if it runs them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        house: Option<house::HouseBots>,
    },
    ChallengeAdded(Box<Challenge>),
    /// Taken or cancelled.
    ChallengeGone {
        id: String,
    },
    ChallengePosted {
        id: String,
    },
    /// Your challenge `id` was taken: game `code`, where you hold `seat` (`resume` it
    /// without a token).
    ChallengeAccepted {
        id: String,
        code: String,
        seat: usize,
    },
    /// What was wrong with the last message; nothing changed.
    Error {
        message: String,
        /// The ply of the move refused, when the message was a move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused_move: Option<usize>,
        /// Set when the session sent (or the one this connection logged in with) is not
        /// valid any more, so a client forgets it; never for a server's passing failure.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        session_ended: bool,
    },
}

impl ServerMsg {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialize")
    }

    pub fn from_json(text: &str) -> Result<ServerMsg, String> {
        if text.len() > MAX_SERVER_MESSAGE_BYTES {
            return Err(ServerMsg::too_long(text.len()));
        }
        serde_json::from_str(text)
            .map_err(|e| shown_line(&format!("not a message from a Tabula server: {e}")))
    }

    /// Why a message of `length` bytes (or more) from a server is refused unread.
    pub fn too_long(length: usize) -> String {
        format!(
            "a message of {length} bytes from the server, over the limit of \
             {MAX_SERVER_MESSAGE_BYTES}"
        )
    }

    pub fn error(message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            message: message.into(),
            refused_move: None,
            session_ended: false,
        }
    }

    /// The error for a session that is not valid (any more).
    pub fn session_ended(message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            message: message.into(),
            refused_move: None,
            session_ended: true,
        }
    }
}
