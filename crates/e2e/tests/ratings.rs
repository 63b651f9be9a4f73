//! Rated games through the real server and client: only accounts take a rated game's
//! seats; a game left before everyone moved is not rated; a resignation and a game played
//! to its end by bots move both ratings the right way, in the leaderboard and on each
//! player's page; a restart keeps them; time away shows as a deviation grown; on SQLite
//! and (where `TABULA_TEST_POSTGRES` names one) PostgreSQL, where two server processes
//! ending games of one player at once both count.

mod common;

use common::{
    TestDatabase, ask, connect_as, error_of, in_process, in_process_at, next_message, raw,
    state_where,
};
use std::time::Duration;
use tabula_online::protocol::ratings::PlayerPage;
use tabula_online::protocol::{ClientMsg, Pace, RankedPlayer, ServerMsg};
use tabula_online::unattended::play_to_end;
use tabula_online::{Connection, Goal, OnlineClient};
use tabula_session::rules::Status;
use tabula_session::{AnyMatch, GameKind, new_match};

/// A new account logged in on a new connection: the connection and its session.
fn register(address: &str, name: &str) -> (Connection, String) {
    connect_as(address, name, true)
}

fn create_rated(connection: &Connection, game: &str) -> ServerMsg {
    ask(
        connection,
        ClientMsg::Create {
            game: game.into(),
            settings: vec![],
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: true,
        },
    )
}

/// Ada hosts a rated Adomoc game and Bea joins it: its code.
fn rated_game(ada: &Connection, bea: &Connection) -> String {
    let code = match create_rated(ada, "adomoc") {
        ServerMsg::Seated { code, .. } => code,
        other => panic!("seated, not {other:?}"),
    };
    assert!(state_where(ada, |s| s.code == code).rated);
    let joined = ask(bea, ClientMsg::Join { code: code.clone() });
    assert!(
        matches!(joined, ServerMsg::Seated { seat: 1, .. }),
        "{joined:?}"
    );
    code
}

/// Plays the next legal move of `game` from `connection` (whose turn it is), here too.
fn play_one(connection: &Connection, game: &mut Box<dyn AnyMatch>) {
    let ply = game.record().len();
    let (moves, _) = game.legal_moves(1);
    let text = moves[0].clone();
    game.play_notation(&text).unwrap();
    connection.send(&ClientMsg::Move { ply, text });
    next_message(
        connection,
        |m| matches!(m, ServerMsg::Moved { ply: p, .. } if *p == ply),
    );
}

fn leaderboard(connection: &Connection, pool: &str) -> Vec<RankedPlayer> {
    match ask(connection, ClientMsg::Leaderboard { pool: pool.into() }) {
        ServerMsg::Leaderboard {
            pool: named,
            players,
        } => {
            assert_eq!(named, pool);
            players
        }
        other => panic!("a leaderboard, not {other:?}"),
    }
}

fn page(connection: &Connection, name: &str) -> PlayerPage {
    match ask(connection, ClientMsg::Player { name: name.into() }) {
        ServerMsg::Player(page) => *page,
        other => panic!("a player's page, not {other:?}"),
    }
}

/// `name`'s Adomoc ratings, the oldest first.
fn adomoc_history(connection: &Connection, name: &str) -> Vec<i32> {
    let page = page(connection, name);
    page.ratings
        .iter()
        .find(|r| r.pool == "adomoc")
        .map(|r| r.history.iter().map(|p| p.rating).collect())
        .unwrap_or_default()
}

