//! Whether an action is legal now, and if not, why (in a player's words).

use super::generate::{absorbers_of, move_targets, small_targets};
use super::moves::AbsorptionMove;
use super::squares::{ADJACENT, bit, label, squares};
use super::{Absorption, PLAYER_NAMES, Phase};
use crate::{IllegalMove, Status};

fn illegal<T>(reason: impl Into<String>) -> Result<T, IllegalMove> {
    Err(IllegalMove::new(reason))
}

pub fn check_move(game: &Absorption, mv: &AbsorptionMove) -> Result<(), IllegalMove> {
    if game.status != Status::Ongoing {
        return illegal("the game is over");
    }
    if let Some(square) = mv.squares().find(|&s| s >= 64) {
        return illegal(format!("square number {square} is off the board (0 to 63)"));
    }
    match (game.phase, *mv) {
        (Phase::SplitOrMerge, AbsorptionMove::Split { from, parts }) => {
            check_split(game, from, parts)
        }
        (Phase::SplitOrMerge, AbsorptionMove::Merge { dest, others }) => {
            check_merge(game, dest, others.as_slice())
        }
        (Phase::SplitOrMerge, _) => {
            illegal("a turn begins with a split or a merge (phase A), such as c1/b2:2,c2:1")
        }
        (Phase::Move { follow, origin, .. }, AbsorptionMove::FollowUp { from, to }) => {
            if follow & bit(from) == 0 {
                return illegal(format!(
                    "{} is not a Small just split off that has yet to make its follow-up move",
                    label(from)
                ));
            }
            if Some(to) == origin {
                return illegal(format!(
                    "a split Small may not go back onto {}, the square it was split from",
                    label(to)
                ));
            }
            check_path(
                game,
                from,
                to,
                small_targets(game, from, origin),
                "a Small",
                2,
            )
        }
        (
            Phase::Move {
                involved, follow, ..
            },
            AbsorptionMove::Move { from, to },
        ) => {
            own_stack(game, from)?;
            if follow & bit(from) != 0 {
                return illegal(format!(
                    "{0} was just split off: its immediate move is written {0}>{1}",
                    label(from),
                    label(to)
                ));
            }
            if involved & bit(from) != 0 {
                return illegal(format!(
                    "{} took part in this turn's split or merge and cannot move",
                    label(from)
                ));
            }
            let (what, reach) = match game.heights[from as usize] {
                1 => ("a Small", 2),
                2 => ("a Medium", 1),
                _ => return illegal("a Large stack never moves"),
            };
            check_path(game, from, to, move_targets(game, from), what, reach)
        }
        (Phase::Move { .. }, AbsorptionMove::Pass) => Ok(()),
        (Phase::Move { .. }, AbsorptionMove::Split { .. } | AbsorptionMove::Merge { .. }) => {
            illegal("this turn's split or merge has been made")
        }
        (Phase::Move { .. }, AbsorptionMove::Absorb { .. }) => {
            illegal("absorption comes after the move phase: move a stack or pass first")
        }
        (Phase::Absorb { absorber }, AbsorptionMove::Absorb { target, gifts }) => {
            let enemy = 1 - absorber.0;
            if game.stack(target).map(|(p, _)| p.0) != Some(enemy) {
                return illegal(format!(
                    "{} holds no stack of {} to absorb",
                    label(target),
                    PLAYER_NAMES[enemy as usize]
                ));
            }
            let Some(receivers) = absorbers_of(game, absorber.0, target) else {
                return illegal(format!(
                    "{} is not absorbable: its orthogonal neighbours must outweigh it and have \
                     room for all its pieces",
                    label(target)
                ));
            };
            let height = game.heights[target as usize];
            for (square, n) in gifts.iter() {
                if receivers & bit(square) == 0 {
                    return illegal(format!(
                        "{} is not a stack of {} orthogonally next to {}",
                        label(square),
                        PLAYER_NAMES[absorber.index()],
                        label(target)
                    ));
                }
                if n == 0 || game.heights[square as usize] + n > 3 {
                    return illegal(format!(
                        "{} has room for {} piece(s), not {n}",
                        label(square),
                        3 - game.heights[square as usize]
                    ));
                }
            }
            if gifts.total() != height {
                return illegal(format!(
                    "all {height} absorbed pieces must be placed, not {}",
                    gifts.total()
                ));
            }
            Ok(())
        }
        (Phase::Absorb { .. }, _) => illegal(format!(
            "an absorption must be chosen now, such as x{}[...]",
            squares(game.absorbable())
                .next()
                .map(label)
                .unwrap_or_default()
        )),
    }
}

