//! Adamas: piece count is the score, and a stack the mover may capture now is as good as
//! gone. Positions with thousands or millions of splits are searched over the reduced
//! candidate set of adamas.md §4.6: captures, whole-stack and single-piece moves, halves,
//! even two-way splits and whole-stack merges, topped up with random moves.

use crate::knowledge::{Knowledge, add_samples};
use crate::learned::{self, Weights};
use crate::outcome::{Rewards, chances};
use rand::Rng;
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};
use tabula_rules::adamas::Adamas;
use tabula_rules::adamas::{AdamasMove, Part, Parts};
use tabula_rules::{Game, Player};

const SHARPNESS: f64 = 0.45;
/// How much of a stack the mover may capture counts as already lost.
const THREAT_SHARE: f64 = 0.8;

impl Knowledge for Adamas {
    fn evaluate(&self) -> Rewards {
        let players = self.num_players();
        let mut scores = [0.0; 3];
        for (seat, score) in scores.iter_mut().enumerate().take(players) {
            *score = self.pieces_of(Player(seat as u8)) as f64;
        }
        for cell in self.threatened().iter() {
            if let Some((owner, height)) = self.stack(cell) {
                scores[owner.index()] -= height as f64 * THREAT_SHARE;
            }
        }
        chances(&scores[..players], SHARPNESS)
    }

    const FEATURES: &'static [&'static str] = &[
        "pieces",
        "stacks",
        "tallest",
        "capturable now",
        "exposed to the mover",
        "stacks as high as their sight",
        "enemy pieces in sight",
        "to move",
    ];

    fn shipped_weights() -> Option<Arc<Weights>> {
        static WEIGHTS: OnceLock<Option<Arc<Weights>>> = OnceLock::new();
        learned::shipped::<Self>(
            &WEIGHTS,
            include_str!("../../../../config/weights/adamas.ron"),
        )
    }

    fn in_play(&self, seat: Player) -> bool {
        self.is_active(seat)
    }

    fn features(&self, seat: Player, out: &mut [f64]) {
        out[0] = self.pieces_of(seat) as f64;
        for cell in 0..self.grid().len() {
            let Some((owner, height)) = self.stack(cell) else {
                continue;
            };
            if owner != seat {
                continue;
            }
            out[1] += 1.0;
            out[2] = out[2].max(height as f64);
            let seen = self.visible_enemy_count(cell).unwrap_or(0);
            if seen == height as u32 {
                out[5] += height as f64;
            }
            out[6] += seen as f64;
        }
        let threatened = self.threatened();
        if self.to_move() == seat {
            out[3] = threatened
                .iter()
                .filter_map(|cell| self.stack(cell))
                .map(|(_, height)| height as f64)
                .sum();
            out[7] = 1.0;
        } else {
            out[4] = threatened
                .iter()
                .filter_map(|cell| self.stack(cell))
                .filter(|(owner, _)| *owner == seat)
                .map(|(_, height)| height as f64)
                .sum();
        }
    }

    fn candidates<R: Rng + ?Sized>(&self, rng: &mut R, limit: usize) -> Option<Vec<AdamasMove>> {
        if self.has_at_most_moves(limit as u64) {
            return None;
        }
        let mut list = Candidates {
            game: self,
            limit,
            moves: Vec::with_capacity(limit),
            seen: HashSet::with_capacity(limit),
        };
        list.generate();
        let Candidates {
            mut moves,
            mut seen,
            ..
        } = list;
        add_samples(self, rng, limit, &mut moves, &mut seen);
        Some(moves)
    }
}

struct Candidates<'a> {
    game: &'a Adamas,
    limit: usize,
    moves: Vec<AdamasMove>,
    seen: HashSet<AdamasMove>,
}

fn split(from: usize, parts: &[(usize, u16)]) -> AdamasMove {
    AdamasMove::Split {
        from: from as u8,
        parts: parts
            .iter()
            .map(|&(cell, count)| Part {
                cell: cell as u8,
                count,
            })
            .collect::<Parts>(),
    }
}

impl Candidates<'_> {
    /// Keeps a legal move not seen before; false once the list is full.
    fn offer(&mut self, mv: AdamasMove) -> bool {
        if self.moves.len() >= self.limit {
            return false;
        }
        if !self.seen.contains(&mv) && self.game.check_move(&mv).is_ok() {
            self.seen.insert(mv.clone());
            self.moves.push(mv);
        }
        true
    }

    fn generate(&mut self) {
        let game = self.game;
        let mover = game.to_move();
        let own: Vec<(usize, u16, Vec<usize>)> = (0..game.grid().len())
            .filter_map(|cell| match game.stack(cell) {
                Some((owner, height)) if owner == mover => {
                    Some((cell, height, game.valid_destinations(cell)))
                }
                _ => None,
            })
            .collect();
        let targets = game.threatened();
        // 1. Captures: the smallest commitment, the whole stack, and every target in view
        // at once.
        for (from, height, destinations) in &own {
            let in_view: Vec<usize> = destinations
                .iter()
                .copied()
                .filter(|&d| targets.contains(d))
                .collect();
            for &target in &in_view {
                self.offer(split(*from, &[(target, 1)]));
                self.offer(split(*from, &[(target, *height)]));
            }
            if in_view.len() > 1 && in_view.len() <= *height as usize {
                let parts: Vec<(usize, u16)> = in_view.iter().map(|&t| (t, 1)).collect();
                self.offer(split(*from, &parts));
            }
        }
        // 2. Whole-stack moves, 3. half stacks and single pieces.
        for (from, height, destinations) in &own {
            for &to in destinations {
                self.offer(split(*from, &[(to, *height)]));
                if *height >= 2 {
                    self.offer(split(*from, &[(to, *height / 2)]));
                }
                self.offer(split(*from, &[(to, 1)]));
            }
        }
        // 4. Whole-stack merges into each destination two or more stacks see.
        for to in 0..game.grid().len() {
            let sources: Vec<(usize, u16)> = own
                .iter()
                .filter(|(from, _, destinations)| *from != to && destinations.contains(&to))
                .map(|(from, height, _)| (*from, *height))
                .collect();
            if sources.len() >= 2 {
                let parts = sources
                    .iter()
                    .map(|&(cell, count)| Part {
                        cell: cell as u8,
                        count,
                    })
                    .collect::<Parts>();
                self.offer(AdamasMove::Merge {
                    to: to as u8,
                    parts,
                });
            }
        }
        // 5. Even two-way splits.
        for (from, height, destinations) in &own {
            if *height < 2 {
                continue;
            }
            for (i, &a) in destinations.iter().enumerate() {
                for &b in &destinations[i + 1..] {
                    if !self.offer(split(*from, &[(a, height - height / 2), (b, height / 2)])) {
                        return;
                    }
                }
            }
        }
    }
}