fn ratings_story(address: &str) {
    let (ada, ada_session) = register(address, "Ada");
    let (bea, bea_session) = register(address, "Bea");
    let stranger = raw(address);

    // Only accounts create or join a rated game.
    let refused = error_of(create_rated(&stranger, "adomoc"));
    assert!(
        refused.contains("log in to create a rated game"),
        "{refused}"
    );
    let code = rated_game(&ada, &bea);
    let refused = error_of(ask(&stranger, ClientMsg::Join { code: code.clone() }));
    assert!(refused.contains("is rated: log in"), "{refused}");

    // Left before Bea moved: not rated.
    let mut game = new_match(GameKind::Adomoc, &[]).unwrap();
    play_one(&ada, &mut game);
    bea.send(&ClientMsg::Resign);
    let over = state_where(&ada, |s| s.code == code && s.result.is_some());
    assert!(over.rated);
    assert!(page(&stranger, "Ada").ratings.is_empty(), "not rated");
    assert!(leaderboard(&stranger, "adomoc").is_empty());

    // Both move, then Bea resigns: Ada wins, and the two newcomers part by the same amount.
    let won = rated_game(&ada, &bea);
    let mut game = new_match(GameKind::Adomoc, &[]).unwrap();
    play_one(&ada, &mut game);
    play_one(&bea, &mut game);
    bea.send(&ClientMsg::Resign);
    let ended = state_where(&ada, |s| s.code == won && s.result.is_some());
    let board = leaderboard(&stranger, "adomoc");
    let names: Vec<&str> = board.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Bea"]);
    let (first, second) = (board[0].rating, board[1].rating);
    assert_eq!((first.games, second.games), (1, 1));
    assert!(first.rating > 1500 && second.rating < 1500);
    assert_eq!(first.rating - 1500, 1500 - second.rating);
    assert!(first.provisional && second.provisional);
    assert!(first.deviation < 350);
    // The end shows the players' new ratings on their seats, and so does the game later.
    let shown = |state: &tabula_online::protocol::GameState| -> Vec<Option<i32>> {
        state
            .seats
            .iter()
            .map(|s| s.rating.map(|r| r.rating))
            .collect()
    };
    assert_eq!(shown(&ended), [Some(first.rating), Some(second.rating)]);
    stranger.send(&ClientMsg::Watch { code: won.clone() });
    let watched = state_where(&stranger, |s| s.code == won);
    assert_eq!(shown(&watched), shown(&ended));

    // A third game, played to its end by bots through the client, Bea hosting (within a
    // cap on its length, at which it is drawn, so the test stays short).
    let mut host = OnlineClient::start(
        address,
        Goal::Create {
            game: "adomoc".into(),
            settings: vec![("ply_cap".into(), "100".into())],
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: true,
        },
    )
    .unwrap();
    host.use_session(bea_session);
    let patience = Duration::from_secs(60);
    assert!(host.poll_until(patience, |_| {}, |c| c.game().is_some()));
    let played = host.key().unwrap().code.clone();
    let mut guest = OnlineClient::start(
        address,
        Goal::Join {
            code: played.clone(),
        },
    )
    .unwrap();
    guest.use_session(ada_session);
    assert!(guest.poll_until(patience, |_| {}, |c| c.game().is_some()));
    let bots = [(host, 11), (guest, 12)].map(|(mut client, seed)| {
        std::thread::spawn(move || {
            let spec = "random".parse().unwrap();
            play_to_end(&mut client, &spec, seed, |_, _| {}).unwrap();
            client
        })
    });
    let mut clients: Vec<OnlineClient> = bots.into_iter().map(|b| b.join().unwrap()).collect();
    let status = clients[0].game().unwrap().game.status();
    // The move that ended it is followed by the game with both players' new ratings.
    let rated_twice = |c: &OnlineClient| {
        c.game()
            .unwrap()
            .state
            .seats
            .iter()
            .all(|s| s.rating.map(|r| r.games) == Some(2))
    };
    for client in &mut clients {
        assert!(client.poll_until(patience, |_| {}, rated_twice));
    }
    let ada_history = adomoc_history(&stranger, "Ada");
    let bea_history = adomoc_history(&stranger, "Bea");
    assert_eq!((ada_history.len(), bea_history.len()), (2, 2));
    let ada_moved = ada_history[1] - ada_history[0];
    let bea_moved = bea_history[1] - bea_history[0];
    match status {
        // Bea holds seat 0.
        Status::Win { winner, .. } if winner.index() == 0 => {
            assert!(bea_moved > 0 && ada_moved < 0, "{status:?}")
        }
        Status::Win { .. } => assert!(ada_moved > 0 && bea_moved < 0, "{status:?}"),
        // A draw lifts the lower rated.
        Status::Draw { .. } => assert!(bea_moved > 0 && ada_moved < 0, "{status:?}"),
        Status::Ongoing => panic!("the bots' game ended"),
    }

    // Ada's page: her rating, its history through the two rated games, her recent games.
    let ada_page = page(&stranger, "ada");
    assert_eq!(ada_page.name, "Ada");
    let adomoc = &ada_page.ratings[0];
    assert_eq!(adomoc.pool, "adomoc");
    assert_eq!(adomoc.rating.games, 2);
    let codes: Vec<&str> = adomoc.history.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(codes, [won.as_str(), played.as_str()]);
    let listed: Vec<(&str, bool)> = ada_page
        .games
        .iter()
        .map(|g| (g.code.as_str(), g.rated))
        .collect();
    for code in [&code, &won, &played] {
        assert!(
            listed.contains(&(code.as_str(), true)),
            "{code} in {listed:?}"
        );
    }
    let lost = ada_page.games.iter().find(|g| g.code == won).unwrap();
    assert_eq!(lost.players, [Some("Ada".into()), Some("Bea".into())]);
    assert!(lost.result.as_deref().unwrap().contains("resigned"));

    // Questions with nothing to answer are answered so.
    let unknown = error_of(ask(&stranger, ClientMsg::Player { name: "Zed".into() }));
    assert!(unknown.contains("no player named"), "{unknown}");
    let long = "Z".repeat(10_000);
    let unknown = error_of(ask(&stranger, ClientMsg::Player { name: long }));
    assert!(unknown.len() < 200, "{unknown}");
    let pool = error_of(ask(
        &stranger,
        ClientMsg::Leaderboard {
            pool: "chess".into(),
        },
    ));
    assert!(pool.contains("adamas-3"), "{pool}");
    assert!(leaderboard(&stranger, "adamas-3").is_empty());
}

