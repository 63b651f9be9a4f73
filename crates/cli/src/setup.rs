//! Building the position a verb starts from: options, then a position string or the
//! start, then the record's moves.

use crate::args::Args;
use tabula_rules::Game;

pub fn options<G: Game>(args: &Args) -> Result<G::Options, String> {
    let mut options = G::Options::default();
    for (key, value) in &args.options {
        G::set_option(&mut options, key, value).map_err(|e| e.to_string())?;
    }
    Ok(options)
}

pub fn start<G: Game>(args: &Args) -> Result<G, String> {
    let options = options::<G>(args)?;
    let mut game = match &args.position {
        Some(text) => G::from_position(options, text).map_err(|e| e.to_string())?,
        None => G::new(options).map_err(|e| e.to_string())?,
    };
    if let Some(record) = &args.record {
        for (i, text) in split_moves(record).enumerate() {
            play_text(&mut game, text)
                .map_err(|e| format!("record move {} ({text}): {e}", i + 1))?;
        }
    }
    Ok(game)
}

/// Reads and plays one move, returning its events.
pub fn play_text<G: Game>(game: &mut G, text: &str) -> Result<Vec<G::Event>, String> {
    let mv = game.parse_move(text).map_err(|e| e.to_string())?;
    game.apply(&mv).map_err(|e| e.to_string())
}

/// The moves of a record or an input line: separated by whitespace or `;` (Absorption
/// writes the actions of one turn with `;` between its phases).
pub fn split_moves(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ';')
        .filter(|m| !m.is_empty())
}
