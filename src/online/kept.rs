//! The seats this player holds in online games, kept with the saved games (a file in the
//! data directory, local storage in the browser): each seat's secret token is the only
//! way back to it, so the file is written like a save, with the old one kept as a backup,
//! and a damaged one is set aside rather than overwritten.

use crate::storage::Storage;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use tabula_online::protocol::SeatKey;

pub const SEATS_FILE: &str = "online-seats.ron";

/// The most seats kept: the oldest are forgotten first. Far more than anyone plays at
/// once, and within what one "my games" question may ask.
const MAX_KEPT: usize = tabula_online::protocol::MAX_LISTED_GAMES;

#[derive(Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptSeats {
    /// The server address used last.
    #[serde(default)]
    pub server: Option<String>,
    /// Oldest first.
    #[serde(default)]
    pub seats: Vec<KeptSeat>,
    /// Seats forgotten here, so that a save does not bring them back from the file.
    #[serde(skip)]
    forgotten: Vec<KeptSeat>,
    /// Why the file could not be read: it is then never written over.
    #[serde(skip)]
    unreadable: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptSeat {
    pub server: String,
    pub code: String,
    pub token: String,
    /// The game's key (`adamas`, …), to list it before the server answers.
    pub game: String,
    pub seat: usize,
}

impl KeptSeat {
    /// Whether both are the same seat of the same game (a token may be newer).
    fn same_seat(&self, other: &KeptSeat) -> bool {
        self.server == other.server && self.code == other.code && self.seat == other.seat
    }

    pub fn key(&self) -> SeatKey {
        SeatKey {
            code: self.code.clone(),
            token: self.token.clone(),
        }
    }
}

impl KeptSeats {
    /// The kept seats, and what went wrong reading them: a damaged file is set aside.
    pub fn read(storage: &Storage) -> (KeptSeats, Option<String>) {
        let text = match storage.read(SEATS_FILE) {
            Ok(Some(text)) => text,
            Ok(None) => return (KeptSeats::default(), None),
            Err(e) => {
                let problem = format!("Your online games could not be read: {e}");
                let seats = KeptSeats {
                    unreadable: Some(problem.clone()),
                    ..KeptSeats::default()
                };
                return (seats, Some(problem));
            }
        };
        match ron::from_str::<KeptSeats>(&text) {
            Ok(mut seats) => {
                // A file edited by hand may hold more than a server answers for at once.
                seats.forget_oldest_past_cap();
                (seats, None)
            }
            Err(e) => {
                let kept = storage
                    .set_aside(SEATS_FILE, "unreadable")
                    .map_or_else(|e| e, |path| format!("kept as {}", path.display()));
                (
                    KeptSeats::default(),
                    // Cut short: ron's error may quote a whole line of the file.
                    Some(format!(
                        "The list of your online games is damaged ({}); {kept}.",
                        tabula_session::rules::text::shown_line(&e.to_string())
                    )),
                )
            }
        }
    }

