//! Legal moves (adomoc.md §3, §4, §9), attraction and the state of primes.

use super::geometry::{CENTRE, LineKind};
use super::{Adomoc, AdomocMove, Effect, Kind, PRIME_REACH, Piece, spaces};
use crate::Status;

/// Whether a kind of piece travels along a kind of line.
pub fn travels_along(kind: Kind, line: LineKind) -> bool {
    match kind {
        Kind::Foot => line != LineKind::Spiral,
        Kind::Moon => line == LineKind::Spiral,
        Kind::Sun => true,
    }
}

/// The most spaces a piece may travel.
pub fn reach(piece: Piece) -> usize {
    if piece.prime { PRIME_REACH } else { usize::MAX }
}

fn is_prime_sun(piece: Piece) -> bool {
    piece.prime && piece.kind == Kind::Sun
}

/// The spaces of `owner`'s pieces of `kind` (primes only if `prime_only`).
fn spaces_of(game: &Adomoc, owner: u8, kind: Kind, prime_only: bool) -> u128 {
    let set = game.by_kind[owner as usize][kind as usize];
    if prime_only { set & game.primes } else { set }
}

/// Feet next to a sun of the other breed (§3, M8).
pub fn attracted(game: &Adomoc) -> u128 {
    let geometry = game.geometry();
    let mut result = 0;
    for owner in 0..2u8 {
        let enemy_suns = spaces_of(game, 1 - owner, Kind::Sun, false);
        if enemy_suns == 0 {
            continue;
        }
        for foot in spaces(spaces_of(game, owner, Kind::Foot, false)) {
            if geometry.adjacent(foot) & enemy_suns != 0 {
                result |= 1 << foot;
            }
        }
    }
    result
}

const CYCLE_8: u128 = ((1u128 << 10) - 1) << 70;

/// §6: a prime foot and a prime moon on cycle 8, one of them `player`'s.
pub fn state_of_primes(game: &Adomoc, player: u8) -> bool {
    let on_8 = |owner: u8, kind: Kind| spaces_of(game, owner, kind, true) & CYCLE_8 != 0;
    let foot = [on_8(0, Kind::Foot), on_8(1, Kind::Foot)];
    let moon = [on_8(0, Kind::Moon), on_8(1, Kind::Moon)];
    let p = player as usize;
    (foot[p] && (moon[0] || moon[1])) || (moon[p] && (foot[0] || foot[1]))
}

/// What a landing on an occupied space does (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    Consume,
    Originate,
}

/// What landing `mover` on `target` may do, ignoring the origin spaces and bans; `None`
/// if the landing is illegal.
pub fn landing(game: &Adomoc, mover: Piece, target: Piece) -> Option<Landing> {
    let infinite = game.options.infinite;
    if mover.kind == target.kind {
        let consumes = mover.prime && !target.prime && mover.owner != target.owner && !infinite;
        return consumes.then_some(Landing::Consume);
    }
    let may_originate = !target.prime || mover.prime || (mover.kind == Kind::Moon && !infinite);
    may_originate.then_some(Landing::Originate)
}

/// The empty origin spaces `target` could be sent to when a piece moves from `from`
/// onto it (emptiness judged after the move, M12).
pub fn origin_spaces(game: &Adomoc, target: Piece, from: u8) -> u128 {
    // Five spaces of one cycle: columns a-e (Light) or f-j (Dark).
    let cycle = target.kind.origin_cycle() as u32;
    let first = (cycle - 1) * 10 + target.owner.0 as u32 * 5;
    let origins = 0b11111u128 << first;
    let empty_after = !(game.occupied[0] | game.occupied[1]) | 1 << from;
    origins & empty_after
}

/// Whether a ban forbids the piece on `from` originating the piece on `to` this ply.
pub fn banned(game: &Adomoc, from: u8, to: u8) -> bool {
    let (m, t) = (game.at[from as usize], game.at[to as usize]);
    game.bans
        .iter()
        .any(|b| b.ply == game.ply && b.originated == m && b.originator == t)
}

