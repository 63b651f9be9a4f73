//! Lessons in the app, headless: every step of every course gone through as a player
//! would, its watched moves shown, its task done by moves sent as `PlayerInput`, judged,
//! and the progress kept; a missed try told why and set back.

mod common;

use bevy::prelude::*;
use common::*;
use tabula::bot::BotRunner;
use tabula::config::Settings;
use tabula::lesson::{Lesson, LessonInput, Verdict};
use tabula::queued_moves::QueuedMoves;
use tabula::screens::Screen;
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::PlayerInput;
use tabula_learn::{course_for, failing_turn};

fn lesson(app: &App) -> &Lesson {
    app.world().resource::<Lesson>()
}

fn request(app: &mut App, input: LessonInput) {
    app.world_mut().write_message(input);
    app.update();
    app.update();
}

/// Waits until the lesson's watched or shown moves are played and the board shows them.
fn wait_for_moves(app: &mut App) {
    run_until(app, "the lesson's moves to be played", |app| {
        !app.world().resource::<QueuedMoves>().is_playing() && board_settled(app)
    });
    settle(app);
}

/// Plays a task's solution as typed moves, and waits until the try is judged.
fn play_solution(app: &mut App, kind: GameKind, solution: &str, what: &str) {
    for text in kind.split_moves(solution) {
        send(app, PlayerInput::Notation(text));
        settle(app);
    }
    run_until(app, &format!("{what} to be judged"), |app| {
        lesson(app).verdict.is_some()
    });
}

#[test]
fn every_course_can_be_gone_through_by_playing_its_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = headless_app(BotRunner::FrameSlices, Storage::at(dir.path()));
    for kind in GameKind::ALL {
        let course = course_for(kind).unwrap();
        request(&mut app, LessonInput::Start { kind, step: 0 });
        assert_eq!(screen(&app), Screen::Playing, "{kind:?}");
        for (i, step) in course.steps.iter().enumerate() {
            let what = format!("{kind:?} step {} ({})", i + 1, step.title);
            assert_eq!(lesson(&app).step, i, "{what}");
            wait_for_moves(&mut app);
            assert_eq!(the_match(&app).record().len(), step.watch.len(), "{what}");
            if let Some(task) = &step.task {
                play_solution(&mut app, kind, &task.solution, &what);
                assert_eq!(lesson(&app).verdict, Some(Verdict::Solved), "{what}");
                // The lesson says how the task went; no result screen takes over.
                assert_eq!(screen(&app), Screen::Playing, "{what}");
            }
            if i + 1 < course.steps.len() {
                request(&mut app, LessonInput::Next);
            }
        }
        let done = app
            .world()
            .resource::<Settings>()
            .lessons
            .get(kind.key())
            .copied();
        assert_eq!(done, Some(course.steps.len()), "{kind:?}: progress kept");
        request(&mut app, LessonInput::Leave);
        assert_eq!(screen(&app), Screen::Title);
        assert!(app.world().get_resource::<Lesson>().is_none());
    }
    // A lesson's board is not a game to continue: nothing was autosaved.
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(kept.is_empty(), "{kept:?}");
}

#[test]
fn a_missed_try_is_told_why_and_set_back_and_show_me_plays_a_solution() {
    let mut app = headless_app(BotRunner::FrameSlices, Storage::default());
    let kind = GameKind::Adamas;
    let course = course_for(kind).unwrap();
    let (index, step) = course
        .steps
        .iter()
        .enumerate()
        .find(|(_, s)| s.task.is_some())
        .expect("a step with a task");
    let (miss, why) = failing_turn(&course, step).expect("a turn that misses");
    request(&mut app, LessonInput::Start { kind, step: index });
    wait_for_moves(&mut app);
    let before = the_match(&app).record().len();
    for text in &miss {
        send(&mut app, PlayerInput::Notation(text.clone()));
        settle(&mut app);
    }
    run_until(&mut app, "the miss to be judged", |app| {
        lesson(app).verdict.is_some()
    });
    assert_eq!(lesson(&app).verdict, Some(Verdict::Missed(why.clone())));
    run_until(&mut app, "the miss to be set back", |app| {
        the_match(app).record().len() == before
    });
    // The reason stays on screen for the next try.
    assert_eq!(lesson(&app).verdict, Some(Verdict::Missed(why)));
    request(&mut app, LessonInput::ShowMe);
    wait_for_moves(&mut app);
    run_until(&mut app, "the shown solution to be judged", |app| {
        lesson(app).verdict == Some(Verdict::Shown)
    });
    assert!(the_match(&app).record().len() > before);
}

