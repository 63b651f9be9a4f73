//! Adamas moves and their legality (adamas.md §4 and §5).

use super::Adamas;
use super::board::{self, Board};
use crate::{CellSet, IllegalMove, Status};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// Pieces sent to or taken from one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Part {
    pub cell: u8,
    pub count: u16,
}

/// Parts of a move. Twelve inline covers every move on the default board.
pub type Parts = SmallVec<[Part; 12]>;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AdamasMove {
    /// Pieces leave the stack on `from` for each part's cell, in the order given (the
    /// order matters only under progressive capture).
    Split { from: u8, parts: Parts },
    /// Pieces from each part's stack gather on `to`.
    Merge { to: u8, parts: Parts },
}

impl AdamasMove {
    pub fn parts(&self) -> &[Part] {
        match self {
            AdamasMove::Split { parts, .. } | AdamasMove::Merge { parts, .. } => parts,
        }
    }

    /// Pieces that move.
    pub fn pieces_moved(&self) -> u32 {
        self.parts().iter().map(|p| p.count as u32).sum()
    }
}

pub(super) fn check_move(game: &Adamas, mv: &AdamasMove) -> Result<(), IllegalMove> {
    if game.status != Status::Ongoing {
        return Err(IllegalMove::new("the game is over"));
    }
    let cells = game.grid.len();
    let parts = mv.parts();
    if parts.is_empty() {
        return Err(IllegalMove::new("the move has no parts"));
    }
    for (i, part) in parts.iter().enumerate() {
        if part.cell as usize >= cells {
            return Err(IllegalMove::new(format!(
                "cell {} is off the board",
                part.cell
            )));
        }
        if part.count == 0 {
            return Err(IllegalMove::new("every part must move at least one piece"));
        }
        if parts[..i].iter().any(|p| p.cell == part.cell) {
            return Err(IllegalMove::new(format!(
                "{} is named twice",
                game.label(part.cell as usize)
            )));
        }
    }
    let threats = game.threatened();
    match mv {
        AdamasMove::Split { from, parts } => check_split(game, *from as usize, parts, &threats),
        AdamasMove::Merge { to, parts } => check_merge(game, *to as usize, parts, &threats),
    }
}

fn own_stack(game: &Adamas, cell: usize) -> Result<u16, IllegalMove> {
    let stack = game.board[cell];
    if stack == 0 {
        return Err(IllegalMove::new(format!("{} is empty", game.label(cell))));
    }
    if board::owner(stack) != game.to_move {
        return Err(IllegalMove::new(format!(
            "{} is not a stack of the player to move",
            game.label(cell)
        )));
    }
    Ok(board::height(stack))
}

fn check_split(
    game: &Adamas,
    from: usize,
    parts: &[Part],
    threats: &CellSet,
) -> Result<(), IllegalMove> {
    if from >= game.grid.len() {
        return Err(IllegalMove::new(format!("cell {from} is off the board")));
    }
    let height = own_stack(game, from)?;
    let total: u32 = parts.iter().map(|p| p.count as u32).sum();
    if total > height as u32 {
        return Err(IllegalMove::new(format!(
            "{} holds {height} pieces, not {total}",
            game.label(from)
        )));
    }
    let progressive = game.options.prog_cap && game.ply > 0;
    for part in parts {
        let to = part.cell as usize;
        if !board::in_line_of_sight(game.grid, &game.board, from, to) {
            return Err(IllegalMove::new(format!(
                "{} is not in line of sight of {}",
                game.label(to),
                game.label(from)
            )));
        }
        let stack = game.board[to];
        if stack != 0 && board::owner(stack) != game.to_move && !progressive {
            check_capturable(game, to, threats)?;
        }
    }
    if progressive {
        check_progressive_order(game, from, parts)?;
    }
    Ok(())
}

fn check_capturable(game: &Adamas, cell: usize, threats: &CellSet) -> Result<(), IllegalMove> {
    if threats.contains(cell) {
        return Ok(());
    }
    if game.ply == 0 {
        return Err(IllegalMove::new(
            "the opening player may not capture on the first move",
        ));
    }
    Err(IllegalMove::new(format!(
        "the enemy stack on {} is not threatened (its height is not equal to the enemy pieces it sees)",
        game.label(cell)
    )))
}

/// Applies a split's parts to a scratch board one by one, checking before each part that
/// lands on an enemy stack that the stack is threatened on the board as it stands
/// (adamas.md §5.2).
fn check_progressive_order(game: &Adamas, from: usize, parts: &[Part]) -> Result<(), IllegalMove> {
    let mut scratch = game.board;
    for part in parts {
        let to = part.cell as usize;
        let stack = scratch[to];
        if stack != 0
            && board::owner(stack) != game.to_move
            && !board::is_threatened(game.grid, &scratch, to)
        {
            return Err(IllegalMove::new(format!(
                "with progressive capture, the enemy stack on {} is not threatened when that part is played",
                game.label(to)
            )));
        }
        apply_split_part(&mut scratch, from, part, game.to_move);
    }
    Ok(())
}

/// Moves one split part on a board: the source shrinks, the destination grows or is
/// captured by replacement.
pub(super) fn apply_split_part(board: &mut Board, from: usize, part: &Part, mover: u8) {
    let (source, target) = split_part_result(board, from, part, mover);
    board[from] = source;
    board[part.cell as usize] = target;
}

/// The new stacks on the source and the destination after one split part.
pub(super) fn split_part_result(board: &Board, from: usize, part: &Part, mover: u8) -> (u16, u16) {
    let source = board::pack_or_empty(mover, board::height(board[from]) - part.count);
    let target = board[part.cell as usize];
    let kept = if target != 0 && board::owner(target) == mover {
        board::height(target)
    } else {
        0
    };
    (source, board::pack(mover, kept + part.count))
}

fn check_merge(
    game: &Adamas,
    to: usize,
    parts: &[Part],
    threats: &CellSet,
) -> Result<(), IllegalMove> {
    if parts.len() < 2 {
        return Err(IllegalMove::new("a merge needs two or more source stacks"));
    }
    if to >= game.grid.len() {
        return Err(IllegalMove::new(format!("cell {to} is off the board")));
    }
    let target = game.board[to];
    if target != 0 && board::owner(target) != game.to_move {
        check_capturable(game, to, threats)?;
    }
    for part in parts {
        let from = part.cell as usize;
        if from == to {
            return Err(IllegalMove::new(format!(
                "{} cannot be both a source and the destination",
                game.label(to)
            )));
        }
        let height = own_stack(game, from)?;
        if part.count > height {
            return Err(IllegalMove::new(format!(
                "{} holds {height} pieces, not {}",
                game.label(from),
                part.count
            )));
        }
        if !board::in_line_of_sight(game.grid, &game.board, from, to) {
            return Err(IllegalMove::new(format!(
                "{} is not in line of sight of {}",
                game.label(to),
                game.label(from)
            )));
        }
    }
    Ok(())
}
