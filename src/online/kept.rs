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
                return (
                    KeptSeats::default(),
                    Some(format!("Your online games could not be read: {e}")),
                );
            }
        };
        match ron::from_str::<KeptSeats>(&text) {
            Ok(seats) => (seats, None),
            Err(e) => {
                let kept = storage
                    .set_aside(SEATS_FILE, "unreadable")
                    .map_or_else(|e| e, |path| format!("kept as {}", path.display()));
                (
                    KeptSeats::default(),
                    Some(format!(
                        "The list of your online games is damaged ({e}); {kept}."
                    )),
                )
            }
        }
    }

    pub fn save(&self, storage: &Storage) -> Result<(), String> {
        if storage.dir.is_none() {
            return Ok(());
        }
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("the online games could not be written: {e}"))?;
        storage
            .write(SEATS_FILE, &text)
            .map(|_| ())
            .map_err(|e| format!("Your online games could not be kept: {e}"))
    }

    /// Adds a seat (or updates it); false if it was kept already as it is.
    pub fn keep(&mut self, seat: KeptSeat) -> bool {
        let same = |s: &KeptSeat| s.server == seat.server && s.code == seat.code;
        if self.seats.iter().any(|s| *s == seat) {
            return false;
        }
        self.seats.retain(|s| !same(s));
        self.seats.push(seat);
        let over = self.seats.len().saturating_sub(MAX_KEPT);
        self.seats.drain(..over);
        true
    }

    /// The seats on `server`, newest first.
    pub fn on<'a>(&'a self, server: &'a str) -> impl Iterator<Item = &'a KeptSeat> + 'a {
        self.seats.iter().rev().filter(move |s| s.server == server)
    }

    pub fn forget(&mut self, server: &str, code: &str) -> bool {
        let before = self.seats.len();
        self.seats
            .retain(|s| !(s.server == server && s.code == code));
        self.seats.len() != before
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
    fn only_the_newest_seats_are_kept() {
        let mut kept = KeptSeats::default();
        for n in 0..MAX_KEPT + 5 {
            kept.keep(seat(&format!("{n:06}")));
        }
        assert_eq!(kept.seats.len(), MAX_KEPT);
        assert_eq!(kept.seats[0].code, "000005");
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
        std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
    }
}
