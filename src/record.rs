//! Game records: a game's options, start, seats, moves and result as RON, and plain move
//! lists in each game's notation. Reading one replays every move through the rules, so a
//! record that loads is a legal game; anything else is an error naming the line, field or
//! move that is wrong.

use crate::screens::Seat;
use crate::table::{GameKind, Table, new_table, table_at};
use serde::{Deserialize, Serialize};

/// The version written in every record; a newer one is refused with a clear message.
pub const RECORD_FORMAT: u32 = 1;

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
    /// `human` or `level:N` for each seat.
    #[serde(default)]
    pub seats: Vec<String>,
    /// The whole line in notation, including moves taken back and not replayed.
    pub moves: Vec<String>,
    /// How many of `moves` had been played (the position the game was left at); all of
    /// them when absent.
    #[serde(default)]
    pub at: Option<usize>,
    /// How the line ends, in words, when it ends the game.
    #[serde(default)]
    pub result: Option<String>,
}

/// A record read back: the game at the position it was left at, and its seats.
pub struct Loaded {
    pub table: Box<dyn Table>,
    pub seats: Vec<Seat>,
}

impl Record {
    pub fn of(table: &dyn Table, seats: &[Seat]) -> Record {
        Record {
            tabula_record: RECORD_FORMAT,
            game: table.kind().key().to_string(),
            options: table.settings(),
            start: table.start_position(),
            seats: seats.iter().map(|seat| seat.name()).collect(),
            moves: table.line().to_vec(),
            at: (table.record().len() < table.line().len()).then_some(table.record().len()),
            result: line_result(table),
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
            format!("line {}, column {}: {}", place.line, place.col, e.code)
        })?;
        if record.tabula_record != RECORD_FORMAT {
            return Err(format!(
                "tabula_record: this is format {}, and this version of Tabula reads format {RECORD_FORMAT}",
                record.tabula_record
            ));
        }
        Ok(record)
    }

    /// Replays the record through the rules.
    pub fn load(&self) -> Result<Loaded, String> {
        let kind = self.kind().ok_or_else(|| {
            format!(
                "game: {:?} is not one of absorption, adamas, adaptoid, adomoc",
                self.game
            )
        })?;
        let mut table = match &self.start {
            Some(position) => table_at(kind, &self.options, position),
            None => new_table(kind, &self.options),
        }
        .map_err(|e| match &self.start {
            Some(_) => format!("options or start: {e}"),
            None => format!("options: {e}"),
        })?;
        play_all(table.as_mut(), &self.moves).map_err(|e| format!("moves: {e}"))?;
        // The result's wording may change between versions; whether the game is over may not.
        if let (Some(said), None) = (&self.result, line_result(table.as_ref())) {
            return Err(format!(
                "result: the record says {said:?}, but after its moves the game goes on"
            ));
        }
        if let Some(at) = self.at {
            table
                .go_to(at)
                .map_err(|e| format!("at: {e} (the record holds {} moves)", self.moves.len()))?;
        }
        let mut seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, text)| Seat::parse(text).map_err(|e| format!("seats[{i}]: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        if seats.len() > table.num_players() {
            return Err(format!(
                "seats: {} seats for a game of {} players",
                seats.len(),
                table.num_players()
            ));
        }
        seats.resize(table.num_players(), Seat::Human);
        Ok(Loaded { table, seats })
    }
}

impl Record {
    /// A record of a new game of `kind` (default options, people in every seat) from a
    /// pasted list of moves, or from a pasted position string.
    pub fn pasted(kind: GameKind, text: &str, as_position: bool) -> Result<Record, String> {
        let (start, moves) = if as_position {
            (Some(text.trim().to_string()), Vec::new())
        } else {
            let moves = new_table(kind, &[])?.split_moves(text);
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
        })
    }
}

/// The result in words when the whole line has been played and it ends the game.
fn line_result(table: &dyn Table) -> Option<String> {
    (table.record().len() == table.line().len() && table.status().is_over())
        .then(|| table.status_text())
}

