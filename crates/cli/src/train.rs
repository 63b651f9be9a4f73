//! `train`: the learned evaluation's weights for a game (issue 41, item 2). The search
//! plays itself; every position's features are kept with the game's result; the weights
//! are fitted to four games in five and judged on the fifth; the file is written with the
//! command and commit that made it. Seeded and run game by game in a fixed order, so the
//! same command makes the same file on any number of jobs.

use crate::args::Args;
use crate::progress::Progress;
use crate::puzzles::write_atomically;
use crate::setup;
use std::sync::Arc;
use std::time::Instant;
use tabula_bot::learned::{self, Dataset, Weights};
use tabula_bot::{BotSpec, Knowledge, Played, Rewards, Schedule, Score, Side, play_games};
use tabula_rules::text::quoted;

const DEFAULT_GAMES: u64 = 2000;
const DEFAULT_SELF_PLAY: &str = "mcts:iters=400,moves=100";
/// The bot both sides of a check game are: one judging by the new weights, one by hand.
const CHECK_BOT: &str = "mcts:iters=2000,moves=100";
const DEFAULT_MAX_PLIES: u32 = 600;
/// One game in this many is held out of the fit, to judge it.
const HELD_OUT_EVERY: u64 = 5;
/// A position's target by default: its game's result alone (docs/bots.md: as strong as
/// half the search's value in Absorption, and its chances calibrated).
const DEFAULT_LAMBDA: f64 = 1.0;

