//! Playing an action, then every step that follows without a choice: skipping an empty
//! move phase, a lone absorption, the end of the turn and the checks at the next start.

use super::generate::{self, can_move, can_split_or_merge};
use super::moves::AbsorptionMove;
use super::squares::{bit, squares};
use super::{Absorption, AbsorptionEvent, LOSING_PIECES, Phase};
use crate::{DrawReason, Game, Player, Status, WinReason};

pub fn play(game: &mut Absorption, mv: &AbsorptionMove, emit: &mut impl FnMut(AbsorptionEvent)) {
    let mover = game.mover;
    match *mv {
        AbsorptionMove::Split { from, parts } => {
            let height = game.heights[from as usize];
            game.set_square(from, mover, 0);
            let mut involved = 0;
            let mut follow = 0;
            for (square, h) in parts.iter() {
                game.set_square(square, mover, h);
                involved |= bit(square);
                if h == 1 {
                    follow |= bit(square);
                }
            }
            emit(AbsorptionEvent::Split {
                from,
                height,
                parts,
            });
            game.phase = Phase::Move {
                involved,
                follow,
                origin: (follow != 0).then_some(from),
            };
        }
        AbsorptionMove::Merge { dest, others } => {
            let mut height = game.heights[dest as usize];
            for &other in others.as_slice() {
                height += game.heights[other as usize];
                game.set_square(other, mover, 0);
            }
            game.set_square(dest, mover, height);
            emit(AbsorptionEvent::Merged {
                dest,
                others,
                height,
            });
            game.phase = Phase::Move {
                involved: bit(dest),
                follow: 0,
                origin: None,
            };
        }
        AbsorptionMove::FollowUp { from, to } => {
            move_stack(game, from, to);
            emit(AbsorptionEvent::Moved {
                from,
                to,
                follow_up: true,
            });
            if let Phase::Move {
                involved,
                follow,
                origin,
            } = game.phase
            {
                let follow = follow & !bit(from);
                game.phase = Phase::Move {
                    involved: involved & !bit(from) | bit(to),
                    follow,
                    origin: origin.filter(|_| follow != 0),
                };
            }
        }
        AbsorptionMove::Move { from, to } => {
            move_stack(game, from, to);
            emit(AbsorptionEvent::Moved {
                from,
                to,
                follow_up: false,
            });
            game.phase = Phase::Absorb {
                absorber: Player(mover),
            };
        }
        AbsorptionMove::Pass => {
            emit(AbsorptionEvent::Passed);
            game.phase = Phase::Absorb {
                absorber: Player(mover),
            };
        }
        AbsorptionMove::Absorb { target, gifts } => absorb(game, target, gifts, emit),
    }
    game.ply = game.ply.saturating_add(1);
    settle(game, emit);
}

fn move_stack(game: &mut Absorption, from: u8, to: u8) {
    let owner = game.owner(from);
    let height = game.heights[from as usize];
    game.set_square(from, owner, 0);
    game.set_square(to, owner, height);
}

fn absorb(
    game: &mut Absorption,
    target: u8,
    gifts: super::Allotment,
    emit: &mut impl FnMut(AbsorptionEvent),
) {
    let owner = game.owner(target);
    let absorber = 1 - owner;
    let height = game.heights[target as usize];
    game.set_square(target, owner, 0);
    for (square, n) in gifts.iter() {
        let h = game.heights[square as usize];
        game.set_square(square, absorber, h + n);
    }
    emit(AbsorptionEvent::Absorbed {
        absorber: Player(absorber),
        target,
        owner: Player(owner),
        height,
        gifts,
    });
}

/// Plays every step that leaves no choice, until a player must choose or the game ends.
/// Also used after reading a position string, so that positions are always settled.
pub fn settle(game: &mut Absorption, emit: &mut impl FnMut(AbsorptionEvent)) {
    loop {
        match game.phase {
            Phase::SplitOrMerge => return,
            Phase::Move { .. } => {
                if can_move(game) {
                    return;
                }
                game.phase = Phase::Absorb {
                    absorber: Player(game.mover),
                };
            }
            Phase::Absorb { absorber } => match lone_absorption(game) {
                Lone::None => {
                    if game.options.symmetric_absorption && absorber.0 == game.mover {
                        game.phase = Phase::Absorb {
                            absorber: Player(1 - game.mover),
                        };
                    } else {
                        end_turn(game, emit);
                        return;
                    }
                }
                Lone::One(AbsorptionMove::Absorb { target, gifts }) => {
                    absorb(game, target, gifts, emit)
                }
                Lone::One(_) | Lone::Several => return,
            },
        }
    }
}

enum Lone {
    None,
    One(AbsorptionMove),
    Several,
}

/// Whether the absorbing player has no choice, one, or several.
fn lone_absorption(game: &Absorption) -> Lone {
    let mut found = Lone::None;
    generate::for_each_move(game, &mut |mv| match found {
        Lone::None => {
            found = Lone::One(mv);
            true
        }
        _ => {
            found = Lone::Several;
            false
        }
    });
    found
}

fn end_turn(game: &mut Absorption, emit: &mut impl FnMut(AbsorptionEvent)) {
    game.mover = 1 - game.mover;
    game.turn = game.turn.saturating_add(1);
    game.phase = Phase::SplitOrMerge;
    game.status = start_of_turn_status(game);
    let hash = game.hash();
    game.history.record(hash);
    if game.status == Status::Ongoing
        && game.options.repetition_draw
        && game.history.is_threefold(hash)
    {
        game.status = Status::Draw {
            reason: DrawReason::Repetition,
        };
    }
    if game.status == Status::Ongoing {
        game.status = turn_cap_status(game);
    }
    if game.status == Status::Ongoing {
        emit(AbsorptionEvent::TurnEnded {
            next: Player(game.mover),
        });
    } else {
        emit(AbsorptionEvent::GameOver {
            status: game.status,
        });
    }
}

/// The result decided at the start of a turn by the position alone: a player reduced to
/// 3 pieces or fewer or a mover with no split or merge (forfeit). Repetition and then the
/// turn cap come after it (docs/decisions.md).
pub fn start_of_turn_status(game: &Absorption) -> Status {
    let mover = game.mover;
    let other = 1 - mover;
    if game.pieces[mover as usize] <= LOSING_PIECES {
        return win(other, WinReason::Reduction);
    }
    if game.pieces[other as usize] <= LOSING_PIECES {
        return win(mover, WinReason::Reduction);
    }
    if !can_split_or_merge(game, mover) {
        return win(other, WinReason::Forfeit);
    }
    Status::Ongoing
}

/// The optional `turn_cap` draw, once `turn` has passed it.
pub fn turn_cap_status(game: &Absorption) -> Status {
    if game.options.turn_cap != 0 && game.turn > game.options.turn_cap {
        Status::Draw {
            reason: DrawReason::TurnCap,
        }
    } else {
        Status::Ongoing
    }
}

fn win(player: u8, reason: WinReason) -> Status {
    Status::Win {
        winner: Player(player),
        reason,
    }
}

/// Squares of a set as labels, for messages.
pub fn labels(set: u64) -> String {
    squares(set)
        .map(super::squares::label)
        .collect::<Vec<_>>()
        .join(", ")
}
