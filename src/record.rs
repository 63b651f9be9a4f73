//! Records for the app: the session crate's [`Record`] read into a [`Table`] the screens
//! can draw, and written from one. Reading, checking and the RON form are the session
//! crate's (`tabula_session::Record`).

use crate::current_game::Seat;
use crate::table::{GameKind, Table, table_of};
pub use tabula_session::{RECORD_FORMAT, Record};

/// A record read back: the game at the position it was left at, and its seats.
pub struct Loaded {
    pub table: Box<dyn Table>,
    pub seats: Vec<Seat>,
}

/// The record of the game on `table` with these seats.
pub fn record_of(table: &dyn Table, seats: &[Seat]) -> Record {
    Record::of(table.as_match(), seats)
}

/// Replays a record through the rules into a table.
pub fn load(record: &Record) -> Result<Loaded, String> {
    let loaded = record.load()?;
    // Nobody plays from elsewhere in a game loaded here: a remote seat is played on at
    // this screen.
    let seats = loaded
        .seats
        .into_iter()
        .map(|seat| match seat {
            Seat::Remote => Seat::Human,
            seat => seat,
        })
        .collect();
    Ok(Loaded {
        table: table_of(loaded.game),
        seats,
    })
}

/// The moves played so far as plain text in the game's notation, one move a line.
pub fn move_list(table: &dyn Table) -> String {
    table.as_match().move_list()
}

/// A new game of `kind` with `settings`, after the moves of a plain list.
pub fn import_moves(
    kind: GameKind,
    settings: &[(String, String)],
    text: &str,
) -> Result<Box<dyn Table>, String> {
    tabula_session::import_moves(kind, settings, text).map(table_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::new_table;

    #[test]
    fn a_loaded_record_is_a_table_at_the_same_place() {
        let mut table = new_table(GameKind::Adaptoid, &[]).unwrap();
        table.play_notation("d2+L").unwrap();
        table.play_notation("d6+L").unwrap();
        table.go_to(1).unwrap();
        let seats = [Seat::Human, Seat::Bot(2)];
        let record = record_of(table.as_ref(), &seats);
        let loaded = load(&Record::parse(&record.to_ron()).unwrap()).unwrap();
        assert_eq!(loaded.seats, seats);
        assert_eq!(loaded.table.as_match().line(), table.as_match().line());
        assert_eq!(loaded.table.as_match().record().len(), 1);
        assert_eq!(
            loaded.table.layout().cells.len(),
            table.layout().cells.len()
        );
        assert_eq!(loaded.table.last_move_cells(), table.last_move_cells());
        assert_eq!(loaded.table.choices(), table.choices());

        let mut online = record.clone();
        online.seats = vec!["remote".into(), "level:2".into()];
        assert_eq!(
            load(&online).unwrap().seats,
            seats,
            "a remote seat is played here"
        );

        let list = move_list(table.as_ref());
        assert_eq!(list, "d2+L;\n");
        let imported = import_moves(GameKind::Adaptoid, &[], &list).unwrap();
        assert_eq!(
            imported.as_match().position_string(),
            table.as_match().position_string()
        );
    }
}
