//! The verbs that look at one position: show, moves, perft, apply.

use crate::args::Args;
use crate::setup::{self, play_text};
use tabula_rules::Game;

/// The game's options: key, values, default, where it comes from, and what it does.
pub fn options<G: Game>() -> Result<(), String> {
    let defaults = tabula_session::options::default_settings::<G>();
    for info in G::OPTIONS {
        let default = defaults
            .iter()
            .find(|(key, _)| key == info.key)
            .map_or("", |(_, value)| value.as_str());
        let default = match info.values.unset_means() {
            Some(unset) if default.is_empty() => unset,
            _ => default,
        };
        println!("{} ({}): {}", info.key, info.name, info.explanation);
        println!(
            "    values: {}; default: {default}; {}",
            info.values.describe(),
            info.origin.label()
        );
    }
    Ok(())
}

pub fn show<G: Game>(args: &Args) -> Result<(), String> {
    let game = setup::start::<G>(args)?;
    println!("{}", game.ascii());
    println!("{}", game.describe_status(game.status()));
    println!("Position: {}", game.position_string());
    Ok(())
}

pub fn moves<G: Game>(args: &Args) -> Result<(), String> {
    let game = setup::start::<G>(args)?;
    if args.count {
        return match game.count_moves_within(tabula_rules::SHOWN_COUNT_WORK) {
            Some(count) => {
                println!("{count} moves");
                Ok(())
            }
            None => Err(too_many_to_count("`moves` still lists them")),
        };
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut n: u64 = 0;
    for mv in game.legal_moves() {
        use std::io::Write;
        if writeln!(out, "{}", game.format_move(&mv)).is_err() {
            return Ok(()); // The reader closed the pipe (`| head`).
        }
        n += 1;
    }
    use std::io::Write;
    let _ = writeln!(out, "{n} moves");
    Ok(())
}

/// Why a count is refused: Adamas under progressive capture checks some splits one by one.
fn too_many_to_count(instead: &str) -> String {
    format!(
        "too many moves to count quickly: under progressive capture more than {} splits \
         would each need an order found one by one ({instead})",
        tabula_rules::SHOWN_COUNT_WORK
    )
}

pub fn perft<G: Game>(args: &Args) -> Result<(), String> {
    let game = setup::start::<G>(args)?;
    let depth = args.depth.ok_or("perft needs --depth D")?;
    for d in 1..=depth {
        let count = tabula_rules::perft_within(&game, d, tabula_rules::SHOWN_COUNT_WORK)
            .ok_or_else(|| too_many_to_count("`moves` lists the first ply's moves"))?;
        println!("{d} {count}");
        if count.is_zero() {
            break; // No deeper line exists: every further depth would say 0 too.
        }
    }
    Ok(())
}

/// Plays the moves given after the game name, printing each one's events.
pub fn apply<G: Game>(args: &Args) -> Result<(), String> {
    let mut game = setup::start::<G>(args)?;
    if args.rest.is_empty() {
        return Err("apply needs one or more moves".into());
    }
    for text in &args.rest {
        let mover = game.player_name(game.to_move());
        let (written, events) = play_text(&mut game, text)?;
        println!("{mover} {written}");
        for event in &events {
            println!("  {}", game.describe_event(event));
        }
    }
    println!("{}", game.position_string());
    Ok(())
}
