//! `puzzles generate` and `puzzles prove`: making and checking the shipped puzzles
//! (`puzzles tactics`, the bots tried at them, is in tactics.rs);
//! `puzzle`: solving one in the terminal, the solver answering.

use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;
use tabula_learn::{
    Puzzle, PuzzleProgress, PuzzleSet, Teach, generate, judge_puzzle, prove, puzzles_for,
    read_puzzles, write_puzzles,
};
use tabula_rules::text::{quoted, whole_number_as};
use tabula_session::{GameKind, with_game};

/// A shipped set is some hundreds of kilobytes.
const MAX_SET_BYTES: u64 = 64 << 20;

/// `puzzles generate GAME --out FILE [--count N] [--seconds S] [--seed S]` or
/// `puzzles prove FILE...`.
pub fn puzzles(words: &[String]) -> Result<(), String> {
    match words.first().map(String::as_str) {
        Some("generate") => {
            let kind = GameKind::parse(words.get(1).ok_or("puzzles generate needs a game")?)?;
            let flags = Flags::parse(&words[2..])?;
            let out = flags
                .out
                .clone()
                .ok_or("puzzles generate needs --out FILE")?;
            with_game!(kind, G => generate_into::<G>(kind, &out, &flags))
        }
        Some("prove") => prove_files(&words[1..]),
        Some("tactics") => crate::tactics::tactics(&words[1..]),
        Some("select") => {
            let from = words.get(1).ok_or("puzzles select needs a puzzle file")?;
            let flags = Flags::parse(&words[2..])?;
            let out = flags.out.clone().ok_or("puzzles select needs --out FILE")?;
            if Path::new(&out) == Path::new(from) {
                return Err(
                    "puzzles select writes a new file: --out must not be the file read".into(),
                );
            }
            let mut set = read_set(from)?;
            // Each worked out again by the solver as it now is (a file made by an older
            // one keeps its positions); a position no longer a puzzle is left out.
            let generated = set.puzzles.len();
            let kind = set.game;
            set.puzzles = set
                .puzzles
                .iter()
                .filter_map(|puzzle| tabula_learn::refreshed(kind, puzzle))
                .collect();
            let unproved = generated - set.puzzles.len();
            let chosen = tabula_learn::select(&set, flags.count.unwrap_or(400));
            write_atomically(&out, &write_puzzles(&chosen))?;
            let deeper = chosen.puzzles.iter().filter(|p| p.depth > 1).count();
            println!(
                "{out}: {} of {} puzzles ({deeper} of two turns or more; {unproved} passed over \
                 as no longer puzzles)",
                chosen.puzzles.len(),
                set.puzzles.len()
            );
            Ok(())
        }
        _ => Err(
            "puzzles generate GAME --out FILE ..., puzzles select FILE --out FILE [--count N], \
             puzzles prove FILE... or puzzles tactics GAME [--bots A,B,...]"
                .into(),
        ),
    }
}

#[derive(Default)]
struct Flags {
    out: Option<String>,
    count: Option<usize>,
    seconds: Option<u64>,
    seed: Option<u64>,
    id: Option<String>,
}

impl Flags {
    fn parse(words: &[String]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut rest = words.iter();
        while let Some(flag) = rest.next() {
            let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--out" => flags.out = Some(value.clone()),
                "--count" => flags.count = Some(whole_number_as("--count", value, 1..=1_000_000)?),
                "--seconds" => {
                    flags.seconds = Some(whole_number_as("--seconds", value, 1..=10_000_000)?)
                }
                "--seed" => flags.seed = Some(whole_number_as("--seed", value, 0..=u64::MAX)?),
                "--id" => flags.id = Some(value.clone()),
                _ => return Err(format!("{} is not a flag here", quoted(flag))),
            }
        }
        Ok(flags)
    }
}

