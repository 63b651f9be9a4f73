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
/// Random moves a playout draws before keeping the best by `attack_gain` (the light
/// policy) or by what the turn takes and loses (the tactical one).
const PLAYOUT_DRAWS: usize = 3;
/// The tactical policy's weights: an adaptoid taken or lost against one left starving.
const TAKEN_GAIN: i32 = 4;
const STARVING_COST: i32 = 3;

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

    const FEATURES: &'static [&'static str] = &[
        "captures",
        "adaptoids",
        "legs",
        "pincers",
        "starving",
        "one liberty from starving",
        "liberties",
        "bodies in supply",
        "to move",
    ];

    fn features(&self, seat: Player, out: &mut [f64]) {
        let board = self.board();
        let cells = board.len() as u8;
        let empty = (0..cells)
            .filter(|&cell| self.creature(cell).is_none())
            .fold(0u64, |set, cell| set | 1 << cell);
        out[0] = self.captures_of(seat) as f64;
        let mut liberties = 0u64;
        for cell in 0..cells {
            let Some(creature) = self.creature(cell) else {
                continue;
            };
            if creature.owner != seat {
                continue;
            }
            let free = board.neighbours(cell) & empty;
            liberties |= free;
            let parts = (creature.legs + creature.pincers) as u32;
            out[1] += 1.0;
            out[2] += creature.legs as f64;
            out[3] += creature.pincers as f64;
            // Starving: more parts than empty neighbours (the rules' step 3).
            out[4] += (parts > free.count_ones()) as u8 as f64;
            out[5] += (parts == free.count_ones()) as u8 as f64;
        }
        out[6] = liberties.count_ones() as f64;
        out[7] = self.supply_of(seat)[0] as f64;
        out[8] = (self.to_move() == seat) as u8 as f64;
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

    /// Of three random moves, one that wins, else the one with the best material: what
    /// the turn takes less what it loses, and its own adaptoids left starving (they die
    /// when the reply ends unless it frees them), first drawn first among equals. Slower
    /// than the light policy (about 0.7 times the iterations) and stronger at the same
    /// time (72.5% at 300 ms a move, docs/bots.md).
    fn tactical_playout_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<AdaptoidMove> {
        let mut best = None;
        let mut best_gain = i32::MIN;
        for _ in 0..PLAYOUT_DRAWS {
            let mv = self.random_move(rng)?;
            let preview = self.preview(&mv);
            if preview.wins {
                return Some(mv);
            }
            let gain = TAKEN_GAIN * (preview.taken as i32 - preview.lost as i32)
                - STARVING_COST * preview.left_starving as i32;
            if gain > best_gain {
                best_gain = gain;
                best = Some(mv);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// What a move takes less what it loses, and its own adaptoids left starving.
    fn material(game: &Adaptoid, mv: &AdaptoidMove) -> (i32, i32) {
        let preview = game.preview(mv);
        (
            preview.taken as i32 - preview.lost as i32,
            preview.left_starving as i32,
        )
    }

    /// Over the same random positions, the tactical policy's moves take more and leave
    /// fewer of the mover's adaptoids starving than the light policy's.
    #[test]
    fn tactical_playouts_weigh_what_a_move_takes_and_loses() {
        let mut rng = SmallRng::seed_from_u64(41);
        let (mut light, mut tactical) = ((0, 0), (0, 0));
        let mut positions = 0;
        while positions < 400 {
            let mut game = Adaptoid::new(Default::default()).unwrap();
            let plies = rng.random_range(10..60);
            for _ in 0..plies {
                let Some(mv) = game.random_move(&mut rng) else {
                    break;
                };
                game.play_unchecked(&mv);
            }
            if game.status().is_over() {
                continue;
            }
            positions += 1;
            let light_move = game.playout_move(&mut rng).unwrap();
            let tactical_move = game.tactical_playout_move(&mut rng).unwrap();
            for (sum, mv) in [(&mut light, light_move), (&mut tactical, tactical_move)] {
                let (taken, starving) = material(&game, &mv);
                sum.0 += taken;
                sum.1 += starving;
            }
        }
        assert!(
            tactical.0 > light.0,
            "taken: {tactical:?} against {light:?}"
        );
        assert!(
            tactical.1 < light.1,
            "starving: {tactical:?} against {light:?}"
        );
    }
}
