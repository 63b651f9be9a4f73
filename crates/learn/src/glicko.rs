//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), for the player's puzzle
//! rating: each puzzle solved or failed is one game against the puzzle's rating.

use serde::{Deserialize, Serialize};

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

/// The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2).
const TAU: f64 = 0.5;
/// Glicko-2's scale: rating points to its own units.
const SCALE: f64 = 173.7178;
/// Puzzles are rated, not fixed: their deviation, as a well-played puzzle's.
pub const PUZZLE_DEVIATION: f64 = 80.0;
/// The least deviation a player keeps, so a long run of puzzles still moves the rating.
const LEAST_DEVIATION: f64 = 45.0;

impl Glicko {
    /// The rating after one game against `opponent`: `score` 1 for solved, 0 for failed.
    pub fn after(self, opponent: Glicko, score: f64) -> Glicko {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let mu_j = (opponent.rating - 1500.0) / SCALE;
        let phi_j = opponent.deviation / SCALE;
        let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        let expected = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        let v = 1.0 / (g * g * expected * (1.0 - expected));
        let delta = v * g * (score - expected);
        let sigma = new_volatility(self.volatility, phi, v, delta);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * g * (score - expected);
        Glicko {
            rating: SCALE * mu_new + 1500.0,
            deviation: (SCALE * phi_new).max(LEAST_DEVIATION),
            volatility: sigma,
        }
    }

    /// The chance of winning against `opponent`, as the ratings see it.
    pub fn expected_against(self, opponent: Glicko) -> f64 {
        let mu = (self.rating - 1500.0) / SCALE;
        let mu_j = (opponent.rating - 1500.0) / SCALE;
        let phi_j = opponent.deviation / SCALE;
        let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        1.0 / (1.0 + (-g * (mu - mu_j)).exp())
    }
}

/// Step 5 of the paper: the new volatility, by the Illinois algorithm.
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..100 {
        if (big_b - big_a).abs() <= 1e-6 {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
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
        assert!(player.expected_against(easy) > 0.5);
    }
}
