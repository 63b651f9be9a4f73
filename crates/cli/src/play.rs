//! `play`: a whole game in the terminal, each seat a human (typing moves) or a bot.

use crate::args::Args;
use crate::setup;
use std::io::{BufRead, Write};
use tabula_bot::{Bot, BotSpec, Knowledge};
use tabula_rules::Status;

#[derive(Clone, Debug, PartialEq)]
enum Seat {
    Human,
    Bot(BotSpec),
}

fn parse_seats(text: &str, players: usize) -> Result<Vec<Seat>, String> {
    let seats: Vec<Seat> = crate::bots::split_specs(text)
        .iter()
        .map(|s| match s.as_str() {
            "human" => Ok(Seat::Human),
            spec => spec
                .parse()
                .map(Seat::Bot)
                .map_err(|e| format!("seat {spec:?}: {e}")),
        })
        .collect::<Result<_, _>>()?;
    if seats.len() != players {
        return Err(format!(
            "--seats names {} seats but this game has {players} players",
            seats.len()
        ));
    }
    Ok(seats)
}

const COMMANDS: &str = "Commands: moves (list the legal moves), count, board, undo (take back \
your last move and any bot moves after it), help, quit. Several moves may be typed on one \
line, separated by ';' (or by spaces where the notation allows).";

pub fn play<G: Knowledge>(args: &Args) -> Result<(), String> {
    let mut game = setup::start::<G>(args)?;
    let default_seats = vec!["human"; game.num_players()].join(",");
    let seats = parse_seats(
        args.seats.as_deref().unwrap_or(&default_seats),
        game.num_players(),
    )?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let mut bots: Vec<Option<Bot<G>>> = seats
        .iter()
        .enumerate()
        .map(|(i, seat)| match seat {
            Seat::Bot(spec) => Some(Bot::new(spec, &game, seed.wrapping_add(i as u64))),
            Seat::Human => None,
        })
        .collect();
    let mut history: Vec<G> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();

    let help = format!("{}\n{COMMANDS}", G::NOTATION_HELP);
    println!("{help}\n");
    println!("{}", game.ascii());
    while game.status() == Status::Ongoing {
        let mover = game.to_move();
        let name = game.player_name(mover);
        let text = match &mut bots[mover.index()] {
            Some(bot) => {
                let mv = bot
                    .choose(&game)
                    .ok_or("the game is not over but there is no move")?;
                game.format_move(&mv)
            }
            None => {
                print!("{name} to move> ");
                let _ = std::io::stdout().flush();
                let Some(Ok(line)) = lines.next() else {
                    println!("\nEnd of input: the game is left unfinished.");
                    println!("Position: {}", game.position_string());
                    return Ok(());
                };
                let line = line.trim();
                match line {
                    "" => continue,
                    "quit" | "exit" => {
                        println!("Position: {}", game.position_string());
                        return Ok(());
                    }
                    "help" => {
                        println!("{help}");
                        continue;
                    }
                    "board" => {
                        println!("{}", game.ascii());
                        continue;
                    }
                    "count" => {
                        println!("{} legal moves", game.count_moves());
                        continue;
                    }
                    "moves" => {
                        list_moves(&game);
                        continue;
                    }
                    "undo" => {
                        undo(&mut game, &mut history, &seats);
                        println!("{}", game.ascii());
                        continue;
                    }
                    _ => line.to_string(),
                }
            }
        };
        for move_text in G::split_moves(&text) {
            let before = game.clone();
            let name = game.player_name(game.to_move());
            match setup::play_text(&mut game, &move_text) {
                Ok(events) => {
                    history.push(before);
                    println!("{name} plays {move_text}");
                    for event in &events {
                        println!("  {}", game.describe_event(event));
                    }
                }
                Err(e) => {
                    println!("{e}\nType 'moves' to see legal moves, 'help' for help.");
                    break;
                }
            }
        }
        // One board per turn between bots; after every line a human typed.
        let next_is_human = seats[game.to_move().index()] == Seat::Human;
        if game.status().is_over() || next_is_human || game.to_move() != mover {
            println!("\n{}", game.ascii());
        }
    }
    println!("{}", game.describe_status(game.status()));
    println!("Position: {}", game.position_string());
    Ok(())
}

fn list_moves<G: Knowledge>(game: &G) {
    const SHOWN: usize = 60;
    let count = game.count_moves();
    let listed: Vec<String> = game
        .legal_moves()
        .take(SHOWN)
        .map(|m| game.format_move(&m))
        .collect();
    // Moves written with spaces (an Adaptoid turn) need a clearer separator.
    let separator = if listed.iter().any(|m| m.contains(' ')) {
        " | "
    } else {
        "  "
    };
    println!("{}", listed.join(separator));
    if count.to_u64().is_none_or(|c| c as usize > SHOWN) {
        println!("... the first {SHOWN} of {count} legal moves");
    }
}

/// Takes back moves until it is a human's turn again (skipping bot moves).
fn undo<G: Knowledge>(game: &mut G, history: &mut Vec<G>, seats: &[Seat]) {
    let mut undone = false;
    while let Some(previous) = history.pop() {
        *game = previous;
        undone = true;
        if seats[game.to_move().index()] == Seat::Human {
            break;
        }
    }
    if !undone {
        println!("Nothing to undo.");
    }
}
