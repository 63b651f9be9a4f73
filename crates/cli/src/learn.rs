//! `learn`: a game's course in the terminal, step by step, each task checked by the rules;
//! `learn check`: what is wrong with a course file.

use std::io::{BufRead, Write};
use std::path::Path;
use tabula_learn::{
    Course, Progress, Step, Teach, check_turn, course_for, problems, read_course, start_of,
};
use tabula_rules::Game;
use tabula_rules::text::quoted;
use tabula_session::{GameKind, with_game};

/// A course file is a few dozen kilobytes; a thousand times that is not a course.
const MAX_COURSE_BYTES: u64 = 4 << 20;

const COMMANDS: &str = "Type a move (a turn's moves with ';' between them), or: show (play a \
solution), again (start the step over), next, back, board, help, quit. On a step with no \
task, press Enter to go on.";

/// `learn GAME [--course FILE] [--step N]` or `learn check FILE...`.
pub fn learn(words: &[String]) -> Result<(), String> {
    match words.first().map(String::as_str) {
        Some("check") => match words.get(1).map(String::as_str) {
            Some("--explain") => check_files(&words[2..], true),
            _ => check_files(&words[1..], false),
        },
        Some(game) => {
            let kind = GameKind::parse(game)?;
            let mut course_file = None;
            let mut first_step = 1;
            let mut rest = words[1..].iter();
            while let Some(flag) = rest.next() {
                let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
                match flag.as_str() {
                    "--course" => course_file = Some(value.clone()),
                    "--step" => {
                        first_step =
                            tabula_rules::text::whole_number_as("--step", value, 1..=10_000)?
                    }
                    _ => return Err(format!("learn does not take {}", quoted(flag))),
                }
            }
            let course = match course_file {
                Some(path) => read_course_file(&path)?,
                None => course_for(kind)?,
            };
            if course.game != kind {
                return Err(format!(
                    "that course is for {}, not {}",
                    course.game.title(),
                    kind.title()
                ));
            }
            let stdin = std::io::stdin();
            let mut lines = stdin.lock().lines().map_while(Result::ok);
            with_game!(kind, G => run::<G>(&course, first_step - 1, &mut lines))
        }
        None => Err("learn needs a game (learn GAME) or course files (learn check FILE...)".into()),
    }
}

fn read_course_file(path: &str) -> Result<Course, String> {
    let bytes = tabula_files::read_bounded(Path::new(path), MAX_COURSE_BYTES, "course")
        .map_err(|e| format!("cannot read {}: {e}", quoted(path)))?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", quoted(path)))?;
    read_course(&text).map_err(|e| format!("{}: {e}", quoted(path)))
}

/// Prints each file's problems, or that it is sound; an error when any has problems. With
/// `explain`, also a turn that misses each task and what the player is told.
fn check_files(paths: &[String], explain: bool) -> Result<(), String> {
    if paths.is_empty() {
        return Err("learn check needs one or more course files".into());
    }
    let mut unsound = 0;
    for path in paths {
        let course = read_course_file(path)?;
        let found = problems(&course);
        if found.is_empty() {
            let tasks = course.steps.iter().filter(|s| s.task.is_some()).count();
            println!(
                "{path}: {} steps ({tasks} tasks), {} words, about {} minutes; sound",
                course.steps.len(),
                course.words(),
                course.minutes()
            );
            if explain {
                explain_misses(&course);
            }
        } else {
            unsound += 1;
            for problem in found {
                println!("{path}: {problem}");
            }
        }
    }
    match unsound {
        0 => Ok(()),
        n => Err(format!("{n} course file(s) have problems")),
    }
}

/// For each task, a turn that misses it and what the player is told.
fn explain_misses(course: &Course) {
    for (i, step) in course.steps.iter().enumerate() {
        let Some(task) = &step.task else { continue };
        if let Some((turn, why)) = tabula_learn::failing_turn(course, step) {
            println!(
                "  step {}: {}\n    {} → {why}",
                i + 1,
                task.goal,
                turn.join("; ")
            );
        }
    }
}

/// What the player asked for at a step.
enum Next {
    Step(usize),
    Quit,
}

fn run<G: Teach>(
    course: &Course,
    mut at: usize,
    lines: &mut impl Iterator<Item = String>,
) -> Result<(), String> {
    println!(
        "{}: {}\n{}\n\n{COMMANDS}\n",
        course.title,
        course.about,
        G::NOTATION_HELP
    );
    at = at.min(course.steps.len().saturating_sub(1));
    while at < course.steps.len() {
        match run_step::<G>(course, at, lines)? {
            Next::Step(next) => at = next,
            Next::Quit => return Ok(()),
        }
    }
    println!(
        "The {} course is done. Play a game: tabula-cli play {} --seats human,level:1",
        course.game.title(),
        G::NAME
    );
    Ok(())
}

