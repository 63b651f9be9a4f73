//! The bot levels, read from `config/bots.ron` (built in; a file may replace it).

use crate::config::{Budget, MctsConfig};
use serde::Deserialize;
use std::sync::OnceLock;

const BUILT_IN: &str = include_str!("../../../config/bots.ron");

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    pub name: String,
    /// What playing it is like, and its measured strength (docs/bots.md), for menus.
    #[serde(default)]
    pub about: String,
    pub budget: Budget,
    pub search: MctsConfig,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Levels {
    pub levels: Vec<Level>,
}

impl Levels {
    /// The levels shipped with the game, read once (menus ask every frame).
    pub fn built_in() -> &'static Levels {
        static LEVELS: OnceLock<Levels> = OnceLock::new();
        LEVELS
            .get_or_init(|| Levels::parse(BUILT_IN).expect("config/bots.ron is checked by a test"))
    }

    /// Reads a levels file; the error names the line and column.
    pub fn parse(text: &str) -> Result<Levels, String> {
        let levels: Levels = ron::from_str(text).map_err(|e| format!("bots.ron: {e}"))?;
        if levels.levels.is_empty() {
            return Err("bots.ron: no levels".to_string());
        }
        for (i, level) in levels.levels.iter().enumerate() {
            if level.budget.iterations.is_none() && level.budget.millis.is_none() {
                return Err(format!(
                    "bots.ron: level {} ({}) has no budget: give iterations or millis",
                    i + 1,
                    level.name
                ));
            }
        }
        Ok(levels)
    }

    /// Level `n`, counted from 1.
    pub fn get(&self, n: usize) -> Option<&Level> {
        n.checked_sub(1).and_then(|i| self.levels.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_levels_parse_and_grow() {
        let levels = Levels::built_in();
        assert_eq!(levels.levels.len(), 5);
        assert_eq!(levels.get(1).unwrap().name, "Beginner");
        assert!(levels.get(0).is_none() && levels.get(6).is_none());
        // The time-limited top level answers within 2 seconds.
        assert!(levels.get(5).unwrap().budget.millis.unwrap() <= 2000);
        // With no iteration cap a level searches until its time runs out: more than any cap.
        let iterations = |budget: &Budget| budget.iterations.unwrap_or(u64::MAX);
        for pair in levels.levels.windows(2) {
            let (lower, higher) = (&pair[0], &pair[1]);
            let (below, above) = (&lower.budget, &higher.budget);
            assert!(
                iterations(above) >= iterations(below),
                "{} may search fewer iterations than {}",
                higher.name,
                lower.name
            );
            // A level capped by iterations alone answers quickly, so time limits are
            // compared only between levels that both have one.
            let more_time = match (below.millis, above.millis) {
                (Some(b), Some(a)) => {
                    assert!(a >= b, "{} has less time than {}", higher.name, lower.name);
                    a > b
                }
                _ => false,
            };
            assert!(
                iterations(above) > iterations(below) || more_time,
                "{} searches no more than {}",
                higher.name,
                lower.name
            );
        }
    }

    #[test]
    fn a_broken_levels_file_names_the_place() {
        let error =
            Levels::parse("(levels: [(name: \"x\", budget: (), search: (pace: 1))])").unwrap_err();
        assert!(error.contains("pace") && error.contains("1:"), "{error}");
        let error = Levels::parse("(levels: [(name: \"x\", budget: (), search: ())])").unwrap_err();
        assert!(error.contains("no budget"), "{error}");
    }
}
