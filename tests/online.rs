//! Online games in the headless app against a real server on 127.0.0.1: the app creates
//! a game, a bot joins it elsewhere through the client the terminal uses, and they play
//! it out through the same turn, phases and animations as a game here; take-backs are
//! asked of the opponent; a resignation ends the game on both sides; a bad code is
//! refused with the reason.

mod common;
use common::the_match;

use bevy::prelude::*;
use common::{board_settled, headless_app, phase, screen};
use std::thread::{self, JoinHandle};
use std::time::Duration;
use tabula::bot::BotRunner;
use tabula::current_game::{CurrentGame, Seat};
use tabula::online::{GoOnline, KeptSeats, OnlineAction, OnlineGame, SEATS_FILE};
use tabula::phase::TurnPhase;
use tabula::screens::Screen;
use tabula::storage::Storage;
use tabula::turn::{PlayerInput, Travel};
use tabula_bot::BotSpec;
use tabula_online::protocol::Pace;
use tabula_online::unattended::play_to_end;
use tabula_online::{Goal, OnlineClient};
use tabula_server::Background;

struct Setup {
    _dir: tempfile::TempDir,
    server: Background,
    storage: Storage,
    app: App,
}

/// A server with its own database, and the app (keeping its files in the same scratch
/// folder) on the online screen.
fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("games.db").display());
    let server = Background::start(&database, "127.0.0.1:0").unwrap();
    let storage = Storage::at(dir.path().join("data"));
    let mut app = headless_app(BotRunner::Background, storage.clone());
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Online);
    app.update();
    Setup {
        _dir: dir,
        server,
        storage,
        app,
    }
}

/// Runs frames until `done` holds, giving the network and the bot time.
fn run_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    for _ in 0..60_000 {
        if done(app) {
            return;
        }
        app.update();
        thread::sleep(Duration::from_millis(1));
    }
    panic!("{what} did not happen");
}

fn line(app: &App) -> Vec<String> {
    the_match(app).line().to_vec()
}

fn server_moves(app: &App) -> Vec<String> {
    let online = app.world().resource::<OnlineGame>();
    online.client.game().unwrap().state.moves.clone()
}

/// Creates a game of `game` from the app, taking the first seat; returns its code.
fn create(app: &mut App, server: &str, game: &str) -> String {
    app.world_mut().write_message(GoOnline {
        server: server.to_string(),
        goal: Goal::Create {
            game: game.into(),
            settings: vec![],
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
        },
    });
    run_until(app, "the new game arriving", |app| {
        screen(app) == Screen::Playing
    });
    let online = app.world().resource::<OnlineGame>();
    online.client.game().unwrap().state.code.clone()
}

/// A level-1 bot joins `code` elsewhere and plays it out; the thread returns the result
/// and the moves as that client saw them.
fn bot_joins(server: &str, code: &str) -> JoinHandle<(String, Vec<String>)> {
    let (server, code) = (server.to_string(), code.to_string());
    thread::spawn(move || {
        let mut client = OnlineClient::start(&server, Goal::Join { code }).unwrap();
        let spec = BotSpec::level(1).unwrap();
        let result = play_to_end(&mut client, &spec, 7, |_, _| {}).unwrap();
        (result, client.game().unwrap().state.moves.clone())
    })
}

/// A legal move for the person to move, chosen at random (the rules' random bot).
fn some_move(app: &App, seed: u64) -> String {
    let game = app.world().resource::<CurrentGame>();
    game.table
        .as_match()
        .thinker(&BotSpec::Random, seed)
        .best_move()
        .unwrap()
}

fn person_to_move(app: &App) -> bool {
    phase(app) == Some(TurnPhase::PersonToMove) && board_settled(app)
}

