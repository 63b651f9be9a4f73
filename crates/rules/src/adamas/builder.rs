//! Building an Adamas move click by click (adamas.md §4.6, "UI"): pick a stack to split
//! or a cell to merge into, then add or remove one piece at a time.

use super::moves::{AdamasMove, Part, Parts};
use super::{Adamas, generate};
use crate::{Game, IllegalMove, MoveBuilder, Status};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdamasStep {
    /// Start a split from the mover's stack on this cell.
    SplitFrom(usize),
    /// Start a merge into this cell.
    MergeTo(usize),
    /// One more piece: to this destination (split) or from this source (merge).
    Add(usize),
    /// One piece fewer for this cell.
    Remove(usize),
}

#[derive(Clone, Debug, Default)]
pub struct AdamasBuilder {
    steps: Vec<AdamasStep>,
}

/// What the steps so far amount to.
enum Draft {
    Empty,
    Split { from: usize, parts: Parts },
    Merge { to: usize, parts: Parts },
}

impl AdamasBuilder {
    fn draft(&self) -> Draft {
        let mut draft = Draft::Empty;
        for step in &self.steps {
            match (step, &mut draft) {
                (AdamasStep::SplitFrom(from), _) => {
                    draft = Draft::Split {
                        from: *from,
                        parts: Parts::new(),
                    }
                }
                (AdamasStep::MergeTo(to), _) => {
                    draft = Draft::Merge {
                        to: *to,
                        parts: Parts::new(),
                    }
                }
                (
                    AdamasStep::Add(cell),
                    Draft::Split { parts, .. } | Draft::Merge { parts, .. },
                ) => add_piece(parts, *cell),
                (
                    AdamasStep::Remove(cell),
                    Draft::Split { parts, .. } | Draft::Merge { parts, .. },
                ) => remove_piece(parts, *cell),
                (_, Draft::Empty) => {}
            }
        }
        draft
    }

    /// The parts chosen so far (for showing counts and the pieces left behind).
    pub fn parts(&self) -> Parts {
        match self.draft() {
            Draft::Empty => Parts::new(),
            Draft::Split { parts, .. } | Draft::Merge { parts, .. } => parts,
        }
    }

    /// The split source or merge destination chosen, if any.
    pub fn anchor(&self) -> Option<AdamasStep> {
        match self.draft() {
            Draft::Empty => None,
            Draft::Split { from, .. } => Some(AdamasStep::SplitFrom(from)),
            Draft::Merge { to, .. } => Some(AdamasStep::MergeTo(to)),
        }
    }

    fn candidates(&self, game: &Adamas) -> Vec<AdamasStep> {
        let mover = game.to_move().0;
        match self.draft() {
            Draft::Empty => {
                let mut steps = Vec::new();
                for cell in 0..game.grid.len() {
                    if game.stack(cell).is_some_and(|(p, _)| p.0 == mover)
                        && !game.valid_destinations(cell).is_empty()
                    {
                        steps.push(AdamasStep::SplitFrom(cell));
                    }
                }
                for cell in 0..game.grid.len() {
                    if merge_sources(game, cell).len() >= 2 {
                        steps.push(AdamasStep::MergeTo(cell));
                    }
                }
                steps
            }
            Draft::Split { from, parts } => game
                .valid_destinations(from)
                .into_iter()
                .map(AdamasStep::Add)
                .chain(parts.iter().map(|p| AdamasStep::Remove(p.cell as usize)))
                .collect(),
            Draft::Merge { parts, to } => merge_sources(game, to)
                .into_iter()
                .map(AdamasStep::Add)
                .chain(parts.iter().map(|p| AdamasStep::Remove(p.cell as usize)))
                .collect(),
        }
    }

    /// Whether the steps so far could still end in a legal move.
    fn is_consistent(&self, game: &Adamas) -> bool {
        match self.draft() {
            Draft::Empty => true,
            Draft::Split { from, parts } => {
                parts.is_empty()
                    || game
                        .check_move(&AdamasMove::Split {
                            from: from as u8,
                            parts,
                        })
                        .is_ok()
            }
            Draft::Merge { to, parts } => {
                let sources = merge_sources(game, to);
                sources.len() >= 2
                    && parts.iter().all(|p| {
                        sources.contains(&(p.cell as usize))
                            && game
                                .stack(p.cell as usize)
                                .is_some_and(|(_, h)| p.count <= h)
                    })
            }
        }
    }
}

fn add_piece(parts: &mut Parts, cell: usize) {
    match parts.iter_mut().find(|p| p.cell as usize == cell) {
        Some(part) => part.count += 1,
        None => parts.push(Part {
            cell: cell as u8,
            count: 1,
        }),
    }
}

fn remove_piece(parts: &mut Parts, cell: usize) {
    if let Some(i) = parts.iter().position(|p| p.cell as usize == cell) {
        parts[i].count -= 1;
        if parts[i].count == 0 {
            parts.remove(i);
        }
    }
}

/// The mover's stacks that may send pieces to `to` this turn.
fn merge_sources(game: &Adamas, to: usize) -> Vec<usize> {
    if game.status() != Status::Ongoing {
        return Vec::new();
    }
    generate::merge_sources(game, to)
}

impl MoveBuilder<Adamas> for AdamasBuilder {
    type Step = AdamasStep;

    fn legal_steps(&self, game: &Adamas) -> Vec<AdamasStep> {
        if game.status() != Status::Ongoing {
            return Vec::new();
        }
        self.candidates(game)
            .into_iter()
            .filter(|step| {
                let mut next = self.clone();
                next.steps.push(step.clone());
                next.is_consistent(game)
            })
            .collect()
    }

    fn push(&mut self, game: &Adamas, step: AdamasStep) -> Result<(), IllegalMove> {
        if !self.legal_steps(game).contains(&step) {
            return Err(IllegalMove::new(format!(
                "{step:?} is not a legal next step here"
            )));
        }
        self.steps.push(step);
        Ok(())
    }

    fn pop(&mut self) -> bool {
        self.steps.pop().is_some()
    }

    fn complete_move(&self, game: &Adamas) -> Option<AdamasMove> {
        let mv = match self.draft() {
            Draft::Empty => return None,
            Draft::Split { from, parts } => AdamasMove::Split {
                from: from as u8,
                parts,
            },
            Draft::Merge { to, parts } => AdamasMove::Merge {
                to: to as u8,
                parts,
            },
        };
        game.check_move(&mv).is_ok().then_some(mv)
    }
}
