//! Building the position a verb starts from: options, then a position string or the
//! start, then the record's moves.

use crate::args::Args;
use tabula_files::read_value_file;
use tabula_rules::Game;
use tabula_session::{Match, Settings, options};

/// The `--option` settings with `@FILE` values read from their files.
pub fn settings(args: &Args) -> Result<Settings, String> {
    options::read_file_values(&args.options, read_value_file)
}

/// The position a verb starts from, as a match whose line holds the record's moves.
pub fn start_match<G: Game>(args: &Args) -> Result<Match<G>, String> {
    start_match_with(&settings(args)?, args)
}

/// The same, with the options' `@FILE` values already read into `settings`.
pub fn start_match_with<G: Game>(
    settings: &[(String, String)],
    args: &Args,
) -> Result<Match<G>, String> {
    let mut game = match &args.position {
        Some(text) => Match::set_up(settings, text)?,
        None => Match::start(settings)?,
    };
    if let Some(record) = &args.record {
        for (i, text) in G::split_moves(record).iter().enumerate() {
            game.play_notation(text)
                .map_err(|e| format!("record move {}: {e}", i + 1))?;
        }
    }
    Ok(game)
}

pub fn start<G: Game>(args: &Args) -> Result<G, String> {
    Ok(start_match::<G>(args)?.game().clone())
}

/// Reads and plays one move, returning it as the game writes it (never the text as typed,
/// which may hold characters the parser skips) and its events. Errors quote the move.
pub fn play_text<G: Game>(game: &mut G, text: &str) -> Result<(String, Vec<G::Event>), String> {
    let mv = game.parse_move(text).map_err(|e| e.to_string())?;
    let written = game.format_move(&mv);
    let events = game
        .apply(&mv)
        .map_err(|e| format!("{}: {e}", tabula_rules::text::quoted(text)))?;
    Ok((written, events))
}
