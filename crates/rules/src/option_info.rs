//! Each game's options described for people: a name, what the option does in a sentence,
//! the values it takes and where it comes from, so every front end (the new-game screen,
//! `tabula-cli options`) says the same and nobody needs to know a key.

/// The values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValues {
    /// `true` or `false`.
    Flag,
    /// A whole number from `min` to `max`; `unset` names what an empty value means, for an
    /// option whose default depends on other options.
    Number {
        min: u64,
        max: u64,
        unset: Option<&'static str>,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Text: a Super-Adaptoid board's picture; empty is the standard board.
    Board,
}

/// Where an option comes from, which players should know: only the designers' own rules
/// are the game as published.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionOrigin {
    /// The designer's rules, or the options of the designer's own server or site.
    Designer,
    /// Another reading of a rule the designer's text leaves open (our decisions list them).
    Reading,
    /// A variant played on another site.
    Elsewhere,
    /// Added by Tabula: not part of the published game.
    Tabula,
}

impl OptionOrigin {
    pub fn label(self) -> &'static str {
        match self {
            OptionOrigin::Designer => "the designer's",
            OptionOrigin::Reading => "a reading of an open rule",
            OptionOrigin::Elsewhere => "a variant from elsewhere",
            OptionOrigin::Tabula => "a Tabula addition",
        }
    }
}

/// One option of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// As `--option` and records write it.
    pub key: &'static str,
    /// For people: "Board size".
    pub name: &'static str,
    /// What it does, in a sentence.
    pub explanation: &'static str,
    pub values: OptionValues,
    pub origin: OptionOrigin,
}

impl OptionValues {
    /// The values in words, for a terminal: "true or false", "2 to 8".
    pub fn describe(&self) -> String {
        match self {
            OptionValues::Flag => "true or false".to_string(),
            OptionValues::Number { min, max, .. } => format!("{min} to {max}"),
            OptionValues::Choice(words) => words.join(", "),
            OptionValues::Board => "a board's picture (@FILE reads one)".to_string(),
        }
    }

    /// What an empty value means, for an option that may be left unset.
    pub fn unset_means(&self) -> Option<&'static str> {
        match self {
            OptionValues::Number { unset, .. } => *unset,
            OptionValues::Board => Some("the standard board"),
            OptionValues::Flag | OptionValues::Choice(_) => None,
        }
    }
}

/// The draw on the third occurrence of a position, which three games share.
pub(crate) const REPETITION_DRAW: OptionInfo = OptionInfo {
    key: "repetition_draw",
    name: "Draw by repetition",
    explanation: "The third time a position comes back, the game is drawn.",
    values: OptionValues::Flag,
    origin: OptionOrigin::Tabula,
};

/// The values of a cap in plies or turns after which a game is drawn: 0 is no cap.
pub(crate) const PLY_CAP: OptionValues = OptionValues::Number {
    min: 0,
    max: u32::MAX as u64,
    unset: None,
};
