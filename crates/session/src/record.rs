//! Game records: a game's options, start, seats, moves and result as RON, and plain move
//! lists in each game's notation. Reading one replays every move through the rules, so a
//! record that loads is a legal game; anything else is an error naming the line, field or
//! move that is wrong.

use crate::{AnyMatch, GameKind, Seat, Variation, match_at, new_match};
use serde::{Deserialize, Serialize};
use tabula_rules::text::{quoted, shown_line};

/// The newest format: 2 added `variations`; 3 counts a bot seat's `level:N` on the ladder
/// of `config/bots.ron` (before, `level:1` to `level:5` were the five former levels), one
/// ladder of twelve for every game; 4 on the game's own ladder. A record is written in the
/// oldest format that holds it, which earlier versions read; a newer format is refused
/// with a clear message.
pub const RECORD_FORMAT: u32 = 4;

/// The format that added side lines.
const VARIATIONS_FORMAT: u32 = 2;
/// The format whose `level:N` seats are the levels of one ladder of twelve.
const LADDER_FORMAT: u32 = 3;
/// The format whose `level:N` seats count on the game's own ladder.
const PER_GAME_FORMAT: u32 = 4;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Marks the file as a Tabula record, and its format version.
    pub tabula_record: u32,
    /// `absorption`, `adamas`, `adaptoid` or `adomoc`.
    pub game: String,
    /// The options that differ from the game's defaults, as `tabula-cli --option` takes them.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// A position string, when the game did not begin at the options' start.
    #[serde(default)]
    pub start: Option<String>,
    /// `human`, `level:N`, a bot spec or `remote` for each seat.
    #[serde(default)]
    pub seats: Vec<String>,
    /// The main line in notation, including moves taken back and not replayed.
    pub moves: Vec<String>,
    /// How many of `moves` had been played (the position the game was left at, or where
    /// the variation it was left in leaves the main line); all of them when absent.
    #[serde(default)]
    pub at: Option<usize>,
    /// How the main line ends, in words, when it ends the game.
    #[serde(default)]
    pub result: Option<String>,
    /// Side lines explored on an analysis board (format 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Variation>,
}

/// A record read back: the game at the position it was left at, and its seats.
pub struct Loaded {
    pub game: Box<dyn AnyMatch>,
    pub seats: Vec<Seat>,
}

impl Record {
    pub fn of(game: &dyn AnyMatch, seats: &[Seat]) -> Record {
        let moves = game.main_line();
        let at = game.main_line_ply();
        let variations = game.variations();
        Record {
            tabula_record: if seats.iter().any(|seat| matches!(seat, Seat::Bot(_))) {
                PER_GAME_FORMAT
            } else if variations.is_empty() {
                1
            } else {
                VARIATIONS_FORMAT
            },
            game: game.kind().key().to_string(),
            options: game.settings(),
            start: game.start_position(),
            seats: seats.iter().map(Seat::name).collect(),
            at: (at < moves.len()).then_some(at),
            moves,
            result: game.main_line_result(),
            variations,
        }
    }

    pub fn kind(&self) -> Option<GameKind> {
        GameKind::from_key(&self.game)
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new().struct_names(false);
        ron::ser::to_string_pretty(self, pretty).expect("a record is plain data")
    }

    /// Reads a record's text; errors name the line and column, or the field.
    pub fn parse(text: &str) -> Result<Record, String> {
        let record: Record = ron::from_str(text).map_err(|e| {
            let place = e.span.start;
            // RON's message may quote the text at length (an unknown field's name).
            shown_line(&format!(
                "line {}, column {}: {}",
                place.line, place.col, e.code
            ))
        })?;
        if !(1..=RECORD_FORMAT).contains(&record.tabula_record) {
            return Err(format!(
                "tabula_record: this is format {}, and this version of Tabula reads formats 1 to {RECORD_FORMAT}",
                record.tabula_record
            ));
        }
        if record.tabula_record < VARIATIONS_FORMAT && !record.variations.is_empty() {
            return Err(
                "variations: format 1 has no variations (they came in format 2)".to_string(),
            );
        }
        Ok(record)
    }

    /// Replays the record through the rules.
    pub fn load(&self) -> Result<Loaded, String> {
        let kind = self.kind().ok_or_else(|| {
            format!(
                "game: {} is not one of absorption, adamas, adaptoid, adomoc",
                quoted(&self.game)
            )
        })?;
        let mut game = match &self.start {
            Some(position) => match_at(kind, &self.options, position),
            None => new_match(kind, &self.options),
        }
        .map_err(|e| match &self.start {
            Some(_) => format!("options or start: {e}"),
            None => format!("options: {e}"),
        })?;
        play_all(game.as_mut(), &self.moves).map_err(|e| format!("moves: {e}"))?;
        // The result's wording may change between versions; whether the game is over may not.
        if let (Some(said), None) = (&self.result, game.main_line_result()) {
            return Err(format!(
                "result: the record says {said_q}, but after its moves the game goes on",
                said_q = quoted(said)
            ));
        }
        if !self.variations.is_empty() {
            game.add_variations(&self.variations)
                .map_err(|e| format!("variations: {e}"))?;
        }
        if let Some(at) = self.at {
            game.go_to(at)
                .map_err(|e| format!("at: {e} (the record holds {} moves)", self.moves.len()))?;
        }
        let mut seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, text)| {
                match self.tabula_record {
                    ..LADDER_FORMAT => Seat::parse_former(text, kind.key()),
                    LADDER_FORMAT => Seat::parse_twelve(text, kind.key()),
                    _ => Seat::parse(text),
                }
                .map_err(|e| format!("seats[{i}]: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if seats.len() > game.num_players() {
            return Err(format!(
                "seats: {} seats for a game of {} players",
                seats.len(),
                game.num_players()
            ));
        }
        seats.resize(game.num_players(), Seat::Human);
        Ok(Loaded { game, seats })
    }

    /// A record of a new game of `kind` (default options, people in every seat) from a
    /// pasted list of moves, or from a pasted position string.
    pub fn pasted(kind: GameKind, text: &str, as_position: bool) -> Result<Record, String> {
        let (start, moves) = if as_position {
            (Some(text.trim().to_string()), Vec::new())
        } else {
            let moves = new_match(kind, &[])?.split_moves(text);
            if moves.is_empty() {
                return Err("there are no moves in the text".to_string());
            }
            (None, moves)
        };
        Ok(Record {
            tabula_record: RECORD_FORMAT,
            game: kind.key().to_string(),
            options: Vec::new(),
            start,
            seats: Vec::new(),
            moves,
            at: None,
            result: None,
            variations: Vec::new(),
        })
    }
}

/// Plays moves in notation in order; an error names the move by number and text.
fn play_all(game: &mut dyn AnyMatch, moves: &[String]) -> Result<(), String> {
    for (i, text) in moves.iter().enumerate() {
        game.play_notation(text)
            .map_err(|e| format!("move {} ({}): {e}", i + 1, quoted(text)))?;
    }
    Ok(())
}

/// A new game of `kind` with `settings`, after the moves of a plain list.
pub fn import_moves(
    kind: GameKind,
    settings: &[(String, String)],
    text: &str,
) -> Result<Box<dyn AnyMatch>, String> {
    let mut game = new_match(kind, settings)?;
    let moves = game.split_moves(text);
    if moves.is_empty() {
        return Err("there are no moves in the text".to_string());
    }
    play_all(game.as_mut(), &moves)?;
    Ok(game)
}