fn read_set(path: &str) -> Result<PuzzleSet, String> {
    let bytes = tabula_files::read_bounded(Path::new(path), MAX_SET_BYTES, "puzzles")
        .map_err(|e| format!("cannot read {}: {e}", quoted(path)))?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", quoted(path)))?;
    read_puzzles(&text).map_err(|e| format!("{}: {e}", quoted(path)))
}

/// Generates into `out`, keeping the puzzles it already holds; writes after each find, so
/// a stopped run keeps what it found.
fn generate_into<G: Teach + tabula_bot::Knowledge>(
    kind: GameKind,
    out: &str,
    flags: &Flags,
) -> Result<(), String> {
    let mut set = if Path::new(out).exists() {
        read_set(out)?
    } else {
        PuzzleSet {
            game: kind,
            puzzles: Vec::new(),
        }
    };
    if set.game != kind {
        return Err(format!(
            "{} holds {} puzzles",
            quoted(out),
            set.game.title()
        ));
    }
    let mut seen: HashSet<u64> = HashSet::new();
    for puzzle in &set.puzzles {
        if let Ok(game) = puzzle.position::<G>() {
            seen.insert(tabula_rules::Game::hash(&game));
        }
    }
    let started = Instant::now();
    let limit = flags.seconds.map(std::time::Duration::from_secs);
    let wanted = flags.count.unwrap_or(usize::MAX);
    let before = set.puzzles.len();
    let mut shown_at = Instant::now();
    let mut go_on = |run: &tabula_learn::Generated| {
        if shown_at.elapsed().as_secs() >= 30 {
            shown_at = Instant::now();
            eprintln!(
                "{} s: {} games, {} positions, {} puzzles",
                started.elapsed().as_secs(),
                run.games,
                run.positions,
                run.puzzles.len()
            );
        }
        limit.is_none_or(|limit| started.elapsed() < limit)
    };
    let mut found: Vec<Puzzle> = Vec::new();
    let mut keep = |puzzle: &Puzzle| {
        found.push(puzzle.clone());
        let mut all = set.clone();
        all.puzzles.extend(found.iter().cloned());
        if let Err(e) = write_atomically(out, &write_puzzles(&all)) {
            eprintln!("error: {e}");
        }
    };
    let seed = flags.seed.unwrap_or(1);
    let run = generate::<G>(&[], wanted, seed, &mut seen, &mut go_on, &mut keep)?;
    set.puzzles.extend(run.puzzles.iter().cloned());
    write_atomically(out, &write_puzzles(&set))?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{}: {} new puzzles ({} in all) from {} games, {} positions ({} too big to prove) in {:.0} s: {:.0} an hour",
        kind.key(),
        set.puzzles.len() - before,
        set.puzzles.len(),
        run.games,
        run.positions,
        run.too_big,
        seconds,
        (set.puzzles.len() - before) as f64 * 3600.0 / seconds.max(1.0)
    );
    Ok(())
}

/// Writes `text` to `path` through a temporary file (named for this process) and a
/// rename, keeping the file it replaces as `PATH.bak`.
pub(crate) fn write_atomically(path: &str, text: &str) -> Result<(), String> {
    let temporary = format!("{path}.writing-{}", std::process::id());
    let keep = || -> std::io::Result<()> {
        std::fs::write(&temporary, text)?;
        if Path::new(path).exists() {
            std::fs::copy(path, format!("{path}.bak"))?;
        }
        std::fs::rename(&temporary, path)
    };
    keep().map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot write {}: {e}", quoted(path))
    })
}

/// Proves every puzzle of each file again; an error when any fails.
fn prove_files(paths: &[String]) -> Result<(), String> {
    if paths.is_empty() {
        return Err("puzzles prove needs one or more puzzle files".into());
    }
    let mut failed = 0;
    for path in paths {
        let set = read_set(path)?;
        let started = Instant::now();
        for (puzzle, e) in failed_proofs(set.game, &set.puzzles) {
            failed += 1;
            println!("{path}: {}: {e}", puzzle.id);
        }
        println!(
            "{path}: {} puzzles proved in {:.1} s",
            set.puzzles.len(),
            started.elapsed().as_secs_f64()
        );
    }
    match failed {
        0 => Ok(()),
        n => Err(format!("{n} puzzle(s) failed their proof")),
    }
}

