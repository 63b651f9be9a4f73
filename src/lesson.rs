//! Lessons on the board: a course's steps, each set up on the table as a game where
//! people play every seat, its watched moves played for the player to see, and each try
//! at its task judged by `tabula-learn` from the rules once its turn is over. A missed
//! try is set back after a moment; **Show me** plays a solution. How far the player got
//! in each course is kept with the settings.

use crate::AppSystems;
use crate::config::Settings;
use crate::current_game::{CurrentGame, Seat};
use crate::new_game::NewGameForm;
use crate::phase::BoardShows;
use crate::queued_moves::QueuedMoves;
use crate::screens::{InGame, Screen, show_new_game};
use crate::table::{GameKind, new_table, table_at};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use tabula_learn::{Course, Progress, Step, built_in, check_turn};

/// The lesson on the table: which course, which step, and how the try stands.
#[derive(Resource, Clone, Debug)]
pub struct Lesson {
    pub course: Course,
    pub step: usize,
    /// The length of the line when the task begins: the watched moves come before it.
    task_from: usize,
    pub verdict: Option<Verdict>,
    /// The cells the step's words talk about, as the board numbers them.
    pub cells: Vec<usize>,
    /// The position last judged, so each try is judged once.
    judged: Option<(u64, u64)>,
    /// When a missed try is set back (seconds of real time).
    set_back_at: Option<f64>,
    /// The moves queued are a solution **Show me** plays.
    showing_solution: bool,
}

/// The courses that come with the game, read once; an error names the course that does
/// not read (its tests read every one, so it means a course edited without them).
#[derive(Resource, Clone, Debug)]
pub struct Courses(pub Result<Vec<Course>, String>);

impl Default for Courses {
    fn default() -> Self {
        Courses(built_in())
    }
}

impl Courses {
    pub fn get(&self, kind: GameKind) -> Result<&Course, String> {
        let courses = self.0.as_ref().map_err(Clone::clone)?;
        courses
            .iter()
            .find(|course| course.game == kind)
            .ok_or_else(|| format!("there is no {} course", kind.title()))
    }
}

/// How the step's task stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Solved,
    /// The solution was played by **Show me**.
    Shown,
    /// Why the try misses the task (or why a move was not legal).
    Missed(String),
}

/// What the lesson panel, the title and the rules window ask of a lesson.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum LessonInput {
    /// Opens `kind`'s course at a step (from 0).
    Start {
        kind: GameKind,
        step: usize,
    },
    Next,
    Back,
    /// Sets the step up again.
    Again,
    /// Plays a solution with its animations.
    ShowMe,
    /// Leaves the course for a game against the first level, on the new-game form.
    PlayLevelOne,
    Leave,
}

impl Lesson {
    pub fn kind(&self) -> GameKind {
        self.course.game
    }

    pub fn current(&self) -> &Step {
        &self.course.steps[self.step]
    }

    pub fn is_last(&self) -> bool {
        self.step + 1 >= self.course.steps.len()
    }
}

pub fn plugin(app: &mut App) {
    app.add_message::<LessonInput>()
        .init_resource::<Courses>()
        .add_systems(
            Update,
            (
                lesson_requests.in_set(AppSystems::Think),
                (judge, set_back)
                    .chain()
                    .in_set(AppSystems::Keep)
                    .run_if(resource_exists::<Lesson>),
            ),
        )
        .add_systems(OnExit(InGame), end_lesson);
}

fn end_lesson(mut commands: Commands) {
    commands.remove_resource::<Lesson>();
}

/// The table set up for a step: its options and position, every seat a person's.
fn step_table(kind: GameKind, step: &Step) -> Result<CurrentGame, String> {
    let table = match &step.position {
        Some(position) => table_at(kind, &step.options, position)?,
        None => new_table(kind, &step.options)?,
    };
    Ok(CurrentGame::practice(table))
}

/// Puts step `index` of `course` on the table. A step with nothing to do is done once it
/// is shown.
fn set_up(
    commands: &mut Commands,
    settings: &mut Settings,
    course: Course,
    index: usize,
) -> Result<(), String> {
    let index = index.min(course.steps.len().saturating_sub(1));
    let step = course
        .steps
        .get(index)
        .ok_or_else(|| format!("the {} course has no steps", course.game.title()))?;
    let game = step_table(course.game, step)?;
    if step.task.is_none() {
        note_progress(settings, course.game, index + 1);
    }
    let watched = QueuedMoves(step.watch.iter().cloned().collect());
    let lesson = Lesson {
        task_from: step.watch.len(),
        verdict: None,
        cells: tabula_learn::step_cells(course.game, step),
        judged: None,
        set_back_at: None,
        showing_solution: false,
        step: index,
        course,
    };
    commands.insert_resource(game);
    commands.insert_resource(lesson);
    commands.insert_resource(watched);
    // A step after another keeps the screen: its board is built anew here.
    // One practice at a time: a lesson opened from a puzzle's rules window ends the puzzle.
    commands.remove_resource::<crate::puzzle::PuzzleRun>();
    commands.queue(show_new_game);
    Ok(())
}

/// Where a lesson leads out to (another screen, the new-game form), and the moves it
/// plays for the player to see.
#[derive(SystemParam)]
struct WaysOut<'w> {
    form: ResMut<'w, NewGameForm>,
    next: ResMut<'w, NextState<Screen>>,
    queued: ResMut<'w, QueuedMoves>,
}

