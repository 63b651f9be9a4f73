//! Adomoc: the game is a race to a state of primes and the prime sun on the centre, so
//! the score is how far each player's primes have come inward, plus a little material.

use crate::knowledge::Knowledge;
use crate::outcome::{Rewards, chances};
use tabula_rules::adomoc::{Adomoc, Kind};

const SHARPNESS: f64 = 1.2;
/// Per cycle of progress of each prime (cycle 8 is the goal ring; the centre is 9).
const PRIME_STEP: f64 = 0.25;
const PIECE: f64 = 0.08;
const SPACES: u8 = 81;

fn cycle(space: u8) -> u8 {
    space / 10 + 1
}

impl Knowledge for Adomoc {
    fn evaluate(&self) -> Rewards {
        let mut scores = [0.0; 2];
        for space in 0..SPACES {
            let Some(piece) = self.piece_at(space) else {
                continue;
            };
            let owner = piece.owner.index();
            scores[owner] += PIECE;
            if piece.prime {
                let start = piece.kind.origin_cycle() as f64;
                let weight = if piece.kind == Kind::Sun { 1.5 } else { 1.0 };
                scores[owner] += PRIME_STEP * weight * (cycle(space) as f64 - start);
            }
        }
        chances(&scores, SHARPNESS)
    }
}
