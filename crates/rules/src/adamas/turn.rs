//! What the player to move may do this turn, and the arithmetic of splits: shared by the
//! move generator and progressive capture's search for an order, so neither needs the
//! other's module.

use super::Adamas;
use super::board::{self, EnemyTargets, MAX_LOS};
use super::moves::{Part, Parts};
use crate::{CellSet, Count};

/// What the player to move may capture, fixed at the start of the turn.
pub(super) struct Turn {
    pub(super) threats: CellSet,
    /// Progressive capture, after the opening move.
    pub(super) progressive: bool,
}

impl Turn {
    pub(super) fn of(game: &Adamas) -> Turn {
        Turn {
            threats: game.threatened(),
            progressive: game.options.prog_cap && game.ply > 0,
        }
    }

    pub(super) fn split_targets(&self) -> EnemyTargets<'_> {
        if self.progressive {
            EnemyTargets::AnyInSight
        } else {
            EnemyTargets::Threatened(&self.threats)
        }
    }
}

pub(super) fn is_own(game: &Adamas, cell: usize) -> bool {
    let stack = game.board[cell];
    stack != 0 && board::owner(stack) == game.to_move
}

pub(super) fn is_enemy(game: &Adamas, cell: usize) -> bool {
    let stack = game.board[cell];
    stack != 0 && board::owner(stack) != game.to_move
}

/// The cells the stack on `from` may send pieces to this turn, in the order of the rays:
/// enough for counting.
pub(super) fn turn_destinations(
    game: &Adamas,
    from: usize,
    turn: &Turn,
    out: &mut [u8; MAX_LOS],
) -> usize {
    board::destinations(
        game.grid,
        &game.board,
        from,
        game.to_move,
        turn.split_targets(),
        out,
    )
}

/// A split's destinations, sorted by cell so moves come out in board order.
pub(super) fn split_destinations(
    game: &Adamas,
    from: usize,
    turn: &Turn,
    out: &mut [u8; MAX_LOS],
) -> usize {
    let n = turn_destinations(game, from, turn, out);
    out[..n].sort_unstable();
    n
}

/// The merge sources of a cell the mover may move onto, in board order (so every merge,
/// listed, built or drawn, names its sources in one order), or 0 if it may not receive.
pub(super) fn merge_sources_of(game: &Adamas, to: usize, turn: &Turn, out: &mut [u8; 6]) -> usize {
    if !board::is_receivable(&game.board, to, game.to_move, &turn.threats) {
        return 0;
    }
    let n = board::merge_sources(game.grid, &game.board, to, game.to_move, out);
    out[..n].sort_unstable();
    n
}

/// Steps to the next vector of part sizes with sum at most `limit`; false after the last.
pub(super) fn next_split_vector(counts: &mut [u16], sum: &mut u16, limit: u16) -> bool {
    for count in counts.iter_mut() {
        if *sum < limit {
            *count += 1;
            *sum += 1;
            return true;
        }
        *sum -= *count;
        *count = 0;
    }
    false
}

/// How a progressive-capture split must be treated.
pub(super) enum Captures {
    /// No enemy part, or one part onto a stack threatened at the start (played first).
    Simple,
    /// Anything else: an order must be searched for.
    NeedsOrder,
}

pub(super) fn classify(game: &Adamas, parts: &[Part], turn: &Turn) -> Captures {
    let mut enemy_parts = parts.iter().filter(|p| is_enemy(game, p.cell as usize));
    match (enemy_parts.next(), enemy_parts.next()) {
        (None, _) => Captures::Simple,
        (Some(p), None) if turn.threats.contains(p.cell as usize) => Captures::Simple,
        _ => Captures::NeedsOrder,
    }
}

pub(super) fn parts_from(cells: &[u8], counts: &[u16]) -> Parts {
    cells
        .iter()
        .zip(counts)
        .filter(|(_, k)| **k > 0)
        .map(|(&cell, &count)| Part { cell, count })
        .collect()
}

/// Splits with no part on an enemy stack and at least one piece moved.
pub(super) fn split_count(height: u16, destinations: usize) -> Count {
    Count::binomial(height as u64 + destinations as u64, destinations as u64)
        .saturating_sub(Count::from(1u64))
}

/// Splits to `friendly` non-enemy cells plus at least one piece onto one given enemy stack.
pub(super) fn single_capture_count(height: u16, friendly: usize) -> Count {
    Count::binomial(height as u64 + friendly as u64, friendly as u64 + 1)
}
