//! Progressive capture (adamas.md §5.2): whether some order of a split's parts makes every
//! capture legal.
//!
//! Whether an enemy stack is threatened depends only on the first stacks along its six
//! lines. A part landing on none of the lines through any captured stack ("inert") changes
//! nothing a capture sees except the source's height, so inert parts of the same size are
//! interchangeable and the search plays them in one order only.

use super::Adamas;
use super::board::{self, MAX_LOS};
use super::generate::{
    Turn, is_own, merge_sources_of, parts_from, random_part_sizes, split_destinations,
};
use super::moves::{AdamasMove, Part, Parts, apply_split_part};
use crate::{CellSet, Count};
use rand::Rng;
use smallvec::SmallVec;
use std::collections::HashSet;

/// The cells a split from one stack can land on, divided into those whose pieces a capture
/// can see and the inert rest.
struct Relevance {
    /// Cells on a line through an enemy stack among the destinations (the stacks included).
    seen_by_targets: CellSet,
}

impl Relevance {
    fn of(game: &Adamas, destinations: impl IntoIterator<Item = usize>) -> Relevance {
        let mut seen_by_targets = CellSet::new();
        for target in destinations {
            if !is_enemy(game, target) {
                continue;
            }
            seen_by_targets.insert(target);
            for dir in 0..6 {
                for &cell in game.grid.ray(target, dir) {
                    seen_by_targets.insert(cell as usize);
                }
            }
        }
        Relevance { seen_by_targets }
    }

    fn matters(&self, cell: usize) -> bool {
        self.seen_by_targets.contains(cell)
    }
}

fn is_enemy(game: &Adamas, cell: usize) -> bool {
    let stack = game.board[cell];
    stack != 0 && board::owner(stack) != game.to_move
}

/// Under progressive capture, finds an order of a split's parts in which every capture
/// is legal, if there is one.
pub(super) fn find_progressive_order(game: &Adamas, from: usize, parts: &[Part]) -> Option<Parts> {
    let relevance = Relevance::of(game, parts.iter().map(|p| p.cell as usize));
    let order = OrderSearch::new(game, from, parts, &relevance).run()?;
    Some(order.into_iter().map(|i| parts[i]).collect())
}

/// Depth-first search over the sets of parts already played; the board after a set does
/// not depend on the order it was played in, so each set is tried once.
struct OrderSearch<'a> {
    game: &'a Adamas,
    from: usize,
    parts: &'a [Part],
    all: u64,
    /// Parts onto empty or own cells, legal at any point.
    friendly: u64,
    /// For each inert part, the inert parts before it of the same size: playing any of
    /// them leaves the same board for every capture, so only the first unplayed is tried.
    same_before: Vec<u64>,
    tried: HashSet<u64>,
    order: Vec<usize>,
}

impl<'a> OrderSearch<'a> {
    fn new(game: &'a Adamas, from: usize, parts: &'a [Part], relevance: &Relevance) -> Self {
        debug_assert!(parts.len() <= 64);
        let all: u64 = if parts.len() == 64 {
            u64::MAX
        } else {
            (1u64 << parts.len()) - 1
        };
        let enemy_parts = (0..parts.len())
            .filter(|&i| is_enemy(game, parts[i].cell as usize))
            .fold(0u64, |mask, i| mask | 1 << i);
        let inert = |i: usize| !relevance.matters(parts[i].cell as usize);
        let same_before = (0..parts.len())
            .map(|i| {
                (0..i)
                    .filter(|&j| inert(i) && inert(j) && parts[j].count == parts[i].count)
                    .fold(0u64, |mask, j| mask | 1 << j)
            })
            .collect();
        OrderSearch {
            game,
            from,
            parts,
            all,
            friendly: all & !enemy_parts,
            same_before,
            tried: HashSet::new(),
            order: Vec::new(),
        }
    }

    /// The order found, as indices into the parts.
    fn run(mut self) -> Option<Vec<usize>> {
        self.step(0).then_some(self.order)
    }

    fn step(&mut self, done: u64) -> bool {
        if done == self.all {
            return true;
        }
        if self.tried.len() >= MAX_ORDER_STATES || !self.tried.insert(done) {
            return false;
        }
        let mut scratch = self.game.board;
        for (i, part) in self.parts.iter().enumerate() {
            if done & (1 << i) != 0 {
                apply_split_part(&mut scratch, self.from, part, self.game.to_move);
            }
        }
        let remaining = self.all & !done;
        // Captures first: one that is possible now may not be possible later.
        for captures in [true, false] {
            for i in 0..self.parts.len() {
                let bit = 1u64 << i;
                let is_capture = self.friendly & bit == 0;
                if remaining & bit == 0
                    || is_capture != captures
                    || self.same_before[i] & remaining != 0
                {
                    continue;
                }
                if is_capture
                    && !board::is_threatened(self.game.grid, &scratch, self.parts[i].cell as usize)
                {
                    continue;
                }
                self.order.push(i);
                if self.step(done | bit) {
                    return true;
                }
                self.order.pop();
            }
        }
        false
    }
}