fn run_step<G: Teach>(
    course: &Course,
    at: usize,
    lines: &mut impl Iterator<Item = String>,
) -> Result<Next, String> {
    let step = &course.steps[at];
    let start = start_of::<G>(step)?;
    println!(
        "— Step {} of {}: {} —",
        at + 1,
        course.steps.len(),
        step.title
    );
    show_watched::<G>(step)?;
    println!("{}", start.game.ascii());
    for paragraph in &step.text {
        println!("{paragraph}");
    }
    if !step.cells.is_empty() {
        println!("(Look at {}.)", step.cells.join(", "));
    }
    if let Some(decision) = &step.decision {
        println!("[Our reading, not the designer's words] {decision}");
    }
    let Some(task) = &step.task else {
        print!("[Enter: go on] ");
        let _ = std::io::stdout().flush();
        return Ok(match next_command(lines) {
            None => Next::Quit,
            Some(line) => match line.as_str() {
                "quit" | "exit" => Next::Quit,
                "back" => Next::Step(at.saturating_sub(1)),
                _ => Next::Step(at + 1),
            },
        });
    };
    println!("Task: {}", task.goal);
    let mut tried: Vec<String> = Vec::new();
    loop {
        print!("{} to move> ", start.game.player_name(start.mover));
        let _ = std::io::stdout().flush();
        let Some(line) = next_command(lines) else {
            return Ok(Next::Quit);
        };
        match line.as_str() {
            "" => continue,
            "quit" | "exit" => return Ok(Next::Quit),
            "next" | "skip" => return Ok(Next::Step(at + 1)),
            "back" => return Ok(Next::Step(at.saturating_sub(1))),
            "help" => {
                println!("{}\n{COMMANDS}", G::NOTATION_HELP);
                continue;
            }
            "board" => {
                println!("{}", replayed::<G>(step, &tried)?.ascii());
                continue;
            }
            "again" => {
                tried.clear();
                println!("{}", start.game.ascii());
                continue;
            }
            "show" => {
                let solution = G::split_moves(&task.solution);
                print_turn::<G>(step, &solution)?;
                println!("That does it. [Enter: go on]");
                return Ok(match next_command(lines).as_deref() {
                    None | Some("quit") => Next::Quit,
                    _ => Next::Step(at + 1),
                });
            }
            _ => {}
        }
        let mut attempt = tried.clone();
        attempt.extend(G::split_moves(&line));
        match check_turn(course.game, step, &attempt) {
            Progress::Illegal(why) => println!("{why}"),
            Progress::Continue => {
                print_turn::<G>(step, &attempt)?;
                tried = attempt;
                println!("Your turn goes on.");
            }
            Progress::Missed(why) => {
                print_turn::<G>(step, &attempt)?;
                println!(
                    "Not quite. {why}\nThe position is set up again: try once more ('show' plays a solution)."
                );
                tried.clear();
            }
            Progress::Solved => {
                print_turn::<G>(step, &attempt)?;
                println!("Well done. [Enter: go on]");
                return Ok(match next_command(lines).as_deref() {
                    None | Some("quit") => Next::Quit,
                    Some("back") => Next::Step(at),
                    _ => Next::Step(at + 1),
                });
            }
        }
    }
}

/// The next line typed, trimmed; `None` at the end of input.
fn next_command(lines: &mut impl Iterator<Item = String>) -> Option<String> {
    lines.next().map(|line| line.trim().to_string())
}

/// The watched moves, each with what it did.
fn show_watched<G: Teach>(step: &Step) -> Result<(), String> {
    if step.watch.is_empty() {
        return Ok(());
    }
    let unwatched = Step {
        watch: Vec::new(),
        ..step.clone()
    };
    let mut game = start_of::<G>(&unwatched)?.game;
    println!("Watch:");
    for text in &step.watch {
        play_printed(&mut game, text)?;
    }
    Ok(())
}

/// The step's position after `moves` of the try.
fn replayed<G: Teach>(step: &Step, moves: &[String]) -> Result<G, String> {
    let mut game = start_of::<G>(step)?.game;
    for text in moves {
        let mv = game.parse_move(text).map_err(|e| e.to_string())?;
        game.apply(&mv).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// Plays `moves` from the step's position, printing each with what it did, then the board.
fn print_turn<G: Teach>(step: &Step, moves: &[String]) -> Result<(), String> {
    let mut game = start_of::<G>(step)?.game;
    for text in moves {
        play_printed(&mut game, text)?;
    }
    println!("{}", game.ascii());
    Ok(())
}

/// Plays one move, printing who played it, as the game writes it, and what it did.
fn play_printed<G: Game>(game: &mut G, text: &str) -> Result<(), String> {
    let mover = game.player_name(game.to_move());
    let (written, events) = tabula_cli::setup::play_text(game, text)?;
    println!("{mover} plays {written}");
    for event in &events {
        println!("  {}", game.describe_event(event));
    }
    Ok(())
}
