//! The player's side of the puzzles: their Glicko-2 rating in each game, their streak, the
//! puzzles lately tried, which puzzle comes next, and the puzzle of the day.

use crate::glicko::{Glicko, PUZZLE_DEVIATION};
use crate::puzzle::{Puzzle, PuzzleSet};
use serde::{Deserialize, Serialize};

/// How many puzzles tried lately are kept, so they do not come again soon.
const RECENT: usize = 60;

/// One game's puzzle record, kept with the settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleRecord {
    pub rating: Glicko,
    /// Puzzles solved in a row, the first try each.
    pub streak: u32,
    pub best_streak: u32,
    pub solved: u32,
    pub failed: u32,
    /// The ids of the puzzles tried lately, the latest last.
    pub recent: Vec<String>,
}

impl PuzzleRecord {
    /// The puzzle to try next: of those not tried lately, the one whose rating is nearest
    /// the player's.
    pub fn next<'a>(&self, set: &'a PuzzleSet) -> Option<&'a Puzzle> {
        let fresh = set
            .puzzles
            .iter()
            .filter(|puzzle| !self.recent.contains(&puzzle.id));
        let nearest = |puzzle: &&Puzzle| (puzzle.rating as f64 - self.rating.rating).abs() as u64;
        fresh.min_by_key(nearest).or_else(|| set.puzzles.first())
    }

    /// Counts a first try at `puzzle`: solved or not, and the rating and streak with it.
    /// Tries after the first count for nothing, as on other sites.
    pub fn record(&mut self, puzzle: &Puzzle, solved: bool) {
        let opponent = Glicko {
            rating: puzzle.rating as f64,
            deviation: PUZZLE_DEVIATION,
            volatility: 0.06,
        };
        self.rating = self.rating.after(opponent, if solved { 1.0 } else { 0.0 });
        if solved {
            self.solved += 1;
            self.streak += 1;
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.failed += 1;
            self.streak = 0;
        }
        self.skip(&puzzle.id);
    }

    /// Puts a puzzle among those tried lately (left untried, it is not counted as failed
    /// but does not come again soon); the list keeps the last [`RECENT`].
    pub fn skip(&mut self, id: &str) {
        self.recent.retain(|other| other != id);
        self.recent.push(id.to_string());
        let excess = self.recent.len().saturating_sub(RECENT);
        self.recent.drain(..excess);
    }
}

/// The puzzle of the day `day` (days since 1 January 1970): the same for everyone on that
/// day, a different one each day.
pub fn puzzle_of_the_day(set: &PuzzleSet, day: u64) -> Option<&Puzzle> {
    if set.puzzles.is_empty() {
        return None;
    }
    // A large odd step walks the whole set before it repeats and mixes its order.
    let index = (day.wrapping_mul(2_654_435_761) % set.puzzles.len() as u64) as usize;
    set.puzzles.get(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_session::GameKind;

    fn puzzle(id: &str, rating: u32) -> Puzzle {
        Puzzle {
            id: id.into(),
            options: Vec::new(),
            position: String::new(),
            moves: Vec::new(),
            depth: 1,
            wins: Vec::new(),
            winning: 1,
            turns: 10,
            line: Vec::new(),
            theme: "capture".into(),
            rating,
        }
    }

    #[test]
    fn the_next_puzzle_is_near_the_players_rating_and_not_one_just_tried() {
        let set = PuzzleSet {
            game: GameKind::Adamas,
            puzzles: vec![puzzle("a", 1100), puzzle("b", 1480), puzzle("c", 1900)],
        };
        let mut record = PuzzleRecord::default();
        assert_eq!(record.next(&set).unwrap().id, "b");
        record.record(&set.puzzles[1], true);
        assert_eq!((record.streak, record.solved), (1, 1));
        assert!(record.rating.rating > 1500.0);
        assert_ne!(record.next(&set).unwrap().id, "b");
        record.record(&set.puzzles[2], false);
        assert_eq!(
            (record.streak, record.best_streak, record.failed),
            (0, 1, 1)
        );
    }

    #[test]
    fn each_day_has_its_puzzle() {
        let set = PuzzleSet {
            game: GameKind::Adomoc,
            puzzles: (0..7).map(|i| puzzle(&i.to_string(), 1200)).collect(),
        };
        let days: std::collections::HashSet<&str> = (0..7)
            .map(|day| puzzle_of_the_day(&set, day).unwrap().id.as_str())
            .collect();
        assert_eq!(days.len(), 7, "a week without a repeat");
        assert_eq!(puzzle_of_the_day(&set, 3), puzzle_of_the_day(&set, 3));
    }
}
