//! Bot seats in the headless app: bots play whole games on a background task and in
//! frame slices (the web's way), people cannot move for them, hints point at a legal
//! move, and leaving a game stops the search.

mod common;
use common::the_match;

use bevy::prelude::*;
use common::{headless_app, run_until, screen, shown_pieces, start};
use tabula::bot::{BotRunner, Hint, Purpose, RequestHint, Thinking};
use tabula::current_game::{CurrentGame, Seat};
use tabula::pieces::pieces_match;
use tabula::screens::Screen;
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::PlayerInput;

fn app_with(runner: BotRunner) -> App {
    headless_app(runner, Storage::default())
}

fn record_len(app: &App) -> usize {
    the_match(app).record().len()
}

fn bots_play_a_whole_game(runner: BotRunner, kind: GameKind, max_moves: usize) {
    let mut app = app_with(runner);
    start(&mut app, kind, vec![Seat::Bot(1), Seat::Bot(2)]);
    assert_eq!(screen(&app), Screen::Playing);
    let mut moves = 0;
    while screen(&app) == Screen::Playing && moves < max_moves {
        run_until(&mut app, "a bot move", |app| {
            screen(app) != Screen::Playing || record_len(app) > moves
        });
        moves = record_len(&app);
        // Checked in the frame the board settles: a bot starts thinking only after it.
        run_until(&mut app, "the board settling", |app| {
            common::board_settled(app)
        });
        assert_eq!(record_len(&app), moves);
        let shown = shown_pieces(&mut app);
        pieces_match(app.world().resource::<CurrentGame>(), &shown)
            .unwrap_or_else(|e| panic!("{kind:?} after {moves} bot moves: {e}"));
    }
    // Bot seeds come from the clock: a game may end early, but never before it starts.
    let over = screen(&app) == Screen::Result;
    assert!(
        moves > 0 && (over || moves >= max_moves.min(10)),
        "{kind:?}: only {moves} moves"
    );
}

#[test]
fn bots_play_on_a_background_task() {
    bots_play_a_whole_game(BotRunner::Background, GameKind::Adaptoid, 200);
    bots_play_a_whole_game(BotRunner::Background, GameKind::Adamas, 30);
}

#[test]
fn bots_play_in_the_search_worker() {
    bots_play_a_whole_game(BotRunner::Worker, GameKind::Adaptoid, 30);
    bots_play_a_whole_game(BotRunner::Worker, GameKind::Absorption, 30);
}

#[test]
fn bots_play_in_frame_slices() {
    bots_play_a_whole_game(BotRunner::FrameSlices, GameKind::Adomoc, 30);
    bots_play_a_whole_game(BotRunner::FrameSlices, GameKind::Absorption, 30);
}

#[test]
fn people_wait_while_the_bot_thinks_and_leaving_stops_it() {
    let mut app = app_with(BotRunner::FrameSlices);
    // The bot moves first, at the top level, so it is still thinking after a frame.
    start(
        &mut app,
        GameKind::Adaptoid,
        vec![Seat::Bot(top_level("adaptoid")), Seat::Human],
    );
    app.update();
    let thinking = app
        .world()
        .get_resource::<Thinking>()
        .expect("the bot thinks");
    assert_eq!(thinking.purpose, Purpose::Move { seat: 0 });
    // Each frame thinks a slice, and the progress shown grows.
    app.update();
    let progress = app.world().resource::<Thinking>().progress();
    assert!(progress > 0.0 && progress < 1.0, "{progress}");
    // Clicks and typed moves for the bot's seat are ignored.
    let table = &app.world().resource::<CurrentGame>().table;
    let cell = table.choices().iter().find_map(|c| c.cell).unwrap();
    let chosen_before = table.chosen().len();
    app.world_mut().write_message(PlayerInput::ClickCell(cell));
    app.world_mut()
        .write_message(PlayerInput::Notation("+d3".into()));
    app.update();
    assert_eq!(record_len(&app), 0);
    assert_eq!(
        app.world().resource::<CurrentGame>().table.chosen().len(),
        chosen_before
    );
    // Leaving the game drops the search.
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    app.update();
    assert!(app.world().get_resource::<Thinking>().is_none());
    assert!(
        app.world().get_resource::<CurrentGame>().is_some_and(|m| m
            .table
            .as_match()
            .record()
            .is_empty())
    );
}

#[test]
fn a_hint_names_a_legal_move_and_lights_its_cells() {
    let mut app = app_with(BotRunner::Background);
    start(&mut app, GameKind::Adomoc, vec![Seat::Human, Seat::Human]);
    app.world_mut().write_message(RequestHint);
    app.update();
    assert!(app.world().get_resource::<Thinking>().is_some());
    run_until(&mut app, "a hint", |app| {
        app.world().get_resource::<Hint>().is_some()
    });
    let hint = app.world().resource::<Hint>().clone();
    assert_eq!(hint.revision, 0);
    assert!(hint.cells.len() >= 2, "{hint:?}");
    assert!((0.0..=1.0).contains(&hint.value));
    // Playing the hinted move is accepted, and the hint is gone after it.
    app.world_mut()
        .write_message(PlayerInput::Notation(hint.text.clone()));
    app.update();
    assert_eq!(record_len(&app), 1);
    app.update();
    assert!(app.world().get_resource::<Hint>().is_none());
}

/// The nodes each of the bot's searches went on from, over its first two moves.
fn kept_nodes_of_two_searches(runner: BotRunner) -> Vec<usize> {
    let mut app = app_with(runner);
    // Level 8 searches thousands of iterations deep; the low levels' shallow trees may hold
    // nothing below the person's reply.
    start(&mut app, GameKind::Adomoc, vec![Seat::Human, Seat::Bot(8)]);
    let mut searches = Vec::new();
    for turn in 0..2 {
        let table = &app.world().resource::<CurrentGame>().table;
        let text = table
            .as_match()
            .thinker(&tabula_bot::BotSpec::Random, turn)
            .best_move();
        app.world_mut()
            .write_message(PlayerInput::Notation(text.unwrap()));
        let person_moved = 2 * turn as usize + 1;
        // Where the search runs off the frame, the frame learns of the kept tree from
        // the search's first copy: the most seen while it thinks.
        let mut kept = 0;
        for _ in 0..20_000 {
            if record_len(&app) > person_moved {
                break;
            }
            app.update();
            if let Some(thinking) = app.world().get_resource::<Thinking>() {
                kept = kept.max(thinking.kept_nodes());
                assert_eq!(
                    thinking.runs_in_frames(),
                    runner == BotRunner::FrameSlices,
                    "{runner:?}"
                );
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        assert_eq!(record_len(&app), person_moved + 1, "{runner:?}: no reply");
        searches.push(kept);
        run_until(&mut app, "the board settling", |app| {
            common::board_settled(app)
        });
    }
    searches
}

#[test]
fn a_bot_goes_on_from_the_tree_of_its_last_move() {
    for runner in [BotRunner::FrameSlices, BotRunner::Worker] {
        let searches = kept_nodes_of_two_searches(runner);
        assert_eq!(searches[0], 0, "{runner:?}: the first search starts fresh");
        assert!(
            searches[1] > 0,
            "{runner:?}: the second goes on from the first: {searches:?}"
        );
    }
}

/// The strongest level of `game`: a search of 1.9 s, the one level still thinking after a
/// frame.
fn top_level(game: &str) -> u8 {
    tabula_bot::Levels::built_in().top_in(game) as u8
}
