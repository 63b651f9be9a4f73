//! Building an action click by click. Each legal action is a set of steps (the squares
//! picked, the parts placed, the destination, the gifts); steps may come in any order, and
//! the builder offers exactly the steps that some legal action still contains.

use super::Absorption;
use super::moves::AbsorptionMove;
use crate::step_set::{StepMoves, StepSetBuilder};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbsorptionStep {
    /// A stack taking part: the one to split, merge, move or absorb.
    Pick(u8),
    /// Split: a new stack of `height` on `square`.
    Place { square: u8, height: u8 },
    /// Merge: the square the merged stack ends on.
    Destination(u8),
    /// Follow-up or move: where the picked stack goes.
    To(u8),
    /// Absorption: `count` of the absorbed pieces go onto the stack on `square`.
    Give { square: u8, count: u8 },
    /// No (more) moving this turn.
    Pass,
}

pub type AbsorptionBuilder = StepSetBuilder<Absorption>;

impl StepMoves for Absorption {
    type Step = AbsorptionStep;

    fn steps_of(mv: &AbsorptionMove) -> Vec<AbsorptionStep> {
        use AbsorptionStep::*;
        match *mv {
            AbsorptionMove::Split { from, parts } => std::iter::once(Pick(from))
                .chain(
                    parts
                        .iter()
                        .map(|(square, height)| Place { square, height }),
                )
                .collect(),
            AbsorptionMove::Merge { dest, others } => std::iter::once(Pick(dest))
                .chain(others.as_slice().iter().map(|&s| Pick(s)))
                .chain(std::iter::once(Destination(dest)))
                .collect(),
            AbsorptionMove::FollowUp { from, to } | AbsorptionMove::Move { from, to } => {
                vec![Pick(from), To(to)]
            }
            AbsorptionMove::Pass => vec![Pass],
            AbsorptionMove::Absorb { target, gifts } => std::iter::once(Pick(target))
                .chain(gifts.iter().map(|(square, count)| Give { square, count }))
                .collect(),
        }
    }
}
