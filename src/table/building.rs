//! The move being built, as the board shows it: the cells it would change (its ghost
//! pieces) and the counts a cell's − and + or heights offer.

use super::{Choice, PieceLook};
use std::collections::{BTreeMap, BTreeSet};

/// A cell as the move being built would leave it: drawn as a see-through piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ghost {
    pub cell: usize,
    /// The piece left on the cell; `None` when the move empties it.
    pub after: Option<PieceLook>,
}

/// The cells whose piece differs between two positions' pieces, in cell order.
pub fn ghosts_between(before: &[(usize, PieceLook)], after: &[(usize, PieceLook)]) -> Vec<Ghost> {
    let before: BTreeMap<usize, PieceLook> = before.iter().copied().collect();
    let after: BTreeMap<usize, PieceLook> = after.iter().copied().collect();
    let cells: BTreeSet<usize> = before.keys().chain(after.keys()).copied().collect();
    cells
        .into_iter()
        .filter(|cell| before.get(cell) != after.get(cell))
        .map(|cell| Ghost {
            cell,
            after: after.get(&cell).copied(),
        })
        .collect()
}

/// A step that sets or changes how many pieces a cell gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepCount {
    /// One piece more to the cell (Adamas: a split's or merge's part).
    More,
    /// One piece fewer.
    Fewer,
    /// This many (Absorption: the height placed or given).
    Exactly(u16),
}

/// The count steps offered at one cell: indices into the choices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellCounts {
    pub more: Option<usize>,
    pub fewer: Option<usize>,
    /// Each offered count, smallest first.
    pub exactly: Vec<(u16, usize)>,
}

impl CellCounts {
    pub fn is_empty(&self) -> bool {
        self.more.is_none() && self.fewer.is_none() && self.exactly.is_empty()
    }
}

/// The count steps the choices offer at `cell`.
pub fn counts_at(choices: &[Choice], cell: usize) -> CellCounts {
    let mut counts = CellCounts::default();
    for (index, choice) in choices.iter().enumerate() {
        if choice.cell != Some(cell) {
            continue;
        }
        match choice.count {
            Some(StepCount::More) => counts.more = Some(index),
            Some(StepCount::Fewer) => counts.fewer = Some(index),
            Some(StepCount::Exactly(n)) => counts.exactly.push((n, index)),
            None => {}
        }
    }
    counts.exactly.sort_unstable();
    counts
}