fn own_stack(game: &Absorption, square: u8) -> Result<u8, IllegalMove> {
    match game.stack(square) {
        None => illegal(format!("there is no stack on {}", label(square))),
        Some((owner, _)) if owner.0 != game.mover => illegal(format!(
            "the stack on {} belongs to {}",
            label(square),
            PLAYER_NAMES[owner.index()]
        )),
        Some((_, height)) => Ok(height),
    }
}

fn check_split(game: &Absorption, from: u8, parts: super::Allotment) -> Result<(), IllegalMove> {
    let height = own_stack(game, from)?;
    if height < 2 {
        return illegal("a Small cannot split");
    }
    let mut shape: Vec<u8> = parts.iter().map(|(_, h)| h).collect();
    shape.sort_unstable();
    let allowed: &[&[u8]] = if height == 3 {
        &[&[1, 2], &[1, 1, 1]]
    } else {
        &[&[1, 1]]
    };
    if !allowed.contains(&shape.as_slice()) {
        return illegal(format!(
            "a stack of {height} splits into {}",
            if height == 3 { "2+1 or 1+1+1" } else { "1+1" }
        ));
    }
    for (square, _) in parts.iter() {
        if ADJACENT[from as usize] & bit(square) == 0 {
            return illegal(format!("{} is not next to {}", label(square), label(from)));
        }
        if game.stack(square).is_some() {
            return illegal(format!("{} is occupied", label(square)));
        }
    }
    Ok(())
}

fn check_merge(game: &Absorption, dest: u8, others: &[u8]) -> Result<(), IllegalMove> {
    if others.is_empty() || others.len() > 2 {
        return illegal("a merge joins two or three stacks");
    }
    if others.contains(&dest) {
        return illegal(format!("{} cannot merge with itself", label(dest)));
    }
    let mut total = own_stack(game, dest)?;
    for &other in others {
        total += own_stack(game, other)?;
    }
    if total > 3 {
        return illegal(format!("a merged stack would be {total} high; at most 3"));
    }
    let group = others.iter().fold(bit(dest), |set, &s| set | bit(s));
    if game.options.merge_connected {
        // Grow from the destination through the group's own squares.
        let mut reached = bit(dest);
        for _ in 0..2 {
            for s in squares(reached) {
                reached |= ADJACENT[s as usize] & group;
            }
        }
        if reached != group {
            return illegal("the merged stacks must form a connected group");
        }
    } else if let Some(&far) = others
        .iter()
        .find(|&&s| ADJACENT[dest as usize] & bit(s) == 0)
    {
        return illegal(format!(
            "{} is not next to the destination {} (option merge_connected allows chains)",
            label(far),
            label(dest)
        ));
    }
    Ok(())
}

/// Explains why `to` is not among `targets` for the stack on `from`.
fn check_path(
    game: &Absorption,
    from: u8,
    to: u8,
    targets: u64,
    what: &str,
    reach: i32,
) -> Result<(), IllegalMove> {
    if targets & bit(to) != 0 {
        return Ok(());
    }
    if game.stack(to).is_some() {
        return illegal(format!("{} is occupied", label(to)));
    }
    let (dx, dy) = (
        (to % 8) as i32 - (from % 8) as i32,
        (to / 8) as i32 - (from / 8) as i32,
    );
    let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
    let distance = dx.abs().max(dy.abs());
    if !straight || distance > reach {
        return illegal(format!(
            "{what} moves {} in a straight line",
            if reach == 1 {
                "1 square"
            } else {
                "1 or 2 squares"
            }
        ));
    }
    illegal(format!(
        "the way from {} to {} is blocked{}",
        label(from),
        label(to),
        if game.options.forbid_pass_over_origin {
            " (or passes over the split's square)"
        } else {
            ""
        }
    ))
}
