//! Whole games of every game played headless (no window, no renderer) through the same
//! messages the board and the overlay send. After every move the piece entities must
//! equal the rules state, and every rules event must have started its animation.

mod common;
use common::the_match;

use bevy::prelude::*;
use common::{board_settled, screen, send, settle, shown_pieces, start_with};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula::animation::AnimationLog;
use tabula::bot::BotRunner;
use tabula::current_game::CurrentGame;
use tabula::pieces::pieces_match;
use tabula::screens::Screen;
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::{CellMenu, PlayerInput};

fn headless_app() -> App {
    common::headless_app(BotRunner::default(), Storage::default())
}

fn start(app: &mut App, kind: GameKind, settings: &[(&str, &str)]) {
    start_with(app, kind, settings, Vec::new());
    assert_eq!(screen(app), Screen::Playing, "{kind:?} starts");
}

/// Plays one move by clicking: a cell when the choice has one (as the board would send),
/// otherwise the overlay's button; confirms when the move is complete and cannot grow.
fn click_a_move(app: &mut App, rng: &mut SmallRng) {
    let moves_before = the_match(app).record().len();
    for _ in 0..200 {
        let game = app.world().resource::<CurrentGame>();
        if game.table.as_match().record().len() > moves_before {
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
    let over = |app: &App| the_match(app).status().is_over();
    while !over(&app) && moves < max_moves {
        assert_eq!(screen(&app), Screen::Playing);
        click_a_move(&mut app, &mut rng);
        moves += 1;
        settle(&mut app);
        let shown = shown_pieces(&mut app);
        let game = app.world().resource::<CurrentGame>();
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
    assert!(the_match(&app).record().is_empty());

    let mut rng = SmallRng::seed_from_u64(9);
    click_a_move(&mut app, &mut rng);
    assert!(!board_settled(&app));
    let frames = settle(&mut app);
    assert!(
        frames > 3,
        "the move animates over several frames ({frames})"
    );
    assert_eq!(the_match(&app).record().len(), 1);
}

/// A click made while pieces move is dropped, not kept for when they stop: sent in the
/// last frame of the animation, it would still be readable in the next frame if it were.
#[test]
fn a_click_during_an_animation_is_dropped() {
    let frames_to_settle = |app: &mut App| {
        let mut frames = 0;
        while !board_settled(app) {
            app.update();
            frames += 1;
            assert!(frames < 2_000, "animations never end");
        }
        frames
    };
    // The same move twice, at the same fixed frame time: first to count its frames.
    let mut app = headless_app();
    start(&mut app, GameKind::Adomoc, &[]);
    click_a_move(&mut app, &mut SmallRng::seed_from_u64(9));
    let frames = frames_to_settle(&mut app);
    assert!(frames > 1, "the move animates ({frames} frames)");

    let mut app = headless_app();
    start(&mut app, GameKind::Adomoc, &[]);
    click_a_move(&mut app, &mut SmallRng::seed_from_u64(9));
    for _ in 1..frames {
        app.update();
    }
    assert!(!board_settled(&app), "one frame of animation is left");
    send(&mut app, PlayerInput::Choose(0));
    assert!(board_settled(&app), "the animation ended in that frame");
    app.update();
    app.update();
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.table.as_match().record().len(), 1);
    assert!(
        game.table.chosen().is_empty(),
        "the click was kept for later"
    );
}

#[test]
fn a_click_on_a_cell_with_several_choices_opens_its_menu() {
    let mut app = headless_app();
    start(&mut app, GameKind::Adamas, &[]);
    // Split a stack (one click), then take a cell that offers both one more and one
    // fewer piece to it: the second click cannot decide, so the cell's menu opens.
    let mut rng = SmallRng::seed_from_u64(4);
    let several = |app: &App| {
        let choices = app
            .world()
            .resource::<CurrentGame>()
            .table
            .choices()
            .to_vec();
        choices
            .iter()
            .filter_map(|c| c.cell)
            .find(|cell| choices.iter().filter(|c| c.cell == Some(*cell)).count() > 1)
    };
    let mut steps = 0;
    let cell = loop {
        if let Some(cell) = several(&app) {
            break cell;
        }
        let game = app.world().resource::<CurrentGame>();
        let choices = game.table.choices().to_vec();
        assert!(
            steps < 20 && !choices.is_empty(),
            "no cell ever offered two choices"
        );
        send(
            &mut app,
            PlayerInput::Choose(rng.random_range(0..choices.len())),
        );
        steps += 1;
    };
    let chosen = app.world().resource::<CurrentGame>().table.chosen().len();
    assert!(the_match(&app).record().is_empty());
    send(&mut app, PlayerInput::ClickCell(cell));
    assert_eq!(app.world().resource::<CellMenu>().0, Some(cell));
    assert_eq!(
        app.world().resource::<CurrentGame>().table.chosen().len(),
        chosen,
        "the click took no step"
    );
    // Choosing from the menu takes the step and closes it.
    let game = app.world().resource::<CurrentGame>();
    let index = game
        .table
        .choices()
        .iter()
        .position(|c| c.cell == Some(cell))
        .unwrap();
    send(&mut app, PlayerInput::Choose(index));
    assert_eq!(app.world().resource::<CellMenu>().0, None);
    let game = app.world().resource::<CurrentGame>();
    assert!(
        game.table.as_match().record().is_empty(),
        "a split that may grow waits to be played"
    );
    assert_eq!(
        game.table.chosen().len(),
        chosen + 1,
        "the menu's choice took a step"
    );
}

/// Ends the game in the frame's Think systems once asked, as taking in a server's news
/// does (a resignation from the other side): after the frame's phase was set.
#[derive(Resource, Default)]
struct EndInThisFrame(bool);

fn end_in_this_frame(mut asked: ResMut<EndInThisFrame>, mut game: ResMut<CurrentGame>) {
    if std::mem::take(&mut asked.0) {
        game.ending = Some("Black resigned: White wins".into());
    }
}

/// A move sent in the frame the game ends, before the phase follows (it changes with the
/// next frame), is dropped, not played after the end. The browser test's lobby game ended
/// with the page's own move after the resignation, which the server never took: the page
/// showed 15 moves and the other side 14 (web/test.mjs, 2026-12-07).
#[test]
fn a_move_sent_in_the_frame_the_game_ends_is_not_played() {
    let mut app = headless_app();
    app.init_resource::<EndInThisFrame>().add_systems(
        Update,
        end_in_this_frame
            .in_set(tabula::AppSystems::Think)
            .run_if(resource_exists::<CurrentGame>),
    );
    start(&mut app, GameKind::Adomoc, &[]);
    let text = the_match(&app)
        .thinker(&tabula_bot::BotSpec::Random, 1)
        .best_move()
        .unwrap();
    app.world_mut().resource_mut::<EndInThisFrame>().0 = true;
    app.world_mut().write_message(PlayerInput::Notation(text));
    app.update();
    settle(&mut app);
    let game = app.world().resource::<CurrentGame>();
    assert!(game.is_over());
    assert_eq!(
        game.table.as_match().record().len(),
        0,
        "the move was played after the end"
    );
}
