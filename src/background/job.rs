//! A search as data: what to search and how, which any runner builds into work where it
//! runs (a background task, the frame, or the browser's search worker, which has its own
//! copy of the game rebuilt from this).

use super::Steps;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tabula_session::{AnyMatch, GameKind, Thinker, match_at, new_match};

/// A search to run, built into its work where it runs.
pub trait Job: Into<SearchJob> + Clone + Send + Sync + 'static {
    type Work: Steps;
    /// The work, with `kept` for a bot's tree from its last move.
    fn build(self, kept: &KeptSearches) -> Result<Self::Work, String>;
}

/// Every kind of search, for a runner that takes any (the search worker).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SearchJob {
    Move(crate::bot::MoveJob),
    Position(crate::analysis::PositionJob),
    Review(crate::review::ReviewJob),
    /// The runner's own tests' work.
    #[cfg(test)]
    Test(super::tests::TestJob),
}

impl SearchJob {
    /// Which goes first where searches share one core: a bot's move or a hint (someone
    /// waits for it), then the analysis board, then a review.
    pub fn rank(&self) -> u8 {
        match self {
            SearchJob::Move(_) => 0,
            SearchJob::Position(_) => 1,
            SearchJob::Review(_) => 2,
            #[cfg(test)]
            SearchJob::Test(_) => 0,
        }
    }
}

/// A game as the search rebuilds it: the rules' options, where it began and the moves
/// to the position searched.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSetup {
    pub kind: GameKind,
    pub settings: Vec<(String, String)>,
    /// The position it was set up from (a puzzle, a lesson), if not the game's start.
    pub start: Option<String>,
    pub moves: Vec<String>,
}

impl GameSetup {
    /// The game at the position it shows.
    pub fn at(game: &dyn AnyMatch) -> GameSetup {
        GameSetup::with_moves(game, game.record().to_vec())
    }

    /// The game's main line, to its end.
    pub fn main_line(game: &dyn AnyMatch) -> GameSetup {
        GameSetup::with_moves(game, game.main_line())
    }

    fn with_moves(game: &dyn AnyMatch, moves: Vec<String>) -> GameSetup {
        GameSetup {
            kind: game.kind(),
            settings: game.settings(),
            start: game.start_position(),
            moves,
        }
    }

    /// The match, its moves played by the rules.
    pub fn build(&self) -> Result<Box<dyn AnyMatch>, String> {
        let mut game = match &self.start {
            Some(position) => match_at(self.kind, &self.settings, position)?,
            None => new_match(self.kind, &self.settings)?,
        };
        for (at, text) in self.moves.iter().enumerate() {
            game.play_notation(text)
                .map_err(|e| format!("move {} ({text}): {e}", at + 1))?;
        }
        Ok(game)
    }
}

/// Each bot seat's search from its last move, kept where searches run so the next one
/// starts from the subtree it reached (as the measured CLI bots do). One store may serve
/// several apps (the search worker's, or a test's): each has its own key.
#[derive(bevy::prelude::Resource, Clone)]
pub struct KeptSearches {
    owner: u64,
    trees: Arc<Mutex<Trees>>,
}

/// The kept trees, by app and seat.
type Trees = HashMap<KeptSeat, Box<dyn Thinker>>;

impl Default for KeptSearches {
    fn default() -> Self {
        static OWNERS: AtomicU64 = AtomicU64::new(1);
        KeptSearches {
            owner: OWNERS.fetch_add(1, Ordering::Relaxed),
            trees: Arc::default(),
        }
    }
}

/// A seat of one app, whose search is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KeptSeat {
    pub owner: u64,
    pub seat: usize,
}

impl KeptSearches {
    /// This app's key for `seat`.
    pub fn seat(&self, seat: usize) -> KeptSeat {
        KeptSeat {
            owner: self.owner,
            seat,
        }
    }

    pub fn owner(&self) -> u64 {
        self.owner
    }

    pub fn take(&self, seat: KeptSeat) -> Option<Box<dyn Thinker>> {
        self.trees.lock().ok()?.remove(&seat)
    }

    pub fn keep(&self, seat: KeptSeat, thinker: Box<dyn Thinker>) {
        if let Ok(mut trees) = self.trees.lock() {
            trees.insert(seat, thinker);
        }
    }

    /// Forgets an app's searches (it left the game).
    pub fn forget(&self, owner: u64) {
        if let Ok(mut trees) = self.trees.lock() {
            trees.retain(|seat, _| seat.owner != owner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_rebuilds_the_position_of_a_game_set_up_from_a_string() {
        let mut game = new_match(GameKind::Adomoc, &[]).unwrap();
        let first = game.legal_moves(1).0.remove(0);
        game.play_notation(&first).unwrap();
        let position = game.position_string();
        let mut set_up = match_at(GameKind::Adomoc, &[], &position).unwrap();
        let reply = set_up.legal_moves(1).0.remove(0);
        set_up.play_notation(&reply).unwrap();

        let setup = GameSetup::at(set_up.as_ref());
        assert_eq!(setup.start.as_deref(), Some(position.as_str()));
        let rebuilt = setup.build().unwrap();
        assert_eq!(rebuilt.position_string(), set_up.position_string());
        assert_eq!(rebuilt.record(), set_up.record());
    }

    #[test]
    fn a_setup_with_a_move_the_rules_refuse_says_which() {
        let setup = GameSetup {
            kind: GameKind::Adaptoid,
            settings: Vec::new(),
            start: None,
            moves: vec!["nonsense".to_string()],
        };
        let error = setup.build().err().expect("refused");
        assert!(error.starts_with("move 1 (nonsense):"), "{error}");
    }

    #[test]
    fn kept_searches_of_two_apps_in_one_store_stay_apart() {
        let first = KeptSearches::default();
        let second = KeptSearches {
            owner: first.owner + 1,
            trees: first.trees.clone(),
        };
        let game = new_match(GameKind::Adomoc, &[]).unwrap();
        let spec = tabula_bot::BotSpec::Random;
        first.keep(first.seat(0), game.thinker(&spec, 1));
        second.keep(second.seat(0), game.thinker(&spec, 2));
        first.forget(first.owner());
        assert!(first.take(first.seat(0)).is_none());
        assert!(second.take(second.seat(0)).is_some());
    }
}
