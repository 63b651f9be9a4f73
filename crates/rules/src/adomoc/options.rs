//! Adomoc's options: what they hold, how `--option key=value` sets them, and how
//! they are described to players.

use super::SpiralMode;
use crate::option_info::PLY_CAP;
use crate::option_info::REPETITION_DRAW;
use crate::option_value::unknown_option;
use crate::text::quoted;
use crate::{OptionInfo, OptionOrigin, OptionValues, OptionsError};
use serde::{Deserialize, Serialize};

/// Adomoc options. Keys for `--option key=value` are the field names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdomocOptions {
    /// M1: which spiral families the board has (`both`, `ccw`, `cw`, as in records).
    pub spirals: SpiralMode,
    /// The official variant Infinite: no consuming, and moons may not originate primes.
    pub infinite: bool,
    /// The official variant Altogether: when the game ends, the higher sum of cycle numbers
    /// of one's pieces on the board wins (the centre counts 9); equal sums draw.
    pub altogether: bool,
    /// A Tabula addition (M11): the third occurrence of a position draws.
    pub repetition_draw: bool,
    /// A Tabula addition: the game is drawn after this many plies (0 = never).
    pub ply_cap: u32,
}

impl Default for AdomocOptions {
    fn default() -> Self {
        AdomocOptions {
            spirals: SpiralMode::Both,
            infinite: false,
            altogether: false,
            repetition_draw: true,
            ply_cap: 0,
        }
    }
}

/// The options described for people, in the order of the options' fields.
pub(super) const OPTION_INFO: [OptionInfo; 5] = [
    OptionInfo {
        key: "spirals",
        name: "Spirals",
        explanation: "Which spiral lines pieces may move along: both families, or only one.",
        values: OptionValues::Choice(&["both", "ccw", "cw"]),
        origin: OptionOrigin::Reading,
    },
    OptionInfo {
        key: "infinite",
        name: "Infinite",
        explanation: "No consuming, and moons may not originate primes.",
        values: OptionValues::Flag,
        origin: OptionOrigin::Designer,
    },
    OptionInfo {
        key: "altogether",
        name: "Altogether",
        explanation: "At the end, the higher sum of the cycles one's pieces stand on wins (the centre counts 9).",
        values: OptionValues::Flag,
        origin: OptionOrigin::Designer,
    },
    REPETITION_DRAW,
    OptionInfo {
        key: "ply_cap",
        name: "Move limit",
        explanation: "The game is drawn after this many plies (0: never).",
        values: PLY_CAP,
        origin: OptionOrigin::Tabula,
    },
];

/// Sets one option from `key=value` text.
pub(super) fn set_option(
    options: &mut AdomocOptions,
    key: &str,
    value: &str,
) -> Result<(), OptionsError> {
    use crate::option_value::{flag, number};
    match key {
        "spirals" => {
            options.spirals = match value {
                "both" => SpiralMode::Both,
                "ccw" => SpiralMode::CcwInward,
                "cw" => SpiralMode::CwInward,
                _ => {
                    return Err(OptionsError::new(format!(
                        "spirals needs both, ccw or cw, not {value_q}",
                        value_q = quoted(value)
                    )));
                }
            }
        }
        "infinite" => options.infinite = flag(key, value)?,
        "altogether" => options.altogether = flag(key, value)?,
        "repetition_draw" => options.repetition_draw = flag(key, value)?,
        "ply_cap" => options.ply_cap = number(key, value, 0..=u32::MAX as u64)?,
        _ => return Err(unknown_option("adomoc", key, &OPTION_INFO)),
    }
    Ok(())
}
