use crate::text::shown;
use std::fmt;

/// A move that the rules refuse, with the reason in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub reason: String,
}

impl IllegalMove {
    pub fn new(reason: impl Into<String>) -> Self {
        IllegalMove {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move: {}", shown(&self.reason))
    }
}
impl std::error::Error for IllegalMove {}

/// Move text that cannot be read; `at` is the byte offset of the problem (shown to people
/// as a character number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub input: String,
    pub at: usize,
    pub message: String,
}

impl NotationError {
    pub fn new(input: &str, at: usize, message: impl Into<String>) -> Self {
        NotationError {
            input: input.to_string(),
            at,
            message: message.into(),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read move {} at character {}: {}",
            crate::text::quoted(&self.input),
            crate::text::character_number(&self.input, self.at),
            shown(&self.message)
        )
    }
}
impl std::error::Error for NotationError {}

/// A position string that cannot be read; `field` names the part that is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub field: String,
    pub message: String,
}

impl PositionError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        PositionError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad position string ({}): {}",
            shown(&self.field),
            shown(&self.message)
        )
    }
}
impl std::error::Error for PositionError {}

/// Game options that are unknown or out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionsError {
    pub message: String,
}

impl OptionsError {
    pub fn new(message: impl Into<String>) -> Self {
        OptionsError {
            message: message.into(),
        }
    }
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad game option: {}", shown(&self.message))
    }
}
impl std::error::Error for OptionsError {}
