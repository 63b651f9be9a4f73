//! How a review judges moves: the bot that evaluates positions and the thresholds of the
//! marks, from `config/review.ron` (built in; a file may replace it).

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use tabula_bot::BotSpec;
use tabula_rules::text::quoted;

const BUILT_IN: &str = include_str!("../../../../config/review.ron");

/// A move's mark, by how far it lowered its mover's chance of winning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The name for `count` of them: "1 blunder", "2 blunders".
    pub fn counted(self, count: usize) -> String {
        match (self, count) {
            (_, 1) => format!("1 {}", self.name()),
            (Mark::Inaccuracy, n) => format!("{n} inaccuracies"),
            (_, n) => format!("{n} {}s", self.name()),
        }
    }

    /// The sign annotators of abstract games write after such a move.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// The review's bot and thresholds.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewSettings {
    /// The bot whose search judges every position, as a bot spec.
    pub bot: String,
    /// The least fall in the mover's chance (0 to 1) that each mark needs.
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
    /// Each position is first searched for one of `looks` equal parts of the bot's time a
    /// move; a move whose fall is then in doubt (at least `doubt`, short of an inaccuracy)
    /// gets the rest of the time. 1 (unless said): every position gets the whole time. A bot
    /// capped by iterations always looks once ([`crate::Review::new`]).
    #[serde(default = "one_look")]
    pub looks: u32,
    #[serde(default)]
    pub doubt: f64,
}

/// One look at each position: the serde default where settings or evaluations predate looks.
pub(super) fn one_look() -> u32 {
    1
}

/// More parts than this would make a first look too short to judge by.
const MAX_LOOKS: u32 = 8;

impl ReviewSettings {
    /// The settings shipped with the game, read once.
    pub fn built_in() -> &'static ReviewSettings {
        static SETTINGS: OnceLock<ReviewSettings> = OnceLock::new();
        SETTINGS.get_or_init(|| {
            ReviewSettings::parse(BUILT_IN).expect("config/review.ron is checked by a test")
        })
    }

    /// Reads a review settings file; the error names the line and column, or the field.
    pub fn parse(text: &str) -> Result<ReviewSettings, String> {
        let settings: ReviewSettings = ron::from_str(text).map_err(|e| {
            tabula_rules::text::shown_line(&format!(
                "review.ron: line {}, column {}: {}",
                e.span.start.line, e.span.start.col, e.code
            ))
        })?;
        settings.check().map_err(|e| format!("review.ron: {e}"))?;
        Ok(settings)
    }

    /// The thresholds must rise from inaccuracy to blunder within 0 to 1, and the bot must
    /// search.
    pub fn check(&self) -> Result<(), String> {
        let thresholds = [self.inaccuracy, self.mistake, self.blunder];
        if !thresholds
            .iter()
            .all(|t| (0.0..=1.0).contains(t) && *t > 0.0)
            || !thresholds.is_sorted()
        {
            return Err(format!(
                "inaccuracy, mistake and blunder must rise within 0 to 1, not {}, {} and {}",
                self.inaccuracy, self.mistake, self.blunder
            ));
        }
        if !(1..=MAX_LOOKS).contains(&self.looks) {
            return Err(format!(
                "looks must be 1 to {MAX_LOOKS}, not {}",
                self.looks
            ));
        }
        if self.looks > 1 && !(self.doubt > 0.0 && self.doubt < self.inaccuracy) {
            return Err(format!(
                "doubt must be above 0 and below inaccuracy ({}), not {}",
                self.inaccuracy, self.doubt
            ));
        }
        self.spec().map(|_| ())
    }

    /// Whether a move that lowered its mover's chance by `loss`, judged by a part of the
    /// bot's time, is worth another part: close below the least mark, where a longer search
    /// (which sees a bad move's replies better, so finds it falls further) may mark it.
    pub fn in_doubt(&self, loss: f64) -> bool {
        self.looks > 1 && loss >= self.doubt && loss < self.inaccuracy
    }

    /// The review's bot, which must search (a random bot judges nothing).
    pub fn spec(&self) -> Result<BotSpec, String> {
        let spec: BotSpec = self.bot.parse().map_err(|e| format!("bot: {e}"))?;
        require_search(spec).map_err(|e| format!("bot {}: {e}", quoted(&self.bot)))
    }

    /// The mark for a fall of `loss` in the mover's chance, if it earns one.
    pub fn mark(&self, loss: f64) -> Option<Mark> {
        let thresholds = [
            (Mark::Blunder, self.blunder),
            (Mark::Mistake, self.mistake),
            (Mark::Inaccuracy, self.inaccuracy),
        ];
        thresholds
            .into_iter()
            .find(|&(_, least)| loss >= least)
            .map(|(mark, _)| mark)
    }
}