/// The puzzles whose proof fails and why, in the set's order. Proved on every core, each
/// thread taking every n-th puzzle, as a set's harder puzzles sit together.
fn failed_proofs(game: GameKind, puzzles: &[Puzzle]) -> Vec<(&Puzzle, String)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut failed: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|first| {
                scope.spawn(move || {
                    (first..puzzles.len())
                        .step_by(threads)
                        .filter_map(|i| prove(game, &puzzles[i]).err().map(|e| (i, e)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    failed.sort_by_key(|(i, _)| *i);
    failed.into_iter().map(|(i, e)| (&puzzles[i], e)).collect()
}

/// `puzzle GAME [--id ID] [--seed S]`: one puzzle in the terminal.
pub fn puzzle(words: &[String]) -> Result<(), String> {
    let kind = GameKind::parse(words.first().ok_or("puzzle needs a game")?)?;
    let flags = Flags::parse(&words[1..])?;
    let set = puzzles_for(kind)?;
    if set.puzzles.is_empty() {
        return Err(format!("there are no {} puzzles yet", kind.title()));
    }
    let chosen = match &flags.id {
        Some(id) => set
            .puzzles
            .iter()
            .find(|p| &p.id == id)
            .ok_or_else(|| format!("there is no puzzle {}", quoted(id)))?,
        None => {
            let seed = flags.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs())
            });
            &set.puzzles[(seed % set.puzzles.len() as u64) as usize]
        }
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    with_game!(kind, G => solve::<G>(kind, chosen, &mut lines))
}

fn solve<G: Teach>(
    kind: GameKind,
    puzzle: &Puzzle,
    lines: &mut impl Iterator<Item = String>,
) -> Result<(), String> {
    let start = puzzle.position::<G>()?;
    let mover = start.player_name(start.to_move());
    let turns = if puzzle.depth == 1 {
        "this turn".to_string()
    } else {
        format!("{} turns", puzzle.depth)
    };
    println!(
        "Puzzle {} (rating {}): {mover} to play and win in {turns}.\n{}",
        puzzle.id,
        puzzle.rating,
        start.ascii()
    );
    println!(
        "Type your move (a turn's moves with ';' between them), 'show' for the answer, 'quit'."
    );
    let mut played: Vec<String> = Vec::new();
    loop {
        print!("{mover} to move> ");
        let _ = std::io::stdout().flush();
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line.trim();
        match line {
            "" => continue,
            "quit" | "exit" => return Ok(()),
            "show" => {
                println!(
                    "The answer: {} (the line: {})",
                    puzzle.wins.join(" or "),
                    puzzle.line.join(" / ")
                );
                return Ok(());
            }
            _ => {}
        }
        let mut attempt = played.clone();
        attempt.extend(G::split_moves(line));
        match judge_puzzle(kind, puzzle, &attempt) {
            PuzzleProgress::Illegal(why) => println!("{why}"),
            PuzzleProgress::Continue => {
                played = attempt;
                println!("Your turn goes on.");
            }
            PuzzleProgress::Answer(answer) => {
                println!("Right. The solver answers {answer}.");
                played = attempt;
                played.extend(G::split_moves(&answer));
                let mut game = start.clone();
                for text in &played {
                    let mv = game.parse_move(text).map_err(|e| e.to_string())?;
                    game.play_unchecked(&mv);
                }
                println!("{}", game.ascii());
            }
            PuzzleProgress::Solved => {
                println!("Solved! The theme: {}.", puzzle.theme);
                return Ok(());
            }
            PuzzleProgress::Wrong { refutation } => {
                match refutation {
                    Some(answer) => println!("Not this: the answer {answer} refutes it."),
                    None => println!("Not this: it does not win in time."),
                }
                println!("Try again from the puzzle's position ('show' gives the answer).");
                played.clear();
            }
        }
    }
}
