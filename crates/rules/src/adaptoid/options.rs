//! Adaptoid's options: what they hold, how `--option key=value` sets them, and how
//! they are described to players.

use super::board::Board;
use crate::option_info::REPETITION_DRAW;
use crate::option_value::unknown_option;
use crate::{OptionInfo, OptionOrigin, OptionValues, OptionsError};
use serde::{Deserialize, Serialize};

/// Adaptoid options. Keys for `--option key=value` are the field names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdaptoidOptions {
    /// D1: an attack on an adaptoid with more pincers (a sure loss) is not allowed.
    pub forbid_losing_attacks: bool,
    /// igGameCenter's start: the board starts empty, the first player places a white and
    /// a black bare adaptoid, and the second player picks a colour.
    pub pie_start: bool,
    /// A Tabula addition (D11): the third occurrence of a position draws.
    pub repetition_draw: bool,
    /// Super-Adaptoid: the board's text (see `Board::parse`); `None` is the standard
    /// 37-cell hexagon.
    pub board: Option<String>,
}

impl Default for AdaptoidOptions {
    fn default() -> Self {
        AdaptoidOptions {
            forbid_losing_attacks: false,
            pie_start: false,
            repetition_draw: true,
            board: None,
        }
    }
}

/// The options described for people, in the order of the options' fields.
pub(super) const OPTION_INFO: [OptionInfo; 4] = [
    OptionInfo {
        key: "forbid_losing_attacks",
        name: "No losing attacks",
        explanation: "An adaptoid may not attack an enemy with more pincers than its own.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Elsewhere,
    },
    OptionInfo {
        key: "pie_start",
        name: "Pie start",
        explanation: "The board starts empty: the first player places both adaptoids, the second picks a colour.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Elsewhere,
    },
    REPETITION_DRAW,
    OptionInfo {
        key: "board",
        name: "Board",
        explanation: "A Super-Adaptoid board of your own drawing instead of the standard hexagon.",
        values: OptionValues::Board,
        origin: OptionOrigin::Designer,
    },
];

/// Sets one option from `key=value` text.
pub(super) fn set_option(
    options: &mut AdaptoidOptions,
    key: &str,
    value: &str,
) -> Result<(), OptionsError> {
    use crate::option_value::flag;
    match key {
        "forbid_losing_attacks" => options.forbid_losing_attacks = flag(key, value)?,
        "pie_start" => options.pie_start = flag(key, value)?,
        "repetition_draw" => options.repetition_draw = flag(key, value)?,
        // An empty value is the standard board, as `settings_of` writes it.
        "board" if value.trim().is_empty() => options.board = None,
        "board" => {
            Board::parse(value).map_err(|e| OptionsError::new(format!("board: {e}")))?;
            options.board = Some(value.to_string());
        }
        _ => return Err(unknown_option("adaptoid", key, &OPTION_INFO)),
    }
    Ok(())
}