fn lesson_requests(
    mut commands: Commands,
    mut requests: MessageReader<LessonInput>,
    lesson: Option<ResMut<Lesson>>,
    game: Option<ResMut<CurrentGame>>,
    courses: Res<Courses>,
    mut settings: ResMut<Settings>,
    ways: WaysOut,
) {
    let WaysOut {
        mut form,
        mut next,
        mut queued,
    } = ways;
    let Some(request) = requests.read().last().cloned() else {
        return;
    };
    let outcome = match (request, lesson) {
        (LessonInput::Start { kind, step }, _) => courses
            .get(kind)
            .and_then(|course| set_up(&mut commands, &mut settings, course.clone(), step)),
        (LessonInput::Leave, _) => {
            next.set(Screen::Title);
            Ok(())
        }
        (LessonInput::PlayLevelOne, Some(lesson)) => {
            *form = NewGameForm::for_game(lesson.kind(), &settings);
            form.seats = vec![Seat::Human, Seat::Bot(1), Seat::Bot(1)];
            next.set(Screen::NewGame);
            Ok(())
        }
        (LessonInput::Next, Some(lesson)) if !lesson.is_last() => {
            let step = lesson.step + 1;
            note_progress(&mut settings, lesson.kind(), lesson.step + 1);
            set_up(&mut commands, &mut settings, lesson.course.clone(), step)
        }
        (LessonInput::Back, Some(lesson)) if lesson.step > 0 => {
            let step = lesson.step - 1;
            set_up(&mut commands, &mut settings, lesson.course.clone(), step)
        }
        (LessonInput::Again, Some(mut lesson)) => {
            if let Some(mut game) = game {
                set_back_to_task(&mut lesson, &mut game, &mut queued);
            }
            Ok(())
        }
        (LessonInput::ShowMe, Some(mut lesson)) => {
            if let (Some(mut game), Some(task)) = (game, lesson.current().task.clone()) {
                set_back_to_task(&mut lesson, &mut game, &mut queued);
                queued.0 = lesson.kind().split_moves(&task.solution).into();
                lesson.showing_solution = true;
            }
            Ok(())
        }
        _ => Ok(()),
    };
    if let Err(error) = outcome {
        warn!("lesson: {error}");
    }
}

/// Counts `steps` of `kind`'s course as done, keeping the furthest reached.
fn note_progress(settings: &mut Settings, kind: GameKind, steps: usize) {
    let done = settings.lessons.entry(kind.key().to_string()).or_default();
    if steps > *done {
        *done = steps;
    }
}

/// Takes the line back to where the task begins, forgetting the try.
fn set_back_to_task(lesson: &mut Lesson, game: &mut CurrentGame, queued: &mut QueuedMoves) {
    lesson.verdict = None;
    lesson.set_back_at = None;
    queued.0.clear();
    lesson.showing_solution = false;
    let task_from = lesson.task_from;
    if let Err(error) = game.table.go_to(task_from) {
        warn!("lesson: {error}");
    }
    game.table.discard_later_moves();
    lesson.judged = Some(game.position());
}

/// Judges the try once its turn is over and the board has shown it.
fn judge(
    mut lesson: ResMut<Lesson>,
    game: Res<CurrentGame>,
    board: Res<BoardShows>,
    (time, queued): (Res<Time<Real>>, Res<QueuedMoves>),
    mut settings: ResMut<Settings>,
) {
    // A miss stays on the board a moment: a move made meanwhile is not a new try.
    if queued.is_playing()
        || lesson.set_back_at.is_some()
        || !board.settled(&game)
        || lesson.judged == Some(game.position())
        || lesson.current().task.is_none()
    {
        return;
    }
    lesson.judged = Some(game.position());
    let record = game.table.as_match().record();
    if record.len() < lesson.task_from {
        // The watched moves were taken back (the undo key): the task starts after them.
        lesson.set_back_at = Some(time.elapsed_secs_f64());
        return;
    }
    let tried = &record[lesson.task_from..];
    if tried.is_empty() || matches!(lesson.verdict, Some(Verdict::Solved | Verdict::Shown)) {
        // Nothing tried yet, or moves after the task is done: the player's own.
        return;
    }
    match check_turn(lesson.kind(), lesson.current(), tried) {
        Progress::Continue => {}
        Progress::Solved => {
            lesson.verdict = Some(if lesson.showing_solution {
                Verdict::Shown
            } else {
                Verdict::Solved
            });
            let (kind, done) = (lesson.kind(), lesson.step + 1);
            note_progress(&mut settings, kind, done);
        }
        Progress::Missed(why) | Progress::Illegal(why) => {
            lesson.verdict = Some(Verdict::Missed(why));
            lesson.set_back_at = Some(time.elapsed_secs_f64() + SET_BACK_AFTER);
        }
    }
}

/// How long a missed try stays on the board before it is set back, so the player sees
/// what it did.
const SET_BACK_AFTER: f64 = 1.5;

fn set_back(
    mut lesson: ResMut<Lesson>,
    game: Option<ResMut<CurrentGame>>,
    time: Res<Time<Real>>,
    mut queued: ResMut<QueuedMoves>,
) {
    let Some(at) = lesson.set_back_at else {
        return;
    };
    if time.elapsed_secs_f64() < at {
        return;
    }
    let Some(mut game) = game else {
        return;
    };
    let verdict = lesson.verdict.take();
    set_back_to_task(&mut lesson, &mut game, &mut queued);
    // The reason stays on screen for the next try.
    lesson.verdict = verdict;
}
