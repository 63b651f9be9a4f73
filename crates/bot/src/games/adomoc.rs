//! Adomoc: the game is a race to a state of primes and the prime sun on the centre, so
//! the score is how far each player's primes have come inward, plus a little material.

use crate::knowledge::Knowledge;
use crate::outcome::{Rewards, chances};
use tabula_rules::adomoc::geometry::{column_and_cycle, space_at};
use tabula_rules::adomoc::{Adomoc, Kind};
use tabula_rules::{Game, Player};

/// The goal ring: a state of primes needs a prime foot and a prime moon on it.
const GOAL_CYCLE: u8 = 8;
/// The prime sun moves at most 3 spaces, so it wins from cycle 6 or nearer.
const SUN_REACH_CYCLE: u8 = 6;

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

    const FEATURES: &'static [&'static str] = &[
        "prime foot progress",
        "prime moon progress",
        "prime sun progress",
        "primes on the goal ring",
        "state of primes",
        "sun's column open",
        "pieces",
        "attracted feet",
        "to move",
    ];

    fn features(&self, seat: Player, out: &mut [f64]) {
        let attracted = self.attracted();
        let mut sun = None;
        for space in 0..SPACES {
            let Some(piece) = self.piece_at(space) else {
                continue;
            };
            if piece.owner != seat {
                continue;
            }
            out[6] += 1.0;
            if attracted >> space & 1 == 1 {
                out[7] += 1.0;
            }
            if !piece.prime {
                continue;
            }
            let (_, ring) = column_and_cycle(space);
            // Origination sends a prime back to its start, and a prime may step outward.
            let progress = ring as f64 - piece.kind.origin_cycle() as f64;
            match piece.kind {
                Kind::Foot => out[0] = progress,
                Kind::Moon => out[1] = progress,
                Kind::Sun => {
                    out[2] = progress;
                    sun = Some(space);
                }
            }
            if piece.kind != Kind::Sun && ring == GOAL_CYCLE {
                out[3] += 1.0;
            }
        }
        out[4] = self.state_of_primes(seat) as u8 as f64;
        // The prime sun near the centre with nothing between: a win once in a state of
        // primes.
        if let Some(space) = sun {
            let (column, ring) = column_and_cycle(space);
            if (SUN_REACH_CYCLE..=GOAL_CYCLE).contains(&ring)
                && (ring + 1..=GOAL_CYCLE).all(|c| self.piece_at(space_at(column, c)).is_none())
            {
                out[5] = 1.0;
            }
        }
        out[8] = (self.to_move() == seat) as u8 as f64;
    }
}