/// Calls `visit` with each legal move; stops early when it returns false.
pub fn visit_moves(game: &Adomoc, visit: &mut impl FnMut(AdomocMove) -> bool) {
    if game.status != Status::Ongoing {
        return;
    }
    let geometry = game.geometry();
    let attracted = attracted(game);
    let in_state = state_of_primes(game, game.mover);
    let occupied = game.occupied[0] | game.occupied[1];
    for from in spaces(game.occupied[game.mover as usize]) {
        let mover = game.pieces[game.at[from as usize] as usize];
        if mover.kind == Kind::Foot && attracted & 1 << from != 0 {
            continue;
        }
        let mut seen = 0u128;
        for ray in geometry.rays(from) {
            if !travels_along(mover.kind, ray.kind) {
                continue;
            }
            for &to in ray.spaces.iter().take(reach(mover)) {
                if to == CENTRE {
                    // Only the prime sun comes here, and a piece on the centre has won.
                    if !is_prime_sun(mover) || occupied & 1 << CENTRE != 0 {
                        break;
                    }
                    if in_state && seen & 1 << CENTRE == 0 {
                        seen |= 1 << CENTRE;
                        let mv = AdomocMove {
                            from,
                            to,
                            effect: Effect::None,
                        };
                        if !visit(mv) {
                            return;
                        }
                    }
                    continue;
                }
                let first_visit = seen & 1 << to == 0;
                seen |= 1 << to;
                if occupied & 1 << to == 0 {
                    if first_visit
                        && !visit(AdomocMove {
                            from,
                            to,
                            effect: Effect::None,
                        })
                    {
                        return;
                    }
                    continue;
                }
                if first_visit && !visit_landings(game, from, to, mover, visit) {
                    return;
                }
                break;
            }
        }
    }
}

/// The moves that land the piece from `from` on the occupied `to`; false if `visit` said stop.
fn visit_landings(
    game: &Adomoc,
    from: u8,
    to: u8,
    mover: Piece,
    visit: &mut impl FnMut(AdomocMove) -> bool,
) -> bool {
    let target = game.pieces[game.at[to as usize] as usize];
    match landing(game, mover, target) {
        None => true,
        Some(Landing::Consume) => visit(AdomocMove {
            from,
            to,
            effect: Effect::Consume,
        }),
        Some(Landing::Originate) => {
            if banned(game, from, to) {
                return true;
            }
            spaces(origin_spaces(game, target, from)).all(|origin| {
                visit(AdomocMove {
                    from,
                    to,
                    effect: Effect::Originate(origin),
                })
            })
        }
    }
}

pub fn for_each_move(game: &Adomoc, visit: &mut impl FnMut(AdomocMove)) {
    visit_moves(game, &mut |mv| {
        visit(mv);
        true
    });
}

pub fn has_move(game: &Adomoc) -> bool {
    let mut found = false;
    visit_moves(game, &mut |_| {
        found = true;
        false
    });
    found
}

/// `Adomoc::line_path`: the way a move takes, walked as `visit_moves` walks the rays.
pub fn line_path(game: &Adomoc, from: u8, to: u8) -> Option<Vec<u8>> {
    let mover = game.piece_at(from)?;
    let occupied = game.occupied[0] | game.occupied[1];
    game.geometry()
        .rays(from)
        .iter()
        .filter(|ray| travels_along(mover.kind, ray.kind))
        .find_map(|ray| {
            let mut path = Vec::new();
            for &space in ray.spaces.iter().take(reach(mover)) {
                // Only the prime sun goes onto or through the centre (as the moves do).
                if space == CENTRE && !is_prime_sun(mover) {
                    return None;
                }
                path.push(space);
                if space == to {
                    return Some(path);
                }
                if occupied & 1 << space != 0 {
                    return None;
                }
            }
            None
        })
}
