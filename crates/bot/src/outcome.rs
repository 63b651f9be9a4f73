//! What a finished or judged game is worth to each seat.

use serde::{Deserialize, Serialize};
use tabula_rules::{Player, Status};

/// The most seats any game has (three-player Adamas).
pub const MAX_PLAYERS: usize = 3;

/// Each seat's share of the result in [0, 1]: 1 for a win, 0 for a loss, an equal share
/// of a draw. An evaluation gives win chances in the same form.
pub type Rewards = [f64; MAX_PLAYERS];

/// A result the solver has proved: a win for one seat, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Proof {
    Win(Player),
    Draw,
}

impl Proof {
    pub fn of_status(status: Status) -> Option<Proof> {
        match status {
            Status::Ongoing => None,
            Status::Win { winner, .. } => Some(Proof::Win(winner)),
            Status::Draw { .. } => Some(Proof::Draw),
        }
    }

    pub fn rewards(self, players: usize) -> Rewards {
        match self {
            Proof::Win(winner) => {
                let mut rewards = [0.0; MAX_PLAYERS];
                rewards[winner.index()] = 1.0;
                rewards
            }
            Proof::Draw => even(players),
        }
    }

    /// How good the result is for `player`: win 2, draw 1, loss 0.
    pub fn rank_for(self, player: Player) -> u8 {
        match self {
            Proof::Win(winner) if winner == player => 2,
            Proof::Draw => 1,
            Proof::Win(_) => 0,
        }
    }
}

/// An equal share for every seat: a draw, or nothing known.
pub fn even(players: usize) -> Rewards {
    let mut rewards = [0.0; MAX_PLAYERS];
    for share in rewards.iter_mut().take(players) {
        *share = 1.0 / players as f64;
    }
    rewards
}

/// Turns per-seat scores (any scale; higher is better) into win chances: a logistic of the
/// score difference for two seats, a softmax for more. `sharpness` is how many win-chance
/// logits one point of score is worth.
pub fn chances(scores: &[f64], sharpness: f64) -> Rewards {
    let mut rewards = [0.0; MAX_PLAYERS];
    let best = scores.iter().copied().fold(f64::MIN, f64::max);
    let weights: Vec<f64> = scores
        .iter()
        .map(|s| ((s - best) * sharpness).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    for (share, weight) in rewards.iter_mut().zip(&weights) {
        *share = weight / total;
    }
    rewards
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_follow_the_score_and_sum_to_one() {
        let two = chances(&[3.0, 1.0], 1.0);
        assert!(two[0] > 0.85 && two[0] < 0.9, "{two:?}");
        assert!((two[0] + two[1] - 1.0).abs() < 1e-12);
        let equal = chances(&[2.0, 2.0, 2.0], 0.5);
        assert!(equal[..3].iter().all(|c| (c - 1.0 / 3.0).abs() < 1e-12));
    }

    #[test]
    fn proofs_rank_and_reward() {
        let win = Proof::Win(Player(1));
        assert_eq!(win.rank_for(Player(1)), 2);
        assert_eq!(win.rank_for(Player(0)), 0);
        assert_eq!(Proof::Draw.rank_for(Player(0)), 1);
        assert_eq!(win.rewards(2), [0.0, 1.0, 0.0]);
        assert_eq!(Proof::Draw.rewards(2), [0.5, 0.5, 0.0]);
    }
}
