//! Reading the built-in data (courses, puzzle sets): RON text, one file a game.

use serde::de::DeserializeOwned;
use tabula_rules::text::shown_line;
use tabula_session::GameKind;

/// Reads `what` (a course, puzzles) from RON text; the error names where the text is
/// wrong, and never quotes it at length (RON's message may hold an unknown field's name).
pub fn read_ron<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, String> {
    ron::from_str(text).map_err(|e| {
        let place = e.span.start;
        shown_line(&format!(
            "{what}, line {}, column {}: {}",
            place.line, place.col, e.code
        ))
    })
}

/// The built-in `what` for `game`, from a table of each game's text.
pub fn built_in_for<T: DeserializeOwned>(
    table: &[(GameKind, &str)],
    game: GameKind,
    what: &str,
) -> Result<T, String> {
    let text = table
        .iter()
        .find(|(kind, _)| *kind == game)
        .map(|(_, text)| *text)
        .ok_or_else(|| format!("no {what} for {}", game.title()))?;
    read_ron(text, what).map_err(|e| format!("the built-in {} {e}", game.key()))
}
