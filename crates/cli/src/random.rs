//! `random` (random games with every invariant checked) and `bench` (speed).

use crate::args::Args;
use crate::progress::Progress;
use crate::setup;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tabula_rules::{Game, Status};

const DEFAULT_MAX_PLIES: u32 = 10_000;

/// Plays random games, checking after every move that the move was legal, that the
/// position's invariants hold and that its position string reads back the same.
/// Returns the process exit code.
pub fn random<G: Game>(args: &Args) -> Result<i32, String> {
    let start = setup::start::<G>(args)?;
    // With --plies, games go on until that many plies are checked (or --games are played).
    let games = args
        .games
        .unwrap_or(if args.plies.is_some() { u64::MAX } else { 100 });
    let seed = args.seed.unwrap_or(0);
    let max_plies = args.max_plies.unwrap_or(DEFAULT_MAX_PLIES);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    let mut total_plies: u64 = 0;
    let mut progress = Progress::new();
    let started = Instant::now();
    let mut played: u64 = 0;
    for index in 0..games {
        if args.plies.is_some_and(|wanted| total_plies >= wanted) {
            break;
        }
        played += 1;
        let mut game = start.clone();
        let mut plies = 0;
        while game.status() == Status::Ongoing && plies < max_plies {
            progress.tick(|| {
                format!(
                    "game {}, ply {plies}; {} plies checked so far",
                    index + 1,
                    total_plies + plies as u64
                )
            });
            let Some(mv) = game.random_move(&mut rng) else {
                return fail(
                    index,
                    &game,
                    "the game is ongoing but random_move found no move",
                );
            };
            if let Err(e) = game.check_move(&mv) {
                return fail(
                    index,
                    &game,
                    &format!("random move {} is refused: {e}", game.format_move(&mv)),
                );
            }
            let text = game.format_move(&mv);
            match game.parse_move(&text) {
                Ok(back) if back == mv => {}
                _ => return fail(index, &game, &format!("move {text} does not read back")),
            }
            if let Err(e) = game.apply(&mv) {
                return fail(index, &game, &format!("{text}: {e}"));
            }
            plies += 1;
            if let Err(e) = game.check_invariants() {
                return fail(index, &game, &format!("after {text}: {e}"));
            }
            let position = game.position_string();
            match G::from_position(game.options().clone(), &position) {
                Ok(back) if back.position_string() == position => {}
                Ok(_) => {
                    return fail(
                        index,
                        &game,
                        "the position string does not read back the same",
                    );
                }
                Err(e) => {
                    return fail(
                        index,
                        &game,
                        &format!("the position string does not read back: {e}"),
                    );
                }
            }
        }
        total_plies += plies as u64;
        let outcome = if game.status() == Status::Ongoing {
            format!("unfinished after {max_plies} plies")
        } else {
            game.describe_status(game.status())
        };
        *outcomes.entry(outcome).or_default() += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("{played} random games of {} (seed {seed})", G::NAME);
    for (outcome, n) in &outcomes {
        println!("{n:>8}  {outcome}");
    }
    println!(
        "average length {:.1} plies; every invariant held after every move",
        total_plies as f64 / played.max(1) as f64
    );
    // Every check included: legality, read-back of the move and the position, invariants.
    println!(
        "{total_plies} plies checked in {seconds:.1} s: {:.0} plies a second",
        total_plies as f64 / seconds.max(1e-9)
    );
    Ok(0)
}

fn fail<G: Game>(index: u64, game: &G, message: &str) -> Result<i32, String> {
    eprintln!("game {}: invariant broken: {message}", index + 1);
    eprintln!("position: {}", game.position_string());
    Ok(1)
}

/// Random playouts per second and legal moves generated per second, on one thread, for
/// the game's benchmark configurations (or the options given).
pub fn bench<G: Game>(
    args: &Args,
    configurations: &[(&str, &[(&str, &str)])],
) -> Result<(), String> {
    let seconds = args.seconds.unwrap_or(3.0);
    let budget = Duration::from_secs_f64(seconds);
    let configurations: Vec<(String, Vec<(String, String)>)> = if args.options.is_empty() {
        configurations
            .iter()
            .map(|(name, opts)| {
                (
                    name.to_string(),
                    opts.iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                )
            })
            .collect()
    } else {
        vec![("as given".to_string(), args.options.clone())]
    };
    for (name, options) in configurations {
        let config_args = Args {
            options,
            ..Args::default()
        };
        let start = setup::start::<G>(&config_args)?;
        let mut rng = SmallRng::seed_from_u64(args.seed.unwrap_or(1));

        // Playouts from the start to the end of the game.
        let began = Instant::now();
        let mut playouts: u64 = 0;
        let mut plies: u64 = 0;
        // The average length is over finished playouts only: a cut one is not a game's length.
        let mut finished_plies: u64 = 0;
        let mut samples: Vec<G> = Vec::new();
        let cap = args.max_plies.unwrap_or(DEFAULT_MAX_PLIES);
        let mut capped: u64 = 0;
        let mut cut_short = false;
        while began.elapsed() < budget {
            let mut game = start.clone();
            let mut length = 0;
            while let Some(mv) = game.random_move(&mut rng) {
                game.play_unchecked(&mv);
                length += 1;
                // Big positions make long playouts: the time asked is kept all the same.
                if began.elapsed() >= budget {
                    cut_short = true;
                    break;
                }
                if length >= cap {
                    capped += (game.status() == Status::Ongoing) as u64;
                    break;
                }
                if samples.len() < 2_000 && length % 7 == 3 {
                    samples.push(game.clone());
                }
            }
            plies += length as u64;
            if !cut_short {
                playouts += 1;
                finished_plies += length as u64;
            }
        }
        let elapsed = began.elapsed().as_secs_f64();

        // Legal move generation over positions met in those playouts.
        let generation_began = Instant::now();
        let mut generated: u64 = 0;
        let mut positions: u64 = 0;
        let mut position_cut_short = false;
        'outer: loop {
            for game in &samples {
                // One position may hold more moves than the time allows: look at the
                // clock every few thousand.
                for (i, _) in game.legal_moves().enumerate() {
                    generated += 1;
                    if i % 4096 == 4095 && generation_began.elapsed() >= budget {
                        positions += 1;
                        position_cut_short = true;
                        break 'outer;
                    }
                }
                positions += 1;
                if generation_began.elapsed() >= budget {
                    break 'outer;
                }
            }
            if samples.is_empty() {
                break;
            }
        }
        let generation_elapsed = generation_began.elapsed().as_secs_f64();
        println!("{} ({name}):", G::NAME);
        let plies_per_second = plies as f64 / elapsed;
        if playouts == 0 {
            println!(
                "  random playouts: {:>12} /s  (no playout finished in the time, {plies_per_second:.0} plies/s)",
                0
            );
        } else {
            println!(
                "  random playouts: {:>12.0} /s  ({playouts} {}, average {:.1} plies, {plies_per_second:.0} plies/s)",
                playouts as f64 / elapsed,
                if playouts == 1 { "playout" } else { "playouts" },
                finished_plies as f64 / playouts as f64,
            );
        }
        if cut_short {
            println!("  (the last playout was cut short when the time ran out)");
        }
        if capped > 0 {
            println!("  ({capped} of those playouts were stopped unfinished at the {cap}-ply cap)");
        }
        println!(
            "  legal moves generated: {:>8.0} /s  ({generated} moves in {positions} {} from those playouts{})",
            generated as f64 / generation_elapsed,
            if positions == 1 {
                "position"
            } else {
                "positions"
            },
            if position_cut_short {
                ", the last one cut short when the time ran out"
            } else {
                ""
            }
        );
    }
    Ok(())
}
