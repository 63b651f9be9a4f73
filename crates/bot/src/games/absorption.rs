//! Absorption: a player loses at 3 pieces or fewer, so pieces controlled are the score;
//! stacks the mover would absorb at the end of the turn are as good as taken.

use crate::knowledge::Knowledge;
use crate::learned::{self, Weights};
use crate::outcome::{Rewards, chances};
use std::sync::{Arc, OnceLock};
use tabula_rules::Player;
use tabula_rules::absorption::Absorption;

/// A player at this many pieces or fewer has lost.
const LOSING_PIECES: f64 = 3.0;
/// Below this many pieces a player is near the edge (the `margin` feature).
const NEAR_LOSS: f64 = 8.0;
/// The 16 central squares (files c–f, ranks 3–6).
const CENTRE: u64 = 0x0000_3C3C_3C3C_0000;

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

    const FEATURES: &'static [&'static str] = &[
        "pieces",
        "near loss",
        "stacks",
        "small stacks",
        "large stacks",
        "centre pieces",
        "absorbing",
        "to move",
    ];

    fn shipped_weights() -> Option<Arc<Weights>> {
        static WEIGHTS: OnceLock<Option<Arc<Weights>>> = OnceLock::new();
        learned::shipped::<Self>(
            &WEIGHTS,
            include_str!("../../../../config/weights/absorption.ron"),
        )
    }

    fn features(&self, seat: Player, out: &mut [f64]) {
        let pieces = self.pieces_of(seat) as f64;
        out[0] = pieces;
        // Losing comes at 3: each piece counts for more the closer a player is to it.
        out[1] = (NEAR_LOSS - pieces.max(LOSING_PIECES)).max(0.0);
        for square in 0..64u8 {
            let Some((owner, height)) = self.stack(square) else {
                continue;
            };
            if owner != seat {
                continue;
            }
            out[2] += 1.0;
            out[3] += (height == 1) as u8 as f64;
            out[4] += (height == 3) as u8 as f64;
            if CENTRE >> square & 1 == 1 {
                out[5] += height as f64;
            }
        }
        if self.turn_player() == seat {
            let mut threatened = self.threatened();
            while threatened != 0 {
                let square = threatened.trailing_zeros() as u8;
                threatened &= threatened - 1;
                out[6] += self.stack(square).map_or(0.0, |(_, height)| height as f64);
            }
            out[7] = 1.0;
        }
    }
}
