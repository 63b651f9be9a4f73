//! `puzzles tactics`: the bots' tactics test. Each bot plays the shipped puzzles of a game
//! against the solver's defence; the table gives the share each solves, by theme and by
//! the turns a puzzle takes (docs/bots.md, "Tactics").

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tabula_bot::{BotSpec, Levels};
use tabula_cli::args::MAX_JOBS;
use tabula_learn::{Puzzle, bot_solves, puzzles_for};
use tabula_rules::text::{quoted, whole_number_as};
use tabula_session::GameKind;

struct Flags {
    /// Every level of the game when not given.
    bots: Option<Vec<BotSpec>>,
    count: Option<usize>,
    jobs: usize,
    seed: u64,
}

impl Flags {
    fn parse(words: &[String]) -> Result<Flags, String> {
        let mut flags = Flags {
            bots: None,
            count: None,
            jobs: 1,
            seed: 1,
        };
        let mut rest = words.iter();
        while let Some(flag) = rest.next() {
            let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--bots" => flags.bots = Some(crate::bots::parse_specs(value)?),
                "--count" => flags.count = Some(whole_number_as("--count", value, 1..=1_000_000)?),
                "--jobs" => flags.jobs = whole_number_as("--jobs", value, 1..=MAX_JOBS)?,
                "--seed" => flags.seed = whole_number_as("--seed", value, 0..=u64::MAX)?,
                _ => return Err(format!("{} is not a flag here", quoted(flag))),
            }
        }
        Ok(flags)
    }
}

/// `puzzles tactics GAME [--bots A,B,...] [--count N] [--jobs J] [--seed S]`.
pub fn tactics(words: &[String]) -> Result<(), String> {
    let kind = GameKind::parse(words.first().ok_or("puzzles tactics needs a game")?)?;
    let flags = Flags::parse(&words[1..])?;
    let bots = match flags.bots {
        Some(bots) => bots,
        None => (1..=Levels::built_in().top_in(kind.key()))
            .map(|level| BotSpec::Level {
                level,
                threads: None,
            })
            .collect(),
    };
    for spec in &bots {
        spec.check_in(kind.key())?;
    }
    let set = puzzles_for(kind)?;
    let puzzles = spread(&set.puzzles, flags.count);
    println!(
        "{} tactics: {} of the {} shipped puzzles, seed {}, {} job(s)",
        kind.title(),
        puzzles.len(),
        set.puzzles.len(),
        flags.seed,
        flags.jobs
    );
    let mut columns = Vec::new();
    for spec in &bots {
        let started = Instant::now();
        let solved = solve_all(kind, &puzzles, spec, flags.seed, flags.jobs)?;
        let count = solved.iter().filter(|&&s| s).count();
        println!(
            "{spec}: {count} of {} solved ({:.1}%) in {:.1} s",
            puzzles.len(),
            percent(count, puzzles.len()),
            started.elapsed().as_secs_f64()
        );
        columns.push(solved);
    }
    println!();
    print_table(&puzzles, &bots, &columns);
    Ok(())
}

/// `count` puzzles spread evenly over the set (which lists wins in one before deeper ones,
/// each by rating), or all of them.
fn spread(puzzles: &[Puzzle], count: Option<usize>) -> Vec<&Puzzle> {
    let count = count.unwrap_or(puzzles.len()).min(puzzles.len());
    (0..count)
        .map(|i| &puzzles[i * puzzles.len() / count])
        .collect()
}

/// Whether `spec` solves each puzzle, in order, on `jobs` threads; each puzzle's bot is
/// seeded from its place in the list, so the result does not depend on the jobs.
fn solve_all(
    kind: GameKind,
    puzzles: &[&Puzzle],
    spec: &BotSpec,
    seed: u64,
    jobs: usize,
) -> Result<Vec<bool>, String> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, Result<bool, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.min(puzzles.len()).max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(puzzle) = puzzles.get(index) else {
                            return mine;
                        };
                        let bot_seed = seed.wrapping_add(index as u64);
                        mine.push((index, bot_solves(kind, puzzle, spec, bot_seed)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a tactics worker panicked"))
            .collect()
    });
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, solved)| solved).collect()
}

/// A Markdown table: one row a theme and depth, then every puzzle; one column a bot.
fn print_table(puzzles: &[&Puzzle], bots: &[BotSpec], columns: &[Vec<bool>]) {
    let mut rows: BTreeMap<(u32, &str), Vec<usize>> = BTreeMap::new();
    for (index, puzzle) in puzzles.iter().enumerate() {
        rows.entry((puzzle.depth, puzzle.theme.as_str()))
            .or_default()
            .push(index);
    }
    let names: Vec<String> = bots.iter().map(|bot| bot.to_string()).collect();
    println!("| turns | theme | puzzles | {} |", names.join(" | "));
    println!("|---|---|---|{}", "---|".repeat(names.len()));
    let everything: Vec<usize> = (0..puzzles.len()).collect();
    let all_rows = rows
        .iter()
        .map(|((depth, theme), indices)| (depth.to_string(), theme.to_string(), indices))
        .chain(std::iter::once((
            "all".to_string(),
            "all".to_string(),
            &everything,
        )));
    for (depth, theme, indices) in all_rows {
        let shares: Vec<String> = columns
            .iter()
            .map(|solved| {
                let count = indices.iter().filter(|&&i| solved[i]).count();
                format!("{:.0}%", percent(count, indices.len()))
            })
            .collect();
        println!(
            "| {depth} | {theme} | {} | {} |",
            indices.len(),
            shares.join(" | ")
        );
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}
