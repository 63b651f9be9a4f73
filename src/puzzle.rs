//! Puzzles on the board: a shipped puzzle set up as a game every seat of which is a
//! person's, each try judged by the exact solver (`tabula-learn`) once its turn is over,
//! a right turn answered by the solver's longest defence, a wrong one by the answer that
//! refutes it, both played on the board; the player's Glicko-2 rating and streak in each
//! game kept with the settings; the puzzle of the day.

use crate::AppSystems;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::phase::BoardShows;
use crate::queued_moves::QueuedMoves;
use crate::screens::{InGame, Screen, show_new_game};
use crate::table::{GameKind, table_at};
use bevy::prelude::*;
use std::sync::OnceLock;
use tabula_learn::{
    Puzzle, PuzzleProgress, PuzzleSet, judge_puzzle, puzzle_of_the_day, puzzles_for,
};

/// The shipped puzzles, each game's read the first time it is asked for.
#[derive(Resource, Default)]
pub struct PuzzleSets([OnceLock<Result<PuzzleSet, String>>; 4]);

impl PuzzleSets {
    pub fn get(&self, kind: GameKind) -> Result<&PuzzleSet, String> {
        let index = GameKind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
        self.0[index]
            .get_or_init(|| puzzles_for(kind))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// The puzzle on the table and how the try stands.
#[derive(Resource, Clone, Debug)]
pub struct PuzzleRun {
    pub kind: GameKind,
    pub puzzle: Puzzle,
    /// Today's puzzle, rather than the next for the player's rating.
    pub daily: bool,
    /// Only the first try counts for the rating and the streak.
    pub counted: bool,
    pub verdict: Option<PuzzleVerdict>,
    /// The player's rating before and after the first try.
    pub rating_change: Option<(f64, f64)>,
    judged: Option<(u64, u64)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleVerdict {
    Solved,
    /// The solution was shown.
    Shown,
    /// Why the try fails (the answer that refutes it is played on the board).
    Wrong(String),
}

/// What the puzzle panel and the title ask of puzzles.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum PuzzleInput {
    /// The next puzzle of `kind` for the player's rating, or today's.
    Start {
        kind: GameKind,
        daily: bool,
    },
    /// A puzzle by its id (a link, the demo).
    Open {
        kind: GameKind,
        id: String,
    },
    /// The next puzzle of the game on the table.
    Next,
    /// The puzzle's position again.
    Retry,
    /// Plays the solution's line.
    ShowSolution,
    Leave,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<PuzzleSets>()
        .add_message::<PuzzleInput>()
        .add_systems(Update, puzzle_requests.in_set(AppSystems::Think))
        .add_systems(
            Update,
            judge
                .in_set(AppSystems::Keep)
                .run_if(resource_exists::<PuzzleRun>),
        )
        .add_systems(OnExit(InGame), end_puzzle);
}

fn end_puzzle(mut commands: Commands) {
    commands.remove_resource::<PuzzleRun>();
}

/// Days since 1 January 1970 in UTC, which names the puzzle of the day.
pub fn today() -> u64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
}

/// The puzzle's position: its options and its position string.
fn puzzle_table(kind: GameKind, puzzle: &Puzzle) -> Result<CurrentGame, String> {
    let position = puzzle.position_string(kind)?;
    Ok(CurrentGame::practice(table_at(
        kind,
        &puzzle.options,
        &position,
    )?))
}

fn set_up(
    commands: &mut Commands,
    kind: GameKind,
    puzzle: Puzzle,
    daily: bool,
) -> Result<(), String> {
    commands.insert_resource(puzzle_table(kind, &puzzle)?);
    commands.insert_resource(PuzzleRun {
        kind,
        puzzle,
        daily,
        counted: false,
        verdict: None,
        rating_change: None,
        judged: None,
    });
    commands.insert_resource(QueuedMoves::default());
    // One practice at a time: a lesson opened from a puzzle's rules window ends the puzzle.
    commands.remove_resource::<crate::lesson::Lesson>();
    commands.queue(show_new_game);
    Ok(())
}

fn puzzle_requests(
    mut commands: Commands,
    mut requests: MessageReader<PuzzleInput>,
    run: Option<ResMut<PuzzleRun>>,
    game: Option<ResMut<CurrentGame>>,
    sets: Res<PuzzleSets>,
    mut settings: ResMut<Settings>,
    (mut queued, mut next): (ResMut<QueuedMoves>, ResMut<NextState<Screen>>),
) {
    let Some(request) = requests.read().last().cloned() else {
        return;
    };
    let start = |kind: GameKind, daily: bool, settings: &Settings| -> Result<Puzzle, String> {
        let set = sets.get(kind)?;
        let record = settings
            .puzzles
            .get(kind.key())
            .cloned()
            .unwrap_or_default();
        let chosen = match daily {
            true => puzzle_of_the_day(set, today()),
            false => record.next(set),
        };
        chosen
            .cloned()
            .ok_or_else(|| format!("there are no {} puzzles", kind.title()))
    };
    let outcome = match (request, run) {
        (PuzzleInput::Start { kind, daily }, _) => {
            start(kind, daily, &settings).and_then(|p| set_up(&mut commands, kind, p, daily))
        }
        (PuzzleInput::Open { kind, id }, _) => sets
            .get(kind)
            .and_then(|set| {
                set.puzzles
                    .iter()
                    .find(|p| p.id == id)
                    .cloned()
                    .ok_or_else(|| format!("there is no puzzle {id}"))
            })
            .and_then(|p| set_up(&mut commands, kind, p, false)),
        (PuzzleInput::Next, Some(run)) => {
            // A puzzle left untried is not counted as failed, but comes again later.
            if !run.counted {
                settings
                    .puzzles
                    .entry(run.kind.key().to_string())
                    .or_default()
                    .skip(&run.puzzle.id);
            }
            start(run.kind, false, &settings)
                .and_then(|p| set_up(&mut commands, run.kind, p, false))
        }
        (PuzzleInput::Retry, Some(mut run)) => {
            if let Some(mut game) = game {
                back_to_start(&mut run, &mut game, &mut queued);
            }
            Ok(())
        }
        (PuzzleInput::ShowSolution, Some(mut run)) => {
            if let Some(mut game) = game {
                back_to_start(&mut run, &mut game, &mut queued);
                count_first_try(&mut run, &mut settings, false);
                run.verdict = Some(PuzzleVerdict::Shown);
                let kind = run.kind;
                queued.0 = run
                    .puzzle
                    .line
                    .iter()
                    .flat_map(|turn| kind.split_moves(turn))
                    .collect();
            }
            Ok(())
        }
        (PuzzleInput::Leave, _) => {
            next.set(Screen::Title);
            Ok(())
        }
        _ => Ok(()),
    };
    if let Err(error) = outcome {
        warn!("puzzle: {error}");
    }
}

fn back_to_start(run: &mut PuzzleRun, game: &mut CurrentGame, queued: &mut QueuedMoves) {
    queued.0.clear();
    run.verdict = None;
    if let Err(error) = game.table.go_to(0) {
        warn!("puzzle: {error}");
    }
    game.table.discard_later_moves();
    run.judged = Some(game.position());
}

/// Counts the first try at the puzzle: the rating and the streak.
fn count_first_try(run: &mut PuzzleRun, settings: &mut Settings, solved: bool) {
    if run.counted {
        return;
    }
    run.counted = true;
    let record = settings
        .puzzles
        .entry(run.kind.key().to_string())
        .or_default();
    let before = record.rating.rating;
    record.record(&run.puzzle, solved);
    run.rating_change = Some((before, record.rating.rating));
}

/// Judges the try once the board shows it: the solver's answer, the win, or the
/// refutation, played on the board.
fn judge(
    mut run: ResMut<PuzzleRun>,
    game: Res<CurrentGame>,
    board: Res<BoardShows>,
    mut queued: ResMut<QueuedMoves>,
    mut settings: ResMut<Settings>,
) {
    if queued.is_playing() || !board.settled(&game) || run.judged == Some(game.position()) {
        return;
    }
    run.judged = Some(game.position());
    if matches!(
        run.verdict,
        Some(PuzzleVerdict::Shown | PuzzleVerdict::Wrong(_))
    ) {
        // The solution or a refutation is on the board: nothing to judge until a retry.
        return;
    }
    let played = game.table.as_match().record().to_vec();
    if played.is_empty() {
        return;
    }
    let kind = run.kind;
    match judge_puzzle(kind, &run.puzzle, &played) {
        PuzzleProgress::Continue | PuzzleProgress::Illegal(_) => {}
        PuzzleProgress::Answer(answer) => {
            queued.0 = kind.split_moves(&answer).into();
        }
        PuzzleProgress::Solved => {
            count_first_try(&mut run, &mut settings, true);
            run.verdict = Some(PuzzleVerdict::Solved);
        }
        PuzzleProgress::Wrong { refutation } => {
            count_first_try(&mut run, &mut settings, false);
            let why = match &refutation {
                Some(answer) => format!("That does not win in time: {answer} answers it."),
                None => "That does not win in time.".to_string(),
            };
            run.verdict = Some(PuzzleVerdict::Wrong(why));
            if let Some(answer) = refutation {
                queued.0 = kind.split_moves(&answer).into();
            }
        }
    }
}
