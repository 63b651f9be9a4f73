//! The server on PostgreSQL: whole games, a kill and a restart, and two server processes
//! on one database, a player on each, relaying everything one does to the other.
//! Run where `TABULA_TEST_POSTGRES` names a PostgreSQL server (`.ci/run` starts one).

mod common;

use common::{
    ServerProcess, TestDatabase, create, in_process_at, kill_mid_game_and_restart, next_message,
    play_every_game, play_game, raw, state_where,
};
use tabula_online::protocol::{ClientMsg, Ending, ServerMsg};

#[test]
fn every_game_is_played_to_the_end_on_postgres() {
    let Some(database) = TestDatabase::new("games") else {
        return;
    };
    let server = in_process_at(&database.url);
    play_every_game(&server.address);
}

#[test]
fn a_killed_server_on_postgres_loses_no_acknowledged_move() {
    let Some(database) = TestDatabase::new("kill") else {
        return;
    };
    kill_mid_game_and_restart(&database.url);
}

#[test]
fn two_servers_on_one_database_play_a_game_to_the_end() {
    let Some(database) = TestDatabase::new("two") else {
        return;
    };
    let first = ServerProcess::start_at(&database.url, "127.0.0.1:0");
    let second = ServerProcess::start_at(&database.url, "127.0.0.1:0");
    // The host plays through the first, the guest and the watcher through the second.
    let end = play_game(
        &[&first.address, &second.address],
        "adaptoid",
        &[],
        &["level:1", "random"],
    );
    assert!(end.moves.len() > 2, "{end:?}");
    assert!(
        end.result.contains("wins") || end.result.contains("draw"),
        "{end:?}"
    );
    // Three players, each seat on the other server from the one before.
    let end = play_game(
        &[&first.address, &second.address],
        "adamas",
        &[("players", "3"), ("capture_cap", "30")],
        &["random", "random", "random"],
    );
    assert!(!end.moves.is_empty(), "{end:?}");
}

#[test]
fn offers_take_backs_and_endings_cross_between_servers() {
    let Some(database) = TestDatabase::new("offers") else {
        return;
    };
    let first = ServerProcess::start_at(&database.url, "127.0.0.1:0");
    let second = ServerProcess::start_at(&database.url, "127.0.0.1:0");
    let host = raw(&first.address);
    let (code, _) = create(&host, "adaptoid");
    let guest = raw(&second.address);
    guest.send(&ClientMsg::Join { code: code.clone() });
    state_where(&guest, |s| s.your_seat == Some(1));
    // The host learns that the seat was taken on the other server.
    state_where(&host, |s| s.seats[1].taken);

    let kind = tabula_session::GameKind::parse("adaptoid").unwrap();
    let local = tabula_session::new_match(kind, &[]).unwrap();
    let (legal, _) = local.legal_moves(1);
    host.send(&ClientMsg::Move {
        ply: 0,
        text: legal[0].clone(),
    });
    let moved = next_message(&guest, |m| matches!(m, ServerMsg::Moved { .. }));
    assert!(
        matches!(&moved, ServerMsg::Moved { ply: 0, seat: 0, text, .. } if *text == legal[0]),
        "{moved:?}"
    );

    // A take-back asked on one server and granted on the other.
    host.send(&ClientMsg::RequestUndo);
    state_where(&host, |s| s.undo_request.is_some() && s.moves.len() == 1);
    state_where(&guest, |s| {
        s.undo_request.as_ref().is_some_and(|r| r.by == 0)
    });
    guest.send(&ClientMsg::AnswerUndo { accept: true });
    state_where(&host, |s| s.moves.is_empty() && s.undo_request.is_none());

    // A draw offered on one and accepted on the other.
    guest.send(&ClientMsg::OfferDraw);
    state_where(&host, |s| s.draw_offers == [1]);
    host.send(&ClientMsg::OfferDraw);
    let over = state_where(&guest, |s| s.ending.is_some());
    assert_eq!(over.ending, Some(Ending::DrawAgreed));
    assert_eq!(over.result.as_deref(), Some("Draw agreed"));
    state_where(&host, |s| s.ending == Some(Ending::DrawAgreed));

    // A third server started now finds it all in the database.
    let third = ServerProcess::start_at(&database.url, "127.0.0.1:0");
    let watcher = raw(&third.address);
    watcher.send(&ClientMsg::Watch { code });
    let watched = state_where(&watcher, |_| true);
    assert_eq!(watched.ending, Some(Ending::DrawAgreed));
    assert!(watched.moves.is_empty());
}
