//! Progressive capture (adamas.md §5.2): whether some order of a split's parts makes every
//! capture legal, and how many splits from a stack have one.
//!
//! Whether an enemy stack is threatened depends only on the first stacks along its six
//! lines. A part landing on none of the lines through any captured stack ("inert") changes
//! nothing a capture sees except the source's height, so inert parts of the same size are
//! interchangeable and the search plays them in one order only.

use super::Adamas;
use super::board::{self, MAX_LOS};
use super::moves::{Part, Parts, apply_split_part};
use super::turn::{
    Captures, Turn, classify, is_enemy, next_split_vector, parts_from, single_capture_count,
    split_count,
};
use crate::{CellSet, Count};
use std::collections::HashSet;

/// The cells on a line through an enemy stack among `destinations`, the stacks included:
/// a part landing anywhere else is inert.
fn lines_through_targets(game: &Adamas, destinations: impl IntoIterator<Item = usize>) -> CellSet {
    let mut cells = CellSet::new();
    for target in destinations.into_iter().filter(|&c| is_enemy(game, c)) {
        cells.insert(target);
        for dir in 0..6 {
            for &cell in game.grid.ray(target, dir) {
                cells.insert(cell as usize);
            }
        }
    }
    cells
}

/// Under progressive capture, finds an order of a split's parts in which every capture
/// is legal, if there is one.
pub(super) fn find_progressive_order(game: &Adamas, from: usize, parts: &[Part]) -> Option<Parts> {
    let seen = lines_through_targets(game, parts.iter().map(|p| p.cell as usize));
    let order = OrderSearch::new(game, from, parts, &seen).run()?;
    Some(order.into_iter().map(|i| parts[i]).collect())
}

/// The splits from one stack under progressive capture: those whose captures depend on
/// the order of the parts are checked one by one; the rest are counted by formula.
pub(super) fn count_splits(
    game: &Adamas,
    from: usize,
    destinations: &[u8],
    height: u16,
    turn: &Turn,
) -> Count {
    let friendly = destinations
        .iter()
        .filter(|&&c| !is_enemy(game, c as usize))
        .count();
    let threatened = destinations
        .iter()
        .filter(|&&c| turn.threats.contains(c as usize))
        .count();
    // No capture, or exactly one capture of a stack threatened at the start.
    let mut total = split_count(height, friendly);
    for _ in 0..threatened {
        total += single_capture_count(height, friendly);
    }
    let n = destinations.len();
    let mut counts = [0u16; MAX_LOS];
    let mut sum = 0;
    let mut complex = 0u64;
    while next_split_vector(&mut counts[..n], &mut sum, height) {
        let parts = parts_from(destinations, &counts[..n]);
        if matches!(classify(game, &parts, turn), Captures::NeedsOrder)
            && find_progressive_order(game, from, &parts).is_some()
        {
            complex += 1;
        }
    }
    total + Count::from(complex)
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
    /// `seen`: the cells on a line through a captured stack.
    fn new(game: &'a Adamas, from: usize, parts: &'a [Part], seen: &CellSet) -> Self {
        debug_assert!(parts.len() <= 64);
        let all: u64 = if parts.len() == 64 {
            u64::MAX
        } else {
            (1u64 << parts.len()) - 1
        };
        let enemy_parts = (0..parts.len())
            .filter(|&i| is_enemy(game, parts[i].cell as usize))
            .fold(0u64, |mask, i| mask | 1 << i);
        let inert = |i: usize| !seen.contains(parts[i].cell as usize);
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

/// Board states one order search may try before it counts the split as having no order.
/// Legal orders are found in a few states (captures first); only hopeless sets of parts
/// reach this, and a player can still play any such split by listing a legal order.
const MAX_ORDER_STATES: usize = 4_096;