/// Candidates `random_move` draws before giving up on uniformity under progressive capture.
pub(super) const MAX_REJECTED_DRAWS: usize = 64;

/// Board states one order search may try before it counts the split as having no order.
/// Legal orders are found in a few states (captures first); only hopeless sets of parts
/// reach this, and a player can still play any such split by listing a legal order.
const MAX_ORDER_STATES: usize = 4_096;

/// A random move among the splits whose captures need no order (none, or one onto a stack
/// threatened at the start, played first) and the merges, each source or destination
/// weighted by its count: what is left when candidates keep being rejected.
pub(super) fn draw_without_ordering<R: Rng + ?Sized>(
    game: &Adamas,
    threats: &CellSet,
    rng: &mut R,
) -> Option<AdamasMove> {
    let turn = Turn::of(game);
    let mut choices: Vec<(Simple, f64)> = Vec::new();
    let mut cells = [0u8; MAX_LOS];
    for from in (0..game.grid.len()).filter(|&c| is_own(game, c)) {
        let n = split_destinations(game, from, &turn, &mut cells);
        let height = board::height(game.board[from]);
        let friendly = cells[..n]
            .iter()
            .filter(|&&c| !is_enemy(game, c as usize))
            .count();
        let quiet = Count::binomial(height as u64 + friendly as u64, friendly as u64)
            .saturating_sub(Count::from(1u64));
        choices.push((Simple::Quiet { from }, quiet.to_f64()));
        for &target in cells[..n].iter().filter(|&&c| threats.contains(c as usize)) {
            let ways = Count::binomial(height as u64 + friendly as u64, friendly as u64 + 1);
            choices.push((Simple::Capture { from, target }, ways.to_f64()));
        }
    }
    for to in 0..game.grid.len() {
        let mut sources = [0u8; 6];
        let n = merge_sources_of(game, to, &turn, &mut sources);
        if n >= 2 {
            let ways = sources[..n]
                .iter()
                .map(|&c| board::height(game.board[c as usize]) as f64 + 1.0)
                .product::<f64>()
                - 1.0
                - sources[..n]
                    .iter()
                    .map(|&c| board::height(game.board[c as usize]) as f64)
                    .sum::<f64>();
            choices.push((Simple::Merge { to }, ways));
        }
    }
    choices.retain(|(_, weight)| *weight > 0.0);
    let total: f64 = choices.iter().map(|(_, w)| w).sum();
    let mut r = rng.random::<f64>() * total;
    let choice = choices
        .iter()
        .find(|(_, w)| {
            let hit = r < *w;
            if !hit {
                r -= *w;
            }
            hit
        })
        .or(choices.last())?
        .0;
    Some(match choice {
        Simple::Quiet { from } | Simple::Capture { from, .. } => {
            let n = split_destinations(game, from, &turn, &mut cells);
            let height = board::height(game.board[from]);
            let friendly: SmallVec<[u8; MAX_LOS]> = cells[..n]
                .iter()
                .copied()
                .filter(|&c| !is_enemy(game, c as usize))
                .collect();
            let mut counts = [0u16; MAX_LOS + 1];
            let mut parts = Parts::new();
            match choice {
                Simple::Capture { target, .. } => {
                    // One piece onto the target for sure; the rest spread freely.
                    let sizes = &mut counts[..friendly.len() + 1];
                    random_part_sizes(rng, height - 1, sizes);
                    parts.push(Part {
                        cell: target,
                        count: sizes[friendly.len()] + 1,
                    });
                }
                _ => while !random_part_sizes(rng, height, &mut counts[..friendly.len()]) {},
            }
            parts.extend(parts_from(&friendly, &counts[..friendly.len()]));
            AdamasMove::Split {
                from: from as u8,
                parts,
            }
        }
        Simple::Merge { to } => {
            let mut sources = [0u8; 6];
            let n = merge_sources_of(game, to, &turn, &mut sources);
            let mut counts = [0u16; 6];
            while counts[..n].iter().filter(|&&k| k > 0).count() < 2 {
                for j in 0..n {
                    let height = board::height(game.board[sources[j] as usize]);
                    counts[j] = rng.random_range(0..=height);
                }
            }
            AdamasMove::Merge {
                to: to as u8,
                parts: parts_from(&sources[..n], &counts[..n]),
            }
        }
    })
}

#[derive(Clone, Copy)]
enum Simple {
    Quiet { from: usize },
    Capture { from: usize, target: u8 },
    Merge { to: usize },
}
