//! What a win in two costs the solver: for the shipped wins in one of each game, the
//! position one turn of the same side earlier (where a win in two is often there), asked
//! for every first turn that wins within two turns. Prints how many it tried, how many were
//! wins in two, how many were too big for a proof's work, the work done and the time.
//!
//! `cargo run --release -p tabula-learn --example win_in_two [POSITIONS_A_GAME]`

use std::time::Instant;
use tabula_learn::solve::{PROOF_WORK, Work, winning_turns};
use tabula_learn::{Puzzle, puzzles_for};
use tabula_rules::Game;
use tabula_session::{GameKind, with_game};

fn one_turn_earlier(puzzle: &Puzzle) -> Option<Puzzle> {
    let keep = puzzle.moves.len().checked_sub(2)?;
    Some(Puzzle {
        moves: puzzle.moves[..keep].to_vec(),
        ..puzzle.clone()
    })
}

fn measure<G: Game>(kind: GameKind, positions: usize) {
    let set = puzzles_for(kind).expect("the shipped puzzles read");
    let (mut tried, mut wins, mut too_big, mut work_done) = (0, 0, 0, 0);
    let started = Instant::now();
    let earlier = set
        .puzzles
        .iter()
        .filter(|p| p.depth == 1)
        .filter_map(one_turn_earlier);
    for puzzle in earlier.take(positions) {
        let Ok(game) = puzzle.position::<G>() else {
            continue;
        };
        let mut work = Work(PROOF_WORK);
        match winning_turns(&game, 1, &mut work) {
            None => {
                too_big += 1;
                continue;
            }
            Some((now, _)) if !now.is_empty() => continue,
            Some(_) => {}
        }
        tried += 1;
        let before = work.0;
        match winning_turns(&game, 2, &mut work) {
            Some((winning, _)) => wins += usize::from(!winning.is_empty()),
            None => too_big += 1,
        }
        work_done += before - work.0;
    }
    println!(
        "{}: {tried} positions, {wins} wins in two, {too_big} too big, {work_done} positions of work, {:.2} s",
        kind.title(),
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    let positions = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30);
    for kind in GameKind::ALL {
        with_game!(kind, G => measure::<G>(kind, positions));
    }
}
