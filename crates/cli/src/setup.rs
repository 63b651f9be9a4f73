//! Building the position a verb starts from: options, then a position string or the
//! start, then the record's moves.

use crate::args::Args;
use std::path::Path;
use tabula_rules::Game;
use tabula_session::{Match, Settings, options};

/// The `--option` settings with `@FILE` values read from their files.
pub fn settings(args: &Args) -> Result<Settings, String> {
    options::read_file_values(&args.options, read_value_file)
}

/// An option value's file is small text: a Super-Adaptoid board is a few hundred bytes.
const MAX_VALUE_FILE: u64 = 1 << 20;

/// The text of an `@FILE` value: only a regular file of at most 1 MB is read, so that
/// `/dev/zero` or a huge file is refused before anything is read. The app's new-game form
/// reads its `@FILE` values through this too.
pub fn read_value_file(path: &str) -> Result<String, String> {
    let bytes = read_bounded(Path::new(path), MAX_VALUE_FILE, "an option value")
        .map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".into())
}

/// The bytes of a regular file of at most `max_bytes`, which `what` names in the error
/// for a bigger one. Anything else there (a folder, a device, a pipe that would wait for a
/// writer) is refused by its kind before it is opened. The app reads its saves with this.
pub fn read_bounded(path: &Path, max_bytes: u64, what: &str) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let too_big = |bytes: u64| {
        let why = format!("{bytes} bytes, more than the {max_bytes} {what} may have");
        Error::new(ErrorKind::InvalidData, why)
    };
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(Error::new(ErrorKind::InvalidData, "not a regular file"));
    }
    if metadata.len() > max_bytes {
        return Err(too_big(metadata.len()));
    }
    // The file may grow after the check: read no more than the limit, plus one byte to see it.
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
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
