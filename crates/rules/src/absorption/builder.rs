//! Building an action click by click. Each legal action is a set of steps (the squares
//! picked, the parts placed, the destination, the gifts); steps may come in any order, and
//! the builder offers exactly the steps that some legal action still contains.

use super::Absorption;
use super::moves::AbsorptionMove;
use crate::{Game, IllegalMove, MoveBuilder};

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

#[derive(Clone, Debug, Default)]
pub struct AbsorptionBuilder {
    steps: Vec<AbsorptionStep>,
}

/// The steps that make up an action.
pub fn steps_of(mv: &AbsorptionMove) -> Vec<AbsorptionStep> {
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

impl AbsorptionBuilder {
    pub fn steps(&self) -> &[AbsorptionStep] {
        &self.steps
    }

    /// The legal actions that contain every step taken so far, with their steps.
    fn consistent(&self, game: &Absorption) -> Vec<(AbsorptionMove, Vec<AbsorptionStep>)> {
        game.legal_moves()
            .map(|mv| {
                let steps = steps_of(&mv);
                (mv, steps)
            })
            .filter(|(_, steps)| self.steps.iter().all(|s| steps.contains(s)))
            .collect()
    }
}

impl MoveBuilder<Absorption> for AbsorptionBuilder {
    type Step = AbsorptionStep;

    fn legal_steps(&self, game: &Absorption) -> Vec<AbsorptionStep> {
        let mut next = Vec::new();
        for (_, steps) in self.consistent(game) {
            for step in steps {
                if !self.steps.contains(&step) && !next.contains(&step) {
                    next.push(step);
                }
            }
        }
        next
    }

    fn push(&mut self, game: &Absorption, step: AbsorptionStep) -> Result<(), IllegalMove> {
        if self.legal_steps(game).contains(&step) {
            self.steps.push(step);
            Ok(())
        } else {
            Err(IllegalMove::new(format!(
                "{step:?} does not continue any legal action"
            )))
        }
    }

    fn pop(&mut self) -> bool {
        self.steps.pop().is_some()
    }

    fn complete_move(&self, game: &Absorption) -> Option<AbsorptionMove> {
        self.consistent(game)
            .into_iter()
            .find(|(_, steps)| steps.len() == self.steps.len())
            .map(|(mv, _)| mv)
    }
}
