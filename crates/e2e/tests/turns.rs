//! "Your turn" through the real server and client: an account following its turns is
//! told of each game that comes to wait for its move, and of each that stops, and no other
//! account is; a connection that logs out hears no more; a new connection finds the list
//! from the store; a game made from a challenge is told too. On SQLite, and on PostgreSQL with each player on another server process
//! (the game open there or not).

mod common;

use common::{
    ServerProcess, TestDatabase, ask, connect_as, error_of, in_process, next_message, raw,
};
use std::time::Duration;
use tabula_online::protocol::{ChallengeTerms, ClientMsg, GameSummary, Pace, ServerMsg};
use tabula_online::{Connection, Event};

/// The waiting list that `follow_turns` answers on `connection`.
fn follow_turns(connection: &Connection) -> Vec<GameSummary> {
    match ask(connection, ClientMsg::FollowTurns) {
        ServerMsg::Waiting { games } => games,
        other => panic!("the games waiting, not {other:?}"),
    }
}

/// The next waiting list told on `connection` (passing over anything else).
fn next_waiting(connection: &Connection) -> Vec<String> {
    match next_message(connection, |m| matches!(m, ServerMsg::Waiting { .. })) {
        ServerMsg::Waiting { games } => codes(&games),
        _ => unreachable!(),
    }
}

fn codes(games: &[GameSummary]) -> Vec<String> {
    games.iter().map(|g| g.code.clone()).collect()
}

/// Every waiting list told on `connection` until it has been quiet a while.
fn lists_told(connection: &Connection) -> Vec<Vec<String>> {
    let mut lists = Vec::new();
    while let Some(event) = connection.next_timeout(Duration::from_millis(700)) {
        if let Event::Message(ServerMsg::Waiting { games }) = event {
            lists.push(codes(&games));
        }
    }
    lists
}

/// A correspondence game of Adomoc created by `connection`'s account (seat 0, which moves
/// first): its code.
fn create(connection: &Connection) -> String {
    connection.send(&ClientMsg::Create {
        game: "adomoc".into(),
        settings: vec![],
        seat: 0,
        pace: Pace::Correspondence,
        move_seconds: None,
        rated: false,
    });
    match next_message(connection, |m| matches!(m, ServerMsg::Seated { .. })) {
        ServerMsg::Seated { code, .. } => code,
        _ => unreachable!(),
    }
}

fn join(connection: &Connection, code: &str) {
    connection.send(&ClientMsg::Join { code: code.into() });
    next_message(connection, |m| matches!(m, ServerMsg::Seated { .. }));
}

