//! Playing a legal move: move and fight, grow, starve the enemy, then judge the end
//! (adaptoid.md §3, §4).

use super::board::cells;
use super::moves::Colour;
use super::pieces::{FightResult, Pieces};
use super::{Adaptoid, AdaptoidEvent, AdaptoidMove, CAPTURES_TO_WIN, RemovalCause, Stage};
use crate::{DrawReason, Game, Player, Status, WinReason};

pub fn play(game: &mut Adaptoid, mv: &AdaptoidMove, emit: &mut impl FnMut(AdaptoidEvent)) {
    game.ply = game.ply.saturating_add(1);
    match *mv {
        AdaptoidMove::Place { white, black } => {
            game.pieces.put(white, Colour::White, 0, 0);
            game.pieces.put(black, Colour::Black, 0, 0);
            emit(AdaptoidEvent::Placed {
                cell: white,
                colour: Colour::White,
            });
            emit(AdaptoidEvent::Placed {
                cell: black,
                colour: Colour::Black,
            });
            game.stage = Stage::PieChoose;
            game.history.clear();
            finish_turn(game, emit);
        }
        AdaptoidMove::Choose(colour) => {
            // The second seat takes `colour`; White moves next either way.
            game.white_seat = (colour == Colour::White) as u8;
            emit(AdaptoidEvent::ColourChosen {
                player: Player(1),
                colour,
            });
            game.stage = Stage::Play;
            game.mover = Colour::White;
            game.history.clear();
            finish_turn(game, emit);
        }
        AdaptoidMove::Turn { step, growth } => {
            let mover = game.mover;
            let captures_before = game.captures;
            if let Some((from, to)) = step {
                step_and_fight(game, from, to, emit);
            }
            let player = game.seat_of(mover);
            match growth {
                Some(growth) => {
                    game.pieces.grow(mover, growth);
                    emit(AdaptoidEvent::Grew { player, growth });
                }
                None => emit(AdaptoidEvent::GrowthSkipped { player }),
            }
            let enemy = mover.other();
            let starving = game.pieces.starving(&game.board, enemy);
            for cell in cells(starving) {
                let (_, legs, pincers) = game.pieces.remove(cell);
                score(game, mover);
                emit(AdaptoidEvent::Removed {
                    cell,
                    owner: game.seat_of(enemy),
                    legs,
                    pincers,
                    cause: RemovalCause::Starved,
                    scorer: player,
                });
            }
            // Captures only go up, and between captures the pieces on the board only
            // grow (a removal always scores), so no position before a growth or a
            // capture can recur.
            if growth.is_some() || game.captures != captures_before {
                game.history.clear();
            }
            game.status = end_status(game, mover);
            game.mover = enemy;
            finish_turn(game, emit);
        }
    }
}

fn score(game: &mut Adaptoid, colour: Colour) {
    let c = colour.index();
    game.captures[c] = game.captures[c].saturating_add(1);
}

fn step_and_fight(game: &mut Adaptoid, from: u8, to: u8, emit: &mut impl FnMut(AdaptoidEvent)) {
    let attacker = game
        .pieces
        .colour_at(from)
        .expect("a mover on the start cell");
    let defender = attacker.other();
    let (legs, pincers) = (
        game.pieces.legs[from as usize],
        game.pieces.pincers[from as usize],
    );
    let (defender_legs, defender_pincers) = (
        game.pieces.legs[to as usize],
        game.pieces.pincers[to as usize],
    );
    let Some(result) = game.pieces.step(from, to) else {
        emit(AdaptoidEvent::Moved { from, to });
        return;
    };
    emit(AdaptoidEvent::Attacked {
        from,
        at: to,
        attacker_pincers: pincers,
        defender_pincers,
        result,
    });
    let mut removed = |game: &mut Adaptoid, owner: Colour, legs: u8, pincers: u8| {
        let scorer = owner.other();
        score(game, scorer);
        emit(AdaptoidEvent::Removed {
            cell: to,
            owner: game.seat_of(owner),
            legs,
            pincers,
            cause: RemovalCause::Fight,
            scorer: game.seat_of(scorer),
        });
    };
    if result != FightResult::DefenderWins {
        removed(game, defender, defender_legs, defender_pincers);
    }
    if result != FightResult::AttackerWins {
        removed(game, attacker, legs, pincers);
    }
}

/// §4: after `mover`'s turn, the mover wins on 5 captures or an opponent with no
/// adaptoids; failing that the opponent wins the same way; else play goes on.
pub fn end_status(game: &Adaptoid, mover: Colour) -> Status {
    for colour in [mover, mover.other()] {
        if let Some(reason) = win_reason(&game.captures, &game.pieces, colour) {
            return Status::Win {
                winner: game.seat_of(colour),
                reason,
            };
        }
    }
    Status::Ongoing
}

/// Why `colour` has won with these captures and pieces (5 captures, or no enemy left), if
/// it has.
pub(super) fn win_reason(captures: &[u8; 2], pieces: &Pieces, colour: Colour) -> Option<WinReason> {
    if captures[colour.index()] >= CAPTURES_TO_WIN {
        Some(WinReason::CaptureTarget)
    } else if pieces.occupied[colour.other().index()] == 0 {
        Some(WinReason::NoPiecesLeft)
    } else {
        None
    }
}

/// Records the new position for repetition and announces what comes next.
fn finish_turn(game: &mut Adaptoid, emit: &mut impl FnMut(AdaptoidEvent)) {
    if game.status == Status::Ongoing && game.options.repetition_draw {
        let hash = game.hash();
        game.history.record(hash);
        if game.history.is_threefold(hash) {
            game.status = Status::Draw {
                reason: DrawReason::Repetition,
            };
        }
    }
    if game.status == Status::Ongoing {
        emit(AdaptoidEvent::TurnEnded {
            next: game.to_move(),
        });
    } else {
        emit(AdaptoidEvent::GameOver {
            status: game.status,
        });
    }
}
