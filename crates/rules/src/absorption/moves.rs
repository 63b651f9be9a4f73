//! The atomic actions of an Absorption turn (absorption.md §6): each is one `Move` of the
//! `Game` trait, and the same player acts again until the turn is over.

use serde::{Deserialize, Serialize};

/// Squares with a count each (split parts with their heights, absorption gifts), sorted by
/// square with unused slots zeroed, so equal contents compare equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<(u8, u8)>", into = "Vec<(u8, u8)>")]
pub struct Allotment {
    len: u8,
    squares: [u8; 4],
    counts: [u8; 4],
}

impl Allotment {
    /// Builds from `(square, count)` pairs in any order. `None` if there are more than four
    /// or a square repeats.
    pub fn new(pairs: &[(u8, u8)]) -> Option<Allotment> {
        if pairs.len() > 4 {
            return None;
        }
        let mut sorted = [(0u8, 0u8); 4];
        sorted[..pairs.len()].copy_from_slice(pairs);
        sorted[..pairs.len()].sort_unstable();
        if sorted[..pairs.len()].windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        let mut allotment = Allotment {
            len: pairs.len() as u8,
            ..Allotment::default()
        };
        for (i, &(square, count)) in sorted[..pairs.len()].iter().enumerate() {
            allotment.squares[i] = square;
            allotment.counts[i] = count;
        }
        Some(allotment)
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        (0..self.len()).map(|i| (self.squares[i], self.counts[i]))
    }

    pub fn total(&self) -> u8 {
        self.counts[..self.len()].iter().sum()
    }

    pub fn squares(&self) -> &[u8] {
        &self.squares[..self.len()]
    }
}

/// Up to three squares, sorted, unused slots zeroed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<u8>", into = "Vec<u8>")]
pub struct SquareList {
    len: u8,
    squares: [u8; 3],
}

impl SquareList {
    pub fn new(squares: &[u8]) -> Option<SquareList> {
        if squares.len() > 3 {
            return None;
        }
        let mut list = SquareList {
            len: squares.len() as u8,
            squares: [0; 3],
        };
        list.squares[..squares.len()].copy_from_slice(squares);
        list.squares[..squares.len()].sort_unstable();
        if list.as_slice().windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        Some(list)
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.squares[..self.len as usize]
    }
}

// Records are read through the checked constructors, so a saved move cannot hold a
// repeated square or more parts than the arrays have.
impl TryFrom<Vec<(u8, u8)>> for Allotment {
    type Error = &'static str;
    fn try_from(pairs: Vec<(u8, u8)>) -> Result<Self, Self::Error> {
        Allotment::new(&pairs).ok_or("at most four (square, count) pairs, no square twice")
    }
}

impl From<Allotment> for Vec<(u8, u8)> {
    fn from(allotment: Allotment) -> Self {
        allotment.iter().collect()
    }
}

impl TryFrom<Vec<u8>> for SquareList {
    type Error = &'static str;
    fn try_from(squares: Vec<u8>) -> Result<Self, Self::Error> {
        SquareList::new(&squares).ok_or("at most three squares, no square twice")
    }
}

impl From<SquareList> for Vec<u8> {
    fn from(list: SquareList) -> Self {
        list.as_slice().to_vec()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AbsorptionMove {
    /// Phase A: the stack on `from` splits; `parts` gives each new stack's square and height.
    Split { from: u8, parts: Allotment },
    /// Phase A: the stacks on `others` join the stack on `dest`.
    Merge { dest: u8, others: SquareList },
    /// Phase A′: a Small just split off makes its one immediate move.
    FollowUp { from: u8, to: u8 },
    /// Phase B: the optional move of a stack not involved in phase A.
    Move { from: u8, to: u8 },
    /// Ends phases A′ and B without (further) moving.
    Pass,
    /// Phase C: the enemy stack on `target` is absorbed, its pieces given as `gifts` says.
    Absorb { target: u8, gifts: Allotment },
}

impl AbsorptionMove {
    /// Every square the action names, for range checks.
    pub fn squares(&self) -> impl Iterator<Item = u8> + '_ {
        let (first, second, list): (Option<u8>, Option<u8>, &[u8]) = match self {
            AbsorptionMove::Split { from, parts } => (Some(*from), None, parts.squares()),
            AbsorptionMove::Merge { dest, others } => (Some(*dest), None, others.as_slice()),
            AbsorptionMove::FollowUp { from, to } | AbsorptionMove::Move { from, to } => {
                (Some(*from), Some(*to), &[])
            }
            AbsorptionMove::Pass => (None, None, &[]),
            AbsorptionMove::Absorb { target, gifts } => (Some(*target), None, gifts.squares()),
        };
        first.into_iter().chain(second).chain(list.iter().copied())
    }
}
