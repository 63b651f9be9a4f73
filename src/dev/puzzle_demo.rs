//! A puzzle shown for screenshots and the browser test: `TABULA_PUZZLE=GAME[:WHAT]`
//! (`?puzzle=GAME:WHAT` on a page served from this machine) opens GAME's first puzzle of
//! two turns or more (else its first) as **Puzzles** on the title does; WHAT is `read`
//! (the default), `solve` (the puzzle's line typed turn by turn, the solver answering) or
//! `miss` (a first turn that does not win, refuted on the board). It logs `tabula-demo:
//! puzzle …` with the verdict and the player's rating, and with `TABULA_SCREENSHOT=FILE.png`
//! saves a screenshot and quits.

use super::practice::{What, practice_request};
use super::snapshot::Snapshot;
use crate::AppSystems;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, TurnPhase};
use crate::puzzle::{PuzzleInput, PuzzleRun, PuzzleVerdict};
use crate::queued_moves::QueuedMoves;
use crate::screens::Screen;
use crate::table::GameKind;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::collections::VecDeque;
use tabula_learn::Puzzle;

#[derive(Resource, Debug)]
struct PuzzleDemo {
    kind: GameKind,
    what: What,
    snapshot: Snapshot,
    started: bool,
    /// The player's turns still to type (each a turn's moves).
    typing: Option<VecDeque<String>>,
    reported: bool,
}

fn puzzle_request() -> Option<(String, Option<String>)> {
    practice_request("TABULA_PUZZLE", "puzzle")
}

/// Whether a puzzle demo was asked for (the app then draws every frame).
pub fn requested() -> bool {
    puzzle_request().is_some()
}

fn parse(spec: &str, screenshot: Option<String>) -> Result<PuzzleDemo, String> {
    let (game, what) = spec.split_once(':').unwrap_or((spec, "read"));
    let kind =
        GameKind::from_key(game).ok_or_else(|| format!("TABULA_PUZZLE: unknown game {game:?}"))?;
    let what = match what {
        "read" => What::Read,
        "solve" => What::Solve,
        "miss" => What::Miss,
        other => {
            return Err(format!(
                "TABULA_PUZZLE: {other:?} is not read, solve or miss"
            ));
        }
    };
    Ok(PuzzleDemo {
        kind,
        what,
        snapshot: Snapshot::new(screenshot),
        started: false,
        typing: None,
        reported: false,
    })
}

pub fn plugin(app: &mut App) {
    let Some((spec, screenshot)) = puzzle_request() else {
        return;
    };
    match parse(&spec, screenshot) {
        Ok(demo) => {
            app.insert_resource(demo)
                .add_systems(Update, run_puzzle_demo.in_set(AppSystems::Think));
        }
        Err(error) => error!("{error}"),
    }
}

/// The puzzle the demo opens: the first of two turns or more, else the first.
fn chosen(kind: GameKind) -> Option<Puzzle> {
    let set = tabula_learn::puzzles_for(kind).ok()?;
    let deeper = set.puzzles.iter().find(|p| p.depth > 1);
    deeper.or(set.puzzles.first()).cloned()
}

/// The player's turns the demo types: the line's (every other turn), or one that misses.
fn turns_for(kind: GameKind, puzzle: &Puzzle, what: What) -> VecDeque<String> {
    match what {
        What::Read => VecDeque::new(),
        What::Solve => puzzle.line.iter().step_by(2).cloned().collect(),
        What::Miss => tabula_learn::wrong_first_turn(kind, puzzle)
            .into_iter()
            .collect(),
    }
}

/// The puzzle on the table as the demo sees it.
#[derive(SystemParam)]
struct Seen<'w> {
    run: Option<Res<'w, PuzzleRun>>,
    game: Option<Res<'w, CurrentGame>>,
    board: Res<'w, BoardShows>,
    phase: Option<Res<'w, State<TurnPhase>>>,
    settings: Res<'w, Settings>,
}

/// What the demo does with its hands: opens the puzzle, plays the player's turns, quits.
#[derive(SystemParam)]
struct Hands<'w> {
    requests: MessageWriter<'w, PuzzleInput>,
    queued: ResMut<'w, QueuedMoves>,
    exit: MessageWriter<'w, AppExit>,
}

fn run_puzzle_demo(
    mut commands: Commands,
    mut demo: ResMut<PuzzleDemo>,
    screen: Res<State<Screen>>,
    seen: Seen,
    mut hands: Hands,
) {
    if !demo.started {
        if *screen.get() == Screen::Title {
            demo.started = true;
            match chosen(demo.kind) {
                Some(puzzle) => {
                    hands.requests.write(PuzzleInput::Open {
                        kind: demo.kind,
                        id: puzzle.id,
                    });
                }
                None => error!("TABULA_PUZZLE: there are no {} puzzles", demo.kind.title()),
            }
        }
        return;
    }
    let (Some(run), Some(game)) = (seen.run, seen.game) else {
        return;
    };
    if hands.queued.is_playing() || !seen.board.settled(&game) {
        demo.snapshot.unsettled();
        return;
    }
    if demo.typing.is_none() {
        demo.typing = Some(turns_for(run.kind, &run.puzzle, demo.what));
    }
    let person_to_move = seen
        .phase
        .is_some_and(|p| *p.get() == TurnPhase::PersonToMove);
    let typing_left = demo.typing.as_ref().is_some_and(|turns| !turns.is_empty());
    if typing_left && run.verdict.is_none() {
        if person_to_move && let Some(turn) = demo.typing.as_mut().and_then(VecDeque::pop_front) {
            // Through the queue, one move a settled board, as the solver's answers go.
            hands.queued.0 = run.kind.split_moves(&turn).into();
        }
        demo.snapshot.unsettled();
        return;
    }
    if demo.what != What::Read && run.verdict.is_none() {
        return;
    }
    if !demo.reported {
        demo.reported = true;
        let verdict = match &run.verdict {
            None => "read".to_string(),
            Some(PuzzleVerdict::Solved) => "solved".to_string(),
            Some(PuzzleVerdict::Shown) => "shown".to_string(),
            Some(PuzzleVerdict::Wrong(why)) => format!("wrong: {why}"),
        };
        let rating = seen
            .settings
            .puzzles
            .get(run.kind.key())
            .map_or(1500.0, |record| record.rating.rating);
        info!(
            "tabula-demo: puzzle {} {} (depth {}): {verdict}; rating {rating:.0}",
            run.kind.key(),
            run.puzzle.id,
            run.puzzle.depth
        );
    }
    demo.snapshot.settled(30, &mut commands, &mut hands.exit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_specs_are_read_or_refused_with_a_reason() {
        let demo = parse("adamas:solve", None).unwrap();
        assert_eq!((demo.kind, demo.what), (GameKind::Adamas, What::Solve));
        assert_eq!(parse("adomoc", None).unwrap().what, What::Read);
        assert!(parse("go", None).unwrap_err().contains("unknown game"));
        assert!(
            parse("adamas:win", None)
                .unwrap_err()
                .contains("read, solve or miss")
        );
    }
}
