//! Uniformly random legal moves, drawn without enumerating (adamas.md §4.6): each split
//! source and merge destination weighed by its exact count, then the part sizes drawn by
//! stars and bars (splits) or by rejection (merges).

use super::Adamas;
use super::apply;
use super::board::{self, MAX_LOS};
use super::generate::{merge_count, merge_count_u64, merge_heights, order_split, split_count_u64};
use super::moves::{AdamasMove, Part, Parts};
use super::turn::{
    Turn, is_enemy, is_own, merge_sources_of, parts_from, single_capture_count, split_count,
    split_destinations, turn_destinations,
};
use crate::{Count, Status};
use rand::Rng;
use smallvec::SmallVec;

/// A uniformly random legal move, drawn without enumerating.
pub(super) fn random_move<R: Rng + ?Sized>(game: &Adamas, rng: &mut R) -> Option<AdamasMove> {
    if game.status != Status::Ongoing {
        return None;
    }
    let turn = Turn::of(game);
    // Under progressive capture a move exists exactly when one exists without it (the
    // first part of a split sees the start-of-turn threats), which ends the loop below.
    if turn.progressive && !apply::has_legal_move(game) {
        return None;
    }
    // Under progressive capture this draws from a superset (every split to any enemy in
    // sight) and rejects the splits no order makes legal, which stays uniform. Where nearly
    // every candidate sends pieces onto a stack that cannot be captured, it gives up after
    // a bounded number of tries and draws among the moves whose captures need no order.
    for _ in 0..MAX_REJECTED_DRAWS {
        match draw_candidate(game, &turn, rng) {
            Draw::Move(mv) => return Some(mv),
            Draw::NoMoves => return None,
            Draw::Rejected => {}
        }
    }
    draw_without_ordering(game, &turn, rng)
}

enum Draw {
    Move(AdamasMove),
    Rejected,
    NoMoves,
}

/// One weighted choice: a source to split or a destination to merge into.
#[derive(Clone, Copy)]
enum Choice {
    Split { from: usize, height: u16, n: usize },
    Merge { to: usize },
}

fn draw_candidate<R: Rng + ?Sized>(game: &Adamas, turn: &Turn, rng: &mut R) -> Draw {
    // Inline room for every choice on the default board, without initialising it.
    let mut choices: SmallVec<[(Choice, u64, f64); 48]> = SmallVec::new();
    let mut exact_total: Option<u64> = Some(0);
    let mut approx_total = 0.0;
    // The exact 64-bit weight when it fits; otherwise the exact count as a float.
    let mut push = |choice: Choice, exact: Option<u64>, count: &dyn Fn() -> Count| {
        if exact == Some(0) {
            return;
        }
        exact_total = exact_total.zip(exact).and_then(|(t, w)| t.checked_add(w));
        let approx = exact.map_or_else(|| count().to_f64(), |w| w as f64);
        approx_total += approx;
        choices.push((choice, exact.unwrap_or(0), approx));
    };
    // Each own stack's destinations give its split count and, by symmetry of sight, make
    // it a merge source of each of them: one pass over the stacks finds both.
    let mut sources_seen = [0u8; board::MAX_CELLS];
    let mut merge_heights = [[0u16; 6]; board::MAX_CELLS];
    let mut cells = [0u8; MAX_LOS];
    for from in (0..game.grid.len()).filter(|&c| is_own(game, c)) {
        let n = turn_destinations(game, from, turn, &mut cells);
        let height = board::height(game.board[from]);
        push(
            Choice::Split { from, height, n },
            split_count_u64(height, n),
            &|| split_count(height, n),
        );
        for &to in &cells[..n] {
            let to = to as usize;
            // Under progressive capture splits may aim at any enemy in sight; merges only
            // at stacks threatened at the start.
            if is_enemy(game, to) && !turn.threats.contains(to) {
                continue;
            }
            merge_heights[to][sources_seen[to] as usize] = height;
            sources_seen[to] += 1;
        }
    }
    for to in 0..game.grid.len() {
        let n = sources_seen[to] as usize;
        if n >= 2 {
            let heights = &merge_heights[to][..n];
            push(Choice::Merge { to }, merge_count_u64(heights), &|| {
                merge_count(heights)
            });
        }
    }
    if choices.is_empty() {
        return Draw::NoMoves;
    }
    let choice = match exact_total {
        Some(total) => find_weighted(&choices, |c| c.1, rng.random_range(0..total)),
        None => {
            find_weighted(&choices, |c| c.2, rng.random::<f64>() * approx_total).or(choices.last())
        }
    }
    .expect("the draw falls within the total weight")
    .0;
    match choice {
        Choice::Split { from, height, n } => {
            let found = split_destinations(game, from, turn, &mut cells);
            debug_assert_eq!(found, n);
            let mut counts = [0u16; MAX_LOS];
            random_split_vector(rng, height, &mut counts[..n]);
            match order_split(game, from, parts_from(&cells[..n], &counts[..n]), turn) {
                Some(mv) => Draw::Move(mv),
                None => Draw::Rejected,
            }
        }
        Choice::Merge { to } => Draw::Move(random_merge(game, to, turn, rng)),
    }
}

