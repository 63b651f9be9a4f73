//! The messages between a Tabula client and `tabula-server`: JSON text frames over one
//! WebSocket, tagged by `"type"`. A client follows one game per connection. Both sides
//! build on this crate alone: the server never needs the client to read its messages.

pub mod bucket;
mod client;
mod game;
pub mod house;
pub mod lobby;
pub mod ratings;
mod server;

pub use client::ClientMsg;
pub use game::{DELETED_PLAYER, Ending, GameState, GameSummary, SeatState, UndoRequest};
pub use lobby::{Challenge, ChallengeTerms};
pub use ratings::{PlayerPage, RankedPlayer, ShownRating};
pub use server::ServerMsg;

use serde::{Deserialize, Serialize};

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
