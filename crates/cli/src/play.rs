//! `play`: a whole game in the terminal, each seat a human (typing moves) or a bot.

use crate::args::Args;
use crate::setup;
use std::io::{BufRead, Write};
use tabula_bot::{Bot, Knowledge};
use tabula_rules::Status;
use tabula_session::{Match, Seat};

const COMMANDS: &str = "Commands: moves (list the legal moves), count, board, undo (take back \
your last move and any bot moves after it), help, quit. Several moves may be typed on one \
line, separated by ';' (or by spaces where the notation allows).";

pub fn play<G: Knowledge>(args: &Args) -> Result<(), String> {
    let mut table = Match::from_game(setup::start::<G>(args)?);
    let players = table.game().num_players();
    let default_seats = vec!["human"; players].join(",");
    let seats = Seat::parse_list(args.seats.as_deref().unwrap_or(&default_seats), players)
        .and_then(|seats| {
            seats.iter().try_for_each(|seat| seat.check_in(G::NAME))?;
            Ok(seats)
        })
        .map_err(|e| format!("--seats: {e}"))?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let mut bots: Vec<Option<Bot<G>>> = seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let spec = seat.spec()?;
            Some(Bot::new(&spec, table.game(), seed.wrapping_add(i as u64)))
        })
        .collect();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();

    let help = format!("{}\n{COMMANDS}", G::NOTATION_HELP);
    println!("{help}\n");
    println!("{}", table.game().ascii());
    while table.status() == Status::Ongoing {
        let game = table.game();
        let mover = game.to_move();
        let name = game.player_name(mover);
        let text = match &mut bots[mover.index()] {
            Some(bot) => {
                let mv = bot
                    .choose(game)
                    .ok_or("the game is not over but there is no move")?;
                game.format_move(&mv)
            }
            None => {
                print!("{name} to move> ");
                let _ = std::io::stdout().flush();
                let line = match lines.next() {
                    Some(Ok(line)) => line,
                    // The line was read and is gone: ask again rather than end the game.
                    Some(Err(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                        println!("That line is not UTF-8 text. Type 'help' for help.");
                        continue;
                    }
                    _ => {
                        println!("\nEnd of input: the game is left unfinished.");
                        println!("Position: {}", game.position_string());
                        return Ok(());
                    }
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
                        println!("{} legal moves", tabula_rules::shown_move_count(game));
                        continue;
                    }
                    "moves" => {
                        list_moves(game);
                        continue;
                    }
                    "undo" => {
                        // Back to the person's previous turn, over any bot moves after it;
                        // with a bot moving first, back to the start, where it plays again.
                        let target = table.undo_target(&seats).or((table.ply() > 0).then_some(0));
                        match target {
                            Some(target) => table.go_to(target)?,
                            None => println!("Nothing to undo."),
                        }
                        println!("{}", table.game().ascii());
                        continue;
                    }
                    _ => line.to_string(),
                }
            }
        };
        for move_text in G::split_moves(&text) {
            let name = table.game().player_name(table.game().to_move());
            match table.play_notation(&move_text) {
                Ok(events) => {
                    // The move as recorded, not as typed: what the parser skipped is not shown.
                    let written = table.record().last().map_or("", String::as_str);
                    println!("{name} plays {written}");
                    for event in &events {
                        println!("  {}", table.game().describe_event(event));
                    }
                }
                Err(e) => {
                    println!("{e}\nType 'moves' to see legal moves, 'help' for help.");
                    break;
                }
            }
        }
        // One board per turn between bots; after every line a human typed.
        let game = table.game();
        let next_is_human = !seats[game.to_move().index()].is_bot();
        if game.status().is_over() || next_is_human || game.to_move() != mover {
            println!("\n{}", game.ascii());
        }
    }
    println!("{}", table.status_text());
    println!("Position: {}", table.game().position_string());
    Ok(())
}

fn list_moves<G: Knowledge>(game: &G) {
    const SHOWN: usize = 60;
    // One more than is shown says whether there are more, without counting them all.
    let mut listed: Vec<String> = game
        .legal_moves()
        .take(SHOWN + 1)
        .map(|m| game.format_move(&m))
        .collect();
    let more = listed.len() > SHOWN;
    listed.truncate(SHOWN);
    // Moves written with spaces (an Adaptoid turn) need a clearer separator.
    let separator = if listed.iter().any(|m| m.contains(' ')) {
        " | "
    } else {
        "  "
    };
    println!("{}", listed.join(separator));
    if more {
        let count = tabula_rules::shown_move_count(game);
        println!("... the first {SHOWN} of {count} legal moves");
    }
}