/// The first item at which the running total of weights passes `r`, which is drawn below
/// the total of all of them.
fn find_weighted<T, W>(items: &[T], weight: impl Fn(&T) -> W, mut r: W) -> Option<&T>
where
    W: Copy + PartialOrd + std::ops::SubAssign,
{
    items.iter().find(|item| {
        let w = weight(item);
        let hit = r < w;
        if !hit {
            r -= w;
        }
        hit
    })
}

/// A uniformly random merge into `to`, by rejection: at least two sources must give.
fn random_merge<R: Rng + ?Sized>(game: &Adamas, to: usize, turn: &Turn, rng: &mut R) -> AdamasMove {
    let mut sources = [0u8; 6];
    let n = merge_sources_of(game, to, turn, &mut sources);
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

/// A uniform vector of part sizes with `1 <= sum <= height`, by stars and bars: `height`
/// stars and `counts.len()` bars in a row; the stars before the first bar stay behind.
fn random_split_vector<R: Rng + ?Sized>(rng: &mut R, height: u16, counts: &mut [u16]) {
    while !random_part_sizes(rng, height, counts) {}
}

/// A uniform vector of part sizes with `sum <= height`, the empty one included; says
/// whether it is not empty.
fn random_part_sizes<R: Rng + ?Sized>(rng: &mut R, height: u16, counts: &mut [u16]) -> bool {
    let bars = counts.len();
    let slots = height as usize + bars;
    // Floyd's algorithm: a uniform `bars`-subset of `0..slots`.
    let mut is_bar = [0u64; (board::MAX_PIECES_ON_BOARD + MAX_LOS) / 64 + 1];
    for j in slots - bars..slots {
        let t = rng.random_range(0..=j);
        let pick = if is_bar[t / 64] & (1 << (t % 64)) != 0 {
            j
        } else {
            t
        };
        is_bar[pick / 64] |= 1 << (pick % 64);
    }
    counts.fill(0);
    let mut part: Option<usize> = None;
    for slot in 0..slots {
        if is_bar[slot / 64] & (1 << (slot % 64)) != 0 {
            part = Some(part.map_or(0, |p| p + 1));
        } else if let Some(p) = part {
            counts[p] += 1;
        }
    }
    counts.iter().any(|&k| k > 0)
}

/// Candidates `random_move` draws before giving up on uniformity under progressive capture.
const MAX_REJECTED_DRAWS: usize = 64;

/// A random move among the splits whose captures need no order (none, or one onto a stack
/// threatened at the start, played first) and the merges, each source or destination
/// weighted by its count: what is left when candidates keep being rejected.
fn draw_without_ordering<R: Rng + ?Sized>(
    game: &Adamas,
    turn: &Turn,
    rng: &mut R,
) -> Option<AdamasMove> {
    let mut choices: Vec<(Simple, f64)> = Vec::new();
    let mut cells = [0u8; MAX_LOS];
    for from in (0..game.grid.len()).filter(|&c| is_own(game, c)) {
        let n = split_destinations(game, from, turn, &mut cells);
        let height = board::height(game.board[from]);
        let friendly = cells[..n]
            .iter()
            .filter(|&&c| !is_enemy(game, c as usize))
            .count();
        choices.push((
            Simple::Quiet { from },
            split_count(height, friendly).to_f64(),
        ));
        for &target in cells[..n]
            .iter()
            .filter(|&&c| turn.threats.contains(c as usize))
        {
            let ways = single_capture_count(height, friendly).to_f64();
            choices.push((Simple::Capture { from, target }, ways));
        }
    }
    for to in 0..game.grid.len() {
        if let Some(heights) = merge_heights(game, to, turn) {
            choices.push((Simple::Merge { to }, merge_count(&heights).to_f64()));
        }
    }
    choices.retain(|(_, weight)| *weight > 0.0);
    let total: f64 = choices.iter().map(|(_, w)| w).sum();
    let (choice, _) =
        *find_weighted(&choices, |c| c.1, rng.random::<f64>() * total).or(choices.last())?;
    let (from, target) = match choice {
        Simple::Merge { to } => return Some(random_merge(game, to, turn, rng)),
        Simple::Quiet { from } => (from, None),
        Simple::Capture { from, target } => (from, Some(target)),
    };
    let n = split_destinations(game, from, turn, &mut cells);
    let height = board::height(game.board[from]);
    let friendly: SmallVec<[u8; MAX_LOS]> = cells[..n]
        .iter()
        .copied()
        .filter(|&c| !is_enemy(game, c as usize))
        .collect();
    let f = friendly.len();
    let mut counts = [0u16; MAX_LOS + 1];
    let mut parts = Parts::new();
    match target {
        Some(cell) => {
            // One piece onto the target for sure; the rest spread freely.
            random_part_sizes(rng, height - 1, &mut counts[..f + 1]);
            parts.push(Part {
                cell,
                count: counts[f] + 1,
            });
        }
        None => random_split_vector(rng, height, &mut counts[..f]),
    }
    parts.extend(parts_from(&friendly, &counts[..f]));
    Some(AdamasMove::Split {
        from: from as u8,
        parts,
    })
}

#[derive(Clone, Copy)]
enum Simple {
    Quiet { from: usize },
    Capture { from: usize, target: u8 },
    Merge { to: usize },
}