#[test]
fn a_finished_course_offers_the_first_level_on_the_new_game_form() {
    let mut app = headless_app(BotRunner::FrameSlices, Storage::default());
    let kind = GameKind::Absorption;
    let last = course_for(kind).unwrap().steps.len() - 1;
    request(&mut app, LessonInput::Start { kind, step: last });
    assert!(lesson(&app).is_last());
    request(&mut app, LessonInput::PlayLevelOne);
    assert_eq!(screen(&app), Screen::NewGame);
    let form = app.world().resource::<tabula::new_game::NewGameForm>();
    assert_eq!(form.kind, kind);
    assert_eq!(form.seats[1], tabula::current_game::Seat::Bot(1));
}

/// From a lesson's position, a game against a bot: the person's side and the level chosen,
/// the same position on the board, and the lesson over.
#[test]
fn the_bot_can_be_played_from_a_lessons_position() {
    let mut app = headless_app(BotRunner::FrameSlices, Storage::default());
    let kind = GameKind::Adamas;
    let course = course_for(kind).unwrap();
    let index = course
        .steps
        .iter()
        .position(|s| s.task.is_some() && s.position.is_some())
        .unwrap();
    request(&mut app, LessonInput::Start { kind, step: index });
    wait_for_moves(&mut app);
    let position = the_match(&app).position_string();
    let mover = the_match(&app).to_move();
    app.world_mut()
        .write_message(tabula::new_game::PlayFromHere {
            seat: mover,
            level: 2,
        });
    app.update();
    app.update();
    assert!(app.world().get_resource::<Lesson>().is_none());
    assert_eq!(the_match(&app).position_string(), position);
    let seats = &app
        .world()
        .resource::<tabula::current_game::CurrentGame>()
        .seats;
    assert_eq!(seats[mover], tabula::current_game::Seat::Human);
    assert_eq!(seats[1 - mover], tabula::current_game::Seat::Bot(2));
    // The bot answers the person's move.
    let moves = the_match(&app).legal_moves(1).0;
    send(&mut app, PlayerInput::Notation(moves[0].clone()));
    run_until(&mut app, "the bot to answer", |app| {
        the_match(app).record().len() == 2 || the_match(app).status().is_over()
    });
}

/// "Again" while a step's watched moves are still being played sets the step up from its
/// start, and the watched moves are played again: the task still starts after them.
#[test]
fn again_during_the_watched_moves_plays_them_again() {
    let mut app = headless_app(BotRunner::FrameSlices, Storage::default());
    let kind = GameKind::Adamas;
    let course = course_for(kind).unwrap();
    let (index, step) = course
        .steps
        .iter()
        .enumerate()
        .find(|(_, s)| !s.watch.is_empty() && s.task.is_some())
        .expect("a step with moves to watch and a task");
    request(&mut app, LessonInput::Start { kind, step: index });
    request(&mut app, LessonInput::Again);
    wait_for_moves(&mut app);
    assert_eq!(the_match(&app).record().len(), step.watch.len());
    let task = step.task.as_ref().unwrap();
    play_solution(&mut app, kind, &task.solution, "the try");
    assert_eq!(lesson(&app).verdict, Some(Verdict::Solved));
}
