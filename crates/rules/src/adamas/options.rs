//! Adamas's options: what they hold, how `--option key=value` sets them, and how
//! they are described to players.

use super::MAX_PIECES;
use super::board::MAX_SIDE;
use crate::option_info::PLY_CAP;
use crate::option_info::REPETITION_DRAW;
use crate::option_value::unknown_option;
use crate::{OptionInfo, OptionOrigin, OptionValues, OptionsError};
use serde::{Deserialize, Serialize};

/// Adamas options. Keys for `--option key=value` are the field names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdamasOptions {
    /// Cells per side, 2 to 8 (pbmserv `-size`). `None`: 3 for two players, 4 for three.
    pub size: Option<u8>,
    /// Pieces per player, 1 to 99 (pbmserv `-pieces`). `None`: `4 (size - 1)`.
    pub pieces: Option<u16>,
    /// 2 or 3.
    pub players: u8,
    /// Progressive capture (pbmserv `-prog_cap`): threats recounted after each split part.
    pub prog_cap: bool,
    /// A Tabula addition: the third time a position recurs, the game is drawn.
    pub repetition_draw: bool,
    /// A Tabula addition: draw after this many plies without a capture (0 = never).
    pub capture_cap: u32,
    /// Our decision for 3 players: a player removed for having no legal move has their
    /// pieces taken off the board (true) or left as neutral blockers (false).
    pub remove_stuck_pieces: bool,
}

impl Default for AdamasOptions {
    fn default() -> Self {
        AdamasOptions {
            size: None,
            pieces: None,
            players: 2,
            prog_cap: false,
            repetition_draw: true,
            capture_cap: 0,
            remove_stuck_pieces: true,
        }
    }
}

impl AdamasOptions {
    pub fn board_size(&self) -> usize {
        self.size
            .map(usize::from)
            .unwrap_or(if self.players == 3 { 4 } else { 3 })
    }

    pub fn pieces_each(&self) -> u16 {
        self.pieces
            .unwrap_or(4 * (self.board_size() as u16).saturating_sub(1))
    }

    pub fn validate(&self) -> Result<(), OptionsError> {
        if !(2..=3).contains(&self.players) {
            return Err(OptionsError::new(format!(
                "players must be 2 or 3, not {}",
                self.players
            )));
        }
        let size = self.board_size();
        if !(2..=MAX_SIDE).contains(&size) {
            return Err(OptionsError::new(format!(
                "size must be 2 to {MAX_SIDE}, not {size}"
            )));
        }
        let pieces = self.pieces_each();
        if !(1..=MAX_PIECES).contains(&pieces) {
            return Err(OptionsError::new(format!(
                "pieces must be 1 to {MAX_PIECES}, not {pieces}"
            )));
        }
        Ok(())
    }
}

/// The options described for people, in the order of the options' fields.
pub(super) const OPTION_INFO: [OptionInfo; 7] = [
    OptionInfo {
        key: "size",
        name: "Board size",
        explanation: "Cells on each side of the hexagonal board.",
        values: OptionValues::Number {
            min: 2,
            max: MAX_SIDE as u64,
            unset: Some("3, or 4 with three players"),
        },
        origin: OptionOrigin::Designer,
    },
    OptionInfo {
        key: "pieces",
        name: "Pieces per player",
        explanation: "How many pieces each player starts with, in stacks on the board's edge.",
        values: OptionValues::Number {
            min: 1,
            max: MAX_PIECES as u64,
            unset: Some("4 × (size − 1)"),
        },
        origin: OptionOrigin::Designer,
    },
    OptionInfo {
        key: "players",
        name: "Players",
        explanation: "Two players, or three on a larger board.",
        values: OptionValues::Number {
            min: 2,
            max: 3,
            unset: None,
        },
        origin: OptionOrigin::Designer,
    },
    OptionInfo {
        key: "prog_cap",
        name: "Progressive capture",
        explanation: "A split's parts land one after another, and each capture may open the next.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Designer,
    },
    REPETITION_DRAW,
    OptionInfo {
        key: "capture_cap",
        name: "Draw without captures",
        explanation: "The game is drawn after this many plies with no capture (0: never).",
        values: PLY_CAP,
        origin: OptionOrigin::Tabula,
    },
    OptionInfo {
        key: "remove_stuck_pieces",
        name: "Remove a stuck player's pieces",
        explanation: "With three players, a player left with no move is out, and their pieces leave the board.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Reading,
    },
];

/// Sets one option from `key=value` text.
pub(super) fn set_option(
    options: &mut AdamasOptions,
    key: &str,
    value: &str,
) -> Result<(), OptionsError> {
    use crate::option_value::{flag, number, optional_number};
    match key {
        "size" => options.size = optional_number(key, value, 2..=MAX_SIDE as u64)?,
        "pieces" => options.pieces = optional_number(key, value, 1..=MAX_PIECES as u64)?,
        "players" => options.players = number(key, value, 2..=3)?,
        "prog_cap" => options.prog_cap = flag(key, value)?,
        "repetition_draw" => options.repetition_draw = flag(key, value)?,
        "capture_cap" => options.capture_cap = number(key, value, 0..=u32::MAX as u64)?,
        "remove_stuck_pieces" => options.remove_stuck_pieces = flag(key, value)?,
        _ => return Err(unknown_option("adamas", key, &OPTION_INFO)),
    }
    Ok(())
}
