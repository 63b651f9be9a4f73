//! The bot levels, read from `config/bots.ron` (built in; a file may replace it).

use crate::config::{Budget, MctsConfig};
use crate::spec::{MAX_EXPLORATION, MAX_TEMPERATURE};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use tabula_rules::Game;

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
    /// Where a game needs its own settings to keep the ladder's steps even, by
    /// `Game::NAME`.
    #[serde(default)]
    pub games: BTreeMap<String, GameLevel>,
}

/// One game's settings for a level, each replacing the level's whole (a `search` given
/// here starts from the search defaults, not from the level's).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameLevel {
    pub budget: Option<Budget>,
    pub search: Option<MctsConfig>,
}

/// How many levels the game had before its ladder (records of format 2 and older).
pub const FORMER_LEVELS: usize = 5;

/// The games a levels file may name.
const GAMES: [&str; 4] = [
    tabula_rules::absorption::Absorption::NAME,
    tabula_rules::adamas::Adamas::NAME,
    tabula_rules::adaptoid::Adaptoid::NAME,
    tabula_rules::adomoc::Adomoc::NAME,
];

impl Level {
    /// The search and budget this level plays `game` (a `Game::NAME`) with.
    pub fn for_game(&self, game: &str) -> (MctsConfig, Budget) {
        let own = self.games.get(game);
        (
            own.and_then(|g| g.search.clone())
                .unwrap_or_else(|| self.search.clone()),
            own.and_then(|g| g.budget).unwrap_or(self.budget),
        )
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Levels {
    pub levels: Vec<Level>,
    /// The level that plays as each of the five levels the game had before its ladder
    /// (records of format 2 and older, settings written then), from the former level 1.
    pub formerly: Vec<usize>,
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
        let count = levels.levels.len();
        if levels.formerly.len() != FORMER_LEVELS
            || levels.formerly.iter().any(|n| !(1..=count).contains(n))
            || levels.formerly.windows(2).any(|pair| pair[0] > pair[1])
        {
            return Err(format!(
                "bots.ron: formerly needs {FORMER_LEVELS} levels, each 1 to {count} and none \
                 below the one before"
            ));
        }
        for (i, level) in levels.levels.iter().enumerate() {
            if let Some(game) = level.games.keys().find(|g| !GAMES.contains(&g.as_str())) {
                return Err(format!(
                    "bots.ron: level {} ({}) names {game:?}, not a game ({})",
                    i + 1,
                    level.name,
                    GAMES.join(", ")
                ));
            }
            for game in GAMES {
                let (search, budget) = level.for_game(game);
                // NaN would make a level's search never equal itself (no tree kept).
                if !(0.0..=MAX_TEMPERATURE).contains(&search.temperature)
                    || !(0.0..=MAX_EXPLORATION).contains(&search.exploration)
                {
                    return Err(format!(
                        "bots.ron: level {} ({}) in {game}: temperature must be 0 to \
                         {MAX_TEMPERATURE} and exploration 0 to {MAX_EXPLORATION}",
                        i + 1,
                        level.name
                    ));
                }
                if budget.iterations.is_none() && budget.millis.is_none() {
                    return Err(format!(
                        "bots.ron: level {} ({}) has no budget in {game}: give iterations or \
                         millis",
                        i + 1,
                        level.name
                    ));
                }
            }
        }
        Ok(levels)
    }

    /// Level `n`, counted from 1.
    pub fn get(&self, n: usize) -> Option<&Level> {
        n.checked_sub(1).and_then(|i| self.levels.get(i))
    }

    /// The strongest level.
    pub fn top(&self) -> usize {
        self.levels.len()
    }

    /// The level that plays as the former level `n` (1 to 5) played, or `None` for a
    /// number the former ladder did not have.
    pub fn from_former(&self, n: usize) -> Option<usize> {
        n.checked_sub(1).and_then(|i| self.formerly.get(i)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_levels_parse_and_grow() {
        let levels = Levels::built_in();
        let top = levels.top();
        assert_eq!(top, 12);
        assert_eq!(levels.get(1).unwrap().name, "Novice");
        assert!(levels.get(0).is_none() && levels.get(top + 1).is_none());
        // The help and the error messages say the range.
        assert!(crate::SPEC_HELP.contains(&format!("level:N (1-{top},")));
        // The time-limited top level answers within 2 seconds, and no level thinks longer.
        let top_millis = levels.get(top).unwrap().budget.millis.unwrap();
        assert!(top_millis <= 2000);
        for (level, game) in levels.levels.iter().flat_map(|l| GAMES.map(|g| (l, g))) {
            let millis = level.for_game(game).1.millis;
            assert!(millis.is_none_or(|m| m <= top_millis), "{}", level.name);
        }
        // The former top level is the top, and the former level 1 is no stronger than 2.
        assert_eq!(levels.from_former(FORMER_LEVELS), Some(top));
        assert!(levels.from_former(1) <= Some(2) && levels.from_former(6).is_none());
        // With no iteration cap a level searches until its time runs out: more than any cap.
        let iterations = |budget: &Budget| budget.iterations.unwrap_or(u64::MAX);
        for (game, pair) in GAMES
            .iter()
            .flat_map(|game| levels.levels.windows(2).map(move |pair| (*game, pair)))
        {
            let (lower, higher) = (&pair[0], &pair[1]);
            let ((below_search, below), (above_search, above)) =
                (&lower.for_game(game), &higher.for_game(game));
            if below_search.evaluation != above_search.evaluation {
                // A learned evaluation is worth more than the iterations it replaces
                // (Absorption's level 7 against 6); such a step is measured, not implied.
                continue;
            }
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
    fn a_game_may_have_its_own_settings_for_a_level() {
        let levels = Levels::parse(
            "(formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), search: (max_moves: 30), \
             games: {\"adamas\": (budget: Some((iterations: Some(64)))), \
             \"adomoc\": (search: Some((playout: Plies(0))))})])",
        )
        .unwrap();
        let level = &levels.levels[0];
        let (search, budget) = level.for_game("adamas");
        assert_eq!((search.max_moves, budget.iterations), (30, Some(64)));
        // A game's search replaces the level's whole: the defaults fill what it leaves out.
        let (search, budget) = level.for_game("adomoc");
        assert_eq!(search.playout, crate::config::Playout::Plies(0));
        assert_eq!((search.max_moves, budget.iterations), (400, Some(8)));
        assert_eq!(
            level.for_game("absorption"),
            (level.search.clone(), level.budget)
        );
        let error = Levels::parse(
            "(formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), search: (), \
             games: {\"chess\": ()})])",
        )
        .unwrap_err();
        assert!(error.contains("\"chess\", not a game"), "{error}");
        let error = Levels::parse(
            "(formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (millis: Some(8)), search: (), \
             games: {\"adamas\": (budget: Some(()))})])",
        )
        .unwrap_err();
        assert!(error.contains("no budget in adamas"), "{error}");
        let error = Levels::parse(
            "(formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (millis: Some(8)), search: (temperature: -1.0))])",
        )
        .unwrap_err();
        assert!(error.contains("temperature must be 0 to 10"), "{error}");
        for formerly in ["[1, 1, 1, 1]", "[1, 1, 1, 1, 2]", "[0, 1, 1, 1, 1]"] {
            let error = Levels::parse(&format!(
                "(formerly: {formerly}, levels: [(name: \"x\", budget: (millis: Some(8)), \
                 search: ())])"
            ))
            .unwrap_err();
            assert!(
                error.contains("formerly needs 5 levels"),
                "{formerly}: {error}"
            );
        }
        let error = Levels::parse(
            "(formerly: [1, 2, 1, 2, 2], levels: [(name: \"x\", budget: (millis: Some(8)), \
             search: ()), (name: \"y\", budget: (millis: Some(9)), search: ())])",
        )
        .unwrap_err();
        assert!(error.contains("none below the one before"), "{error}");
    }

    #[test]
    fn a_level_spec_searches_as_its_game_says() {
        use crate::spec::BotSpec;
        let top = Levels::built_in().top();
        let spec = BotSpec::level(top).unwrap();
        let level = Levels::built_in().get(top).unwrap();
        for game in GAMES {
            let (search, budget) = spec.search_for(game).unwrap();
            let (own_search, own_budget) = level.for_game(game);
            assert_eq!(search, own_search);
            // The level's own budget (one thread unless it names more) until a caller
            // gives it threads.
            assert_eq!(budget, own_budget);
            let (_, budget) = spec.clone().on_threads(4).search_for(game).unwrap();
            assert_eq!(
                budget.threads,
                own_budget.iterations.map_or(Some(4), |_| Some(1))
            );
        }
    }

    #[test]
    fn a_broken_levels_file_names_the_place() {
        let error = Levels::parse(
            "(formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (), search: (pace: 1))])",
        )
        .unwrap_err();
        assert!(error.contains("pace") && error.contains("1:"), "{error}");
        let error = Levels::parse(
            "(formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (), search: ())])",
        )
        .unwrap_err();
        assert!(error.contains("no budget"), "{error}");
    }
}
