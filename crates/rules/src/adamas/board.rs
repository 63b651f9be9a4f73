//! The board as an array of packed stacks, and the line-of-sight questions asked of it.
//! Every function takes the board as a slice so that move checking can ask them of a
//! scratch board part-way through a progressive-capture split.

use crate::CellSet;
use crate::hexgrid::HexGrid;

/// The largest board: side 8 has `3 * 8 * 7 + 1` cells.
pub const MAX_CELLS: usize = 169;
pub const MAX_SIDE: usize = 8;
/// At most this many cells are in line of sight of one cell (6 rays of 7 on side 8).
pub const MAX_LOS: usize = 6 * (MAX_SIDE - 1);
/// Three players with 99 pieces each.
pub const MAX_PIECES_ON_BOARD: usize = 3 * 99;

pub type Board = [u16; MAX_CELLS];

/// A packed stack: `height << 2 | (owner + 1)`, and 0 for an empty cell.
#[inline]
pub fn pack(owner: u8, height: u16) -> u16 {
    (height << 2) | (owner as u16 + 1)
}

/// A packed stack, or an empty cell when no pieces are left.
#[inline]
pub fn pack_or_empty(owner: u8, height: u16) -> u16 {
    if height == 0 { 0 } else { pack(owner, height) }
}

/// The owner of a non-empty cell.
#[inline]
pub fn owner(stack: u16) -> u8 {
    (stack & 3) as u8 - 1
}

#[inline]
pub fn height(stack: u16) -> u16 {
    stack >> 2
}

/// The first occupied cell in each direction from `cell`.
#[inline]
pub fn first_seen(grid: &HexGrid, board: &Board, cell: usize, mut visit: impl FnMut(usize)) {
    for dir in 0..6 {
        if let Some(&seen) = grid
            .ray(cell, dir)
            .iter()
            .find(|&&c| board[c as usize] != 0)
        {
            visit(seen as usize);
        }
    }
}

/// The visible enemy count of the stack on `cell`: the heights of the first stacks seen
/// in the six directions whose owner differs from this stack's owner.
pub fn visible_enemy_count(grid: &HexGrid, board: &Board, cell: usize) -> u32 {
    let me = owner(board[cell]);
    let mut total = 0;
    first_seen(grid, board, cell, |seen| {
        if owner(board[seen]) != me {
            total += height(board[seen]) as u32;
        }
    });
    total
}

pub fn is_threatened(grid: &HexGrid, board: &Board, cell: usize) -> bool {
    board[cell] != 0 && visible_enemy_count(grid, board, cell) == height(board[cell]) as u32
}

/// The stacks of players other than `mover` that are threatened on this board.
pub fn threatened_enemies(grid: &HexGrid, board: &Board, mover: u8) -> CellSet {
    let mut set = CellSet::new();
    for (cell, &stack) in board[..grid.len()].iter().enumerate() {
        if stack != 0 && owner(stack) != mover && is_threatened(grid, board, cell) {
            set.insert(cell);
        }
    }
    set
}

/// Whether `to` is in unobstructed line of sight of `from`.
pub fn in_line_of_sight(grid: &HexGrid, board: &Board, from: usize, to: usize) -> bool {
    (0..6).any(|dir| {
        for &c in grid.ray(from, dir) {
            if c as usize == to {
                return true;
            }
            if board[c as usize] != 0 {
                return false;
            }
        }
        false
    })
}

/// Which kinds of occupied cell a stack of the mover may move onto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnemyTargets<'a> {
    /// Only enemy stacks in this set (the threats at the start of the turn).
    Threatened(&'a CellSet),
    /// Any enemy stack in sight: the candidates of a progressive-capture split, each
    /// checked later against the board as the split proceeds.
    AnyInSight,
}

/// The cells a stack of `mover` on `from` may send pieces to: every empty cell in line of
/// sight, and the first stack in each direction if it is the mover's or an allowed enemy.
/// Returns how many were written to `out`.
pub fn destinations(
    grid: &HexGrid,
    board: &Board,
    from: usize,
    mover: u8,
    enemies: EnemyTargets,
    out: &mut [u8; MAX_LOS],
) -> usize {
    let mut n = 0;
    for dir in 0..6 {
        for &c in grid.ray(from, dir) {
            let c = c as usize;
            let stack = board[c];
            if stack == 0 {
                out[n] = c as u8;
                n += 1;
                continue;
            }
            let allowed = owner(stack) == mover
                || match enemies {
                    EnemyTargets::Threatened(set) => set.contains(c),
                    EnemyTargets::AnyInSight => true,
                };
            if allowed {
                out[n] = c as u8;
                n += 1;
            }
            break;
        }
    }
    n
}

/// Whether a cell may receive the mover's pieces at all: empty, the mover's own, or a
/// threatened enemy stack.
#[inline]
pub fn is_receivable(board: &Board, cell: usize, mover: u8, threats: &CellSet) -> bool {
    let stack = board[cell];
    stack == 0 || owner(stack) == mover || threats.contains(cell)
}

/// The mover's stacks that could send pieces to `to` (the mover's first-seen stacks from
/// `to`, which by symmetry of sight are the stacks that see it). At most six.
pub fn merge_sources(
    grid: &HexGrid,
    board: &Board,
    to: usize,
    mover: u8,
    out: &mut [u8; 6],
) -> usize {
    let mut n = 0;
    first_seen(grid, board, to, |seen| {
        if owner(board[seen]) == mover {
            out[n] = seen as u8;
            n += 1;
        }
    });
    n
}
