//! Whole games of every game between bot clients, through a server on 127.0.0.1 with a
//! temporary SQLite file; a watcher sees the same game end the same way.

mod common;

use common::{PATIENCE, host_and_guest, in_process, play_every_game, play_game};
use std::time::Duration;
use tabula_bot::BotSpec;
use tabula_online::protocol::{ClientMsg, Pace};
use tabula_online::unattended::play_to_end;
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
            rated: false,
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

/// One random seat that answers at once, as `online host/join --seat random` plays: the
/// moves it saw when the game ended, or what went wrong (an error the server sent, or
/// nothing heard for [`PATIENCE`] while the game goes on: a stall).
fn fast_random_seat(mut client: OnlineClient, seed: u64) -> Result<Vec<String>, String> {
    let random = tabula_bot::BotSpec::Random;
    let mut quiet = Duration::ZERO;
    let step = Duration::from_millis(50);
    loop {
        let updates = client.poll(step);
        quiet = if updates.is_empty() {
            quiet + step
        } else {
            Duration::ZERO
        };
        if let Some(Update::Error(e)) = updates.iter().find(|u| matches!(u, Update::Error(_))) {
            return Err(format!("told: {e}"));
        }
        if quiet > PATIENCE {
            let moves = client.game().map_or(0, |g| g.state.moves.len());
            return Err(format!(
                "nothing happened for {PATIENCE:?} after {moves} moves"
            ));
        }
        let Some(game) = client.game() else { continue };
        if game.is_over() {
            return Ok(game.state.moves.clone());
        }
        if game.is_my_turn() && !client.is_waiting() {
            let ply = game.state.moves.len() as u64;
            let text = game
                .game
                .thinker(&random, seed ^ ply)
                .think_through()
                .unwrap();
            client.play(&text)?;
        }
    }
}

/// The reproducer: two random seats playing Absorption through the server stood still at
/// turn 145, when the server refused one of a fast seat's moves for its rate ("at most 20
/// a second; this one was ignored") and the seat waited for it for ever. Seats that answer
/// at once play every game to its end, side by side, and none is ever refused. Each game has
/// its own settings but Adomoc, whose random games go on past 10,000 plies without a cap;
/// every game is some hundreds of plies, several times what a burst lets through at once.
#[test]
fn fast_random_seats_play_every_game_to_the_end_within_the_rate() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("fast.sqlite3"));
    let games: [(&str, &[(&str, &str)]); 4] = [
        ("absorption", &[]),
        ("adamas", &[]),
        ("adaptoid", &[]),
        ("adomoc", &[("ply_cap", "400")]),
    ];
    let games: Vec<_> = games
        .into_iter()
        .enumerate()
        .map(|(i, (game, settings))| {
            let address = server.address.clone();
            let settings = settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            std::thread::spawn(move || {
                let goal = Goal::Create {
                    game: game.into(),
                    settings,
                    seat: 0,
                    pace: Pace::Live,
                    move_seconds: None,
                    rated: false,
                };
                let mut host = OnlineClient::start(&address, goal).unwrap();
                assert!(host.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
                let code = host.key().unwrap().code.clone();
                let mut guest = OnlineClient::start(&address, Goal::Join { code }).unwrap();
                assert!(guest.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
                let seed = 100 * i as u64;
                let other = std::thread::spawn(move || fast_random_seat(guest, seed + 1));
                let hosts = fast_random_seat(host, seed);
                let guests = other.join().unwrap();
                (game, hosts, guests)
            })
        })
        .collect();
    for game in games {
        let (game, hosts, guests) = game.join().unwrap();
        let moves = hosts.unwrap_or_else(|e| panic!("{game}, the host: {e}"));
        assert_eq!(guests, Ok(moves.clone()), "{game}: both seats saw one game");
        assert!(moves.len() > 40, "{game}: {} moves", moves.len());
    }
}

/// A resignation sent beside a move, either side of it (a player pressing Resign as their
/// move goes out): the server takes one order, and the bot at the other seat ends with the
/// very moves and position the resigning side ends with. The browser test's lobby game
/// once saw the two sides end apart (CI, 2026-12-07).
#[test]
fn a_resignation_beside_a_move_ends_the_game_alike_on_both_sides() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("resign.sqlite3"));
    for (trial, resign_first) in [(0, false), (1, true), (2, false), (3, true)] {
        let (mut host, mut guest) = host_and_guest(&server.address, "adaptoid", &[]);
        // A guest that never sees the end would wait for ever: its end comes by a channel
        // the test waits on for a while only.
        let (ended, end) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let spec = "level:1".parse().unwrap();
            let result = play_to_end(&mut guest, &spec, 11, |_, _| {}).unwrap();
            let game = guest.game().unwrap();
            let _ = ended.send((
                result,
                game.game.position_string(),
                game.state.moves.clone(),
            ));
        });
        // The host's tenth move or so goes out with the resignation.
        let resign_at = 18 + 2 * trial;
        let mut resigned = false;
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            assert!(
                std::time::Instant::now() < deadline,
                "trial {trial}: the host did not see the game end"
            );
            host.poll(Duration::from_millis(20));
            let game = host.game().unwrap();
            if game.is_over() && !host.is_waiting() {
                break;
            }
            if game.is_over() || !game.is_my_turn() || host.is_waiting() || resigned {
                continue;
            }
            let held = game.state.moves.len();
            let text = game
                .game
                .thinker(&BotSpec::Random, held as u64)
                .think_through()
                .unwrap();
            if held < resign_at {
                host.play(&text).unwrap();
                continue;
            }
            resigned = true;
            if resign_first {
                host.send(&ClientMsg::Resign);
            }
            // Refused when the resignation came first and was heard: the game is over.
            let _ = host.play(&text);
            if !resign_first {
                host.send(&ClientMsg::Resign);
            }
        }
        let (result, position, moves) = end
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|_| panic!("trial {trial}: the bot's side did not see the game end"));
        let game = host.game().unwrap();
        assert_eq!(
            (&result, &position, &moves),
            (
                &game.result().unwrap(),
                &game.game.position_string(),
                &game.state.moves
            ),
            "trial {trial} (resignation {} the move)",
            if resign_first { "before" } else { "after" }
        );
        assert_eq!(result, "White resigned: Black wins", "trial {trial}");
    }
}
