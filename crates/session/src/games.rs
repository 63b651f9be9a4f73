//! The four games: the one list, what a menu says of each, and the one dispatch from a
//! game to its concrete rules type.

use serde::{Deserialize, Serialize};
use tabula_rules::text::quoted;

/// The four games, in the order menus list them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    #[default]
    Absorption,
    Adamas,
    Adaptoid,
    Adomoc,
}

/// Runs `$body` with `$G` standing for the rules type of the game `$kind`: the one place
/// that lists the games' concrete types. Front ends call it with their own bounds, e.g.
/// `with_game!(kind, G => Box::new(Board::<G>::new()))`.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::GameKind::Absorption => {
                type $G = $crate::rules::absorption::Absorption;
                $body
            }
            $crate::GameKind::Adamas => {
                type $G = $crate::rules::adamas::Adamas;
                $body
            }
            $crate::GameKind::Adaptoid => {
                type $G = $crate::rules::adaptoid::Adaptoid;
                $body
            }
            $crate::GameKind::Adomoc => {
                type $G = $crate::rules::adomoc::Adomoc;
                $body
            }
        }
    };
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::Absorption,
        GameKind::Adamas,
        GameKind::Adaptoid,
        GameKind::Adomoc,
    ];

    /// The game's name as the command line and records write it.
    pub fn key(self) -> &'static str {
        with_game!(self, G => <G as tabula_rules::Game>::NAME)
    }

    pub fn from_key(key: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|kind| kind.key() == key)
    }

    /// Reads a game's key, or says which games there are.
    pub fn parse(key: &str) -> Result<GameKind, String> {
        GameKind::from_key(key.trim()).ok_or_else(|| unknown_game(key))
    }

    /// The game's options described for people (`Game::OPTIONS`).
    pub fn options(self) -> &'static [tabula_rules::OptionInfo] {
        with_game!(self, G => <G as tabula_rules::Game>::OPTIONS)
    }

    pub fn title(self) -> &'static str {
        match self {
            GameKind::Absorption => "Absorption",
            GameKind::Adamas => "Adamas",
            GameKind::Adaptoid => "Adaptoid",
            GameKind::Adomoc => "Adomoc",
        }
    }

    pub fn tagline(self) -> &'static str {
        match self {
            GameKind::Absorption => "Split, merge and move stacks; bigger sums absorb.",
            GameKind::Adamas => "Stacks split and merge along hex lines; capture by sight.",
            GameKind::Adaptoid => "Grow creatures with legs and pincers; starve or fight.",
            GameKind::Adomoc => "Suns, moons and feet on a circular board of spirals.",
        }
    }

    /// The most players any set of options gives (three-player Adamas): the colours a
    /// palette needs.
    pub fn max_players(self) -> usize {
        match self {
            GameKind::Adamas => 3,
            _ => 2,
        }
    }

    /// Splits a turn or a list of moves in this game's notation into its moves
    /// (`Game::split_moves`).
    pub fn split_moves(self, text: &str) -> Vec<String> {
        with_game!(self, G => <G as tabula_rules::Game>::split_moves(text))
    }

    /// Whether a piece changes owner by turning over (an absorbed Absorption stack), so
    /// its discs have a side for each player.
    pub fn pieces_turn_over(self) -> bool {
        self == GameKind::Absorption
    }
}

/// The error for a game name that is not one of ours.
pub fn unknown_game(name: &str) -> String {
    let keys: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.key()).collect();
    format!(
        "unknown game {name_q} ({})",
        keys.join(", "),
        name_q = quoted(name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_and_unknown_games_are_named() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::parse(kind.key()), Ok(kind));
        }
        let error = GameKind::parse("chess").unwrap_err();
        assert!(
            error.contains("\"chess\"") && error.contains("adomoc"),
            "{error}"
        );
    }
}
