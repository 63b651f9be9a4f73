//! The messages between a Tabula client and `tabula-server`: JSON text frames over one
//! WebSocket, tagged by `"type"`. A client follows one game per connection. Both sides
//! build on this crate alone: the server never needs the client to read its messages.

pub mod bucket;
pub mod house;
pub mod lobby;
pub mod ratings;

pub use lobby::{Challenge, ChallengeTerms};
pub use ratings::{PlayerPage, RankedPlayer, ShownRating};

use serde::{Deserialize, Serialize};
use tabula_rules::text::shown_line;

/// Bumped when a message changes shape; the server refuses other versions by name.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest message either side accepts. A move, a game's settings or a list of
/// tokens fit many times over; a Super-Adaptoid board file is the largest setting.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The largest message a client accepts from a server: a game's state holds all its moves,
/// many times what a client may send. The desktop's socket stops a longer message as it
/// comes; the browser's cannot, so reading refuses it before parsing.
pub const MAX_SERVER_MESSAGE_BYTES: usize = 16 * MAX_MESSAGE_BYTES;

/// Messages a second a connection may keep up; the server refuses what comes faster.
pub const MESSAGES_PER_SECOND: f64 = 20.0;

/// Messages a connection may send at once after a quiet spell.
pub const MESSAGE_BURST: f64 = 40.0;

/// How a client paces what it sends, well inside the server's limit, so that a bot that
/// answers at once (an Absorption turn is several messages) is never refused: four
/// fifths of the rate, half the burst.
pub const CLIENT_MESSAGES_PER_SECOND: f64 = MESSAGES_PER_SECOND * 0.8;
pub const CLIENT_MESSAGE_BURST: f64 = MESSAGE_BURST / 2.0;

/// How many seats' games one `my_games` question may ask about.
pub const MAX_LISTED_GAMES: usize = 200;

/// The path of the WebSocket on a server.
pub const SOCKET_PATH: &str = "/ws";

/// The server pings every connection this often, so that both ends hear something even
/// in a quiet game.
pub const PING_SECONDS: u64 = 20;

/// A connection that has heard nothing for this long is taken as dead (a half-open TCP
/// connection: a laptop closed, a network gone) and closed; a client then connects again.
pub const SILENT_SECONDS: u64 = 3 * PING_SECONDS;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// Both sides at their screens; a move time limit counts in seconds.
    Live,
    /// A move a day, say: nobody needs to stay connected.
    Correspondence,
}

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
    /// The best players of a rating pool (see [`ratings::RATING_POOLS`]). Answered by
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

/// A seat as a client keeps it: the game's code and the seat's secret token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatKey {
    pub code: String,
    pub token: String,
}

/// Whether a game code or seat token from a server is one a person can be shown and type
/// back: letters, digits, dashes and underscores, not too many.
pub fn is_key_text(text: &str) -> bool {
    (1..=MAX_KEY_CHARS).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The longest game code or seat token a client keeps (the server's are 6 and 32).
pub const MAX_KEY_CHARS: usize = 64;

/// An account's name: 3 to 20 letters, digits, `-` and `_`, beginning with a letter.
pub const MIN_NAME_CHARS: usize = 3;
pub const MAX_NAME_CHARS: usize = 20;

/// A password's length in characters. The upper bound keeps each hash's cost bounded.
pub const MIN_PASSWORD_CHARS: usize = 8;
pub const MAX_PASSWORD_CHARS: usize = 200;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written() {
        let msgs = [
            ClientMsg::Create {
                game: "adamas".into(),
                settings: vec![("players".into(), "3".into())],
                seat: 1,
                pace: Pace::Correspondence,
                move_seconds: Some(86_400),
                rated: false,
            },
            ClientMsg::Move {
                ply: 4,
                text: "c1-c2".into(),
            },
            ClientMsg::AnswerUndo { accept: false },
            ClientMsg::Resign,
            ClientMsg::Register {
                name: "Ada".into(),
                password: "correct horse".into(),
            },
            ClientMsg::Resume {
                code: "ABC234".into(),
                token: None,
            },
            ClientMsg::LogOutEverywhere,
        ];
        for msg in msgs {
            assert_eq!(ClientMsg::from_json(&msg.to_json()), Ok(msg));
        }
        let state = ServerMsg::State(Box::new(GameState {
            code: "ABC234".into(),
            game: "adomoc".into(),
            settings: vec![],
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
            seats: vec![SeatState {
                name: "Black".into(),
                taken: true,
                online: false,
                player: Some("Ada".into()),
                rating: None,
            }],
            moves: vec!["a1".into()],
            ending: Some(Ending::OutOfTime { seat: 1 }),
            result: Some("White ran out of time".into()),
            draw_offers: vec![0],
            undo_request: None,
            deadline_ms: Some(5),
            your_seat: None,
        }));
        assert_eq!(ServerMsg::from_json(&state.to_json()), Ok(state));
    }

    #[test]
    fn a_resume_from_an_older_client_still_reads() {
        assert_eq!(
            ClientMsg::from_json(r#"{"type":"resume","code":"ABC234","token":"ab12"}"#),
            Ok(ClientMsg::Resume {
                code: "ABC234".into(),
                token: Some("ab12".into())
            })
        );
        let summary = r#"{"code":"ABC234","game":"adomoc","your_seat":0,"moves":3,
            "to_move":1,"result":null,"open_seats":0}"#;
        let summary: GameSummary = serde_json::from_str(summary).unwrap();
        assert!(!summary.account);
    }

    #[test]
    fn only_account_messages_carry_secrets() {
        let secret = ClientMsg::LogIn {
            name: "Ada".into(),
            password: "x".repeat(8),
        };
        assert!(secret.carries_secret());
        assert!(
            ClientMsg::Authenticate {
                session: "ab".into()
            }
            .carries_secret()
        );
        assert!(!ClientMsg::LogOut.carries_secret());
        assert!(
            !ClientMsg::ClaimSeat {
                code: "ABC234".into(),
                token: "ab".into()
            }
            .carries_secret()
        );
    }

    #[test]
    fn a_bad_message_says_what_is_wrong() {
        let err = ClientMsg::from_json(r#"{"type":"move","ply":"x"}"#).unwrap_err();
        assert!(err.contains("invalid type"), "{err}");
        let err = ClientMsg::from_json(r#"{"type":"teleport"}"#).unwrap_err();
        assert!(err.contains("unknown variant `teleport`"), "{err}");
        let big = format!(
            r#"{{"type":"join","code":"{}"}}"#,
            "A".repeat(MAX_MESSAGE_BYTES)
        );
        assert!(
            ClientMsg::from_json(&big)
                .unwrap_err()
                .contains("over the limit")
        );
    }

    #[test]
    fn a_server_message_over_its_limit_is_refused_before_it_is_read() {
        let error = |text: &str| ServerMsg::error(text.to_string()).to_json();
        // The JSON around the text is a few dozen bytes.
        let fits = error(&"x".repeat(MAX_SERVER_MESSAGE_BYTES - 100));
        assert!(ServerMsg::from_json(&fits).is_ok());
        let over = error(&"x".repeat(MAX_SERVER_MESSAGE_BYTES));
        let err = ServerMsg::from_json(&over).unwrap_err();
        assert!(
            err.contains(&format!("{} bytes", over.len())) && err.contains("over the limit"),
            "{err}"
        );
        // Over the limit, even what is not JSON at all is refused for its size.
        let err = ServerMsg::from_json(&"{".repeat(MAX_SERVER_MESSAGE_BYTES + 1)).unwrap_err();
        assert!(err.contains("over the limit"), "{err}");
    }
}