/// The leaderboard as (name, rating, games).
fn standings(address: &str) -> Vec<(String, i32, u32)> {
    leaderboard(&raw(address), "adomoc")
        .into_iter()
        .map(|p| (p.name, p.rating.rating, p.rating.games))
        .collect()
}

/// Each player of the Adomoc leaderboard: the deviation shown there and on their page.
fn deviations(address: &str) -> Vec<(String, u32, u32)> {
    let stranger = raw(address);
    leaderboard(&stranger, "adomoc")
        .into_iter()
        .map(|player| {
            let on_page = page(&stranger, &player.name).ratings[0].rating;
            (player.name, player.rating.deviation, on_page.deviation)
        })
        .collect()
}

/// Moves each rating's last game two years back in the store (`updated_ms`).
const TWO_YEARS_BACK: &str =
    "UPDATE ratings SET updated_ms = updated_ms - 63072000000 WHERE updated_ms > 0";

/// After two years away each deviation shows grown (as Glicko-2 grows it for the rating
/// periods missed), alike on the leaderboard and on the player's page.
fn grown_for_time_away(before: &[(String, u32, u32)], after: &[(String, u32, u32)]) {
    assert_eq!(before.len(), after.len(), "{before:?} {after:?}");
    for (name, board, on_page) in before {
        let (_, board_after, page_after) = after.iter().find(|(n, ..)| n == name).unwrap();
        assert_eq!(board, on_page, "{name}");
        assert_eq!(board_after, page_after, "{name}");
        assert!(
            board_after > &(board + 10) && *board_after <= 350,
            "{name}: {board} -> {board_after}"
        );
    }
}

#[test]
fn ratings_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ratings.sqlite3");
    let before = {
        let server = in_process(&path);
        ratings_story(&server.address);
        standings(&server.address)
    };
    // A restart keeps the ratings.
    let server = in_process(&path);
    assert_eq!(standings(&server.address), before);
    assert_eq!(adomoc_history(&raw(&server.address), "Bea").len(), 2);
    let shown = deviations(&server.address);
    drop(server);
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(TWO_YEARS_BACK, [])
        .unwrap();
    let server = in_process(&path);
    grown_for_time_away(&shown, &deviations(&server.address));
}

/// Dan beats Eve on one server process and Fay on another at the same moment: both
/// results count, the second from the first's rating.
fn two_ends_at_once(first: &str, second: &str) {
    let (dan_here, session) = register(first, "Dan");
    let (eve, _) = register(first, "Eve");
    let (fay, _) = register(second, "Fay");
    let dan_there = raw(second);
    let logged = ask(&dan_there, ClientMsg::Authenticate { session });
    assert!(matches!(logged, ServerMsg::LoggedIn { .. }), "{logged:?}");
    let mut losers = Vec::new();
    for (dan, loser) in [(dan_here, eve), (dan_there, fay)] {
        rated_game(&dan, &loser);
        let mut game = new_match(GameKind::Adomoc, &[]).unwrap();
        play_one(&dan, &mut game);
        play_one(&loser, &mut game);
        losers.push((dan, loser));
    }
    let resigning: Vec<_> = losers
        .into_iter()
        .map(|(dan, loser)| {
            std::thread::spawn(move || {
                loser.send(&ClientMsg::Resign);
                state_where(&dan, |s| s.result.is_some());
            })
        })
        .collect();
    for thread in resigning {
        thread.join().unwrap();
    }
    let history = adomoc_history(&raw(first), "Dan");
    assert_eq!(history.len(), 2, "{history:?}");
    assert!(1500 < history[0] && history[0] < history[1], "{history:?}");
    let dan = page(&raw(second), "Dan");
    assert_eq!(dan.ratings[0].rating.games, 2);
    assert_eq!(dan.ratings[0].rating.rating, history[1]);
}

#[test]
fn ratings_on_postgres() {
    let Some(database) = TestDatabase::new("ratings") else {
        return;
    };
    let server = in_process_at(&database.url);
    ratings_story(&server.address);
    let shown = deviations(&server.address);
    database.sql(TWO_YEARS_BACK);
    grown_for_time_away(&shown, &deviations(&server.address));
    // Another server process on the same database shows the same leaderboard.
    let second = in_process_at(&database.url);
    let names: Vec<String> = leaderboard(&raw(&second.address), "adomoc")
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"Ada".to_string()));
    two_ends_at_once(&server.address, &second.address);
}
