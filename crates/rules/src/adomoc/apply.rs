//! Playing a legal move, then judging the position the next player faces (§4, §6).

use super::generate::has_move;
use super::geometry::{CENTRE, column_and_cycle};
use super::{Adomoc, AdomocEvent, AdomocMove, Ban, Effect, geometry_spaces};
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
                ply: game.ply + wait,
            });
        }
        _ => {}
    }
    game.ply = game.ply.saturating_add(1);
    let ply = game.ply;
    game.bans.retain(|b| b.ply >= ply);
    game.mover = 1 - game.mover;
    game.status = if mv.to == CENTRE {
        Status::Win {
            winner: piece.owner,
            reason: WinReason::Centre,
        }
    } else {
        start_of_turn_status(game)
    };
    if game.status == Status::Ongoing && game.options.repetition_draw {
        let hash = crate::Game::hash(game);
        game.history.push(hash);
        if game.history.iter().filter(|&&h| h == hash).count() >= 3 {
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

/// A player with no legal move forfeits (§6).
pub fn start_of_turn_status(game: &Adomoc) -> Status {
    if has_move(game) {
        Status::Ongoing
    } else {
        Status::Win {
            winner: Player(1 - game.mover),
            reason: WinReason::Forfeit,
        }
    }
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
        geometry_spaces(game.occupied[owner])
            .map(|s| column_and_cycle(s).1 as u32)
            .sum()
    })
}
