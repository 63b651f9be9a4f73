//! Puzzles in the app, headless: a puzzle set up on the board, solved by moves sent as
//! `PlayerInput` and rated; a wrong try refuted on the board and counted once; a deeper
//! puzzle answered turn by turn by the solver; today's puzzle.

mod common;

use bevy::prelude::*;
use common::*;
use tabula::bot::BotRunner;
use tabula::config::Settings;
use tabula::puzzle::{PuzzleInput, PuzzleRun, PuzzleVerdict, today};
use tabula::queued_moves::QueuedMoves;
use tabula::screens::Screen;
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::PlayerInput;
use tabula_learn::{puzzle_of_the_day, puzzles_for, wrong_first_turn};

fn run(app: &App) -> &PuzzleRun {
    app.world().resource::<PuzzleRun>()
}

fn request(app: &mut App, input: PuzzleInput) {
    app.world_mut().write_message(input);
    app.update();
    app.update();
    settle(app);
}

/// Waits until the solver's answers are played and the board shows them.
fn wait_for_answers(app: &mut App) {
    run_until(app, "the solver's moves to be played", |app| {
        !app.world().resource::<QueuedMoves>().is_playing() && board_settled(app)
    });
    settle(app);
}

fn play_turn(app: &mut App, kind: GameKind, turn: &str) {
    for text in kind.split_moves(turn) {
        send(app, PlayerInput::Notation(text));
        settle(app);
    }
}

fn record(app: &App, kind: GameKind) -> tabula_learn::PuzzleRecord {
    app.world()
        .resource::<Settings>()
        .puzzles
        .get(kind.key())
        .cloned()
        .unwrap_or_default()
}

#[test]
fn a_puzzle_is_solved_on_the_board_and_rated() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = headless_app(BotRunner::FrameSlices, Storage::at(dir.path()));
    let kind = GameKind::Adamas;
    request(&mut app, PuzzleInput::Start { kind, daily: false });
    assert_eq!(screen(&app), Screen::Playing);
    let puzzle = run(&app).puzzle.clone();
    let position = puzzle.position_string(kind).unwrap();
    assert_eq!(the_match(&app).position_string(), position);
    for (i, turn) in puzzle.line.iter().enumerate().step_by(2) {
        play_turn(&mut app, kind, turn);
        if i + 1 < puzzle.line.len() {
            wait_for_answers(&mut app);
        }
    }
    run_until(&mut app, "the puzzle to be judged", |app| {
        run(app).verdict.is_some()
    });
    assert_eq!(run(&app).verdict, Some(PuzzleVerdict::Solved));
    let kept = record(&app, kind);
    assert_eq!((kept.solved, kept.streak), (1, 1));
    assert!(kept.rating.rating > 1500.0);
    // The puzzle says it is solved: no result screen, and nothing autosaved.
    assert_eq!(screen(&app), Screen::Playing);
    request(&mut app, PuzzleInput::Next);
    assert_ne!(run(&app).puzzle.id, puzzle.id);
    request(&mut app, PuzzleInput::Leave);
    assert_eq!(screen(&app), Screen::Title);
    assert!(app.world().get_resource::<PuzzleRun>().is_none());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_wrong_try_is_refuted_on_the_board_and_counted_once() {
    let mut app = headless_app(BotRunner::FrameSlices, Storage::default());
    let kind = GameKind::Adaptoid;
    request(&mut app, PuzzleInput::Start { kind, daily: false });
    let puzzle = run(&app).puzzle.clone();
    let wrong = wrong_first_turn(kind, &puzzle).unwrap();
    play_turn(&mut app, kind, &wrong);
    run_until(&mut app, "the try to be judged", |app| {
        run(app).verdict.is_some()
    });
    assert!(matches!(run(&app).verdict, Some(PuzzleVerdict::Wrong(_))));
    wait_for_answers(&mut app);
    // The refutation it names is on the board, after the wrong turn.
    let wrong_moves = kind.split_moves(&wrong).len();
    let names_an_answer =
        matches!(&run(&app).verdict, Some(PuzzleVerdict::Wrong(why)) if why.contains("answers it"));
    assert_eq!(
        the_match(&app).record().len() > wrong_moves,
        names_an_answer
    );
    let kept = record(&app, kind);
    assert_eq!((kept.failed, kept.streak), (1, 0));
    assert!(kept.rating.rating < 1500.0);
    request(&mut app, PuzzleInput::Retry);
    assert_eq!(the_match(&app).record().len(), 0);
    assert_eq!(run(&app).verdict, None);
    for (i, turn) in puzzle.line.iter().enumerate().step_by(2) {
        play_turn(&mut app, kind, turn);
        if i + 1 < puzzle.line.len() {
            wait_for_answers(&mut app);
        }
    }
    run_until(&mut app, "the retry to be judged", |app| {
        run(app).verdict.is_some()
    });
    assert_eq!(run(&app).verdict, Some(PuzzleVerdict::Solved));
    // Only the first try counts.
    assert_eq!(record(&app, kind), kept);
}

#[test]
fn a_deeper_puzzle_is_answered_by_the_solver_on_the_board() {
    let mut app = headless_app(BotRunner::FrameSlices, Storage::default());
    let (kind, puzzle) = GameKind::ALL
        .into_iter()
        .flat_map(|kind| {
            puzzles_for(kind)
                .unwrap()
                .puzzles
                .into_iter()
                .map(move |p| (kind, p))
        })
        .find(|(_, p)| p.depth >= 2)
        .expect("a shipped puzzle of two turns or more");
    request(
        &mut app,
        PuzzleInput::Open {
            kind,
            id: puzzle.id.clone(),
        },
    );
    play_turn(&mut app, kind, &puzzle.line[0]);
    wait_for_answers(&mut app);
    let after_first = kind.split_moves(&puzzle.line[0]).len();
    assert!(
        the_match(&app).record().len() > after_first,
        "the solver answered"
    );
    assert_eq!(run(&app).verdict, None, "the puzzle goes on");
}

#[test]
fn todays_puzzle_is_the_same_for_everyone() {
    let mut app = headless_app(BotRunner::FrameSlices, Storage::default());
    let kind = GameKind::Adomoc;
    request(&mut app, PuzzleInput::Start { kind, daily: true });
    let set = puzzles_for(kind).unwrap();
    assert_eq!(Some(&run(&app).puzzle), puzzle_of_the_day(&set, today()));
    assert!(run(&app).daily);
}
