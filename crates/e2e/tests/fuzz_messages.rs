//! The server's handling of client messages as a fuzz target: conversations of two clients
//! (real ones, then mutations of them) played straight at the rooms and the store, without
//! sockets. Whatever the clients say, the server answers without panicking, every reply
//! writes back to itself, every error is short and prints, and every game state it sends
//! is one a client can follow (its moves replay under the rules).
//! `TABULA_FUZZ_RUNS=N` runs N mutations instead of 300, for a long run, and
//! `TABULA_FUZZ_SEED=S` draws other ones.

use std::net::{IpAddr, Ipv4Addr};
use std::panic::AssertUnwindSafe;
use tabula_mutate::Mutator;
use tabula_mutate::check_error;
use tabula_online::Followed;
use tabula_online::protocol::{ChallengeTerms, ClientMsg, Pace, SeatKey, ServerMsg};
use tabula_server::rooms::Rooms;
use tabula_server::socket::Client;
use tabula_server::store::Store;
use tabula_session::{GameKind, new_match};

/// Stand for the code and the token of the last seat the server gave, which a mutated
/// input cannot guess.
const CODE: &str = "$CODE";
const TOKEN: &str = "$TOKEN";
/// Stands for the id of the last challenge posted.
const CHALLENGE: &str = "$CHALLENGE";

/// A line is `A JSON` or `B JSON`: which of two clients sends the message.
fn line(client: &str, msg: &ClientMsg) -> String {
    format!("{client} {}", msg.to_json())
}

/// A whole conversation: A registers and creates a game of `kind`, B joins, they play
/// `plies` random moves, then offer, decline, ask to take back, list their games, B
/// registers and claims its seat, both come back, B resigns, they look at a leaderboard
/// and a player's page, A creates a rated game that B joins, B follows the lobby, A
/// challenges B there and B accepts, A follows its turns, B plays now (posting a
/// challenge) and cancels it, A logs out and in again, and their accounts end.
fn conversation(kind: GameKind, settings: &[(&str, &str)], plies: u64) -> Vec<u8> {
    let settings: Vec<(String, String)> = settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let password = || "correct horse".to_string();
    let mut lines = vec![
        line(
            "A",
            &ClientMsg::Register {
                name: format!("Ada-{}", kind.key()),
                password: password(),
            },
        ),
        line(
            "A",
            &ClientMsg::Create {
                game: kind.key().into(),
                settings: settings.clone(),
                seat: 0,
                pace: Pace::Live,
                move_seconds: Some(60),
                rated: false,
            },
        ),
        line("B", &ClientMsg::Join { code: CODE.into() }),
    ];
    let mut game = new_match(kind, &settings).expect("seed settings are valid");
    for seed in 0..plies {
        let Some(text) = game.thinker(&tabula_bot::BotSpec::Random, seed).best_move() else {
            break;
        };
        let seat = if game.to_move() == 0 { "A" } else { "B" };
        let ply = game.record().len();
        lines.push(line(
            seat,
            &ClientMsg::Move {
                ply,
                text: text.clone(),
            },
        ));
        game.play_notation(&text).expect("a bot's move is legal");
    }
    let key = SeatKey {
        code: CODE.into(),
        token: TOKEN.into(),
    };
    lines.extend([
        line("B", &ClientMsg::OfferDraw),
        line("A", &ClientMsg::DeclineDraw),
        line("A", &ClientMsg::RequestUndo),
        line("B", &ClientMsg::AnswerUndo { accept: true }),
        line("A", &ClientMsg::MyGames { seats: vec![key] }),
        line(
            "B",
            &ClientMsg::Register {
                name: format!("Bea-{}", kind.key()),
                password: password(),
            },
        ),
        line(
            "B",
            &ClientMsg::ClaimSeat {
                code: CODE.into(),
                token: TOKEN.into(),
            },
        ),
        line(
            "B",
            &ClientMsg::Resume {
                code: CODE.into(),
                token: None,
            },
        ),
        line("A", &ClientMsg::Watch { code: CODE.into() }),
        line(
            "B",
            &ClientMsg::Resume {
                code: CODE.into(),
                token: Some(TOKEN.into()),
            },
        ),
        line("B", &ClientMsg::Resign),
        line(
            "A",
            &ClientMsg::ChangePassword {
                old: password(),
                new: "battery staple".into(),
            },
        ),
        line(
            "B",
            &ClientMsg::Leaderboard {
                pool: kind.key().into(),
            },
        ),
        line(
            "A",
            &ClientMsg::Player {
                name: format!("Bea-{}", kind.key()),
            },
        ),
        line(
            "A",
            &ClientMsg::Create {
                game: kind.key().into(),
                settings: settings.clone(),
                seat: 1,
                pace: Pace::Correspondence,
                move_seconds: None,
                rated: true,
            },
        ),
        line("B", &ClientMsg::Join { code: CODE.into() }),
        line("B", &ClientMsg::FollowLobby),
        line(
            "A",
            &ClientMsg::PostChallenge {
                terms: ChallengeTerms {
                    game: kind.key().into(),
                    settings: settings.clone(),
                    pace: Pace::Live,
                    move_seconds: Some(30),
                    rated: false,
                    seat: Some(0),
                },
                to: Some(format!("Bea-{}", kind.key())),
            },
        ),
        line(
            "B",
            &ClientMsg::AcceptChallenge {
                id: CHALLENGE.into(),
            },
        ),
        line("A", &ClientMsg::FollowTurns),
        line(
            "B",
            &ClientMsg::PlayNow {
                game: kind.key().into(),
                pace: Pace::Correspondence,
                rated: false,
            },
        ),
        line(
            "B",
            &ClientMsg::CancelChallenge {
                id: CHALLENGE.into(),
            },
        ),
        line("A", &ClientMsg::LogOut),
        line(
            "A",
            &ClientMsg::LogIn {
                name: format!("Ada-{}", kind.key()),
                password: "battery staple".into(),
            },
        ),
        line("B", &ClientMsg::LogOutEverywhere),
        line(
            "A",
            &ClientMsg::DeleteAccount {
                password: "battery staple".into(),
            },
        ),
    ]);
    lines.join("\n").into_bytes()
}

