//! Whether a move is legal now, and if not, why (in a player's words). Written apart from
//! generation so the two can be checked against each other.

use super::moves::Growth;
use super::pieces::{MAX_PARTS, fight_result};
use super::{Adaptoid, AdaptoidMove, FightResult, Stage};
use crate::{IllegalMove, Status};

fn illegal<T>(reason: impl Into<String>) -> Result<T, IllegalMove> {
    Err(IllegalMove::new(reason))
}

pub fn check_move(game: &Adaptoid, mv: &AdaptoidMove) -> Result<(), IllegalMove> {
    if game.status != Status::Ongoing {
        return illegal("the game is over");
    }
    let cells: Vec<u8> = match *mv {
        AdaptoidMove::Turn { step, growth } => step
            .map_or(vec![], |(a, b)| vec![a, b])
            .into_iter()
            .chain(growth.map(Growth::cell))
            .collect(),
        AdaptoidMove::Place { white, black } => vec![white, black],
        AdaptoidMove::Choose(_) => vec![],
    };
    if let Some(&cell) = cells.iter().find(|&&c| c as usize >= game.board.len()) {
        return illegal(format!(
            "cell number {cell} is not on this board of {} cells",
            game.board.len()
        ));
    }
    match (game.stage, *mv) {
        (Stage::PiePlace, AdaptoidMove::Place { white, black }) => {
            if white == black {
                return illegal("the two adaptoids need two different cells");
            }
            Ok(())
        }
        (Stage::PiePlace, _) => {
            illegal("the pie start begins with placing a white and a black adaptoid, as W:d2 B:d6")
        }
        (Stage::PieChoose, AdaptoidMove::Choose(_)) => Ok(()),
        (Stage::PieChoose, _) => illegal("the second player now picks a colour: white or black"),
        (Stage::Play, AdaptoidMove::Turn { step, growth }) => check_turn(game, step, growth),
        (Stage::Play, _) => illegal("the colours are settled: play a turn"),
    }
}

fn check_turn(
    game: &Adaptoid,
    step: Option<(u8, u8)>,
    growth: Option<Growth>,
) -> Result<(), IllegalMove> {
    let board = &game.board;
    let label = |c: u8| board.label(c).to_string();
    let mover = game.mover;
    let mut after = game.pieces;
    if let Some((from, to)) = step {
        check_step(game, from, to)?;
        after.step(from, to);
    }
    let own = |c: u8| after.colour_at(c) == Some(mover);
    let [bodies, legs, pincers] = after.supply(mover);
    match growth {
        None if after.growth_count(board, mover) > 0 => illegal(
            "a turn must grow: create an adaptoid (+d3), add a leg (d4+L) or a pincer (d4+P)",
        ),
        None => Ok(()),
        Some(Growth::Create(cell)) => {
            if after.colour_at(cell).is_some() {
                illegal(format!("{} is occupied", label(cell)))
            } else if board.neighbours(cell) & after.occupied[mover.index()] == 0 {
                illegal(format!(
                    "a new adaptoid must touch one of yours; {} does not",
                    label(cell)
                ))
            } else if bodies == 0 {
                illegal("no adaptoid bodies are left in your supply")
            } else {
                Ok(())
            }
        }
        Some(Growth::Leg(cell) | Growth::Pincer(cell)) => {
            let part = if matches!(growth, Some(Growth::Leg(_))) {
                "leg"
            } else {
                "pincer"
            };
            if !own(cell) {
                illegal(format!(
                    "{} holds no adaptoid of yours{}",
                    label(cell),
                    if step.is_some() {
                        " after the move"
                    } else {
                        ""
                    }
                ))
            } else if after.parts(cell) >= MAX_PARTS {
                illegal(format!(
                    "the adaptoid on {} already has {MAX_PARTS} parts",
                    label(cell)
                ))
            } else if (part == "leg" && legs == 0) || (part == "pincer" && pincers == 0) {
                illegal(format!("no {part}s are left in your supply"))
            } else {
                Ok(())
            }
        }
    }
}

fn check_step(game: &Adaptoid, from: u8, to: u8) -> Result<(), IllegalMove> {
    let board = &game.board;
    let label = |c: u8| board.label(c).to_string();
    let pieces = &game.pieces;
    match pieces.colour_at(from) {
        None => return illegal(format!("there is no adaptoid on {}", label(from))),
        Some(colour) if colour != game.mover => {
            return illegal(format!(
                "the adaptoid on {} is {}'s",
                label(from),
                colour.name()
            ));
        }
        _ => {}
    }
    let legs = pieces.legs[from as usize];
    if legs == 0 {
        return illegal(format!(
            "the adaptoid on {} has no legs and cannot move",
            label(from)
        ));
    }
    if from == to {
        return illegal("a move must leave its cell");
    }
    let reach = pieces.destinations(board, from, game.options.forbid_losing_attacks);
    let in_reach = reach & (1 << to) != 0;
    match pieces.colour_at(to) {
        Some(colour) if colour == game.mover => {
            illegal(format!("{} holds one of your own adaptoids", label(to)))
        }
        Some(_) => {
            let (mine, theirs) = (pieces.pincers[from as usize], pieces.pincers[to as usize]);
            if mine == 0 {
                illegal("an adaptoid with no pincers cannot attack")
            } else if game.options.forbid_losing_attacks
                && fight_result(mine, theirs) == FightResult::DefenderWins
            {
                illegal(format!(
                    "the option forbid_losing_attacks bars attacking {theirs} pincers with {mine}"
                ))
            } else if !in_reach {
                illegal(format!(
                    "{} is not within {legs} step(s) of {} through empty cells",
                    label(to),
                    label(from)
                ))
            } else {
                Ok(())
            }
        }
        None if !in_reach => illegal(format!(
            "{} is not within {legs} step(s) of {} through empty cells",
            label(to),
            label(from)
        )),
        None => Ok(()),
    }
}