/// `servers[0]` is where Ada and Cyd play and Ada follows her turns; `servers[1]` where
/// Bea plays and Bea and Cyd follow theirs.
/// Returns the games left waiting for Ada (seat 0), the longest waiting first, and the one
/// over.
fn turns_story(servers: [&str; 2]) -> ([String; 2], String) {
    let [here, there] = servers;
    let ada = connect_as(here, "Ada", true).0;
    let bea = connect_as(there, "Bea", true).0;
    let cyd = connect_as(here, "Cyd", true).0;
    let ada_turns = connect_as(here, "Ada", false).0;
    let bea_turns = connect_as(there, "Bea", false).0;
    let cyd_turns = connect_as(there, "Cyd", false).0;
    for turns in [&ada_turns, &bea_turns, &cyd_turns] {
        assert!(follow_turns(turns).is_empty());
    }

    // Ada's game waits for nobody until Bea sits down; then for Ada, who moves first.
    let ab = create(&ada);
    join(&bea, &ab);
    assert_eq!(next_waiting(&ada_turns), [ab.as_str()]);
    // Ada moves: it waits for Bea (told on the other process, where the game is open).
    ada.send(&ClientMsg::Move {
        ply: 0,
        text: "Fa3a5".into(),
    });
    assert_eq!(next_waiting(&bea_turns), [ab.as_str()]);
    assert_eq!(next_waiting(&ada_turns), Vec::<String>::new());

    // Ada and Cyd play here; Cyd follows his turns there, where the game is not open.
    let ac = create(&cyd);
    join(&ada, &ac);
    assert_eq!(next_waiting(&cyd_turns), [ac.as_str()]);
    cyd.send(&ClientMsg::Move {
        ply: 0,
        text: "Fa3a5".into(),
    });
    assert_eq!(next_waiting(&cyd_turns), Vec::<String>::new());
    assert_eq!(next_waiting(&ada_turns), [ac.as_str()]);

    // Bea answers in the first game: both of Ada's games wait for her, the longer first.
    bea.send(&ClientMsg::Move {
        ply: 1,
        text: "Ff3f5".into(),
    });
    assert_eq!(next_waiting(&bea_turns), Vec::<String>::new());
    assert_eq!(next_waiting(&ada_turns), [ac.as_str(), ab.as_str()]);

    // Nobody heard of another's game.
    for (turns, own) in [(&bea_turns, &ab), (&cyd_turns, &ac)] {
        for list in lists_told(turns) {
            assert!(list.iter().all(|code| code == own), "{list:?}");
        }
    }

    // A new connection finds the list kept, the one waiting longest first.
    let again = connect_as(there, "Ada", false).0;
    assert_eq!(codes(&follow_turns(&again)), [ac.as_str(), ab.as_str()]);

    // Logged out, a connection hears no more.
    assert!(matches!(
        ask(&again, ClientMsg::LogOut),
        ServerMsg::LoggedOut
    ));
    // (Ada's connection follows the game she joined last.)
    ada.send(&ClientMsg::Resign);
    assert_eq!(next_waiting(&ada_turns), [ab.as_str()]);
    assert!(lists_told(&again).is_empty());

    // A game made from Ada's challenge, taken there: it waits for her first move.
    let terms = ChallengeTerms {
        game: "adomoc".into(),
        settings: vec![],
        pace: Pace::Correspondence,
        move_seconds: None,
        rated: false,
        seat: Some(0),
    };
    let ServerMsg::ChallengePosted { id } = ask(&ada, ClientMsg::PostChallenge { terms, to: None })
    else {
        panic!("posted")
    };
    let lobby_there = connect_as(there, "Bea", false).0;
    ask(&lobby_there, ClientMsg::FollowLobby);
    lobby_there.send(&ClientMsg::AcceptChallenge { id });
    let made = match next_message(&lobby_there, |m| matches!(m, ServerMsg::Seated { .. })) {
        ServerMsg::Seated { code, .. } => code,
        _ => unreachable!(),
    };
    assert_eq!(next_waiting(&ada_turns), [ab.as_str(), made.as_str()]);
    ([ab, made], ac)
}

#[test]
fn each_account_is_told_of_its_turns_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("turns.sqlite3");
    let server = in_process(&path);
    let (waiting, over) = turns_story([&server.address, &server.address]);
    drop(server);

    // As if stored before the store kept turns: learnt again as the server starts.
    let database = rusqlite::Connection::open(&path).unwrap();
    database
        .execute_batch("UPDATE games SET waiting_seat = -1")
        .unwrap();
    let server = in_process(&path);
    let ada = connect_as(&server.address, "Ada", false).0;
    assert_eq!(codes(&follow_turns(&ada)), waiting);
    let kept = |code: &str| -> Option<i64> {
        database
            .query_row(
                "SELECT waiting_seat FROM games WHERE code = ?1",
                [code],
                |row| row.get(0),
            )
            .unwrap()
    };
    let end = std::time::Instant::now() + common::PATIENCE;
    let learning = || {
        [&waiting[0], &waiting[1], &over]
            .map(|code| kept(code))
            .contains(&Some(-1))
    };
    while learning() && std::time::Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        [&waiting[0], &waiting[1], &over].map(|code| kept(code)),
        [Some(0), Some(0), None]
    );
}

#[test]
fn turns_are_told_across_two_server_processes() {
    let Some(database) = TestDatabase::new("turns") else {
        return;
    };
    let first = ServerProcess::start_at(&database.url, "127.0.0.1:0");
    let second = ServerProcess::start_at(&database.url, "127.0.0.1:0");
    turns_story([&first.address, &second.address]);
}

#[test]
fn turns_are_for_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("anyone.sqlite3"));
    let visitor = raw(&server.address);
    let refused = error_of(ask(&visitor, ClientMsg::FollowTurns));
    assert!(refused.contains("log in to follow your turns"), "{refused}");
}