pub fn train<G: Knowledge>(args: &Args, words: &[String]) -> Result<(), String> {
    if G::FEATURES.is_empty() {
        return Err(format!("{} has no learned evaluation", G::NAME));
    }
    let start = setup::start::<G>(args)?;
    let self_play: BotSpec = args.bot.as_deref().unwrap_or(DEFAULT_SELF_PLAY).parse()?;
    // The same command makes the same file only if no move depends on the clock.
    if let Some((_, budget)) = self_play.search_for(G::NAME)
        && (budget.millis.is_some() || budget.thread_count() > 1)
    {
        return Err(format!(
            "train's --bot must be capped by iterations on one thread (iters=N, no ms or \
             threads), so that the same command makes the same weights; not {self_play}"
        ));
    }
    let games = args.games.unwrap_or(DEFAULT_GAMES);
    let schedule = Schedule {
        first: 0,
        games,
        seed: args.seed.unwrap_or(1),
        max_plies: args.max_plies.unwrap_or(DEFAULT_MAX_PLIES),
        record: true,
        jobs: args.jobs.unwrap_or(1),
    };
    let curve = curve_points(args.curve.as_deref(), games)?;
    let check_games = args.check.unwrap_or(0);
    if check_games > 0 && start.num_players() != 2 {
        return Err(format!(
            "--check plays the new weights against the hand-written evaluation, one seat \
             each: it needs two players, not {}",
            start.num_players()
        ));
    }
    let check_bot: BotSpec = CHECK_BOT.parse()?;
    let lambdas = args.lambda.clone().unwrap_or(vec![DEFAULT_LAMBDA]);
    let lambda = lambdas[0];
    println!(
        "{}: {games} self-play games by {self_play}, seed {}, {} job(s); targets {lambda} result, {} search value",
        G::NAME,
        schedule.seed,
        schedule.jobs,
        1.0 - lambda
    );
    let began = Instant::now();
    let played = play_self(&start, &self_play, &schedule);
    let row = start.num_players() * G::FEATURES.len();
    let positions: usize = played.iter().map(|g| g.positions(row)).sum();
    let self_play_seconds = began.elapsed().as_secs_f64();
    println!(
        "self-play: {games} games, {positions} positions, {:.0} s ({:.2} s a game)",
        self_play_seconds,
        self_play_seconds / games.max(1) as f64
    );
    let stopped = played.iter().filter(|g| !g.finished()).count();
    let drawn = played
        .iter()
        .filter(|g| g.finished() && !g.result.contains(&1.0))
        .count();
    println!(
        "results: {} won, {drawn} drawn, {stopped} stopped at {} plies{}",
        played.len() - drawn - stopped,
        schedule.max_plies,
        if lambda > 0.0 {
            " (left out: no result)"
        } else {
            ""
        }
    );
    // Judged on results alone, whatever the training target.
    let held_out_games =
        |g: &Played| g.finished() && g.index % HELD_OUT_EVERY == HELD_OUT_EVERY - 1;
    let held_out = dataset::<G>(&played, row, 1.0, held_out_games);
    let hand: Vec<Rewards> = played
        .iter()
        .filter(|g| held_out_games(g))
        .flat_map(|g| g.hand.iter().copied())
        .collect();
    let hand_loss = held_out.loss_of(&hand);
    let even_loss = held_out.loss(&vec![0.0; G::FEATURES.len()]);
    println!(
        "held out: every {HELD_OUT_EVERY}th game, {} positions; log loss of even chances {even_loss:.4}, of the hand-written evaluation {hand_loss:.4}",
        held_out.len()
    );
    if !curve.is_empty() {
        println!("learning curve (fitted on the first N games' training positions):");
    }
    for (&point, &lambda) in curve
        .iter()
        .flat_map(|point| lambdas.iter().map(move |lambda| (point, lambda)))
    {
        let data = dataset::<G>(&played, row, lambda, |g| {
            g.index < point && g.index % HELD_OUT_EVERY != HELD_OUT_EVERY - 1
        });
        let fitted = learned::fit(&data);
        let mut line = format!(
            "  {point:>6} games, targets {lambda} result, {:>7} positions: held-out loss {:.4}",
            data.len(),
            held_out.loss(&fitted.weights)
        );
        if check_games > 0 {
            let weights = weights_file::<G>(
                args,
                words,
                &self_play,
                point,
                lambda,
                &data,
                &fitted.weights,
            );
            let score = check::<G>(
                &start,
                &check_bot,
                Arc::new(weights),
                check_games,
                &schedule,
            );
            line += &format!(
                "; against the hand-written evaluation ({check_bot}, {check_games} games): {}–{}–{} ({:.1}%)",
                score.wins,
                score.draws,
                score.losses,
                100.0 * score.fraction()
            );
        }
        println!("{line}");
    }
    let fitting = Instant::now();
    let data = dataset::<G>(&played, row, lambda, |g| {
        g.index % HELD_OUT_EVERY != HELD_OUT_EVERY - 1
    });
    let fitted = learned::fit(&data);
    println!(
        "fit: {} positions, {} Newton steps, {:.1} s; training loss {:.4}",
        data.len(),
        fitted.steps,
        fitting.elapsed().as_secs_f64(),
        fitted.loss
    );
    let mut weights = weights_file::<G>(
        args,
        words,
        &self_play,
        games,
        lambda,
        &data,
        &fitted.weights,
    );
    weights.held_out_loss = held_out.loss(&fitted.weights);
    weights.hand_loss = hand_loss;
    println!(
        "held-out log loss: learned {:.4}, hand-written {hand_loss:.4}, even {even_loss:.4}",
        weights.held_out_loss
    );
    println!("calibration on the held-out positions (each seat's chance, in tenths):");
    println!("  band     seats  predicted     won");
    for (band, seats, predicted, won) in held_out.calibration(&fitted.weights).bands {
        println!(
            "  {:>3}–{:<3}% {seats:>7}   {:>6.1}%  {:>6.1}%",
            band * 10,
            band * 10 + 10,
            100.0 * predicted,
            100.0 * won
        );
    }
    println!("weights:");
    for (name, weight) in G::FEATURES.iter().zip(&weights.weights) {
        println!("  {name:<32} {weight:>+9.4}");
    }
    println!("total {:.0} s", began.elapsed().as_secs_f64());
    let text = to_ron(&weights)?;
    match &args.out {
        Some(path) => {
            write_atomically(path, &text)?;
            println!("wrote {}", quoted(path));
        }
        None => print!("{text}"),
    }
    Ok(())
}

fn play_self<G: Knowledge>(start: &G, spec: &BotSpec, schedule: &Schedule) -> Vec<Played> {
    let sides = [Side {
        spec: spec.clone(),
        weights: None,
    }];
    let mut progress = Progress::new();
    let (mut done, mut positions) = (0, 0);
    let row = start.num_players() * G::FEATURES.len();
    play_games(start, &sides, schedule, &mut |game| {
        done += 1;
        positions += game.positions(row);
        progress.tick(|| {
            format!(
                "self-play: {done}/{} games, {positions} positions",
                schedule.games
            )
        });
    })
}

