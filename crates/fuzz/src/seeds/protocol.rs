//! Seeds for the protocol's parsers: a message of every kind each side sends, made by
//! the protocol's own types and written as the wire carries them.

use super::played_games;
use tabula_online::protocol::ratings::{PlayedGame, PoolRating, RatingPoint};
use tabula_online::protocol::{
    Challenge, ChallengeTerms, ClientMsg, GameState, GameSummary, Pace, PlayerPage, RankedPlayer,
    SeatKey, SeatState, ServerMsg, ShownRating,
};

pub(super) fn client_messages() -> Vec<Vec<u8>> {
    let key = SeatKey {
        code: "ABCD-EFGH".into(),
        token: "0123456789abcdef".into(),
    };
    [
        ClientMsg::Create {
            game: "adamas".into(),
            settings: vec![("players".into(), "3".into())],
            seat: 1,
            pace: Pace::Live,
            move_seconds: Some(60),
            rated: false,
        },
        ClientMsg::Join {
            code: key.code.clone(),
        },
        ClientMsg::Resume {
            code: key.code.clone(),
            token: Some(key.token.clone()),
        },
        ClientMsg::Watch {
            code: key.code.clone(),
        },
        ClientMsg::Move {
            ply: 3,
            text: "c1-a1,c2,4xc3,e1".into(),
        },
        ClientMsg::Resign,
        ClientMsg::OfferDraw,
        ClientMsg::DeclineDraw,
        ClientMsg::RequestUndo,
        ClientMsg::AnswerUndo { accept: true },
        ClientMsg::MyGames {
            seats: vec![key.clone()],
        },
        ClientMsg::FollowTurns,
        ClientMsg::EmailAddress,
        ClientMsg::SetEmailAddress {
            address: "ada@example.org".into(),
        },
        ClientMsg::Register {
            name: "Ada_7".into(),
            password: "correct horse".into(),
        },
        ClientMsg::LogIn {
            name: "Ada_7".into(),
            password: "correct horse".into(),
        },
        ClientMsg::Authenticate {
            session: key.token.clone(),
        },
        ClientMsg::LogOut,
        ClientMsg::LogOutEverywhere,
        ClientMsg::ChangePassword {
            old: "correct horse".into(),
            new: "battery staple".into(),
        },
        ClientMsg::DeleteAccount {
            password: "correct horse".into(),
        },
        ClientMsg::ClaimSeat {
            code: key.code.clone(),
            token: key.token.clone(),
        },
        ClientMsg::Resume {
            code: key.code.clone(),
            token: None,
        },
        ClientMsg::Create {
            game: "adomoc".into(),
            settings: vec![],
            seat: 0,
            pace: Pace::Correspondence,
            move_seconds: None,
            rated: true,
        },
        ClientMsg::Leaderboard {
            pool: "adamas-3".into(),
        },
        ClientMsg::Player {
            name: "Ada_7".into(),
        },
        ClientMsg::FollowLobby,
        ClientMsg::PostChallenge {
            terms: ChallengeTerms {
                game: "adaptoid".into(),
                settings: vec![("size".into(), "5".into())],
                pace: Pace::Live,
                move_seconds: Some(60),
                rated: true,
                seat: None,
            },
            to: Some("Bea_7".into()),
        },
        ClientMsg::AcceptChallenge {
            id: "0123456789ab".into(),
        },
        ClientMsg::CancelChallenge {
            id: "0123456789ab".into(),
        },
        ClientMsg::PlayNow {
            game: "adamas".into(),
            pace: Pace::Correspondence,
            rated: true,
        },
    ]
    .iter()
    .map(|msg| msg.to_json().into_bytes())
    .collect()
}

