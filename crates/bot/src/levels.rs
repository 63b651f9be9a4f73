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
        for (game, pair) in GAMES
            .iter()
            .flat_map(|game| levels.levels.windows(2).map(move |pair| (*game, pair)))
        {
            let (lower, higher) = (&pair[0], &pair[1]);
            let (below, above) = (&lower.for_game(game).1, &higher.for_game(game).1);
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
            "(levels: [(name: \"x\", budget: (iterations: Some(8)), search: (max_moves: 30), \
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
            "(levels: [(name: \"x\", budget: (iterations: Some(8)), search: (), \
             games: {\"chess\": ()})])",
        )
        .unwrap_err();
        assert!(error.contains("\"chess\", not a game"), "{error}");
        let error = Levels::parse(
            "(levels: [(name: \"x\", budget: (millis: Some(8)), search: (), \
             games: {\"adamas\": (budget: Some(()))})])",
        )
        .unwrap_err();
        assert!(error.contains("no budget in adamas"), "{error}");
        let error = Levels::parse(
            "(levels: [(name: \"x\", budget: (millis: Some(8)), search: (temperature: -1.0))])",
        )
        .unwrap_err();
        assert!(error.contains("temperature must be 0 to 10"), "{error}");
    }

    #[test]
    fn a_level_spec_searches_as_its_game_says() {
        use crate::spec::BotSpec;
        let spec = BotSpec::level(5).unwrap();
        let level = Levels::built_in().get(5).unwrap();
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
        let error =
            Levels::parse("(levels: [(name: \"x\", budget: (), search: (pace: 1))])").unwrap_err();
        assert!(error.contains("pace") && error.contains("1:"), "{error}");
        let error = Levels::parse("(levels: [(name: \"x\", budget: (), search: ())])").unwrap_err();
        assert!(error.contains("no budget"), "{error}");
    }
}
