//! Absorption's options: what they hold, how `--option key=value` sets them, and how
//! they are described to players.

use crate::option_info::PLY_CAP;
use crate::option_value::unknown_option;
use crate::{OptionInfo, OptionOrigin, OptionValues, OptionsError};
use serde::{Deserialize, Serialize};

/// Absorption options. Keys for `--option key=value` are the field names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AbsorptionOptions {
    /// Our decision B8: Light (rank 1) moves first unless this is set.
    pub dark_first: bool,
    /// B3: a three-stack merge needs only a connected group, and any member may be the
    /// destination (default: every other stack touches the destination).
    pub merge_connected: bool,
    /// B5: a split Small's follow-up may not pass over the emptied original square.
    pub forbid_pass_over_origin: bool,
    /// B1: after the mover's absorptions, the opponent absorbs too (the opponent choosing).
    pub symmetric_absorption: bool,
    /// A Tabula addition: the third time a position recurs at the start of a turn, the
    /// game is drawn.
    pub repetition_draw: bool,
    /// A Tabula addition: the game is drawn after this many turns (0 = never).
    pub turn_cap: u32,
}

impl Default for AbsorptionOptions {
    fn default() -> Self {
        AbsorptionOptions {
            dark_first: false,
            merge_connected: false,
            forbid_pass_over_origin: false,
            symmetric_absorption: false,
            repetition_draw: true,
            turn_cap: 0,
        }
    }
}

/// The options described for people, in the order of the options' fields.
pub(super) const OPTION_INFO: [OptionInfo; 6] = [
    OptionInfo {
        key: "dark_first",
        name: "Dark moves first",
        explanation: "Dark, on rank 8, makes the first move instead of Light.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Reading,
    },
    OptionInfo {
        key: "merge_connected",
        name: "Connected merges",
        explanation: "Three stacks may merge when they form a connected group, onto any of them.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Reading,
    },
    OptionInfo {
        key: "forbid_pass_over_origin",
        name: "No passing over the split's square",
        explanation: "After a split, a small stack's follow-up may not pass over the square it left.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Reading,
    },
    OptionInfo {
        key: "symmetric_absorption",
        name: "Both sides absorb",
        explanation: "After the mover's absorptions, the opponent absorbs too, choosing which.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Reading,
    },
    OptionInfo {
        key: "repetition_draw",
        name: "Draw by repetition",
        explanation: "The third time a position comes back at the start of a turn, the game is drawn.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Tabula,
    },
    OptionInfo {
        key: "turn_cap",
        name: "Turn limit",
        explanation: "The game is drawn after this many turns (0: never).",
        values: PLY_CAP,
        origin: OptionOrigin::Tabula,
    },
];

/// Sets one option from `key=value` text.
pub(super) fn set_option(
    options: &mut AbsorptionOptions,
    key: &str,
    value: &str,
) -> Result<(), OptionsError> {
    use crate::option_value::{flag, number};
    match key {
        "dark_first" => options.dark_first = flag(key, value)?,
        "merge_connected" => options.merge_connected = flag(key, value)?,
        "forbid_pass_over_origin" => options.forbid_pass_over_origin = flag(key, value)?,
        "symmetric_absorption" => options.symmetric_absorption = flag(key, value)?,
        "repetition_draw" => options.repetition_draw = flag(key, value)?,
        "turn_cap" => options.turn_cap = number(key, value, 0..=u32::MAX as u64)?,
        _ => return Err(unknown_option("absorption", key, &OPTION_INFO)),
    }
    Ok(())
}
