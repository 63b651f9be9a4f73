//! The bots' tactics test (issue 41, item 5): level 5 solves every shipped win in one of
//! every game, played against the solver as a person's try is judged; a random mover does
//! not, so the judging tells a solution from a try. The share every level solves, by theme
//! and depth, is `tabula-cli puzzles tactics` (docs/bots.md, "Tactics").

use tabula_bot::BotSpec;
use tabula_learn::{Puzzle, bot_solves, puzzles_for};
use tabula_session::GameKind;

/// The ids of the puzzles of `depth` turns that `spec` does not solve, and how many there are.
fn missed(kind: GameKind, spec: &str, depth: u32) -> (Vec<String>, usize) {
    let spec: BotSpec = spec.parse().unwrap();
    let set = puzzles_for(kind).unwrap();
    let puzzles: Vec<&Puzzle> = set.puzzles.iter().filter(|p| p.depth == depth).collect();
    let missed = puzzles
        .iter()
        .enumerate()
        .filter(|(seed, puzzle)| {
            !bot_solves(kind, puzzle, &spec, *seed as u64)
                .unwrap_or_else(|e| panic!("{kind:?}: {e}"))
        })
        .map(|(_, puzzle)| puzzle.id.clone())
        .collect();
    (missed, puzzles.len())
}

#[test]
fn level_5_solves_every_win_in_one() {
    for kind in GameKind::ALL {
        let (missed, count) = missed(kind, "level:5", 1);
        assert!(count >= 100, "{kind:?}: {count} wins in one");
        assert!(
            missed.is_empty(),
            "{kind:?}: level 5 missed {} of {count} wins in one: {missed:?}",
            missed.len()
        );
    }
}

#[test]
fn a_random_mover_misses_wins_in_one() {
    for kind in GameKind::ALL {
        let (missed, count) = missed(kind, "random", 1);
        assert!(
            !missed.is_empty(),
            "{kind:?}: a random mover solved all {count} wins in one"
        );
    }
}
