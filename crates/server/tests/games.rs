//! Whole games of every game between bot clients, through a server on 127.0.0.1 with a
//! temporary SQLite file; a watcher sees the same game end the same way.

mod common;

use common::{PATIENCE, in_process, play_every_game, play_game};
use std::time::Duration;
use tabula_online::protocol::Pace;
use tabula_online::{Goal, OnlineClient, Update};

#[test]
fn every_game_is_played_to_the_end_between_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("games.sqlite3"));
    play_every_game(&server.address);
}

#[test]
fn three_players_play_adamas_with_a_searching_bot() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("three.sqlite3"));
    let end = play_game(
        &[&server.address],
        "adamas",
        &[("players", "3"), ("capture_cap", "40")],
        &["uct:iters=50", "random", "random"],
    );
    assert!(
        end.result.contains("wins") || end.result.contains("draw"),
        "{end:?}"
    );
}

#[test]
fn a_full_game_refuses_another_player() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("full.sqlite3"));
    let mut host = OnlineClient::start(
        &server.address,
        Goal::Create {
            game: "adaptoid".into(),
            settings: vec![],
            seat: 1,
            pace: Pace::Correspondence,
            move_seconds: None,
        },
    )
    .unwrap();
    assert!(host.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    assert_eq!(host.game().unwrap().state.your_seat, Some(1));
    let code = host.key().unwrap().code.clone();
    let mut guest =
        OnlineClient::start(&server.address, Goal::Join { code: code.clone() }).unwrap();
    assert!(guest.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    assert_eq!(guest.game().unwrap().state.your_seat, Some(0));
    let mut third = OnlineClient::start(&server.address, Goal::Join { code }).unwrap();
    let mut refused = String::new();
    third.poll_until(
        Duration::from_secs(10),
        |u| {
            if let Update::Error(e) = u {
                refused = e.clone();
            }
        },
        |_| false,
    );
    assert!(refused.contains("is full"), "{refused}");
    assert!(third.game().is_none() && third.key().is_none());
}
