//! Absorption: a player loses at 3 pieces or fewer, so pieces controlled are the score;
//! stacks the mover would absorb at the end of the turn are as good as taken.

use crate::knowledge::Knowledge;
use crate::outcome::{Rewards, chances};
use tabula_rules::Player;
use tabula_rules::absorption::Absorption;

/// Win-chance logits per piece of difference (18 pieces each at the start).
const SHARPNESS: f64 = 0.35;
/// How much of a stack the mover threatens to absorb counts as already moved over.
const THREAT_SHARE: f64 = 0.6;

impl Knowledge for Absorption {
    fn evaluate(&self) -> Rewards {
        let mut scores = [0.0; 2];
        for (seat, score) in scores.iter_mut().enumerate() {
            *score = self.pieces_of(Player(seat as u8)) as f64;
        }
        let taker = self.turn_player().index();
        let mut threatened = self.threatened();
        while threatened != 0 {
            let square = threatened.trailing_zeros() as u8;
            threatened &= threatened - 1;
            if let Some((_, height)) = self.stack(square) {
                let moved = height as f64 * THREAT_SHARE;
                scores[taker] += moved;
                scores[1 - taker] -= moved;
            }
        }
        chances(&scores, SHARPNESS)
    }
}
