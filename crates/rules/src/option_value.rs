//! Reading `key=value` option text, shared by every game's `set_option`.

use crate::text::{quoted, whole_number_as};
use crate::{OptionInfo, OptionsError};
use std::ops::RangeInclusive;

pub(crate) fn flag(key: &str, value: &str) -> Result<bool, OptionsError> {
    match value {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(OptionsError::new(format!(
            "{key} needs true or false, not {}",
            quoted(value)
        ))),
    }
}

/// A whole number within `range`, which must fit `T`.
pub(crate) fn number<T: TryFrom<u64>>(
    key: &str,
    value: &str,
    range: RangeInclusive<u64>,
) -> Result<T, OptionsError> {
    whole_number_as(key, value, range).map_err(OptionsError::new)
}

/// A number that may be left unset: an empty value (as `settings_of` writes an unset one)
/// leaves the game's own default, which depends on other options.
pub(crate) fn optional_number<T: TryFrom<u64>>(
    key: &str,
    value: &str,
    range: RangeInclusive<u64>,
) -> Result<Option<T>, OptionsError> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    number(key, value, range).map(Some)
}

/// The error for a key a game has no option for, naming the keys it has.
pub(crate) fn unknown_option(game: &str, key: &str, options: &[OptionInfo]) -> OptionsError {
    let known: Vec<&str> = options.iter().map(|option| option.key).collect();
    OptionsError::new(format!(
        "{game} has no option {} (known: {})",
        quoted(key),
        known.join(", ")
    ))
}