#[test]
fn the_app_plays_an_online_game_to_the_end_with_a_take_back() {
    let Setup {
        server,
        storage,
        mut app,
        ..
    } = setup();
    let code = create(&mut app, &server.address, "absorption");
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.seats, [Seat::Human, Seat::Remote]);
    assert!(game.is_online());
    // The seat is kept with the player's files, to come back to it.
    let kept = app.world().resource::<KeptSeats>();
    assert_eq!(kept.on(&server.address).next().unwrap().code, code);
    let (read, problem) = KeptSeats::read(&storage);
    assert_eq!((read.seats.len(), problem), (1, None));
    assert!(storage.path(SEATS_FILE).unwrap().exists());

    let bot = bot_joins(&server.address, &code);
    let mut seed = 1;
    let mut took_back = false;
    let mut saw_remote_turn = false;
    while screen(&app) == Screen::Playing {
        run_until(&mut app, "the person's turn or the end", |app| {
            person_to_move(app) || screen(app) != Screen::Playing
        });
        if screen(&app) != Screen::Playing {
            break;
        }
        seed += 1;
        let before = line(&app).len();
        let mine = some_move(&app, seed);
        app.world_mut().write_message(PlayerInput::Notation(mine));
        app.update();
        assert_eq!(
            line(&app).len(),
            before + 1,
            "the person's move is played here"
        );
        // The move goes to the server, and the bot answers through it.
        run_until(&mut app, "the server storing the move", |app| {
            let settled = board_settled(app) && phase(app) != Some(TurnPhase::Animating);
            (server_moves(app).len() > before && settled) || screen(app) != Screen::Playing
        });
        // The state follows the table at the start of the next frame: a reply that came in
        // the last one is on the table already, and then the person has the turn.
        let remote_to_move = app.world().resource::<CurrentGame>().remote_to_move();
        if phase(&app) == Some(TurnPhase::RemoteToMove) && remote_to_move {
            saw_remote_turn = true;
            // Nobody here moves for the player elsewhere: the line stays the server's.
            let theirs = some_move(&app, seed);
            app.world_mut().write_message(PlayerInput::Notation(theirs));
            app.update();
            assert!(
                server_moves(&app).starts_with(&line(&app)),
                "server {:?}, here {:?}",
                server_moves(&app),
                line(&app)
            );
        }
        if !took_back && before >= 4 && screen(&app) == Screen::Playing {
            // The bot grants take-backs: the server's line goes back, and so does the board.
            run_until(&mut app, "the person's turn again", |app| {
                person_to_move(app) || screen(app) != Screen::Playing
            });
            if screen(&app) != Screen::Playing {
                break;
            }
            let held = line(&app).len();
            app.world_mut().write_message(OnlineAction::RequestUndo);
            run_until(&mut app, "the take-back", |app| {
                server_moves(app).len() < held && line(app).len() < held && board_settled(app)
            });
            assert_eq!(line(&app), server_moves(&app));
            took_back = true;
        }
    }
    let (result, moves) = bot.join().unwrap();
    run_until(&mut app, "the result", |app| {
        screen(app) == Screen::Result && line(app).len() == moves.len()
    });
    assert!(took_back && saw_remote_turn);
    assert_eq!(line(&app), moves, "both sides saw the same game");
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.status_text(), result);
    // Once over, the line is the player's to look through, and the game stays over.
    app.world_mut().write_message(Travel::GoTo(0));
    run_until(&mut app, "the jump to the start", |app| {
        the_match(app).record().is_empty() && board_settled(app)
    });
    for _ in 0..5 {
        app.update();
    }
    let game = app.world().resource::<CurrentGame>();
    assert!(game.is_over() && game.ending.is_some());
    assert_eq!(
        game.table.as_match().line(),
        moves,
        "looking back keeps the line"
    );
    assert_eq!(screen(&app), Screen::Result);
    assert_eq!(phase(&app), Some(TurnPhase::Over));
}

#[test]
fn a_resignation_ends_the_game_on_both_sides() {
    let Setup {
        server, mut app, ..
    } = setup();
    let code = create(&mut app, &server.address, "adomoc");
    let bot = bot_joins(&server.address, &code);
    run_until(&mut app, "the bot joining", |app| {
        let online = app.world().resource::<OnlineGame>();
        online
            .client
            .game()
            .is_some_and(|g| g.state.seats.iter().all(|s| s.taken))
    });
    app.world_mut().write_message(OnlineAction::Resign);
    run_until(&mut app, "the result", |app| screen(app) == Screen::Result);
    let (result, _) = bot.join().unwrap();
    let game = app.world().resource::<CurrentGame>();
    assert!(game.is_over());
    assert_eq!(game.status_text(), result);
    assert!(result.contains("resign"), "{result}");
}

#[test]
fn an_unknown_code_is_refused_with_the_reason() {
    let Setup {
        server, mut app, ..
    } = setup();
    app.world_mut().write_message(GoOnline {
        server: server.address.clone(),
        goal: Goal::Join {
            code: "ZZZZZZ".into(),
        },
    });
    run_until(&mut app, "the refusal", |app| {
        app.world()
            .resource::<tabula::online::OnlineProblem>()
            .0
            .is_some()
    });
    let problem = app.world().resource::<tabula::online::OnlineProblem>();
    assert!(
        problem.0.as_ref().unwrap().contains("ZZZZZZ"),
        "{problem:?}"
    );
    assert!(app.world().get_resource::<OnlineGame>().is_none());
    assert_eq!(screen(&app), Screen::Online);
}
