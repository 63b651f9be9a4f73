//! Reading `key=value` option text, shared by every game's `set_option`.

use crate::OptionsError;

pub(crate) fn flag(key: &str, value: &str) -> Result<bool, OptionsError> {
    match value {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(OptionsError::new(format!(
            "{key} needs true or false, not {value:?}"
        ))),
    }
}

pub(crate) fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, OptionsError> {
    value
        .parse()
        .map_err(|_| OptionsError::new(format!("{key} needs a number, not {value:?}")))
}