    /// Writes the seats, with those another window of the game kept meanwhile.
    pub fn save(&mut self, storage: &Storage) -> Result<(), String> {
        if storage.dir.is_none() {
            return Ok(());
        }
        if let Some(why) = &self.unreadable {
            return Err(format!("{why}; it is left as it is"));
        }
        if let (on_file, None) = KeptSeats::read(storage) {
            self.merge(on_file);
        }
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("the online games could not be written: {e}"))?;
        storage
            .write(SEATS_FILE, &text)
            .map(|_| ())
            .map_err(|e| format!("Your online games could not be kept: {e}"))
    }

    /// Takes in the seats of `other` this list lacks (and did not forget), oldest first.
    fn merge(&mut self, other: KeptSeats) {
        let mut merged: Vec<KeptSeat> = other
            .seats
            .into_iter()
            .filter(|seat| {
                !self.forgotten.contains(seat) && !self.seats.iter().any(|s| s.same_seat(seat))
            })
            .collect();
        merged.append(&mut self.seats);
        self.seats = merged;
        self.forget_oldest_past_cap();
    }

    /// Adds a seat (or updates its token); false if it was kept already as it is.
    pub fn keep(&mut self, seat: KeptSeat) -> bool {
        if self.seats.contains(&seat) {
            return false;
        }
        self.seats.retain(|s| !s.same_seat(&seat));
        self.forgotten.retain(|s| !s.same_seat(&seat));
        self.seats.push(seat);
        self.forget_oldest_past_cap();
        true
    }

    fn forget_oldest_past_cap(&mut self) {
        let over = self.seats.len().saturating_sub(MAX_KEPT);
        self.seats.drain(..over);
    }

    /// The seats on `server`, newest first.
    pub fn on<'a>(&'a self, server: &'a str) -> impl Iterator<Item = &'a KeptSeat> + 'a {
        self.seats.iter().rev().filter(move |s| s.server == server)
    }

    /// Drops the seats held in game `code` on `server` from the list.
    pub fn forget(&mut self, server: &str, code: &str) -> bool {
        let (gone, kept) = std::mem::take(&mut self.seats)
            .into_iter()
            .partition::<Vec<_>, _>(|s| s.server == server && s.code == code);
        self.seats = kept;
        let any = !gone.is_empty();
        self.forgotten.extend(gone);
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(code: &str) -> KeptSeat {
        KeptSeat {
            server: "http://127.0.0.1:8080".into(),
            code: code.into(),
            token: format!("token-{code}"),
            game: "adomoc".into(),
            seat: 1,
        }
    }

    fn scratch(name: &str) -> Storage {
        let dir = std::env::temp_dir().join(format!("tabula-kept-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Storage::at(dir)
    }

    #[test]
    fn seats_are_kept_newest_first_and_read_back() {
        let storage = scratch("round-trip");
        let mut kept = KeptSeats::default();
        assert!(kept.keep(seat("AAAAAA")));
        assert!(kept.keep(seat("BBBBBB")));
        assert!(
            !kept.keep(seat("AAAAAA")),
            "the same seat twice is kept once"
        );
        kept.server = Some("http://127.0.0.1:8080".into());
        kept.save(&storage).unwrap();
        let (read, problem) = KeptSeats::read(&storage);
        assert_eq!(problem, None);
        assert_eq!(read, kept);
        let codes: Vec<&str> = read
            .on("http://127.0.0.1:8080")
            .map(|s| s.code.as_str())
            .collect();
        assert_eq!(codes, ["BBBBBB", "AAAAAA"]);
        assert_eq!(read.on("http://elsewhere:1").count(), 0);
        let mut fewer = read.clone();
        assert!(fewer.forget("http://127.0.0.1:8080", "AAAAAA"));
        assert_eq!(fewer.seats.len(), 1);
        std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
    }

    #[test]
    fn two_windows_keep_each_others_seats_and_forgetting_holds() {
        let storage = scratch("two-windows");
        let (mut first, _) = KeptSeats::read(&storage);
        let (mut second, _) = KeptSeats::read(&storage);
        first.keep(seat("AAAAAA"));
        first.save(&storage).unwrap();
        second.keep(seat("BBBBBB"));
        second.save(&storage).unwrap();
        let (read, _) = KeptSeats::read(&storage);
        let codes: Vec<&str> = read.seats.iter().map(|s| s.code.as_str()).collect();
        assert_eq!(codes, ["AAAAAA", "BBBBBB"]);
        // A seat forgotten in one window does not come back from the file.
        assert!(second.forget("http://127.0.0.1:8080", "AAAAAA"));
        second.save(&storage).unwrap();
        assert_eq!(KeptSeats::read(&storage).0.seats.len(), 1);
        // Three players from one machine: two seats of one game are two seats.
        let mut other_seat = seat("BBBBBB");
        other_seat.seat = 2;
        assert!(second.keep(other_seat));
        assert_eq!(second.seats.len(), 2);
        std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
    }

    #[test]
    fn a_file_that_cannot_be_read_is_never_written_over() {
        let storage = scratch("unreadable");
        // A folder where the file should be: reading it fails, and so must saving.
        std::fs::create_dir_all(storage.path(SEATS_FILE).unwrap()).unwrap();
        let (mut kept, problem) = KeptSeats::read(&storage);
        assert!(problem.unwrap().contains("could not be read"));
        kept.keep(seat("AAAAAA"));
        assert!(kept.save(&storage).unwrap_err().contains("left as it is"));
        std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
    }

    #[test]
    fn only_the_newest_seats_are_kept() {
        let mut kept = KeptSeats::default();
        for n in 0..MAX_KEPT + 5 {
            kept.keep(seat(&format!("{n:06}")));
        }
        assert_eq!(kept.seats.len(), MAX_KEPT);
        assert_eq!(kept.seats[0].code, "000005");
        // A file with more (edited by hand) is read as its newest.
        let storage = scratch("over-cap");
        let over = KeptSeats {
            seats: (0..MAX_KEPT + 5)
                .map(|n| seat(&format!("{n:06}")))
                .collect(),
            ..KeptSeats::default()
        };
        storage
            .write(SEATS_FILE, &ron::to_string(&over).unwrap())
            .unwrap();
        let (read, problem) = KeptSeats::read(&storage);
        assert_eq!((read.seats.len(), problem), (MAX_KEPT, None));
        assert_eq!(read.seats[0].code, "000005");
        std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
    }

    #[test]
    fn a_damaged_file_is_set_aside_not_lost() {
        let storage = scratch("damaged");
        storage.write(SEATS_FILE, "(seats: [(server: ").unwrap();
        let (read, problem) = KeptSeats::read(&storage);
        assert_eq!(read, KeptSeats::default());
        let problem = problem.unwrap();
        assert!(problem.contains("damaged"), "{problem}");
        assert_eq!(
            storage
                .read("online-seats.ron.unreadable")
                .unwrap()
                .as_deref(),
            Some("(seats: [(server: ")
        );
        assert_eq!(storage.read(SEATS_FILE).unwrap(), None);
        // What cannot be read is not quoted back whole: the fuzzer found the same in the
        // sessions file.
        storage
            .write(
                SEATS_FILE,
                &format!(
                    "(seats: [(server: \"x\", code: \"A\",{}",
                    "985".repeat(2_000)
                ),
            )
            .unwrap();
        let (_, problem) = KeptSeats::read(&storage);
        let problem = problem.unwrap();
        assert!(problem.chars().count() < 1_000, "{problem}");
        std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
    }
}
