//! An Adaptoid turn (adaptoid.md §5) and the two moves of the pie start.

use serde::{Deserialize, Serialize};

/// The two colours. White moves first; under the pie start the seats pick colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(index: usize) -> Colour {
        if index == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    pub fn other(self) -> Colour {
        Colour::from_index(1 - self.index())
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }
}

/// Step 2 of a turn. Cells are those of the board after the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Growth {
    /// A bare adaptoid on an empty cell next to an own adaptoid.
    Create(u8),
    /// A leg for the own adaptoid on the cell.
    Leg(u8),
    /// A pincer for the own adaptoid on the cell.
    Pincer(u8),
}

impl Growth {
    pub fn cell(self) -> u8 {
        match self {
            Growth::Create(c) | Growth::Leg(c) | Growth::Pincer(c) => c,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AdaptoidMove {
    /// A turn: an optional move (`from` to `to`, an attack when `to` holds an enemy), then
    /// the growth, `None` only when no growth is possible.
    Turn {
        step: Option<(u8, u8)>,
        growth: Option<Growth>,
    },
    /// Pie start: the first player puts a white and a black bare adaptoid on the board.
    Place { white: u8, black: u8 },
    /// Pie start: the second player takes a colour (White moves next).
    Choose(Colour),
}
