//! Whether a move is legal now, and if not, why. Written apart from generation: it looks
//! only at the lines that join the two spaces (any clear one will do) instead of walking
//! every ray.

use super::generate::{
    Landing, attracted, banned, landing, origin_spaces, reach, state_of_primes, travels_along,
};
use super::geometry::{CENTRE, SPACES, label};
use super::{Adomoc, AdomocMove, Effect, Kind, PLAYER_NAMES};
use crate::{IllegalMove, Status};

fn illegal<T>(reason: impl Into<String>) -> Result<T, IllegalMove> {
    Err(IllegalMove::new(reason))
}

pub fn check_move(game: &Adomoc, mv: &AdomocMove) -> Result<(), IllegalMove> {
    if game.status != Status::Ongoing {
        return illegal("the game is over");
    }
    let origin = match mv.effect {
        Effect::Originate(origin) => Some(origin),
        _ => None,
    };
    if let Some(space) = [mv.from, mv.to]
        .into_iter()
        .chain(origin)
        .find(|&s| s as usize >= SPACES)
    {
        return illegal(format!("space number {space} is off the board (0 to 80)"));
    }
    let (from, to) = (mv.from, mv.to);
    let Some(piece) = game.piece_at(from) else {
        return illegal(format!("there is no piece on {}", label(from)));
    };
    if piece.owner.0 != game.mover {
        return illegal(format!(
            "the piece on {} is {}'s",
            label(from),
            PLAYER_NAMES[piece.owner.index()]
        ));
    }
    if piece.kind == Kind::Foot && attracted(game) & 1 << from != 0 {
        return illegal(format!(
            "the foot on {} is attracted by an enemy sun next to it and cannot move",
            label(from)
        ));
    }
    let what = format!(
        "{}{}",
        if piece.prime { "prime " } else { "" },
        piece.kind.name()
    );
    // Lines from `from` through `to` along which the piece travels; a cycle is met both
    // ways round and two spirals may cross again, so any clear one will do.
    let prime_sun = piece.prime && piece.kind == Kind::Sun;
    let mut first_problem: Option<String> = None;
    let mut clear = false;
    for ray in game.geometry().rays(from) {
        let Some(distance) = ray.spaces.iter().position(|&s| s == to) else {
            continue;
        };
        if !travels_along(piece.kind, ray.kind) {
            continue;
        }
        let problem = if distance >= reach(piece) {
            Some(format!(
                "a prime travels at most 3 spaces; {} is {} away",
                label(to),
                distance + 1
            ))
        } else {
            ray.spaces[..distance].iter().find_map(|&between| {
                if between == CENTRE && !prime_sun {
                    Some("only the prime sun may pass through the centre".to_string())
                } else if game.piece_at(between).is_some() {
                    Some(format!("{} is in the way (no jumping)", label(between)))
                } else {
                    None
                }
            })
        };
        match problem {
            None => clear = true,
            Some(problem) => {
                first_problem.get_or_insert(problem);
            }
        }
    }
    if !clear {
        return illegal(first_problem.unwrap_or_else(|| {
            format!(
                "a {what} cannot go from {} to {} along one of its lines",
                label(from),
                label(to)
            )
        }));
    }
    if to == CENTRE {
        if !prime_sun {
            return illegal("only the prime sun may enter the centre");
        }
        if !state_of_primes(game, game.mover) {
            return illegal(
                "the prime sun may end on the centre only in a state of primes: a prime foot and \
                 a prime moon on cycle 8, one of them yours",
            );
        }
        return expect_effect(mv, Effect::None, "the centre is empty");
    }
    let Some(target) = game.piece_at(to) else {
        return expect_effect(mv, Effect::None, &format!("{} is empty", label(to)));
    };
    let target_what = format!(
        "{}'s {}{}",
        PLAYER_NAMES[target.owner.index()],
        if target.prime { "prime " } else { "" },
        target.kind.name()
    );
    match landing(game, piece, target) {
        None => illegal(format!(
            "a {what} may not land on {target_what} ({})",
            if piece.kind == target.kind {
                "only a prime consumes, and only an enemy non-prime of its kind"
            } else {
                "a prime is originated only by a prime or a moon"
            }
        )),
        Some(Landing::Consume) => expect_effect(
            mv,
            Effect::Consume,
            &format!("landing on {target_what} consumes it"),
        ),
        Some(Landing::Originate) => {
            let Effect::Originate(origin) = mv.effect else {
                return illegal(format!(
                    "landing on {target_what} originates it: add o and the origin space it goes \
                     to (cycle {} of its own half), as in Mc7a5oa3",
                    target.kind.origin_cycle()
                ));
            };
            if banned(game, from, to) {
                return illegal(format!(
                    "the piece on {} was just originated by the one on {}: no immediate reverse \
                     origination",
                    label(from),
                    label(to)
                ));
            }
            let open = origin_spaces(game, target, from);
            if open == 0 {
                return illegal(format!(
                    "no origin space on cycle {} of {}'s half is empty",
                    target.kind.origin_cycle(),
                    PLAYER_NAMES[target.owner.index()]
                ));
            }
            if open & 1 << origin == 0 {
                return illegal(format!(
                    "{} is not an empty origin space for {target_what} (cycle {}, its own half)",
                    label(origin),
                    target.kind.origin_cycle()
                ));
            }
            Ok(())
        }
    }
}

fn expect_effect(mv: &AdomocMove, expected: Effect, why: &str) -> Result<(), IllegalMove> {
    if mv.effect == expected {
        return Ok(());
    }
    let wanted = match expected {
        Effect::None => "no consumption or origination",
        Effect::Consume => "a consumption (x)",
        Effect::Originate(_) => "an origination",
    };
    illegal(format!("{why}: the move is {wanted}"))
}
