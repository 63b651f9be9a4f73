//! Legal moves: lazy enumeration and exact counting without enumeration (adamas.md §4.6).
//!
//! A split from a stack of height `h` with `D` destinations is a vector of part sizes
//! `k_1..k_D >= 0` with `1 <= sum <= h`: there are `C(h + D, D) - 1` of them. A merge into
//! a cell whose sources have heights `h_1..h_m` takes `0..=h_j` from each, from at least
//! two sources: `prod(h_j + 1) - 1 - sum(h_j)` moves.

use super::Adamas;
use super::board::{self, MAX_LOS};
use super::moves::{AdamasMove, Parts};
use super::progressive::{self, find_progressive_order};
use super::turn::{
    Captures, Turn, classify, is_enemy, is_own, merge_sources_of, next_split_vector, parts_from,
    split_count, split_destinations,
};
use crate::{Count, Status};
use smallvec::SmallVec;
use std::sync::OnceLock;

/// The cells the stack on `from` may send pieces to this turn, in board order.
pub(super) fn valid_destinations(game: &Adamas, from: usize) -> Vec<usize> {
    let mut cells = [0u8; MAX_LOS];
    let n = split_destinations(game, from, &Turn::of(game), &mut cells);
    cells[..n].iter().map(|&c| c as usize).collect()
}

/// The mover's stacks that may send pieces to `to` in a merge this turn, in board order.
pub(super) fn merge_sources(game: &Adamas, to: usize) -> Vec<usize> {
    let mut sources = [0u8; 6];
    let n = merge_sources_of(game, to, &Turn::of(game), &mut sources);
    sources[..n].iter().map(|&c| c as usize).collect()
}

/// Steps to the next vector with `counts[j] <= limits[j]`; false after the last.
fn next_merge_vector(counts: &mut [u16], limits: &[u16]) -> bool {
    for (count, &limit) in counts.iter_mut().zip(limits) {
        if *count < limit {
            *count += 1;
            return true;
        }
        *count = 0;
    }
    false
}

/// The split as it will be played: under progressive capture, in an order that makes every
/// capture legal, or `None` if there is none.
pub(super) fn order_split(
    game: &Adamas,
    from: usize,
    mut parts: Parts,
    turn: &Turn,
) -> Option<AdamasMove> {
    if turn.progressive {
        match classify(game, &parts, turn) {
            Captures::Simple => {
                if let Some(i) = parts.iter().position(|p| is_enemy(game, p.cell as usize)) {
                    let capture = parts.remove(i);
                    parts.insert(0, capture);
                }
            }
            Captures::NeedsOrder => parts = find_progressive_order(game, from, &parts)?,
        }
    }
    Some(AdamasMove::Split {
        from: from as u8,
        parts,
    })
}

enum Phase {
    Splits,
    Merges,
    Done,
}

/// The legal moves, generated lazily: splits by source cell, then merges by destination.
pub struct AdamasMoves<'a> {
    game: &'a Adamas,
    turn: Turn,
    phase: Phase,
    /// The current source (splits) or destination (merges).
    cell: usize,
    loaded: bool,
    cells: [u8; MAX_LOS],
    len: usize,
    counts: [u16; MAX_LOS],
    limits: [u16; 6],
    sum: u16,
    height: u16,
}

impl<'a> AdamasMoves<'a> {
    pub(super) fn new(game: &'a Adamas) -> Self {
        AdamasMoves {
            game,
            turn: Turn::of(game),
            phase: if game.status == Status::Ongoing {
                Phase::Splits
            } else {
                Phase::Done
            },
            cell: 0,
            loaded: false,
            cells: [0; MAX_LOS],
            len: 0,
            counts: [0; MAX_LOS],
            limits: [0; 6],
            sum: 0,
            height: 0,
        }
    }

    /// Prepares the split vectors of the next source with a destination.
    fn load_source(&mut self) -> bool {
        let game = self.game;
        while self.cell < game.grid.len() {
            let cell = self.cell;
            if is_own(game, cell) {
                self.len = split_destinations(game, cell, &self.turn, &mut self.cells);
                if self.len > 0 {
                    self.height = board::height(game.board[cell]);
                    self.counts[..self.len].fill(0);
                    self.sum = 0;
                    return true;
                }
            }
            self.cell += 1;
        }
        false
    }

    /// Prepares the merge vectors of the next destination with two or more sources.
    fn load_destination(&mut self) -> bool {
        let game = self.game;
        while self.cell < game.grid.len() {
            let mut sources = [0u8; 6];
            let n = merge_sources_of(game, self.cell, &self.turn, &mut sources);
            if n >= 2 {
                self.len = n;
                self.cells[..n].copy_from_slice(&sources[..n]);
                for j in 0..n {
                    self.limits[j] = board::height(game.board[self.cells[j] as usize]);
                }
                self.counts[..n].fill(0);
                return true;
            }
            self.cell += 1;
        }
        false
    }
}

