//! Playing a move and what follows it: eliminations, the tie, the turn passing on, and
//! the draws we added (adamas.md §5.3 and §6).

use super::board::{self, Board};
use super::moves::{AdamasMove, split_part_result};
use super::{Adamas, AdamasEvent, Elimination};
use crate::{DrawReason, Player, Status, WinReason};

/// Plays a legal move, reporting each event to `emit`.
pub(super) fn play(game: &mut Adamas, mv: &AdamasMove, emit: &mut dyn FnMut(AdamasEvent)) {
    let mover = game.to_move;
    let mut captured_any = false;
    match mv {
        AdamasMove::Split { from, parts } => {
            let from = *from as usize;
            for part in parts {
                let to = part.cell as usize;
                emit(AdamasEvent::Moved {
                    from,
                    to,
                    count: part.count,
                });
                captured_any |= capture_if_enemy(game, to, emit);
                let (source, target) = split_part_result(&game.board, from, part, mover);
                game.set_cell(from, source);
                game.set_cell(to, target);
            }
        }
        AdamasMove::Merge { to, parts } => {
            let to = *to as usize;
            let mut arriving = 0;
            for (i, part) in parts.iter().enumerate() {
                let from = part.cell as usize;
                emit(AdamasEvent::Moved {
                    from,
                    to,
                    count: part.count,
                });
                if i == 0 {
                    captured_any |= capture_if_enemy(game, to, emit);
                }
                let left = board::height(game.board[from]) - part.count;
                game.set_cell(from, board::pack_or_empty(mover, left));
                arriving += part.count;
            }
            // Any enemy stack on `to` was captured above, so what stands there is ours.
            let kept = board::height(game.board[to]);
            game.set_cell(to, board::pack(mover, kept + arriving));
        }
    }
    // The hash's rights part changes with the ply (the opening ban) and the mover.
    game.hash ^= game.rights_key();
    game.ply = game.ply.saturating_add(1);
    game.plies_since_capture = if captured_any {
        0
    } else {
        game.plies_since_capture.saturating_add(1)
    };
    let removed_pieces = end_of_move(game, emit);
    game.hash ^= game.rights_key();
    if captured_any || removed_pieces {
        // No earlier position can recur once pieces have left the board.
        game.history.clear();
    }
    game.history.record(game.hash);
    if game.status == Status::Ongoing {
        check_draws(game);
    }
    if game.status != Status::Ongoing {
        emit(AdamasEvent::GameOver {
            status: game.status,
        });
    }
}

/// Removes an enemy stack on `cell`, if any. Returns whether it did.
fn capture_if_enemy(game: &mut Adamas, cell: usize, emit: &mut dyn FnMut(AdamasEvent)) -> bool {
    let stack = game.board[cell];
    if stack == 0 || board::owner(stack) == game.to_move {
        return false;
    }
    let owner = board::owner(stack);
    let height = board::height(stack);
    game.pieces[owner as usize] -= height;
    game.set_cell(cell, 0);
    emit(AdamasEvent::Captured {
        cell,
        owner: Player(owner),
        height,
    });
    true
}

/// Eliminations, the win, the two-piece tie and passing the turn. Returns whether pieces
/// were taken off the board by an elimination.
fn end_of_move(game: &mut Adamas, emit: &mut dyn FnMut(AdamasEvent)) -> bool {
    let mut removed_pieces = false;
    for p in 0..game.num_players as usize {
        if game.active[p] && game.pieces[p] == 0 {
            game.active[p] = false;
            emit(AdamasEvent::Eliminated {
                player: Player(p as u8),
                reason: Elimination::NoPieces,
                removed: Vec::new(),
            });
        }
    }
    loop {
        if let Some(winner) = sole_survivor(game) {
            game.status = Status::Win {
                winner: Player(winner),
                reason: WinReason::LastPlayerStanding,
            };
            return removed_pieces;
        }
        if is_two_piece_tie(game) {
            game.status = Status::Draw {
                reason: DrawReason::TwoPieceTie,
            };
            return removed_pieces;
        }
        game.to_move = next_active(game, game.to_move);
        if has_legal_move(game) {
            return removed_pieces;
        }
        let stuck = game.to_move as usize;
        game.active[stuck] = false;
        let mut removed = Vec::new();
        if game.options.remove_stuck_pieces || game.num_players == 2 {
            for cell in 0..game.grid.len() {
                let stack = game.board[cell];
                if stack != 0 && board::owner(stack) as usize == stuck {
                    removed.push((cell, board::height(stack)));
                    game.set_cell(cell, 0);
                }
            }
            game.pieces[stuck] = 0;
            removed_pieces |= !removed.is_empty();
        }
        emit(AdamasEvent::Eliminated {
            player: Player(stuck as u8),
            reason: Elimination::NoLegalMove,
            removed,
        });
    }
}

fn sole_survivor(game: &Adamas) -> Option<u8> {
    let mut survivors = (0..game.num_players).filter(|&p| game.active[p as usize]);
    let first = survivors.next()?;
    survivors.next().is_none().then_some(first)
}

fn next_active(game: &Adamas, from: u8) -> u8 {
    let n = game.num_players;
    let mut p = from;
    loop {
        p = (p + 1) % n;
        if game.active[p as usize] {
            return p;
        }
    }
}

/// Exactly two pieces left, of two colours, not in each other's sight (adamas.md §6).
pub(super) fn is_two_piece_tie(game: &Adamas) -> bool {
    if game.pieces.iter().map(|&p| p as u32).sum::<u32>() != 2
        || game.pieces.iter().filter(|&&p| p == 1).count() != 2
    {
        return false;
    }
    let mut cells = (0..game.grid.len()).filter(|&c| game.board[c] != 0);
    let (Some(a), Some(b)) = (cells.next(), cells.next()) else {
        return false;
    };
    !board::in_line_of_sight(game.grid, &game.board, a, b)
}

/// Whether the player to move has any move. A merge needs each source to reach the
/// destination, which is itself a split, so splits decide it; and a stack can split
/// exactly when a neighbour is empty, its own, or a capturable enemy.
pub(super) fn has_legal_move(game: &Adamas) -> bool {
    let board: &Board = &game.board;
    let mover = game.to_move;
    let own = |cell: usize| board[cell] != 0 && board::owner(board[cell]) == mover;
    let neighbours = |cell: usize| (0..6).filter_map(move |dir| game.grid.ray(cell, dir).first());
    let own_stacks = || (0..game.grid.len()).filter(|&c| own(c));
    if own_stacks().any(|cell| neighbours(cell).any(|&n| board[n as usize] == 0 || own(n as usize)))
    {
        return true;
    }
    // Every neighbour is an enemy: the threats decide (computed only in this rare case).
    let threats = game.threatened();
    own_stacks().any(|cell| neighbours(cell).any(|&n| threats.contains(n as usize)))
}

pub(super) fn check_draws(game: &mut Adamas) {
    if game.options.repetition_draw && game.history.is_threefold(game.hash) {
        game.status = Status::Draw {
            reason: DrawReason::Repetition,
        };
        return;
    }
    if game.options.capture_cap > 0 && game.plies_since_capture >= game.options.capture_cap {
        game.status = Status::Draw {
            reason: DrawReason::NoCaptureCap,
        };
    }
}
