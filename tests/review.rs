//! Reviews in the headless app: the whole line is judged on a background task and in
//! frame slices, the better move of a reviewed move shows on the board as a hint at the
//! position before it and goes with it, and a review ends with its game.

mod common;
use common::the_match;

use bevy::prelude::*;
use common::{headless_app, run_until, screen, settle, start};
use tabula::bot::{BotRunner, Hint};
use tabula::config::Settings;
use tabula::current_game::{CurrentGame, Seat};
use tabula::review::{GameReview, StartReview, StopReview};
use tabula::screens::Screen;
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::{PlayerInput, Travel};

/// A quick level that still searches more than one move (the former level 1's budget).
const QUICK_LEVEL: u8 = 2;

/// Two people play `moves` random moves.
fn played(runner: BotRunner, kind: GameKind, moves: u64) -> App {
    let mut app = headless_app(runner, Storage::default());
    app.world_mut().resource_mut::<Settings>().review_level = QUICK_LEVEL;
    start(&mut app, kind, vec![Seat::Human, Seat::Human]);
    for seed in 0..moves {
        let table = &app.world().resource::<CurrentGame>().table;
        let text = table
            .as_match()
            .thinker(&tabula_bot::BotSpec::Random, seed)
            .best_move();
        app.world_mut()
            .write_message(PlayerInput::Notation(text.unwrap()));
        app.update();
        settle(&mut app);
    }
    assert_eq!(the_match(&app).record().len() as u64, moves);
    app
}

fn reviewed(app: &App) -> bool {
    app.world()
        .get_resource::<GameReview>()
        .is_some_and(|r| !r.is_running())
}

fn check_review(runner: BotRunner, kind: GameKind) {
    let mut app = played(runner, kind, 10);
    app.world_mut().write_message(StartReview);
    app.update();
    let started = app.world().get_resource::<GameReview>().expect("a review");
    assert_eq!(started.runs_in_frames(), runner == BotRunner::FrameSlices);
    run_until(&mut app, "the review", reviewed);
    let review = app.world().resource::<GameReview>();
    assert_eq!(review.level, QUICK_LEVEL);
    assert_eq!(review.shown().failure, None);
    assert_eq!(review.shown().evaluations.len(), 11);
    assert_eq!(review.shown().moves.len(), 10);
    assert_eq!(review.shown().summary.len(), 2);
    // A move the bot would not have played: at the position before it, its better move
    // is the board's hint.
    let judged = review
        .shown()
        .moves
        .iter()
        .find(|m| m.preferred.is_some())
        .expect("random moves the bot would not all have played")
        .clone();
    app.world_mut().write_message(Travel::GoTo(judged.ply - 1));
    app.update();
    settle(&mut app);
    app.update();
    let hint = app.world().resource::<Hint>().clone();
    assert_eq!(Some(&hint.text), judged.preferred.as_ref());
    assert!(!hint.cells.is_empty(), "{hint:?}");
    assert_eq!(hint.value, judged.before);
    // At the end of the line there is no move to judge: the hint goes.
    app.world_mut().write_message(Travel::GoTo(10));
    app.update();
    settle(&mut app);
    app.update();
    assert!(app.world().get_resource::<Hint>().is_none());
    // A new game drops the review.
    start(&mut app, kind, vec![Seat::Human, Seat::Human]);
    app.update();
    assert_eq!(screen(&app), Screen::Playing);
    assert!(app.world().get_resource::<GameReview>().is_none());
}

#[test]
fn a_review_runs_on_a_background_task() {
    check_review(BotRunner::Background, GameKind::Adaptoid);
}

#[test]
fn a_review_runs_in_the_search_worker() {
    check_review(BotRunner::Worker, GameKind::Adaptoid);
}

#[test]
fn a_review_runs_in_frame_slices() {
    check_review(BotRunner::FrameSlices, GameKind::Adomoc);
}

#[test]
fn a_review_of_a_line_that_was_replaced_is_dropped() {
    let mut app = played(BotRunner::FrameSlices, GameKind::Adamas, 4);
    app.world_mut().write_message(StartReview);
    run_until(&mut app, "the review", reviewed);
    // Back two moves and a different move: the line the review judged is gone.
    app.world_mut().write_message(Travel::GoTo(2));
    app.update();
    settle(&mut app);
    assert!(reviewed(&app), "looking back keeps the review");
    let review_line = app.world().resource::<GameReview>().line.clone();
    let table = &app.world().resource::<CurrentGame>().table;
    let other = table
        .as_match()
        .thinker(&tabula_bot::BotSpec::Random, 99)
        .best_move()
        .unwrap();
    assert_ne!(Some(&other), review_line.get(2), "pick another seed");
    app.world_mut().write_message(PlayerInput::Notation(other));
    app.update();
    settle(&mut app);
    app.update();
    assert!(app.world().get_resource::<GameReview>().is_none());
    assert!(app.world().get_resource::<Hint>().is_none());
}

#[test]
fn a_bot_answers_while_a_review_runs_and_a_review_can_be_stopped() {
    let mut app = headless_app(BotRunner::Background, Storage::default());
    start(
        &mut app,
        GameKind::Adaptoid,
        vec![Seat::Human, Seat::Bot(1)],
    );
    let person_move = |app: &mut App, seed: u64| {
        let table = &app.world().resource::<CurrentGame>().table;
        let text = table
            .as_match()
            .thinker(&tabula_bot::BotSpec::Random, seed)
            .best_move();
        let before = table.as_match().record().len();
        app.world_mut()
            .write_message(PlayerInput::Notation(text.unwrap()));
        run_until(app, "the bot's reply", |app| {
            the_match(app).record().len() == before + 2
        });
        settle(app);
    };
    for seed in 0..4 {
        person_move(&mut app, seed);
    }
    // The top level takes about 2 s a position: the review of 9 positions outlasts the reply.
    app.world_mut().resource_mut::<Settings>().review_level =
        tabula_bot::Levels::built_in().top_in("adaptoid") as u8;
    app.world_mut().write_message(StartReview);
    app.update();
    person_move(&mut app, 4);
    let review = app.world().resource::<GameReview>();
    assert!(review.is_running(), "the bot waited for the whole review");
    assert_eq!(review.line.len(), 8);
    app.world_mut().write_message(StopReview);
    app.update();
    assert!(app.world().get_resource::<GameReview>().is_none());
}
