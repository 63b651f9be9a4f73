//! Playing a legal move, then judging the position the next player faces (§4, §6).

use super::generate::has_move;
use super::geometry::{CENTRE, column_and_cycle};
use super::{Adomoc, AdomocEvent, AdomocMove, Ban, Effect, spaces};
use crate::{DrawReason, Player, Status, WinReason};

pub fn play(game: &mut Adomoc, mv: &AdomocMove, emit: &mut impl FnMut(AdomocEvent)) {
    let id = game.lift(mv.from);
    let piece = game.pieces[id as usize];
    let target = match mv.effect {
        Effect::None => None,
        Effect::Consume | Effect::Originate(_) => Some(game.lift(mv.to)),
    };
    game.put(mv.to, id);
    emit(AdomocEvent::Moved {
        piece,
        from: mv.from,
        to: mv.to,
    });
    match (mv.effect, target) {
        (Effect::Consume, Some(consumed)) => {
            emit(AdomocEvent::Consumed {
                at: mv.to,
                piece: game.pieces[consumed as usize],
            });
            // With a piece fewer, no earlier position can recur.
            game.history.clear();
            game.bans
                .retain(|b| b.originated != consumed && b.originator != consumed);
        }
        (Effect::Originate(origin), Some(originated)) => {
            game.put(origin, originated);
            let owner = game.pieces[originated as usize].owner;
            emit(AdomocEvent::Originated {
                from: mv.to,
                to: origin,
                piece: game.pieces[originated as usize],
            });
            // M7: the ban holds on the originated piece's owner's next turn.
            let wait = if owner == piece.owner { 2 } else { 1 };
            game.bans.push(Ban {
                originated,
                originator: id,
                ply: game.ply.saturating_add(wait),
            });
        }
        _ => {}
    }
    game.ply = game.ply.saturating_add(1);
    let ply = game.ply;
    game.bans.retain(|b| b.ply >= ply);
    game.mover = 1 - game.mover;
    if mv.to == CENTRE {
        game.status = altogether(
            game,
            Status::Win {
                winner: piece.owner,
                reason: WinReason::Centre,
            },
        );
    } else {
        judge_turn_start(game);
    }
    if game.status == Status::Ongoing {
        emit(AdomocEvent::TurnEnded {
            next: Player(game.mover),
        });
    } else {
        emit(AdomocEvent::GameOver {
            status: game.status,
        });
    }
}

/// Judges the position the player to move faces, in order: a player with no legal move
/// forfeits (§6), the third occurrence draws (the position is recorded), the ply cap draws;
/// then Altogether rescores a win. Used after every move and for a position read from text.
pub fn judge_turn_start(game: &mut Adomoc) {
    game.status = if has_move(game) {
        Status::Ongoing
    } else {
        Status::Win {
            winner: Player(1 - game.mover),
            reason: WinReason::Forfeit,
        }
    };
    if game.status == Status::Ongoing && game.options.repetition_draw {
        let hash = crate::Game::hash(game);
        game.history.record(hash);
        if game.history.is_threefold(hash) {
            game.status = Status::Draw {
                reason: DrawReason::Repetition,
            };
        }
    }
    if game.status == Status::Ongoing
        && game.options.ply_cap != 0
        && game.ply >= game.options.ply_cap
    {
        game.status = Status::Draw {
            reason: DrawReason::TurnCap,
        };
    }
    game.status = altogether(game, game.status);
}

/// Under the Altogether variant a game that ended with a winner is decided by the sums of
/// the cycle numbers of each side's pieces (the centre counts 9); equal sums draw.
pub fn altogether(game: &Adomoc, status: Status) -> Status {
    if !game.options.altogether || !matches!(status, Status::Win { .. }) {
        return status;
    }
    let [light, dark] = score(game);
    match light.cmp(&dark) {
        std::cmp::Ordering::Greater => Status::Win {
            winner: Player(0),
            reason: WinReason::Score,
        },
        std::cmp::Ordering::Less => Status::Win {
            winner: Player(1),
            reason: WinReason::Score,
        },
        std::cmp::Ordering::Equal => Status::Draw {
            reason: DrawReason::EqualScore,
        },
    }
}

/// The Altogether scores: each side's sum of the cycle numbers of its pieces.
pub fn score(game: &Adomoc) -> [u32; 2] {
    [0, 1].map(|owner| {
        spaces(game.occupied[owner])
            .map(|s| column_and_cycle(s).1 as u32)
            .sum()
    })
}
