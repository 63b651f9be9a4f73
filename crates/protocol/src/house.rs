//! The server's own bots (`tabula-server --house-bots`): accounts that take a challenge
//! nobody else takes, so that a lone visitor still finds a game. Every name that ends in
//! "bot" is kept for them, so a client can mark a bot wherever a name is shown.

use serde::{Deserialize, Serialize};

/// The house bots a server runs, as its lobby tells them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseBots {
    /// The weakest first.
    pub bots: Vec<HouseBot>,
    /// How long a challenge to anyone waits for a person before a bot takes it (a
    /// challenge to a bot by name is taken at once).
    pub wait_seconds: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseBot {
    pub name: String,
    /// 1 (the weakest) to 5.
    pub level: u8,
    /// What playing it is like.
    #[serde(default)]
    pub about: String,
}

/// Whether `name` is a house bot's: no person's name ends in "bot" (the server refuses
/// them, and names that only look like one: `B0T`).
pub fn is_house_bot(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("bot")
}

/// A player's name as a client shows it: escaped as any text from a server, and marked
/// when a bot plays under it.
pub fn shown_player(name: &str) -> String {
    let shown = tabula_rules::text::shown_line(name);
    if is_house_bot(name) {
        format!("{shown} (bot)")
    } else {
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_is_marked_and_a_person_is_not() {
        assert_eq!(shown_player("Novicebot"), "Novicebot (bot)");
        assert_eq!(shown_player("NOVICEBOT"), "NOVICEBOT (bot)");
        assert_eq!(shown_player("Ada"), "Ada");
        assert_eq!(shown_player("Botany"), "Botany");
        assert!(!is_house_bot(""));
    }
}