/// Conversations that once failed, kept as they were found: each now gets one error.
const FOUND: &[&str] = &[
    // A ply of usize::MAX overflowed the server's "cannot come yet" message.
    "A {\"type\":\"create\",\"game\":\"adamas\",\"pace\":\"live\"}
B {\"type\":\"join\",\"code\":\"$CODE\"}
B {\"type\":\"move\",\"ply\":18446744073709551615,\"text\":\"e7>e5\"}",
    // So did a seat of usize::MAX in "seat N does not exist".
    "A {\"type\":\"create\",\"game\":\"adaptoid\",\"seat\":18446744073709551615,\"pace\":\"live\"}",
];

fn seeds() -> Vec<Vec<u8>> {
    vec![
        conversation(GameKind::Adamas, &[], 4),
        conversation(GameKind::Absorption, &[("turn_cap", "30")], 5),
        conversation(GameKind::Adaptoid, &[("pie_start", "true")], 3),
        conversation(GameKind::Adomoc, &[("spirals", "ccw")], 6),
    ]
}

/// Plays one conversation; the error replies it got.
async fn play(rooms: &Rooms, input: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(input);
    let peer = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut clients = [Client::new(peer), Client::new(peer)];
    let (mut code, mut token, mut challenge) = (String::new(), String::new(), String::new());
    let mut errors = Vec::new();
    for line in text.lines().take(40) {
        let (who, message) = match line.split_once(' ') {
            Some(("B", message)) => (1, message),
            Some(("A", message)) => (0, message),
            _ => (0, line),
        };
        let message = message
            .replace(CHALLENGE, &challenge)
            .replace(CODE, &code)
            .replace(TOKEN, &token);
        for reply in clients[who].handle(&message, rooms).await {
            let again = ServerMsg::from_json(&reply.to_json()).expect("a reply reads back");
            assert_eq!(again, reply, "a reply reads back differently");
            match &reply {
                ServerMsg::Error { message, .. } => {
                    check_error("server error", message);
                    errors.push(message.clone());
                }
                ServerMsg::Seated {
                    code: given_code,
                    token: given_token,
                    ..
                } => (code, token) = (given_code.clone(), given_token.clone()),
                ServerMsg::ChallengePosted { id } => challenge = id.clone(),
                ServerMsg::State(state) => {
                    if let Err(e) = Followed::from_state((**state).clone()) {
                        panic!("the server sent a game no client can follow: {e}");
                    }
                }
                _ => {}
            }
        }
    }
    for client in &mut clients {
        client.leave().await;
    }
    errors
}

#[test]
fn hostile_conversations_get_short_answers_and_games_a_client_can_follow() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("fuzz.sqlite3").display());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // Any number of games from one address (0: no hourly limit).
    let rooms = Rooms::new(runtime.block_on(Store::open(&database)).unwrap(), 0);
    let corpus = seeds();
    let runs = std::env::var("TABULA_FUZZ_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    // The real conversations go through without an error; each found one gets its error.
    for input in &corpus {
        let errors = runtime.block_on(play(&rooms, input));
        assert!(errors.is_empty(), "{errors:?}");
    }
    for input in FOUND {
        let errors = runtime.block_on(play(&rooms, input.as_bytes()));
        assert_eq!(errors.len(), 1, "{input}: {errors:?}");
    }
    let seed = std::env::var("TABULA_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    let mut mutator = Mutator::new(seed);
    let inputs = (0..runs).map(|_| mutator.next(&corpus));
    for input in inputs {
        let outcome =
            std::panic::catch_unwind(AssertUnwindSafe(|| runtime.block_on(play(&rooms, &input))));
        if outcome.is_err() {
            panic!(
                "the conversation that failed:\n{}",
                String::from_utf8_lossy(&input)
            );
        }
    }
}
