//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), for the player's puzzle
//! rating: each puzzle solved or failed is one game against the puzzle's rating.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A rating on the Glicko scale (1500 a beginner's start), how sure it is (the rating
/// deviation: 350 knows nothing, 50 is well known) and how steady (the volatility).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Self {
        Glicko {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// Puzzles are rated, not fixed: their deviation, as a well-played puzzle's.
pub const PUZZLE_DEVIATION: f64 = 80.0;
/// The least deviation a player keeps, so a long run of puzzles still moves the rating.
const LEAST_DEVIATION: f64 = 45.0;

impl From<Glicko> for Glicko2Rating {
    fn from(g: Glicko) -> Glicko2Rating {
        Glicko2Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl Glicko {
    /// The rating after one game against `opponent`: `score` 1 for solved, 0 for failed.
    /// The formulas are `skillratings`' (Glickman's system constant 0.5), as the server's
    /// ratings of online games.
    pub fn after(self, opponent: Glicko, score: f64) -> Glicko {
        let outcome = if score > 0.5 {
            Outcomes::WIN
        } else if score < 0.5 {
            Outcomes::LOSS
        } else {
            Outcomes::DRAW
        };
        let after = glicko2_rating_period(
            &self.into(),
            &[(opponent.into(), outcome)],
            &Glicko2Config::new(),
        );
        Glicko {
            rating: after.rating,
            deviation: after.deviation.max(LEAST_DEVIATION),
            volatility: after.volatility,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's steps for one game of its example player (1500, deviation 200) against
    /// its first opponent (1400, deviation 30), worked out apart from this code: a win
    /// gives 1563.6 and deviation 175.4, the volatility hardly moving.
    #[test]
    fn a_win_against_a_weaker_player_moves_the_rating_as_glicko_2_says() {
        let player = Glicko {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = Glicko {
            rating: 1400.0,
            deviation: 30.0,
            volatility: 0.06,
        };
        let after = player.after(opponent, 1.0);
        assert!((after.rating - 1563.6).abs() < 0.5, "{after:?}");
        assert!((after.deviation - 175.4).abs() < 0.5, "{after:?}");
        assert!((after.volatility - 0.06).abs() < 0.001, "{after:?}");
        let lost = player.after(opponent, 0.0);
        assert!(lost.rating < 1500.0 && lost.rating > 1300.0, "{lost:?}");
    }

    /// Solving a harder puzzle gains more than solving an easier one.
    #[test]
    fn harder_puzzles_count_for_more() {
        let player = Glicko::default();
        let easy = Glicko {
            rating: 1100.0,
            deviation: PUZZLE_DEVIATION,
            volatility: 0.06,
        };
        let hard = Glicko {
            rating: 1900.0,
            ..easy
        };
        assert!(player.after(hard, 1.0).rating > player.after(easy, 1.0).rating);
        assert!(player.after(easy, 0.0).rating < player.after(hard, 0.0).rating);
    }
}
