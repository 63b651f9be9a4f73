//! Absorption's events in words, for the move log and the terminal.

use super::{Absorption, AbsorptionEvent, Allotment, squares};
use crate::{Game, Player};

fn list(squares_list: &[u8]) -> String {
    squares_list
        .iter()
        .map(|&s| squares::label(s))
        .collect::<Vec<_>>()
        .join(", ")
}

fn allotment_text(allotment: &Allotment) -> String {
    allotment
        .iter()
        .map(|(s, n)| format!("{n} to {}", squares::label(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn describe_event(game: &Absorption, event: &AbsorptionEvent) -> String {
    let name = |p: Player| game.player_name(p);
    let label = |s: u8| squares::label(s);
    match *event {
        AbsorptionEvent::Split {
            from,
            height,
            parts,
        } => format!(
            "split the stack of {height} on {}: {}",
            label(from),
            allotment_text(&parts)
        ),
        AbsorptionEvent::Merged {
            dest,
            others,
            height,
        } => format!(
            "merged {} into {}, now {height} high",
            list(others.as_slice()),
            label(dest)
        ),
        AbsorptionEvent::Moved {
            from,
            to,
            follow_up,
        } => format!(
            "{} {} to {}",
            if follow_up {
                "follow-up: moved"
            } else {
                "moved"
            },
            label(from),
            label(to)
        ),
        AbsorptionEvent::Passed => "moves nothing more this turn".into(),
        AbsorptionEvent::Absorbed {
            absorber,
            target,
            owner,
            height,
            gifts,
        } => format!(
            "{} absorbed {}'s stack of {height} on {}: {}",
            name(absorber),
            name(owner),
            label(target),
            allotment_text(&gifts)
        ),
        AbsorptionEvent::TurnEnded { next } => format!("{}'s turn", name(next)),
        AbsorptionEvent::GameOver { status } => {
            format!("game over: {}", game.describe_status(status))
        }
    }
}