/// Plays moves in notation in order; an error names the move by number and text.
fn play_all(table: &mut dyn Table, moves: &[String]) -> Result<(), String> {
    for (i, text) in moves.iter().enumerate() {
        table
            .play_notation(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
    }
    Ok(())
}

/// The moves played so far as plain text in the game's notation, one move a line.
/// Adaptoid writes `;` after each turn, since a growth alone on the next line would
/// otherwise join the move before it.
pub fn move_list(table: &dyn Table) -> String {
    let end = if table.kind() == GameKind::Adaptoid {
        ";\n"
    } else {
        "\n"
    };
    table
        .record()
        .iter()
        .map(|text| format!("{text}{end}"))
        .collect()
}

/// A new game of `kind` with `settings`, after the moves of a plain list.
pub fn import_moves(
    kind: GameKind,
    settings: &[(String, String)],
    text: &str,
) -> Result<Box<dyn Table>, String> {
    let mut table = new_table(kind, settings)?;
    let moves = table.split_moves(text);
    if moves.is_empty() {
        return Err("there are no moves in the text".to_string());
    }
    play_all(table.as_mut(), &moves)?;
    Ok(table)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// A random game of `kind` by the app's own move builder, `plies` moves at most.
    fn random_game(kind: GameKind, rng: &mut SmallRng, plies: usize) -> Box<dyn Table> {
        let mut table = new_table(kind, &[]).unwrap();
        while table.record().len() < plies && !table.status().is_over() {
            let choices = table.choices().len();
            if table.complete_move().is_some() && (choices == 0 || rng.random_bool(0.5)) {
                table.commit().unwrap();
            } else {
                table.choose(rng.random_range(0..choices)).unwrap();
            }
        }
        table
    }

    fn seats_for(table: &dyn Table) -> Vec<Seat> {
        (0..table.num_players())
            .map(|i| if i == 0 { Seat::Human } else { Seat::Bot(3) })
            .collect()
    }

    #[test]
    fn random_games_round_trip_through_records_and_move_lists() {
        let mut rng = SmallRng::seed_from_u64(11);
        for kind in GameKind::ALL {
            for game in 0..4 {
                let plies = [5, 40, 120, 400][game];
                let mut table = random_game(kind, &mut rng, plies);
                let seats = seats_for(table.as_ref());
                if game == 2 {
                    // Leave the game some moves back: the taken-back moves are kept.
                    table.go_to(table.line().len() / 2).unwrap();
                }
                let record = Record::of(table.as_ref(), &seats);
                let text = record.to_ron();
                let read = Record::parse(&text).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
                assert_eq!(read, record, "{kind:?}: {text}");
                let loaded = read
                    .load()
                    .unwrap_or_else(|e| panic!("{kind:?}: {e}\n{text}"));
                assert_eq!(loaded.seats, seats);
                assert_eq!(loaded.table.line(), table.line());
                assert_eq!(loaded.table.record(), table.record());
                assert_eq!(loaded.table.position_string(), table.position_string());
                assert_eq!(loaded.table.status(), table.status());

                let list = move_list(table.as_ref());
                let imported = import_moves(kind, &[], &list)
                    .unwrap_or_else(|e| panic!("{kind:?}: {e}\n{list}"));
                assert_eq!(imported.record(), table.record(), "{kind:?}:\n{list}");
                assert_eq!(imported.position_string(), table.position_string());
            }
        }
    }

    #[test]
    fn a_set_up_position_with_options_round_trips() {
        let mut rng = SmallRng::seed_from_u64(5);
        let settings = vec![("players".to_string(), "3".to_string())];
        let mut source = new_table(GameKind::Adamas, &settings).unwrap();
        for _ in 0..6 {
            let text = source
                .thinker(&tabula_bot::BotSpec::Random, rng.random())
                .best_move();
            source.play_notation(&text.unwrap()).unwrap();
        }
        let mut table = table_at(GameKind::Adamas, &settings, &source.position_string()).unwrap();
        let text = table
            .thinker(&tabula_bot::BotSpec::Random, 3)
            .best_move()
            .unwrap();
        table.play_notation(&text).unwrap();
        let record = Record::of(table.as_ref(), &[Seat::Human, Seat::Bot(1), Seat::Bot(5)]);
        // Three players also fix the board size; both are written.
        assert!(
            record.options.contains(&settings[0]),
            "{:?}",
            record.options
        );
        assert_eq!(
            record.start.as_deref(),
            Some(source.position_string().as_str())
        );
        let loaded = Record::parse(&record.to_ron()).unwrap().load().unwrap();
        assert_eq!(loaded.table.position_string(), table.position_string());
        assert_eq!(loaded.seats.len(), 3);
    }

    #[test]
    fn a_super_adaptoid_board_round_trips() {
        let board = include_str!("../boards/super-adaptoid-example.txt");
        let settings = vec![("board".to_string(), board.to_string())];
        let mut table = new_table(GameKind::Adaptoid, &settings).unwrap();
        for seed in 0..6 {
            let text = table
                .thinker(&tabula_bot::BotSpec::Random, seed)
                .best_move()
                .unwrap();
            table.play_notation(&text).unwrap();
        }
        let record = Record::of(table.as_ref(), &[Seat::Human, Seat::Human]);
        assert_eq!(record.options.len(), 1, "{:?}", record.options);
        let loaded = Record::parse(&record.to_ron()).unwrap().load().unwrap();
        assert_eq!(loaded.table.position_string(), table.position_string());
        assert_eq!(
            loaded.table.layout().cells.len(),
            table.layout().cells.len()
        );
    }

    #[test]
    fn bad_records_name_what_is_wrong() {
        let mut table = new_table(GameKind::Adomoc, &[]).unwrap();
        table.play_notation("Fa3a6").unwrap();
        let good = Record::of(table.as_ref(), &[Seat::Human, Seat::Bot(2)]).to_ron();
        let cases = [
            (good.replace("adomoc", "chess"), "game:"),
            (good.replace("Fa3a6", "Fa3a9"), "move 1 (Fa3a9)"),
            (good.replace("level:2", "level:9"), "seats[1]"),
            (
                good.replace("tabula_record: 1", "tabula_record: 7"),
                "format 7",
            ),
            (good.replace("moves:", "mooves:"), "line "),
            (good[..good.len() / 2].to_string(), "line "),
            ("".to_string(), "line "),
            ("hello".to_string(), "line 1"),
        ];
        for (text, expected) in cases {
            let error = Record::parse(&text).and_then(|r| r.load().map(|_| ()));
            let error = error.err().unwrap_or_else(|| panic!("{text} loaded"));
            assert!(error.contains(expected), "{expected:?} not in {error:?}");
        }
        let wrong_result = Record {
            result: Some("Light wins".to_string()),
            at: None,
            ..Record::parse(&good).unwrap()
        };
        assert!(wrong_result.load().err().unwrap().starts_with("result:"));
        let too_far = Record {
            at: Some(5),
            ..Record::parse(&good).unwrap()
        };
        assert!(too_far.load().err().unwrap().starts_with("at:"));
        let bad_move = import_moves(GameKind::Adomoc, &[], "Fa3a6 Zz9")
            .err()
            .unwrap();
        assert!(bad_move.contains("move 2"), "{bad_move}");
        assert!(import_moves(GameKind::Adomoc, &[], " \n").is_err());
    }

    /// Damages `text`: cut at `cut`, then overwrite bytes with printable characters.
    pub(crate) fn damage(text: &str, cut: usize, edits: &[(usize, u8)]) -> String {
        let mut bytes = text.as_bytes().to_vec();
        bytes.truncate(cut % (bytes.len() + 1));
        for &(at, byte) in edits {
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = b' ' + byte % 95;
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

        #[test]
        fn damaged_records_are_refused_with_a_reason_or_read(
            cut in 0usize..4_000,
            edits in proptest::collection::vec((0usize..4_000, proptest::prelude::any::<u8>()), 0..4),
            kind in 0usize..4,
        ) {
            let kind = GameKind::ALL[kind];
            let mut rng = SmallRng::seed_from_u64(kind as u64);
            let table = random_game(kind, &mut rng, 30);
            let good = Record::of(table.as_ref(), &seats_for(table.as_ref())).to_ron();
            let text = damage(&good, cut, &edits);
            if let Err(error) = Record::parse(&text).and_then(|record| record.load().map(|_| ())) {
                proptest::prop_assert!(!error.is_empty());
            }
        }
    }
}
