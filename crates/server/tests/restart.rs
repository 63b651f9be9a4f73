//! A server killed with SIGKILL in the middle of a game and started again: every move it
//! acknowledged is still there, the clients come back by themselves, and the game ends.
//! Also the move clock, which ends a game nobody moves in.

mod common;

use common::{PATIENCE, ServerProcess, in_process, next_message, raw};
use std::time::{Duration, Instant};
use tabula_online::protocol::{ClientMsg, Ending, Pace, ServerMsg};
use tabula_online::unattended::play_to_end;
use tabula_online::{Event, Goal, OnlineClient, Update};

#[test]
fn a_killed_server_loses_no_acknowledged_move_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("kill.sqlite3");
    let server = ServerProcess::start(&database, "127.0.0.1:0");
    let address = server.address.clone();
    let mut host = OnlineClient::start(
        &address,
        Goal::Create {
            game: "adomoc".into(),
            settings: vec![("ply_cap".into(), "600".into())],
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
        },
    )
    .unwrap();
    assert!(host.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    let code = host.key().unwrap().code.clone();
    let mut guest = OnlineClient::start(&address, Goal::Join { code: code.clone() }).unwrap();
    assert!(guest.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    let watcher = raw(&address);
    watcher.send(&ClientMsg::Watch { code: code.clone() });
    let ServerMsg::State(watched) = next_message(&watcher, |m| matches!(m, ServerMsg::State(_)))
    else {
        unreachable!()
    };
    // Every move the watcher is told of was stored before it was told.
    let mut acknowledged = watched.moves;

    let players: Vec<_> = [host, guest]
        .into_iter()
        .enumerate()
        .map(|(seat, mut client)| {
            std::thread::spawn(move || {
                let mut reconnected = false;
                let result = play_to_end(
                    &mut client,
                    &"random".parse().unwrap(),
                    seat as u64,
                    |_, u| {
                        reconnected |= matches!(u, Update::Connected);
                    },
                )
                .unwrap();
                assert!(reconnected, "seat {seat} came back after the restart");
                (result, client.game().unwrap().state.moves.clone())
            })
        })
        .collect();

    let end = Instant::now() + PATIENCE;
    while acknowledged.len() < 40 && Instant::now() < end {
        if let Some(Event::Message(ServerMsg::Moved { ply, text, .. })) =
            watcher.next_timeout(Duration::from_millis(50))
        {
            assert_eq!(ply, acknowledged.len());
            acknowledged.push(text);
        }
    }
    server.kill();
    while let Some(event) = watcher.next_timeout(Duration::from_millis(200)) {
        if let Event::Message(ServerMsg::Moved { ply, text, .. }) = event {
            assert_eq!(ply, acknowledged.len());
            acknowledged.push(text);
        }
    }
    assert!(
        acknowledged.len() >= 40,
        "the game was under way when killed"
    );

    let listen = address.strip_prefix("http://").unwrap();
    let _again = ServerProcess::start(&database, listen);
    let ends: Vec<(String, Vec<String>)> = players.into_iter().map(|p| p.join().unwrap()).collect();
    assert_eq!(ends[0], ends[1], "both seats saw the same game");
    let moves = &ends[0].1;
    assert!(
        moves.starts_with(&acknowledged),
        "{} acknowledged moves, {} at the end",
        acknowledged.len(),
        moves.len()
    );
    assert!(
        moves.len() > acknowledged.len(),
        "the game went on after the restart"
    );
    assert!(
        ends[0].0.contains("cap") || ends[0].0.contains("wins"),
        "{}",
        ends[0].0
    );
}

#[test]
fn the_player_who_does_not_move_in_time_loses() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("clock.sqlite3"));
    let host = raw(&server.address);
    host.send(&ClientMsg::Create {
        game: "absorption".into(),
        settings: vec![],
        seat: 0,
        pace: Pace::Live,
        move_seconds: Some(5),
    });
    let ServerMsg::Seated { code, .. } =
        next_message(&host, |m| matches!(m, ServerMsg::Seated { .. }))
    else {
        unreachable!()
    };
    // The clock does not run until every seat is taken.
    let first = next_message(&host, |m| matches!(m, ServerMsg::State(_)));
    let ServerMsg::State(first) = first else {
        unreachable!()
    };
    assert_eq!(first.deadline_ms, None);
    let guest = raw(&server.address);
    guest.send(&ClientMsg::Join { code });
    let over = next_message(
        &guest,
        |m| matches!(m, ServerMsg::State(s) if s.ending.is_some()),
    );
    let ServerMsg::State(over) = over else {
        unreachable!()
    };
    assert_eq!(over.ending, Some(Ending::OutOfTime { seat: 0 }));
    assert_eq!(
        over.result.as_deref(),
        Some("Light ran out of time: Dark wins")
    );
    assert_eq!(over.deadline_ms, None);
}
