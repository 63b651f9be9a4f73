//! What a client asks ([`ClientMsg`]), and reading it as the server does.

use crate::{ChallengeTerms, MAX_MESSAGE_BYTES, Pace, SeatKey};
use serde::{Deserialize, Serialize};
use tabula_rules::text::shown_line;

/// What a client asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// A new game; the asker takes `seat` (0 moves first). Answered by `seated`, then `state`.
    Create {
        game: String,
        #[serde(default)]
        settings: Vec<(String, String)>,
        #[serde(default)]
        seat: usize,
        pace: Pace,
        /// A limit for each move, in seconds: the player who runs out loses.
        #[serde(default)]
        move_seconds: Option<u32>,
        /// Rated: only accounts may take its seats, and its end moves their ratings.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rated: bool,
    },
    /// Takes the first free seat of a game. Answered by `seated`, then `state`.
    Join {
        code: String,
    },
    /// Comes back to a seat held by `token`, after a lost connection or a restart; without
    /// a token, to the seat the account logged in on this connection holds.
    Resume {
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Follows a game without a seat.
    Watch {
        code: String,
    },
    /// A move for the seat this connection holds, as the `ply`-th move of the game
    /// (counted from 0), so a repeated or late message cannot be played twice.
    Move {
        ply: usize,
        text: String,
    },
    Resign,
    /// Offers a draw, or accepts the offers made: the game is drawn once every seat has.
    OfferDraw,
    DeclineDraw,
    /// Asks to take back this seat's last move (and the moves after it).
    RequestUndo,
    AnswerUndo {
        accept: bool,
    },
    /// The games of these seats and whose turn it is in each; with an account logged in,
    /// its games too.
    MyGames {
        seats: Vec<SeatKey>,
    },
    /// Follows the games waiting for the move of the account logged in: answered by
    /// `waiting`, then `waiting` again whenever that list changes (a move in one of its
    /// games, a game starting or ending), until the connection logs out.
    FollowTurns,
    /// The e-mail address of the account logged in (for "your move" in correspondence
    /// games). Answered by `email_address`.
    EmailAddress,
    /// Gives the account logged in this e-mail address, or none if empty. A link that
    /// confirms it is mailed to it; nothing else is mailed before it is followed. Answered
    /// by `email_address`.
    SetEmailAddress {
        address: String,
    },
    /// A new account, logged in on this connection. Answered by `logged_in`.
    Register {
        name: String,
        password: String,
    },
    LogIn {
        name: String,
        password: String,
    },
    /// Logs this connection in with a session from an earlier `logged_in`.
    Authenticate {
        session: String,
    },
    /// Ends this connection's session, here and on every connection that uses it.
    LogOut,
    /// Ends every session of the account, on every device.
    LogOutEverywhere,
    /// Ends every other session of the account too.
    ChangePassword {
        old: String,
        new: String,
    },
    /// Deletes the account logged in; its games stay, under a name that says so.
    DeleteAccount {
        password: String,
    },
    /// Gives a seat played without an account (held by `token`) to the account logged in.
    ClaimSeat {
        code: String,
        token: String,
    },
    /// The best players of a rating pool (see [`crate::ratings::RATING_POOLS`]). Answered by
    /// `leaderboard`.
    Leaderboard {
        pool: String,
    },
    /// A player's page: ratings, their history, recent games. Answered by `player`.
    Player {
        name: String,
    },
    /// Follows the lobby: answered by `lobby` (the open challenges), then `challenge_added`
    /// and `challenge_gone` as they come (and, logged in, `challenge_accepted` for one's
    /// own, which a connection that posted hears without following). A connection follows
    /// the lobby and a game at once.
    FollowLobby,
    /// Posts a challenge (logged in), to one player if `to` names them. Answered by
    /// `challenge_posted`.
    PostChallenge {
        terms: ChallengeTerms,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<String>,
    },
    CancelChallenge {
        id: String,
    },
    /// Takes a challenge (logged in): answered by `seated`, then `state`, as a join.
    AcceptChallenge {
        id: String,
    },
    /// Takes the best-fitting open challenge of this game, pace and kind (the poster's
    /// rating nearest one's own), answered as `accept_challenge`; or, with none, posts one
    /// (either seat, the game's own options), answered by `challenge_posted` (the one
    /// already open, if the player has posted the same).
    PlayNow {
        game: String,
        pace: Pace,
        #[serde(default)]
        rated: bool,
    },
}

impl ClientMsg {
    /// Whether the message carries a password or a session, which a client sends only over
    /// an encrypted connection or to this machine.
    pub fn carries_secret(&self) -> bool {
        matches!(
            self,
            ClientMsg::Register { .. }
                | ClientMsg::LogIn { .. }
                | ClientMsg::Authenticate { .. }
                | ClientMsg::ChangePassword { .. }
                | ClientMsg::DeleteAccount { .. }
        )
    }
}

impl ClientMsg {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("client messages always serialize")
    }

    /// Reads a message, naming what is wrong with a bad one.
    pub fn from_json(text: &str) -> Result<ClientMsg, String> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(format!(
                "message of {} bytes is over the limit of {MAX_MESSAGE_BYTES}",
                text.len()
            ));
        }
        serde_json::from_str(text)
            .map_err(|e| shown_line(&format!("not a message this server reads: {e}")))
    }
}