/// `spec` when it searches; a random bot has no opinion of a position.
pub fn require_search(spec: BotSpec) -> Result<BotSpec, String> {
    match spec {
        BotSpec::Random => Err("a review needs a bot that searches, not random".to_string()),
        spec => Ok(spec),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_settings_read_and_mark_by_their_thresholds() {
        let settings = ReviewSettings::parse(BUILT_IN).unwrap();
        assert_eq!(
            settings.spec(),
            BotSpec::level(tabula_bot::Levels::built_in().top())
        );
        assert_eq!(settings.mark(0.0), None);
        assert_eq!(settings.mark(settings.inaccuracy), Some(Mark::Inaccuracy));
        assert_eq!(settings.mark(settings.mistake), Some(Mark::Mistake));
        assert_eq!(settings.mark(1.0), Some(Mark::Blunder));
        assert!(settings.mark(settings.inaccuracy - 1e-9).is_none());
        // Short of a mark and not far short: another look.
        assert!(settings.looks > 1);
        assert!(settings.in_doubt(settings.doubt));
        assert!(!settings.in_doubt(settings.doubt - 1e-9));
        assert!(!settings.in_doubt(settings.inaccuracy));
    }

    #[test]
    fn bad_settings_are_named() {
        let cases = [
            (
                "(bot: \"random\", inaccuracy: 0.1, mistake: 0.2, blunder: 0.3)",
                "searches",
            ),
            (
                "(bot: \"level:17\", inaccuracy: 0.1, mistake: 0.2, blunder: 0.3)",
                "level:N must be 1 to 16",
            ),
            (
                "(bot: \"level:5\", inaccuracy: 0.3, mistake: 0.2, blunder: 0.3)",
                "must rise",
            ),
            (
                "(bot: \"level:5\", inaccuracy: 0.1, mistake: 0.2, blunder: 1.5)",
                "must rise",
            ),
            (
                "(bot: \"level:5\", inaccuracy: NaN, mistake: 0.2, blunder: 0.3)",
                "must rise",
            ),
            (
                "(bot: \"level:5\", inaccuracy: 0.1, mistake: 0.2)",
                "blunder",
            ),
            (
                "(bot: \"level:5\", inaccuracy: 0.1, mistake: 0.2, blunder: 0.3, x: 1)",
                "x",
            ),
            (
                "(bot: \"level:5\", inaccuracy: 0.1, mistake: 0.2, blunder: 0.3, looks: 0)",
                "looks must be 1 to 8, not 0",
            ),
            (
                "(bot: \"level:5\", inaccuracy: 0.1, mistake: 0.2, blunder: 0.3, looks: 3)",
                "doubt must be above 0 and below inaccuracy (0.1), not 0",
            ),
            (
                "(bot: \"level:5\", inaccuracy: 0.1, mistake: 0.2, blunder: 0.3, looks: 3, doubt: 0.1)",
                "doubt must be above 0",
            ),
        ];
        for (text, said) in cases {
            let error = ReviewSettings::parse(text).unwrap_err();
            assert!(
                error.starts_with("review.ron: ") && error.contains(said),
                "{text}: {error}"
            );
        }
    }

    #[test]
    fn marks_are_counted_in_words() {
        assert_eq!(Mark::Inaccuracy.counted(0), "0 inaccuracies");
        assert_eq!(Mark::Inaccuracy.counted(1), "1 inaccuracy");
        assert_eq!(Mark::Blunder.counted(2), "2 blunders");
        assert_eq!(Mark::Mistake.counted(1), "1 mistake");
    }
}
