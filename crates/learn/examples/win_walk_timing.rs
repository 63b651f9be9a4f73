//! What a search's walk for a win in one whole turn costs at its root
//! (`tabula_bot::turns::winning_turn` within `WIN_WALK_WORK`): for every shipped win in one,
//! the positions walked before the win is found and the time; then for positions with no win
//! in one (the shipped wins in two, and Absorption's middle games from random play), how long
//! the walk takes to find nothing. Prints the median and the worst a game.
//!
//! `cargo run --release -p tabula-learn --example win_walk_timing`

use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};
use tabula_bot::turns::{WIN_WALK_WORK, Work, winning_turn};
use tabula_learn::puzzles_for;
use tabula_session::rules::Game;
use tabula_session::{GameKind, with_game};

/// One walk: the positions it visited, how long it took, whether it found a win.
fn walk<G: Game>(game: &G) -> (u64, Duration, bool) {
    let mut work = Work(WIN_WALK_WORK);
    let started = Instant::now();
    let found = winning_turn(game, &mut work).is_some();
    (WIN_WALK_WORK - work.0, started.elapsed(), found)
}

fn summary(what: &str, mut walks: Vec<(u64, Duration)>) {
    if walks.is_empty() {
        return;
    }
    walks.sort();
    let median = walks[walks.len() / 2];
    let worst_time = walks.iter().map(|w| w.1).max().unwrap_or_default();
    let most = walks.last().map_or(0, |w| w.0);
    println!(
        "  {what}: {} walks; positions median {}, most {most}; time median {:.2} ms, worst {:.2} ms",
        walks.len(),
        median.0,
        median.1.as_secs_f64() * 1e3,
        worst_time.as_secs_f64() * 1e3
    );
}

/// Positions `plies` random moves into games from the start, at the start of a turn.
fn middle_games<G: Game>(count: usize, plies: u32) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = G::new(Default::default()).expect("the default options start a game");
        let mut last = game.to_move();
        for _ in 0..plies {
            let Some(mv) = game.random_move(&mut rng) else {
                break;
            };
            game.play_unchecked(&mv);
            // Mid-turn positions are not where a turn's walk starts.
            if game.to_move() != last && game.ply() >= plies / 2 {
                break;
            }
            last = game.to_move();
        }
        if !game.status().is_over() {
            found.push(game);
        }
    }
    found
}

fn main() {
    println!("walk work: {WIN_WALK_WORK} positions");
    for kind in GameKind::ALL {
        let set = puzzles_for(kind).expect("the shipped puzzles read");
        println!("{}:", kind.title());
        with_game!(kind, G => {
            let (mut wins, mut none, mut missed) = (Vec::new(), Vec::new(), 0);
            for puzzle in &set.puzzles {
                let game: G = puzzle.position().expect("a shipped puzzle sets up");
                let (positions, time, found) = walk(&game);
                match (puzzle.depth, found) {
                    (1, true) => wins.push((positions, time)),
                    (1, false) => missed += 1,
                    _ => none.push((positions, time)),
                }
            }
            summary("shipped wins in one, found", wins);
            if missed > 0 {
                println!("  shipped wins in one NOT found within the work: {missed}");
            }
            summary("shipped wins in two (no win in one)", none);
            let middles: Vec<(u64, Duration)> = middle_games::<G>(50, 60)
                .iter()
                .map(walk)
                .filter(|walked| !walked.2)
                .map(|(positions, time, _)| (positions, time))
                .collect();
            summary("middle games from random play, no win found", middles);
        });
    }
}
