//! Legal moves: listed, counted (adaptoid.md §5) and drawn uniformly at random.

use super::board::cells;
use super::pieces::Pieces;
use super::{Adaptoid, AdaptoidMove, Colour, Stage};
use crate::Status;
use rand::Rng;
use smallvec::SmallVec;

type Step = Option<(u8, u8)>;

/// Calls `visit` with each choice of step 1 (no move first) and the pieces after it.
fn for_each_step(game: &Adaptoid, visit: &mut impl FnMut(Step, &Pieces)) {
    visit(None, &game.pieces);
    let forbid = game.options.forbid_losing_attacks;
    for from in cells(game.pieces.occupied[game.mover.index()]) {
        for to in cells(game.pieces.destinations(&game.board, from, forbid)) {
            let mut after = game.pieces;
            after.step(from, to);
            visit(Some((from, to)), &after);
        }
    }
}

pub fn for_each_move(game: &Adaptoid, visit: &mut impl FnMut(AdaptoidMove)) {
    if game.status != Status::Ongoing {
        return;
    }
    match game.stage {
        Stage::PiePlace => {
            for white in cells(game.board.all()) {
                for black in cells(game.board.all() & !(1 << white)) {
                    visit(AdaptoidMove::Place { white, black });
                }
            }
        }
        Stage::PieChoose => {
            visit(AdaptoidMove::Choose(Colour::White));
            visit(AdaptoidMove::Choose(Colour::Black));
        }
        Stage::Play => for_each_step(game, &mut |step, after| {
            let mut grew = false;
            after.for_each_growth(&game.board, game.mover, &mut |growth| {
                grew = true;
                visit(AdaptoidMove::Turn {
                    step,
                    growth: Some(growth),
                });
            });
            if !grew {
                visit(AdaptoidMove::Turn { step, growth: None });
            }
        }),
    }
}

/// The number of turns after a step: its growths, or the one turn without growth.
fn turns_after(game: &Adaptoid, after: &Pieces) -> u64 {
    after.growth_count(&game.board, game.mover).max(1) as u64
}

/// Calls `visit` with each choice of step 1 and the number of turns it begins. A walk to
/// an empty cell keeps the supply and every adaptoid's parts, so only the cells open for
/// creation change: those are counted from the neighbours of the other adaptoids plus
/// the destination's, without copying the pieces. Fights change more and are played out.
fn for_each_step_weight(game: &Adaptoid, visit: &mut impl FnMut(Step, u64)) {
    let board = &game.board;
    let pieces = &game.pieces;
    let mover = game.mover;
    let own = pieces.occupied[mover.index()];
    let empty = pieces.empty_cells(board);
    let [bodies, legs, pincers] = pieces.supply(mover);
    let parts_growths =
        pieces.growable(mover).count_ones() as u64 * ((legs > 0) as u64 + (pincers > 0) as u64);
    // Cells next to one own adaptoid, and next to two or more: a cell stays next to an
    // adaptoid other than `from` if it is next to two, or is not next to `from`.
    let (mut once, mut twice) = (0u64, 0u64);
    for cell in cells(own) {
        let near = board.neighbours(cell);
        twice |= once & near;
        once |= near;
    }
    let creations_now = if bodies > 0 {
        (once & empty).count_ones() as u64
    } else {
        0
    };
    visit(None, (creations_now + parts_growths).max(1));
    let forbid = game.options.forbid_losing_attacks;
    for from in cells(own) {
        let targets = pieces.destinations(board, from, forbid);
        if targets == 0 {
            continue;
        }
        let others_reach = (once & !board.neighbours(from)) | twice;
        for to in cells(targets) {
            let n = if empty & (1 << to) != 0 {
                let creations = if bodies > 0 {
                    let empty_after = (empty | 1 << from) & !(1 << to);
                    ((others_reach | board.neighbours(to)) & empty_after).count_ones() as u64
                } else {
                    0
                };
                (creations + parts_growths).max(1)
            } else {
                let mut after = *pieces;
                after.step(from, to);
                turns_after(game, &after)
            };
            visit(Some((from, to)), n);
        }
    }
}

pub fn count_moves(game: &Adaptoid) -> u64 {
    if game.status != Status::Ongoing {
        return 0;
    }
    match game.stage {
        Stage::PiePlace => {
            let n = game.board.len() as u64;
            n * (n - 1)
        }
        Stage::PieChoose => 2,
        Stage::Play => {
            let mut total = 0;
            for_each_step_weight(game, &mut |_, n| total += n);
            total
        }
    }
}

pub fn random_move<R: Rng + ?Sized>(game: &Adaptoid, rng: &mut R) -> Option<AdaptoidMove> {
    if game.status != Status::Ongoing {
        return None;
    }
    match game.stage {
        Stage::PiePlace => {
            let all: Vec<u8> = cells(game.board.all()).collect();
            let white = all[rng.random_range(0..all.len())];
            let others: Vec<u8> = all.into_iter().filter(|&c| c != white).collect();
            let black = others[rng.random_range(0..others.len())];
            Some(AdaptoidMove::Place { white, black })
        }
        Stage::PieChoose => Some(AdaptoidMove::Choose(if rng.random() {
            Colour::White
        } else {
            Colour::Black
        })),
        Stage::Play => {
            // Each step weighs as many turns as it has growths, so turns are uniform.
            let mut weighted: SmallVec<[(Step, u64); 64]> = SmallVec::new();
            let mut total = 0;
            for_each_step_weight(game, &mut |step, n| {
                total += n;
                weighted.push((step, n));
            });
            let mut index = rng.random_range(0..total);
            let step = weighted
                .into_iter()
                .find(|&(_, n)| {
                    let here = index < n;
                    if !here {
                        index -= n;
                    }
                    here
                })
                .expect("the index is below the total")
                .0;
            let mut after = game.pieces;
            if let Some((from, to)) = step {
                after.step(from, to);
            }
            let chosen = after.growth_at(&game.board, game.mover, index as usize);
            Some(AdaptoidMove::Turn {
                step,
                growth: chosen,
            })
        }
    }
}
