//! A lesson step shown for screenshots and the browser test: `TABULA_LESSON=GAME[:STEP[:WHAT]]`
//! (`?lesson=GAME:STEP:WHAT` on a page served from this machine) opens GAME's course at
//! STEP (from 1) as the title's Learn buttons do; WHAT is `read` (the default: the step
//! as it comes), `solve` (its solution played as typed moves) or `miss` (a turn that
//! misses the task, caught while the reason shows). It logs `tabula-demo: lesson …` with
//! the verdict, and with `TABULA_SCREENSHOT=FILE.png` saves a screenshot and quits.

use super::practice::{What, practice_request};
use super::snapshot::Snapshot;
use crate::AppSystems;
use crate::current_game::CurrentGame;
use crate::lesson::{Lesson, LessonInput, Verdict};
use crate::phase::{BoardShows, TurnPhase};
use crate::queued_moves::QueuedMoves;
use crate::screens::Screen;
use crate::table::GameKind;
use crate::turn::PlayerInput;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::collections::VecDeque;

#[derive(Resource, Debug)]
struct LessonDemo {
    kind: GameKind,
    step: usize,
    what: What,
    snapshot: Snapshot,
    started: bool,
    /// The moves still to type, once the step's own watched moves are played.
    typing: Option<VecDeque<String>>,
    reported: bool,
}

fn lesson_request() -> Option<(String, Option<String>)> {
    practice_request("TABULA_LESSON", "lesson")
}

/// Whether a lesson demo was asked for (the app then draws every frame).
pub fn requested() -> bool {
    lesson_request().is_some()
}

fn parse(spec: &str, screenshot: Option<String>) -> Result<LessonDemo, String> {
    let mut parts = spec.split(':');
    let game = parts.next().unwrap_or_default();
    let kind =
        GameKind::from_key(game).ok_or_else(|| format!("TABULA_LESSON: unknown game {game:?}"))?;
    let step = match parts.next() {
        None => 1,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                format!("TABULA_LESSON: the step must be a number from 1, not {text:?}")
            })?,
    };
    let what = What::parse(parts.next(), "TABULA_LESSON")?;
    Ok(LessonDemo {
        kind,
        step: step - 1,
        what,
        snapshot: Snapshot::new(screenshot),
        started: false,
        typing: None,
        reported: false,
    })
}

pub fn plugin(app: &mut App) {
    let Some((spec, screenshot)) = lesson_request() else {
        return;
    };
    match parse(&spec, screenshot) {
        Ok(demo) => {
            app.insert_resource(demo)
                .add_systems(Update, run_lesson_demo.in_set(AppSystems::Think));
        }
        Err(error) => error!("{error}"),
    }
}

/// The moves the demo types for the step: its solution, or a turn that misses it.
fn moves_for(lesson: &Lesson, what: What) -> VecDeque<String> {
    let step = lesson.current();
    let Some(task) = &step.task else {
        return VecDeque::new();
    };
    match what {
        What::Read => VecDeque::new(),
        What::Solve => lesson.kind().split_moves(&task.solution).into(),
        What::Miss => tabula_learn::failing_turn(&lesson.course, step)
            .map(|(turn, _)| turn.into())
            .unwrap_or_default(),
    }
}

/// The lesson on the table as the demo sees it.
#[derive(SystemParam)]
struct Seen<'w> {
    lesson: Option<Res<'w, Lesson>>,
    queued: Res<'w, QueuedMoves>,
    game: Option<Res<'w, CurrentGame>>,
    board: Res<'w, BoardShows>,
    phase: Option<Res<'w, State<TurnPhase>>>,
}

/// What the demo does with its hands: opens the lesson, types moves, quits.
#[derive(SystemParam)]
struct Hands<'w> {
    requests: MessageWriter<'w, LessonInput>,
    input: MessageWriter<'w, PlayerInput>,
    exit: MessageWriter<'w, AppExit>,
}

fn run_lesson_demo(
    mut commands: Commands,
    mut demo: ResMut<LessonDemo>,
    screen: Res<State<Screen>>,
    seen: Seen,
    hands: Hands,
) {
    let Seen {
        lesson,
        queued,
        game,
        board,
        phase,
    } = seen;
    let Hands {
        mut requests,
        mut input,
        mut exit,
    } = hands;
    if !demo.started {
        if *screen.get() == Screen::Title {
            demo.started = true;
            requests.write(LessonInput::Start {
                kind: demo.kind,
                step: demo.step,
            });
        }
        return;
    }
    let (Some(lesson), Some(game)) = (lesson, game) else {
        return;
    };
    if queued.is_playing() || !board.settled(&game) {
        demo.snapshot.unsettled();
        return;
    }
    if demo.typing.is_none() {
        demo.typing = Some(moves_for(&lesson, demo.what));
    }
    // Typed when the turn takes it, as of the frame's phase (the turn reads the same).
    let person_to_move = phase.is_some_and(|p| *p.get() == TurnPhase::PersonToMove);
    let typing_left = demo.typing.as_ref().is_some_and(|moves| !moves.is_empty());
    if typing_left && !person_to_move {
        return;
    }
    if let Some(text) = demo.typing.as_mut().and_then(VecDeque::pop_front) {
        input.write(PlayerInput::Notation(text));
        demo.snapshot.unsettled();
        return;
    }
    // A try is judged once the board shows it; a miss is caught before it is set back.
    let judged = demo.what == What::Read || lesson.verdict.is_some();
    if !judged {
        return;
    }
    if !demo.reported {
        demo.reported = true;
        let verdict = match &lesson.verdict {
            None => "read".to_string(),
            Some(Verdict::Solved) => "solved".to_string(),
            Some(Verdict::Shown) => "shown".to_string(),
            Some(Verdict::Missed(why)) => format!("missed: {why}"),
        };
        info!(
            "tabula-demo: lesson {} step {} ({}): {verdict}",
            lesson.kind().key(),
            lesson.step + 1,
            lesson.current().title
        );
    }
    // Soon enough that a miss still shows on the board (it is set back after 1.5 s).
    demo.snapshot.settled(20, &mut commands, &mut exit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_specs_are_read_or_refused_with_a_reason() {
        let demo = parse("adamas:3:solve", None).unwrap();
        assert_eq!(
            (demo.kind, demo.step, demo.what),
            (GameKind::Adamas, 2, What::Solve)
        );
        assert_eq!(parse("adomoc", None).unwrap().what, What::Read);
        assert!(parse("chess", None).unwrap_err().contains("unknown game"));
        assert!(parse("adamas:0", None).unwrap_err().contains("from 1"));
        assert!(
            parse("adamas:2:win", None)
                .unwrap_err()
                .contains("read, solve or miss")
        );
    }
}
