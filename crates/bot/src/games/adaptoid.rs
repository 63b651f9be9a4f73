//! Adaptoid: five captures win, so captures weigh most; then the adaptoids on the board
//! and their limbs, less those about to starve.

use crate::knowledge::Knowledge;
use crate::outcome::{Rewards, chances};
use rand::Rng;
use tabula_rules::adaptoid::{Adaptoid, AdaptoidMove};
use tabula_rules::{Game, Player};

const SHARPNESS: f64 = 0.8;
const CAPTURE: f64 = 1.0;
const BODY: f64 = 0.5;
const LEG: f64 = 0.12;
const PINCER: f64 = 0.2;
/// Random moves a playout draws before keeping the best by `attack_gain`.
const PLAYOUT_DRAWS: usize = 3;

/// What an attack does for the mover: +1 it wins the fight, -1 it loses or trades, 0 it
/// is no attack. Playouts full of suicidal attacks misjudge every position.
fn attack_gain(game: &Adaptoid, mv: &AdaptoidMove) -> i32 {
    let AdaptoidMove::Turn {
        step: Some((from, to)),
        ..
    } = mv
    else {
        return 0;
    };
    match (game.creature(*from), game.creature(*to)) {
        (Some(attacker), Some(defender)) if attacker.owner != defender.owner => {
            if attacker.pincers > defender.pincers {
                1
            } else {
                -1
            }
        }
        _ => 0,
    }
}

impl Knowledge for Adaptoid {
    fn evaluate(&self) -> Rewards {
        let mut scores = [0.0; 2];
        for (seat, score) in scores.iter_mut().enumerate() {
            *score = self.captures_of(Player(seat as u8)) as f64 * CAPTURE;
        }
        for cell in 0..self.board().len() as u8 {
            if let Some(creature) = self.creature(cell) {
                scores[creature.owner.index()] +=
                    BODY + LEG * creature.legs as f64 + PINCER * creature.pincers as f64;
            }
        }
        for (seat, score) in scores.iter_mut().enumerate() {
            *score -= BODY * self.starving(Player(seat as u8)).count_ones() as f64;
        }
        chances(&scores, SHARPNESS)
    }

    /// Games last about 50 plies and playouts that avoid suicidal attacks judge them
    /// better than the evaluation does (measured: 97% against plain UCT to 90%).
    fn playout_plies(&self) -> Option<u32> {
        None
    }

    fn playout_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<AdaptoidMove> {
        let mut best = self.random_move(rng)?;
        let mut best_gain = attack_gain(self, &best);
        for _ in 1..PLAYOUT_DRAWS {
            if best_gain > 0 {
                break;
            }
            let mv = self.random_move(rng)?;
            let gain = attack_gain(self, &mv);
            if gain > best_gain {
                best = mv;
                best_gain = gain;
            }
        }
        Some(best)
    }
}