/// The positions of the games `keep` takes, each with its target: `lambda` of its game's
/// result and the rest of its search's value. A game stopped before its end has no
/// result, so it is left out unless the target is the search's value alone.
fn dataset<G: Knowledge>(
    played: &[Played],
    row: usize,
    lambda: f64,
    keep: impl Fn(&Played) -> bool,
) -> Dataset {
    let mut data = Dataset::new(G::FEATURES.len(), row / G::FEATURES.len());
    for game in played
        .iter()
        .filter(|g| keep(g) && (g.finished() || lambda == 0.0))
    {
        for (features, searched) in game.rows.chunks_exact(row).zip(&game.searched) {
            let mut target = [0.0; tabula_bot::MAX_PLAYERS];
            for (seat, share) in target.iter_mut().enumerate() {
                *share = lambda * game.result[seat] + (1.0 - lambda) * searched[seat];
            }
            data.push(features, &target);
        }
    }
    data
}

/// The learning curve's points: game counts up to `games`, in order.
fn curve_points(text: Option<&str>, games: u64) -> Result<Vec<u64>, String> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let mut points = text
        .split(',')
        .map(|point| {
            point
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| (1..=games).contains(&n))
                .ok_or_else(|| {
                    format!(
                        "--curve takes game counts from 1 to --games ({games}), not {}",
                        quoted(point)
                    )
                })
        })
        .collect::<Result<Vec<u64>, String>>()?;
    points.sort_unstable();
    points.dedup();
    Ok(points)
}

fn weights_file<G: Knowledge>(
    args: &Args,
    words: &[String],
    self_play: &BotSpec,
    games: u64,
    lambda: f64,
    data: &Dataset,
    weights: &[f64],
) -> Weights {
    Weights {
        game: G::NAME.to_lowercase(),
        players: data.players(),
        command: format!("tabula-cli {}", words.join(" ")),
        commit: commit(),
        self_play: self_play.to_string(),
        games,
        result_share: lambda,
        positions: data.len() as u64,
        playout_plies: args.playout,
        features: G::FEATURES.iter().map(|name| name.to_string()).collect(),
        weights: weights.to_vec(),
        held_out_loss: f64::NAN,
        hand_loss: f64::NAN,
    }
}

/// The new weights against the hand-written evaluation, the same bot on both sides
/// otherwise, seats rotating; the score is the new weights'.
fn check<G: Knowledge>(
    start: &G,
    bot: &BotSpec,
    weights: Arc<Weights>,
    games: u64,
    schedule: &Schedule,
) -> Score {
    let sides = [
        Side {
            spec: bot.clone(),
            weights: Some(weights),
        },
        Side {
            spec: bot.clone(),
            weights: None,
        },
    ];
    let schedule = Schedule {
        games,
        // Other games than the self-play ones.
        seed: schedule.seed ^ 0x5EED_C4EC,
        record: false,
        ..*schedule
    };
    let mut score = Score::default();
    for game in play_games(start, &sides, &schedule, &mut |_| {}) {
        let winner = game.result.iter().position(|&share| share == 1.0);
        match winner.map(|seat| game.seating[seat]) {
            Some(0) => score.wins += 1,
            Some(_) => score.losses += 1,
            None => score.draws += 1,
        }
    }
    score
}

/// The commit the weights were made at, `+changes` when the tree differs from it (other
/// than in the weights files, which are the trainer's output).
fn commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ":(top)",
                ":(top,exclude)config/weights",
            ])
            .is_some_and(|changes| !changes.is_empty());
            if dirty {
                format!("{hash}+changes")
            } else {
                hash
            }
        }
        None => "unknown".to_string(),
    }
}

fn to_ron(weights: &Weights) -> Result<String, String> {
    let body = ron::ser::to_string_pretty(weights, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write the weights: {e}"))?;
    Ok(format!(
        "// The learned evaluation's weights for {}: made by `{}` at commit {} \
         (docs/bots.md, \"The learned evaluation\").\n{body}\n",
        weights.game, weights.command, weights.commit
    ))
}
