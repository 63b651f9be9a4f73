//! How long the app's puzzle judge takes: for every shipped puzzle, a first turn that does
//! not win and one that does, each judged as the app judges a try once its turn is over.
//! Prints the mean and the slowest a game.
//!
//! `cargo run --release -p tabula-learn --example judge_timing`

use std::time::{Duration, Instant};
use tabula_learn::{judge_puzzle, puzzles_for, wrong_first_turn};
use tabula_session::GameKind;

fn main() {
    for kind in GameKind::ALL {
        let set = puzzles_for(kind).expect("the shipped puzzles read");
        let (mut total, mut slowest, mut judged) = (Duration::ZERO, Duration::ZERO, 0u32);
        for puzzle in &set.puzzles {
            let wrong = wrong_first_turn(kind, puzzle);
            let tries = wrong.iter().chain(puzzle.wins.first());
            for first_turn in tries {
                let played = kind.split_moves(first_turn);
                let started = Instant::now();
                judge_puzzle(kind, puzzle, &played);
                let took = started.elapsed();
                total += took;
                slowest = slowest.max(took);
                judged += 1;
            }
        }
        println!(
            "{}: {judged} tries judged, mean {:.2} ms, slowest {:.2} ms",
            kind.title(),
            total.as_secs_f64() * 1000.0 / f64::from(judged.max(1)),
            slowest.as_secs_f64() * 1000.0
        );
    }
}
