//! `tabula-cli review`: every move of a game judged by a bot's search, a line a move as
//! soon as it is judged, then each player's marks.

use crate::progress::Progress;
use tabula_bot::{BotSpec, Knowledge};
use tabula_cli::args::Args;
use tabula_cli::setup;
use tabula_session::{AnyMatch, MoveReview, Review, ReviewSettings};

/// Iterations between looks at the clock and at what is judged.
const SLICE: u64 = 256;
/// Moves longer than this push the later columns right rather than widen every line.
const MOVE_COLUMN: usize = 24;

pub fn review<G: Knowledge>(args: &Args) -> Result<(), String> {
    if args.record.is_none() {
        return Err("review needs the game's moves: --record \"MOVES\"".to_string());
    }
    let game = setup::start_match::<G>(args)?;
    if game.record().is_empty() {
        return Err("there are no moves in --record to review".to_string());
    }
    let mut settings = ReviewSettings::built_in().clone();
    if let Some(looks) = args.looks {
        settings.looks = looks;
        settings
            .check()
            .map_err(|e| format!("--looks {looks}: {e}"))?;
    }
    let spec: BotSpec = match &args.bot {
        Some(text) => text.parse()?,
        None => settings.spec()?,
    };
    // The machine's cores unless told, as the app's review: they study each move played,
    // a count of visits that more threads reach sooner, while a search for time runs on
    // one thread whatever the count (`Review::new`); a budget of iterations keeps the
    // threads it names (`BotSpec::on_threads`).
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let on_jobs = spec
        .clone()
        .on_threads(u32::try_from(jobs).unwrap_or(u32::MAX));
    let mut review = Review::new(&game, on_jobs, &settings, args.seed.unwrap_or(1))?;
    let width = game
        .record()
        .iter()
        .map(|m| m.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(4, MOVE_COLUMN);
    // The bot as named: its threads are the review's to give (the last line says them).
    println!("review by {spec}: {} moves", review.moves().len());
    println!(
        "{:>4}  {:<6}  {:<width$}  {:>7}  {:>7}  {:<10}  better",
        "ply", "player", "move", "before", "after", "mark"
    );
    let started = std::time::Instant::now();
    let mut progress = Progress::new();
    let mut printed = 0;
    loop {
        let going_on = review.step(SLICE);
        while let Some(judged) = review.move_review(printed) {
            println!("{}", move_line(&judged, &game, width));
            printed += 1;
        }
        if !going_on {
            break;
        }
        progress.tick(|| {
            format!(
                "reviewing: position {} of {} ({:.0}%)",
                review.evaluations().len() + 1,
                review.positions(),
                100.0 * review.progress()
            )
        });
    }
    if let Some(failure) = review.failure() {
        return Err(failure.to_string());
    }
    for summary in review.summary() {
        println!("{}: {}", game.player_name(summary.seat), summary.line());
    }
    let looked_again = review.evaluations().iter().filter(|e| e.looks > 1).count();
    // On stderr, beside the progress lines: stdout holds only the table and the summaries.
    eprintln!(
        "reviewed {} positions in {:.1} s, each move played studied on {} thread{}; \
         {looked_again} looked at again (a move in doubt)",
        review.positions(),
        started.elapsed().as_secs_f64(),
        review.study_threads(),
        if review.study_threads() == 1 { "" } else { "s" }
    );
    Ok(())
}

fn move_line(judged: &MoveReview, game: &dyn AnyMatch, width: usize) -> String {
    format!(
        "{:>4}  {:<6}  {:<width$}  {:>6.1}%  {:>6.1}%  {:<10}  {}",
        judged.ply,
        game.player_name(judged.mover),
        judged.notation,
        100.0 * judged.before,
        100.0 * judged.after,
        judged.mark.map_or("-", |mark| mark.name()),
        judged.preferred.as_deref().unwrap_or("-"),
    )
}