impl Iterator for AdamasMoves<'_> {
    type Item = AdamasMove;

    fn next(&mut self) -> Option<AdamasMove> {
        loop {
            match self.phase {
                Phase::Done => return None,
                Phase::Splits => {
                    if !self.loaded {
                        if !self.load_source() {
                            self.phase = Phase::Merges;
                            self.cell = 0;
                            continue;
                        }
                        self.loaded = true;
                    }
                    let n = self.len;
                    if !next_split_vector(&mut self.counts[..n], &mut self.sum, self.height) {
                        self.loaded = false;
                        self.cell += 1;
                        continue;
                    }
                    let parts = parts_from(&self.cells[..n], &self.counts[..n]);
                    if let Some(mv) = order_split(self.game, self.cell, parts, &self.turn) {
                        return Some(mv);
                    }
                }
                Phase::Merges => {
                    if !self.loaded {
                        if !self.load_destination() {
                            self.phase = Phase::Done;
                            continue;
                        }
                        self.loaded = true;
                    }
                    let n = self.len;
                    if !next_merge_vector(&mut self.counts[..n], &self.limits[..n]) {
                        self.loaded = false;
                        self.cell += 1;
                        continue;
                    }
                    if self.counts[..n].iter().filter(|&&k| k > 0).count() >= 2 {
                        return Some(AdamasMove::Merge {
                            to: self.cell as u8,
                            parts: parts_from(&self.cells[..n], &self.counts[..n]),
                        });
                    }
                }
            }
        }
    }
}

/// `C(n, k)` for the sizes Adamas meets, or `None` past 64 bits; from a table built once.
pub(super) fn binomial_u64(n: usize, k: usize) -> Option<u64> {
    const MAX_N: usize = board::MAX_PIECES_ON_BOARD + MAX_LOS;
    const WIDTH: usize = MAX_LOS + 1;
    static TABLE: OnceLock<Vec<u64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        // Pascal's triangle, saturating: u64::MAX marks a value that does not fit.
        let mut table = vec![0u64; (MAX_N + 1) * WIDTH];
        for row in 0..=MAX_N {
            table[row * WIDTH] = 1;
            for col in 1..WIDTH.min(row + 1) {
                let above = table[(row - 1) * WIDTH + col];
                let left = table[(row - 1) * WIDTH + col - 1];
                table[row * WIDTH + col] = above.saturating_add(left);
            }
        }
        table
    });
    if k > n {
        return Some(0);
    }
    let value = table[n * WIDTH + k];
    (value != u64::MAX).then_some(value)
}

/// The split count in 64 bits, when it fits.
pub(super) fn split_count_u64(height: u16, destinations: usize) -> Option<u64> {
    binomial_u64(height as usize + destinations, destinations).map(|c| c - 1)
}

/// The merge count in 64 bits, when it fits.
pub(super) fn merge_count_u64(heights: &[u16]) -> Option<u64> {
    let product = heights
        .iter()
        .try_fold(1u64, |acc, &h| acc.checked_mul(h as u64 + 1))?;
    let singles: u64 = heights.iter().map(|&h| h as u64).sum();
    Some(product - 1 - singles)
}

/// The heights of the stacks that may merge into `to` this turn, if two or more may.
pub(super) fn merge_heights(game: &Adamas, to: usize, turn: &Turn) -> Option<SmallVec<[u16; 6]>> {
    let mut sources = [0u8; 6];
    let n = merge_sources_of(game, to, turn, &mut sources);
    (n >= 2).then(|| {
        sources[..n]
            .iter()
            .map(|&c| board::height(game.board[c as usize]))
            .collect()
    })
}

pub(super) fn merge_count(heights: &[u16]) -> Count {
    let product = heights
        .iter()
        .fold(Count::from(1u64), |acc, &h| acc.mul_small(h as u64 + 1));
    let singles: u64 = heights.iter().map(|&h| h as u64).sum();
    product.saturating_sub(Count::from(1 + singles))
}

pub(super) fn count_moves(game: &Adamas) -> Count {
    count_moves_within(game, u64::MAX).expect("no limit on the work")
}

/// The exact count, or `None` when more than `work` split vectors would have to be checked
/// one by one for an order that makes their captures legal (progressive capture only).
pub(super) fn count_moves_within(game: &Adamas, work: u64) -> Option<Count> {
    if game.status != Status::Ongoing {
        return Some(Count::ZERO);
    }
    let turn = Turn::of(game);
    let mut total = Count::ZERO;
    let mut cells = [0u8; MAX_LOS];
    // Sources whose splits may capture in an order that matters, counted one by one once
    // the work they need is known to be within `work`.
    let mut ordered_sources: Vec<(usize, u16, SmallVec<[u8; MAX_LOS]>)> = Vec::new();
    let mut to_check = 0u64;
    for from in (0..game.grid.len()).filter(|&c| is_own(game, c)) {
        let n = split_destinations(game, from, &turn, &mut cells);
        let height = board::height(game.board[from]);
        let has_enemy = cells[..n].iter().any(|&c| is_enemy(game, c as usize));
        if turn.progressive && has_enemy {
            let vectors = split_count_u64(height, n).unwrap_or(u64::MAX);
            to_check = to_check.saturating_add(vectors);
            if to_check > work {
                return None;
            }
            ordered_sources.push((from, height, SmallVec::from_slice(&cells[..n])));
        } else {
            total += split_count(height, n);
        }
    }
    for (from, height, destinations) in ordered_sources {
        total += progressive::count_splits(game, from, &destinations, height, &turn);
    }
    for to in 0..game.grid.len() {
        if let Some(heights) = merge_heights(game, to, &turn) {
            total += merge_count(&heights);
        }
    }
    Some(total)
}
