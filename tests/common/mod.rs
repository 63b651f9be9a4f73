//! Helpers the headless app tests share: an app without a window, and starting a game
//! the way the new-game screen does.
// Each test file uses some of the helpers.
#![allow(dead_code)]

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;
use tabula::bot::BotRunner;
use tabula::current_game::{CurrentGame, Seat};
use tabula::new_game::StartGame;
use tabula::phase::{BoardShows, TurnPhase};
use tabula::pieces::{Leaving, PieceOf};
use tabula::screens::Screen;
use tabula::storage::Storage;
use tabula::table::{GameKind, PieceLook};
use tabula::turn::PlayerInput;
use tabula_bot::BotSpec;
use tabula_session::rules::Status;
use tabula_session::{AnyMatch, new_match};

/// Runs frames until `done` holds, sleeping a little so a background search gets time.
/// The match on the table: its line, its status, whose turn it is.
pub fn the_match(app: &App) -> &dyn AnyMatch {
    app.world().resource::<CurrentGame>().table.as_match()
}

pub fn run_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    for _ in 0..20_000 {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_micros(200));
    }
    panic!("{what} did not happen");
}

/// The game's logic with a fixed 50 ms frame, bots run by `runner`, files kept in
/// `storage`; on the title screen.
pub fn headless_app(runner: BotRunner, storage: Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, tabula::logic_plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )))
        .insert_resource(runner)
        .insert_resource(storage);
    app.update();
    to_title(&mut app);
    app
}

pub fn to_title(app: &mut App) {
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
}

/// From the title screen, as its Start button does.
pub fn start(app: &mut App, kind: GameKind, seats: Vec<Seat>) {
    start_with(app, kind, &[], seats);
}

/// [`start`] with options as `key=value` pairs.
pub fn start_with(app: &mut App, kind: GameKind, settings: &[(&str, &str)], seats: Vec<Seat>) {
    to_title(app);
    app.world_mut().write_message(StartGame {
        kind,
        settings: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        seats,
    });
    app.update();
    app.update();
}

/// Whether the board shows the match's position with nothing moving (as of now, not as
/// of the start of the frame, when the turn's phase was set).
pub fn board_settled(app: &App) -> bool {
    let world = app.world();
    world
        .get_resource::<CurrentGame>()
        .is_none_or(|game| world.resource::<BoardShows>().settled(game))
}

/// The turn's phase, during a match.
pub fn phase(app: &App) -> Option<TurnPhase> {
    app.world()
        .get_resource::<State<TurnPhase>>()
        .map(|phase| *phase.get())
}

/// Runs frames until the board settles and the phase follows, as a player waits for the
/// animations; then one frame more. Returns the frames the animations took.
pub fn settle(app: &mut App) -> usize {
    let mut frames = 0;
    while !board_settled(app) || phase(app) == Some(TurnPhase::Animating) {
        app.update();
        frames += 1;
        assert!(frames < 2_000, "animations never end");
    }
    app.update();
    frames
}

/// Sends what a click or key would, and runs the frame that takes it.
pub fn send(app: &mut App, input: PlayerInput) {
    app.world_mut().write_message(input);
    app.update();
}

pub fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// The pieces the board shows (those not on their way out).
pub fn shown_pieces(app: &mut App) -> Vec<(usize, PieceLook)> {
    let mut query = app
        .world_mut()
        .query_filtered::<&PieceOf, Without<Leaving>>();
    query.iter(app.world()).map(|p| (p.cell, p.look)).collect()
}

/// A move that wins at once for the seat to move, if there is one.
pub fn winning_move(game: &dyn AnyMatch) -> Option<String> {
    let mover = game.to_move();
    let (moves, _) = game.legal_moves(2_000);
    moves.into_iter().find(|text| {
        let mut after = game.boxed_clone();
        after.play_notation(text).is_ok()
            && matches!(after.status(), Status::Win { winner, .. } if winner.index() == mover)
    })
}

/// Random Adaptoid moves up to a position where the seat to move wins at once.
pub fn moves_to_a_win_in_one() -> (Vec<String>, String) {
    for seed in 0.. {
        let mut game = new_match(GameKind::Adaptoid, &[]).unwrap();
        for ply in 0..200u64 {
            if game.status().is_over() {
                break;
            }
            if let Some(win) = winning_move(game.as_ref()) {
                return (game.record().to_vec(), win);
            }
            let text = game
                .thinker(&BotSpec::Random, seed * 1000 + ply)
                .best_move()
                .unwrap();
            game.play_notation(&text).unwrap();
        }
    }
    unreachable!()
}
