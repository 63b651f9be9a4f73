//! Whole games of every game played headless (no window, no renderer) through the same
//! messages the board and the overlay send. After every move the piece entities must
//! equal the rules state, and every rules event must have started its animation.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;
use tabula::animation::{Animating, AnimationLog};
use tabula::pieces::{Leaving, PieceOf, pieces_match};
use tabula::screens::{Match, Screen, StartGame};
use tabula::table::GameKind;
use tabula::turn::PlayerInput;

fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, tabula::logic_plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )));
    app.update();
    app
}

fn start(app: &mut App, kind: GameKind, settings: &[(&str, &str)]) {
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    app.world_mut().write_message(StartGame {
        kind,
        settings: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        seats: Vec::new(),
    });
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Playing, "{kind:?} starts");
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn send(app: &mut App, input: PlayerInput) {
    app.world_mut().write_message(input);
    app.update();
}

/// Runs frames until the board settles, as a player waits for the animations.
fn settle(app: &mut App) -> usize {
    let mut frames = 0;
    while app.world().resource::<Animating>().0 {
        app.update();
        frames += 1;
        assert!(frames < 2_000, "animations never end");
    }
    app.update();
    frames
}

fn shown_pieces(app: &mut App) -> Vec<(usize, tabula::table::PieceLook)> {
    let mut query = app
        .world_mut()
        .query_filtered::<&PieceOf, Without<Leaving>>();
    query.iter(app.world()).map(|p| (p.cell, p.look)).collect()
}

/// Plays one move by clicking: a cell when the choice has one (as the board would send),
/// otherwise the overlay's button; confirms when the move is complete and cannot grow.
fn click_a_move(app: &mut App, rng: &mut SmallRng) {
    let moves_before = app.world().resource::<Match>().table.record().len();
    for _ in 0..200 {
        let game = app.world().resource::<Match>();
        if game.table.record().len() > moves_before {
            return;
        }
        let choices = game.table.choices().to_vec();
        let complete = game.table.complete_move().is_some();
        if complete && (choices.is_empty() || rng.random_bool(0.3)) {
            send(app, PlayerInput::Confirm);
            continue;
        }
        let index = rng.random_range(0..choices.len());
        let input = match choices[index].cell {
            // A click decides only when the cell offers one choice.
            Some(cell) if choices.iter().filter(|c| c.cell == Some(cell)).count() == 1 => {
                PlayerInput::ClickCell(cell)
            }
            _ => PlayerInput::Choose(index),
        };
        send(app, input);
    }
    panic!("no move was made in 200 clicks");
}

fn play_whole_game(kind: GameKind, settings: &[(&str, &str)], seed: u64, max_moves: usize) {
    let mut app = headless_app();
    start(&mut app, kind, settings);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = 0;
    let over = |app: &App| app.world().resource::<Match>().table.status().is_over();
    while !over(&app) && moves < max_moves {
        assert_eq!(screen(&app), Screen::Playing);
        click_a_move(&mut app, &mut rng);
        moves += 1;
        settle(&mut app);
        let shown = shown_pieces(&mut app);
        let game = app.world().resource::<Match>();
        pieces_match(game, &shown).unwrap_or_else(|e| panic!("{kind:?} move {moves}: {e}"));
        let log = *app.world().resource::<AnimationLog>();
        assert!(log.events_received > 0);
        assert_eq!(
            log.events_received, log.animations_started,
            "{kind:?} move {moves}: every rules event starts its animation"
        );
        assert_eq!(log.syncs, moves);
    }
    if over(&app) {
        app.update();
        assert_eq!(
            screen(&app),
            Screen::Result,
            "{kind:?}: the result is shown"
        );
    }
    assert!(moves > 0);
}

#[test]
fn absorption_plays_headless() {
    play_whole_game(GameKind::Absorption, &[], 1, 400);
}

#[test]
fn adamas_plays_headless_two_and_three_players() {
    play_whole_game(GameKind::Adamas, &[], 2, 400);
    play_whole_game(GameKind::Adamas, &[("players", "3")], 3, 400);
}

#[test]
fn adaptoid_plays_headless_with_pie_start() {
    play_whole_game(GameKind::Adaptoid, &[], 4, 400);
    play_whole_game(GameKind::Adaptoid, &[("pie_start", "true")], 5, 60);
}

#[test]
fn adomoc_plays_headless() {
    play_whole_game(GameKind::Adomoc, &[], 6, 150);
}

#[test]
fn input_waits_while_animating_and_bad_notation_is_reported() {
    let mut app = headless_app();
    start(&mut app, GameKind::Adomoc, &[]);
    send(&mut app, PlayerInput::Notation("Fa3a6x".into()));
    let message = app
        .world()
        .resource::<tabula::turn::TurnMessage>()
        .0
        .clone();
    assert!(message.is_some(), "a malformed move is reported");
    assert!(app.world().resource::<Match>().table.record().is_empty());

    let mut rng = SmallRng::seed_from_u64(9);
    click_a_move(&mut app, &mut rng);
    assert!(app.world().resource::<Animating>().0);
    // A click during the animation is dropped, not queued for later.
    let choices_before = app.world().resource::<Match>().table.chosen().len();
    send(&mut app, PlayerInput::Choose(0));
    assert_eq!(
        app.world().resource::<Match>().table.chosen().len(),
        choices_before
    );
    let frames = settle(&mut app);
    assert!(
        frames > 3,
        "the move animates over several frames ({frames})"
    );
    assert_eq!(app.world().resource::<Match>().table.record().len(), 1);
}

#[test]
fn a_click_on_a_cell_with_several_choices_opens_its_menu() {
    let mut app = headless_app();
    start(&mut app, GameKind::Adamas, &[]);
    // Any cell offered by two choices (a stack to split that is also a merge target).
    let game = app.world().resource::<Match>();
    let choices = game.table.choices().to_vec();
    let cell = choices
        .iter()
        .filter_map(|c| c.cell)
        .find(|cell| choices.iter().filter(|c| c.cell == Some(*cell)).count() > 1);
    if let Some(cell) = cell {
        send(&mut app, PlayerInput::ClickCell(cell));
        assert_eq!(
            app.world().resource::<tabula::turn::CellMenu>().0,
            Some(cell)
        );
        assert!(app.world().resource::<Match>().table.chosen().is_empty());
    } else {
        // Every opening click decides at once; then the click takes a step.
        let first = choices[0].cell.unwrap();
        send(&mut app, PlayerInput::ClickCell(first));
        assert_eq!(app.world().resource::<Match>().table.chosen().len(), 1);
    }
}
