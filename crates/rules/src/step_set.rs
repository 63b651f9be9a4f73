//! A move builder for games whose moves are sets of steps (cells picked, parts placed,
//! growth chosen). Steps may come in any order, and the builder offers exactly the steps
//! that some legal move still contains, so a UI never offers a dead end.

use crate::{Game, IllegalMove, MoveBuilder};
use std::fmt::Debug;
use std::marker::PhantomData;

/// A game whose every move is a set of steps.
pub trait StepMoves: Game {
    type Step: Clone + Debug + PartialEq + Eq + Send + Sync;
    /// The steps that make up `mv` (no step twice).
    fn steps_of(mv: &Self::Move) -> Vec<Self::Step>;
}

#[derive(Debug)]
pub struct StepSetBuilder<G: StepMoves> {
    steps: Vec<G::Step>,
    game: PhantomData<fn() -> G>,
}

// Derives would demand `G: Clone + Default`; only the steps need it.
impl<G: StepMoves> Clone for StepSetBuilder<G> {
    fn clone(&self) -> Self {
        StepSetBuilder {
            steps: self.steps.clone(),
            game: PhantomData,
        }
    }
}

impl<G: StepMoves> Default for StepSetBuilder<G> {
    fn default() -> Self {
        StepSetBuilder {
            steps: Vec::new(),
            game: PhantomData,
        }
    }
}

impl<G: StepMoves> StepSetBuilder<G> {
    pub fn steps(&self) -> &[G::Step] {
        &self.steps
    }

    /// The legal moves that contain every step taken so far, with their steps.
    fn consistent(&self, game: &G) -> Vec<(G::Move, Vec<G::Step>)> {
        game.legal_moves()
            .map(|mv| {
                let steps = G::steps_of(&mv);
                (mv, steps)
            })
            .filter(|(_, steps)| self.steps.iter().all(|s| steps.contains(s)))
            .collect()
    }
}

impl<G: StepMoves> MoveBuilder<G> for StepSetBuilder<G> {
    type Step = G::Step;

    fn legal_steps(&self, game: &G) -> Vec<G::Step> {
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

    fn push(&mut self, game: &G, step: G::Step) -> Result<(), IllegalMove> {
        if self.legal_steps(game).contains(&step) {
            self.steps.push(step);
            Ok(())
        } else {
            Err(IllegalMove::new(format!(
                "{step:?} does not continue any legal move"
            )))
        }
    }

    fn pop(&mut self) -> bool {
        self.steps.pop().is_some()
    }

    fn complete_move(&self, game: &G) -> Option<G::Move> {
        self.consistent(game)
            .into_iter()
            .find(|(_, steps)| steps.len() == self.steps.len())
            .map(|(mv, _)| mv)
    }
}