/// A leaderboard and a player's page, as a server sends them.
fn rating_answers() -> String {
    let rating = ShownRating {
        rating: 1662,
        deviation: 290,
        provisional: true,
        games: 1,
    };
    let leaderboard = ServerMsg::Leaderboard {
        pool: "adomoc".into(),
        players: vec![RankedPlayer {
            name: "Ada_7".into(),
            rating,
        }],
    };
    let page = ServerMsg::Player(Box::new(PlayerPage {
        name: "Ada_7".into(),
        ratings: vec![PoolRating {
            pool: "adomoc".into(),
            rating,
            history: vec![RatingPoint {
                at_ms: 1,
                rating: 1662,
                code: "ABCD-EFGH".into(),
            }],
        }],
        games: vec![PlayedGame {
            code: "ABCD-EFGH".into(),
            game: "adomoc".into(),
            seat: 0,
            players: vec![Some("Ada_7".into()), None],
            rated: true,
            moves: 45,
            result: Some("Light wins".into()),
        }],
    }));
    let challenge = Challenge {
        id: "0123456789ab".into(),
        by: "Ada_7".into(),
        rating: Some(rating),
        terms: ChallengeTerms {
            game: "adomoc".into(),
            settings: vec![],
            pace: Pace::Correspondence,
            move_seconds: None,
            rated: false,
            seat: Some(1),
        },
        to: None,
        posted_ms: 1,
    };
    let lobby = [
        ServerMsg::Lobby {
            challenges: vec![challenge.clone()],
            house: Some(tabula_online::protocol::house::HouseBots {
                bots: vec![tabula_online::protocol::house::HouseBot {
                    name: "Novicebot".into(),
                    level: 1,
                    about: "A first opponent.".into(),
                }],
                wait_seconds: 30,
            }),
        },
        ServerMsg::ChallengeAdded(Box::new(challenge)),
        ServerMsg::ChallengeAccepted {
            id: "0123456789ab".into(),
            code: "ABCD-EFGH".into(),
            seat: 0,
        },
        ServerMsg::ChallengeGone {
            id: "0123456789ab".into(),
        },
    ]
    .map(|msg| msg.to_json())
    .join("\n");
    format!("{}\n{}\n{lobby}", leaderboard.to_json(), page.to_json())
}

/// For each played game: its state at some point, then the moves after it one by one.
pub(super) fn server_messages() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for game in played_games() {
        let line = game.line();
        let shown = line.len() / 2;
        let state = GameState {
            code: "ABCD-EFGH".into(),
            game: game.kind().key().into(),
            settings: game.settings(),
            pace: Pace::Correspondence,
            move_seconds: None,
            rated: false,
            seats: (0..game.num_players())
                .map(|seat| SeatState {
                    name: game.player_name(seat),
                    taken: true,
                    online: seat == 0,
                    player: (seat == 1).then(|| "Ada_7".to_string()),
                    rating: None,
                })
                .collect(),
            moves: line[..shown].to_vec(),
            ending: None,
            result: None,
            draw_offers: vec![],
            undo_request: None,
            deadline_ms: None,
            your_seat: Some(0),
        };
        let mut lines = vec![
            ServerMsg::Hello { version: 1 }.to_json(),
            ServerMsg::State(Box::new(state)).to_json(),
        ];
        for (ply, text) in line.iter().enumerate().skip(shown).take(6) {
            let seat = game.to_move_after(ply).unwrap_or(0);
            lines.push(
                ServerMsg::Moved {
                    ply,
                    seat,
                    text: text.clone(),
                    deadline_ms: Some(1),
                }
                .to_json(),
            );
        }
        lines.push(ServerMsg::error("that is not your move").to_json());
        lines.push(
            ServerMsg::LoggedIn {
                name: "Ada_7".into(),
                session: "0123456789abcdef".into(),
                expires_ms: 1,
            }
            .to_json(),
        );
        lines.push(
            ServerMsg::SeatClaimed {
                code: "ABCD-EFGH".into(),
                seat: 1,
            }
            .to_json(),
        );
        lines.push(
            ServerMsg::Waiting {
                games: vec![GameSummary {
                    code: "ABCD-EFGH".into(),
                    game: game.kind().key().into(),
                    your_seat: 0,
                    moves: shown,
                    to_move: Some(0),
                    result: None,
                    open_seats: 0,
                    account: true,
                }],
            }
            .to_json(),
        );
        lines.push(
            ServerMsg::EmailAddress {
                address: Some("ada@example.org".into()),
                confirmed: false,
            }
            .to_json(),
        );
        lines.push(
            ServerMsg::Games {
                games: vec![GameSummary {
                    code: "ABCD-EFGH".into(),
                    game: game.kind().key().into(),
                    your_seat: 1,
                    moves: shown,
                    to_move: None,
                    result: Some("Light wins".into()),
                    open_seats: 0,
                    account: false,
                }],
            }
            .to_json(),
        );
        for answer in [
            ServerMsg::ChallengePosted {
                id: "0123456789ab".into(),
            },
            ServerMsg::PasswordChanged,
            ServerMsg::AccountDeleted,
            ServerMsg::LoggedOut,
        ] {
            lines.push(answer.to_json());
        }
        lines.push(rating_answers());
        seeds.push(lines.join("\n").into_bytes());
    }
    seeds
}
