//! Whole games of every game between bot clients, through a server on 127.0.0.1 with a
//! temporary SQLite file; a watcher sees the same game end the same way.

mod common;

use common::{PATIENCE, in_process};
use std::time::Duration;
use tabula_online::protocol::Pace;
use tabula_online::unattended::play_to_end;
use tabula_online::{Goal, OnlineClient, Update};

/// What one seat saw at the end: the result and the final position.
#[derive(Debug, PartialEq)]
struct End {
    result: String,
    position: String,
    moves: Vec<String>,
}

fn play_game(server: &str, game: &str, settings: &[(&str, &str)], bots: &[&str]) -> End {
    let settings: Vec<(String, String)> = settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut host = OnlineClient::start(
        server,
        Goal::Create {
            game: game.into(),
            settings,
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
        },
    )
    .unwrap();
    assert!(host.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    let code = host.key().expect("the host holds a seat").code.clone();
    let mut seats = vec![host];
    // One after another, so seats are taken in order.
    for _ in 1..bots.len() {
        let mut guest = OnlineClient::start(server, Goal::Join { code: code.clone() }).unwrap();
        assert!(guest.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
        seats.push(guest);
    }
    let players: Vec<_> = seats
        .into_iter()
        .zip(bots)
        .enumerate()
        .map(|(i, (mut client, bot))| {
            let spec = bot.parse().unwrap();
            std::thread::spawn(move || {
                let mut errors = Vec::new();
                let result = play_to_end(&mut client, &spec, 7 + i as u64, |_, update| {
                    if let Update::Error(e) = update {
                        errors.push(e.clone());
                    }
                })
                .unwrap();
                assert!(errors.is_empty(), "seat {i} was told: {errors:?}");
                let game = client.game().unwrap();
                assert_eq!(game.state.your_seat, Some(i));
                End {
                    result,
                    position: game.game.position_string(),
                    moves: game.state.moves.clone(),
                }
            })
        })
        .collect();
    let ends: Vec<End> = players.into_iter().map(|p| p.join().unwrap()).collect();
    for end in &ends[1..] {
        assert_eq!(end, &ends[0], "every seat saw the same game");
    }
    // Someone who comes to watch afterwards gets the same game from the store.
    let mut watcher = OnlineClient::start(server, Goal::Watch { code }).unwrap();
    assert!(watcher.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    let watched = watcher.game().unwrap();
    assert_eq!(watched.state.your_seat, None);
    assert_eq!(watched.state.moves, ends[0].moves);
    assert_eq!(watched.result().as_deref(), Some(ends[0].result.as_str()));
    assert!(watched.is_over());
    ends.into_iter().next().unwrap()
}

#[test]
fn every_game_is_played_to_the_end_between_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("games.sqlite3"));
    let cases: [(&str, &[(&str, &str)]); 4] = [
        ("adamas", &[]),
        ("absorption", &[("turn_cap", "60")]),
        ("adaptoid", &[]),
        ("adomoc", &[("ply_cap", "150")]),
    ];
    for (game, settings) in cases {
        let end = play_game(&server.address, game, settings, &["random", "random"]);
        assert!(!end.moves.is_empty(), "{game}: {end:?}");
        // The result line is the rules' own, as `apply` and `play` print it.
        let local = {
            let kind = tabula_session::GameKind::parse(game).unwrap();
            let settings: Vec<(String, String)> = settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let mut replay = tabula_session::new_match(kind, &settings).unwrap();
            for mv in &end.moves {
                replay.play_notation(mv).unwrap();
            }
            replay
        };
        assert_eq!(end.result, local.status_text(), "{game}");
        assert_eq!(end.position, local.position_string(), "{game}");
    }
}

#[test]
fn three_players_play_adamas_with_a_searching_bot() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("three.sqlite3"));
    let end = play_game(
        &server.address,
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
