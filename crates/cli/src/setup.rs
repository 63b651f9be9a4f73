//! Building the position a verb starts from: options, then a position string or the
//! start, then the record's moves.

use crate::args::Args;
use tabula_rules::Game;
use tabula_session::{Match, Settings, options};

/// The `--option` settings with `@FILE` values read from their files.
pub fn settings(args: &Args) -> Result<Settings, String> {
    options::read_file_values(&args.options, |path| {
        std::fs::read_to_string(path).map_err(|e| e.to_string())
    })
}

/// The position a verb starts from, as a match whose line holds the record's moves.
pub fn start_match<G: Game>(args: &Args) -> Result<Match<G>, String> {
    let settings = settings(args)?;
    let mut game = match &args.position {
        Some(text) => Match::set_up(&settings, text)?,
        None => Match::start(&settings)?,
    };
    if let Some(record) = &args.record {
        for (i, text) in G::split_moves(record).iter().enumerate() {
            game.play_notation(text)
                .map_err(|e| format!("record move {} ({text}): {e}", i + 1))?;
        }
    }
    Ok(game)
}

pub fn start<G: Game>(args: &Args) -> Result<G, String> {
    Ok(start_match::<G>(args)?.game().clone())
}

/// Reads and plays one move, returning its events.
pub fn play_text<G: Game>(game: &mut G, text: &str) -> Result<Vec<G::Event>, String> {
    let mv = game.parse_move(text).map_err(|e| e.to_string())?;
    game.apply(&mv).map_err(|e| e.to_string())
}
