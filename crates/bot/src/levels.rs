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
    /// The games whose ladders have this level, by `Game::NAME`; every game when empty. A
    /// game whose strength spans more than the others' has more levels.
    #[serde(default)]
    pub only: Vec<String>,
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
/// How many levels every game had when they shared one ladder (records of format 3).
pub const TWELVE: usize = 12;

/// The games a levels file may name.
const GAMES: [&str; 4] = [
    tabula_rules::absorption::Absorption::NAME,
    tabula_rules::adamas::Adamas::NAME,
    tabula_rules::adaptoid::Adaptoid::NAME,
    tabula_rules::adomoc::Adomoc::NAME,
];

impl Level {
    /// Whether `game`'s ladder has this level.
    pub fn is_in(&self, game: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|g| g == game)
    }

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
    /// Every game's levels, weakest first; a game's ladder is the ones it is in.
    pub levels: Vec<Level>,
    /// The entry of `levels` (counted from 1) that plays as each of the five levels the game
    /// had before its ladder (records of format 2 and older, settings written then), from
    /// the former level 1; in a game without that entry, its level below it.
    pub formerly: Vec<usize>,
    /// The entries (counted from 1) that were levels 1 to 12 when every game had one ladder
    /// of twelve (records of format 3, settings of `level_ladder` 2); in a game without one
    /// of them, its level below it.
    pub twelve: Vec<usize>,
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
        // Every game has a level, and an old level whose entry a game lacks has one below.
        if levels
            .levels
            .first()
            .is_none_or(|first| !first.only.is_empty())
        {
            return Err("bots.ron: the first level must be in every game (no only:)".to_string());
        }
        let count = levels.levels.len();
        let fits = |entries: &[usize]| {
            entries.iter().all(|n| (1..=count).contains(n))
                && entries.windows(2).all(|pair| pair[0] <= pair[1])
        };
        if levels.formerly.len() != FORMER_LEVELS || !fits(&levels.formerly) {
            return Err(format!(
                "bots.ron: formerly needs {FORMER_LEVELS} levels, each 1 to {count} and none \
                 below the one before"
            ));
        }
        if levels.twelve.len() != TWELVE || !fits(&levels.twelve) {
            return Err(format!(
                "bots.ron: twelve needs {TWELVE} levels, each 1 to {count} and none below the \
                 one before"
            ));
        }
        for (i, level) in levels.levels.iter().enumerate() {
            let named = level.games.keys().chain(&level.only);
            if let Some(game) = named.into_iter().find(|g| !GAMES.contains(&g.as_str())) {
                return Err(format!(
                    "bots.ron: level {} ({}) names {game:?}, not a game ({})",
                    i + 1,
                    level.name,
                    GAMES.join(", ")
                ));
            }
            if let Some(game) = level.games.keys().find(|g| !level.is_in(g)) {
                return Err(format!(
                    "bots.ron: level {} ({}) has settings for {game}, which is not among its \
                     only: games",
                    i + 1,
                    level.name
                ));
            }
            for game in GAMES.into_iter().filter(|game| level.is_in(game)) {
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
        // Every game has a level: formerly names five that are in every game.
        Ok(levels)
    }

    /// `game`'s ladder (a `Game::NAME`), weakest first.
    pub fn ladder<'a>(&'a self, game: &'a str) -> impl Iterator<Item = &'a Level> + 'a {
        self.levels.iter().filter(move |level| level.is_in(game))
    }

    /// Level `n` of `game`'s ladder, counted from 1, or `None` beyond its top.
    pub fn get(&self, game: &str, n: usize) -> Option<&Level> {
        let mut ladder = self.levels.iter().filter(|level| level.is_in(game));
        n.checked_sub(1).and_then(|i| ladder.nth(i))
    }

    /// The level that plays as level `n` in `game`: a number above the game's top plays its
    /// top, since one number (a review's level, `level:N` read before the game is known)
    /// serves every game.
    pub fn playing(&self, game: &str, n: usize) -> Option<&Level> {
        n.checked_sub(1)?;
        let top = self.levels.iter().rfind(|level| level.is_in(game));
        self.get(game, n).or(top)
    }

    /// The number of the level that plays as level `n` in `game` ([`Levels::playing`]), for
    /// showing: `n`, or the game's top above it.
    pub fn number_in(&self, game: &str, n: usize) -> usize {
        n.min(self.top_in(game))
    }

    /// How many levels `game` has: its strongest.
    pub fn top_in(&self, game: &str) -> usize {
        self.ladder(game).count()
    }

    /// The longest ladder's count: the number that plays the strongest level in every game.
    pub fn top(&self) -> usize {
        GAMES
            .iter()
            .map(|game| self.top_in(game))
            .max()
            .unwrap_or(0)
    }

    /// The level of `game` that plays as the former level `n` (1 to 5) played, or `None`
    /// for a number the former ladder did not have.
    pub fn from_former(&self, game: &str, n: usize) -> Option<usize> {
        self.numbered(game, &self.formerly, n)
    }

    /// The level of `game` that plays as level `n` (1 to 12) of the one ladder of twelve
    /// every game had before each had its own, or `None` for another number.
    pub fn from_twelve(&self, game: &str, n: usize) -> Option<usize> {
        self.numbered(game, &self.twelve, n)
    }

    /// [`Levels::from_former`] where no game is named (a setting for every game, as the
    /// review level): the old top is the top, and another level its number on the
    /// shortest ladder, which in no game plays a stronger (slower) level than the old one.
    pub fn from_former_anywhere(&self, n: usize) -> Option<usize> {
        self.anywhere(&self.formerly, n)
    }

    /// [`Levels::from_twelve`] where no game is named, as [`Levels::from_former_anywhere`].
    pub fn from_twelve_anywhere(&self, n: usize) -> Option<usize> {
        self.anywhere(&self.twelve, n)
    }

    fn anywhere(&self, entries: &[usize], n: usize) -> Option<usize> {
        let shortest = GAMES.into_iter().min_by_key(|game| self.top_in(game))?;
        let number = self.numbered(shortest, entries, n)?;
        Some(if number == self.top_in(shortest) {
            self.top()
        } else {
            number
        })
    }

    /// The number on `game`'s ladder of the entry `entries` gives for old level `n`, or of
    /// the game's level below it where the game lacks it (the first level is in every game).
    fn numbered(&self, game: &str, entries: &[usize], n: usize) -> Option<usize> {
        let entry = *n.checked_sub(1).and_then(|i| entries.get(i))?;
        let before = &self.levels[..entry];
        Some(before.iter().filter(|level| level.is_in(game)).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_levels_parse_and_grow() {
        let levels = Levels::built_in();
        let top = levels.top();
        // The help and the error messages say the range.
        assert!(crate::SPEC_HELP.contains(&format!("level:N (1-{top},")));
        for game in GAMES {
            let own_top = levels.top_in(game);
            assert!(own_top >= 10, "{game} has {own_top} levels");
            assert_eq!(levels.get(game, 1).unwrap().name, "Novice");
            assert!(levels.get(game, 0).is_none() && levels.get(game, own_top + 1).is_none());
            // A number above a game's top plays its top; none is below 1.
            let strongest = levels.get(game, own_top).unwrap();
            assert_eq!(levels.playing(game, top + 1), Some(strongest));
            // The longest ladder's top, as a spec, plays every game's own top.
            assert_eq!(
                crate::BotSpec::level(top).unwrap().search_for(game),
                Some(strongest.for_game(game))
            );
            assert!(levels.playing(game, 0).is_none());
            // The time-limited top level answers within 2 seconds, and no level thinks
            // longer.
            let top_millis = strongest.for_game(game).1.millis.unwrap();
            assert!(top_millis <= 2000);
            let ladder: Vec<&Level> = levels.ladder(game).collect();
            for level in &ladder {
                let millis = level.for_game(game).1.millis;
                assert!(millis.is_none_or(|m| m <= top_millis), "{}", level.name);
            }
            // The former top level is the top, and the former level 1 is no stronger than 2.
            assert_eq!(levels.from_former(game, FORMER_LEVELS), Some(own_top));
            assert!(levels.from_former(game, 1) <= Some(2));
            assert!(levels.from_former(game, 6).is_none());
            grows(game, &ladder);
        }
        assert_eq!(levels.from_former_anywhere(FORMER_LEVELS), Some(top));
        // The ladder of twelve every game shared: its top is each game's top, and a game
        // that kept twelve levels keeps their numbers.
        for game in GAMES {
            assert_eq!(levels.from_twelve(game, TWELVE), Some(levels.top_in(game)));
            assert!(levels.from_twelve(game, TWELVE + 1).is_none());
            if levels.top_in(game) == TWELVE {
                assert!((1..=TWELVE).all(|n| levels.from_twelve(game, n) == Some(n)));
            }
        }
        assert_eq!(levels.from_twelve_anywhere(TWELVE), Some(top));
        // A setting for every game (the review level) never plays a stronger level than
        // the old one in any game; the old top is the top everywhere.
        for (old, entries) in [(FORMER_LEVELS, &levels.formerly), (TWELVE, &levels.twelve)] {
            for n in 1..=old {
                let anywhere = match old {
                    FORMER_LEVELS => levels.from_former_anywhere(n),
                    _ => levels.from_twelve_anywhere(n),
                }
                .unwrap();
                for game in GAMES {
                    let own = levels.numbered(game, entries, n).unwrap();
                    let played = anywhere.min(levels.top_in(game));
                    assert!(
                        played <= own,
                        "old {n} of {old} in {game}: {played} > {own}"
                    );
                    if n == old {
                        assert_eq!(played, levels.top_in(game));
                    }
                }
            }
        }
    }

    /// Each level of `game`'s ladder searches more than the one below it.
    fn grows(game: &str, ladder: &[&Level]) {
        // With no iteration cap a level searches until its time runs out: more than any cap.
        let iterations = |budget: &Budget| budget.iterations.unwrap_or(u64::MAX);
        for pair in ladder.windows(2) {
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
                "{game}: {} may search fewer iterations than {}",
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
                "{game}: {} searches no more than {}",
                higher.name,
                lower.name
            );
        }
    }

    #[test]
    fn a_game_may_have_its_own_settings_for_a_level() {
        let levels = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), search: (max_moves: 30), \
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
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), search: (), \
             games: {\"chess\": ()})])",
        )
        .unwrap_err();
        assert!(error.contains("\"chess\", not a game"), "{error}");
        let error = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (millis: Some(8)), search: (), \
             games: {\"adamas\": (budget: Some(()))})])",
        )
        .unwrap_err();
        assert!(error.contains("no budget in adamas"), "{error}");
        let error = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (millis: Some(8)), search: (temperature: -1.0))])",
        )
        .unwrap_err();
        assert!(error.contains("temperature must be 0 to 10"), "{error}");
        for formerly in ["[1, 1, 1, 1]", "[1, 1, 1, 1, 2]", "[0, 1, 1, 1, 1]"] {
            let error = Levels::parse(&format!(
                "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: {formerly}, levels: [(name: \"x\", budget: (millis: Some(8)), \
                 search: ())])"
            ))
            .unwrap_err();
            assert!(
                error.contains("formerly needs 5 levels"),
                "{formerly}: {error}"
            );
        }
        let error = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 2, 1, 2, 2], levels: [(name: \"x\", budget: (millis: Some(8)), \
             search: ()), (name: \"y\", budget: (millis: Some(9)), search: ())])",
        )
        .unwrap_err();
        assert!(error.contains("none below the one before"), "{error}");
    }

    #[test]
    fn a_game_may_have_more_levels_than_another() {
        let levels = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 3, 3], levels: [\
             (name: \"a\", budget: (iterations: Some(8)), search: ()), \
             (name: \"b\", budget: (iterations: Some(16)), search: (), only: [\"adomoc\", \"absorption\"]), \
             (name: \"c\", budget: (millis: Some(100)), search: ())])",
        )
        .unwrap();
        assert_eq!((levels.top_in("adomoc"), levels.top_in("adaptoid")), (3, 2));
        assert_eq!(levels.top(), 3);
        assert_eq!(levels.get("adomoc", 2).unwrap().name, "b");
        assert_eq!(levels.get("adaptoid", 2).unwrap().name, "c");
        assert!(levels.get("adaptoid", 3).is_none());
        // One number for every game: above a game's top, its top.
        assert_eq!(levels.playing("adaptoid", 3).unwrap().name, "c");
        // A former level is the same entry in every game, numbered on each game's ladder.
        assert_eq!(levels.from_former("adomoc", 5), Some(3));
        assert_eq!(levels.from_former("adaptoid", 5), Some(2));
        assert_eq!(levels.from_former_anywhere(5), Some(3));
        let twelve = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3], formerly: [1, 1, 1, 1, 1], levels: [\
             (name: \"a\", budget: (iterations: Some(8)), search: ()), \
             (name: \"b\", budget: (iterations: Some(16)), search: (), only: [\"adomoc\"]), \
             (name: \"c\", budget: (millis: Some(100)), search: ())])",
        )
        .unwrap();
        assert_eq!(twelve.from_twelve("adomoc", 12), Some(3));
        assert_eq!(twelve.from_twelve("adaptoid", 12), Some(2));
        assert_eq!(twelve.from_twelve("adaptoid", 11), Some(1));
        // An old level whose entry a game lacks is played there by its level below.
        let lacking = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3], formerly: [1, 1, 1, 2, 3], levels: [\
             (name: \"a\", budget: (iterations: Some(8)), search: ()), \
             (name: \"b\", budget: (iterations: Some(16)), search: (), only: [\"adomoc\"]), \
             (name: \"c\", budget: (millis: Some(100)), search: ())])",
        )
        .unwrap();
        assert_eq!(lacking.from_twelve("adomoc", 11), Some(2));
        assert_eq!(lacking.from_twelve("adaptoid", 11), Some(1));
        assert_eq!(lacking.from_former("adaptoid", 4), Some(1));
        assert_eq!(lacking.from_former("adaptoid", 5), Some(2));
        let error = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4], formerly: [1, 1, 1, 1, 1], levels: [\
             (name: \"a\", budget: (iterations: Some(8)), search: ())])",
        )
        .unwrap_err();
        assert!(
            error.contains("twelve needs 12 levels, each 1 to 1"),
            "{error}"
        );
        for (text, expected) in [
            (
                "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), \
                 search: ()), (name: \"y\", budget: (iterations: Some(8)), search: (), \
                 only: [\"chess\"])])",
                "names \"chess\", not a game",
            ),
            (
                "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), \
                 search: (), only: [\"adomoc\"])])",
                "the first level must be in every game",
            ),
            (
                "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), \
                 search: ()), (name: \"y\", budget: (iterations: Some(8)), search: (), \
                 only: [\"adomoc\"], games: {\"adamas\": ()})])",
                "settings for adamas, which is not among its only: games",
            ),
            (
                "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(8)), \
                 search: ()), (name: \"y\", budget: (iterations: Some(8)), search: (), \
                 only: [\"adomoc\"])])",
                "",
            ),
        ] {
            match (Levels::parse(text), expected) {
                (Ok(levels), "") => assert_eq!(levels.top_in("adomoc"), 2),
                (Err(error), _) if !expected.is_empty() => {
                    assert!(error.contains(expected), "{text}: {error}")
                }
                (result, _) => panic!("{text}: {result:?}"),
            }
        }
    }

    #[test]
    fn a_level_spec_searches_as_its_game_says() {
        use crate::spec::BotSpec;
        let top = Levels::built_in().top();
        let spec = BotSpec::level(top).unwrap();
        for game in GAMES {
            let level = Levels::built_in()
                .get(game, Levels::built_in().top_in(game))
                .unwrap();
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
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (), search: (pace: 1))])",
        )
        .unwrap_err();
        assert!(error.contains("pace") && error.contains("1:"), "{error}");
        let error = Levels::parse(
            "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (), search: ())])",
        )
        .unwrap_err();
        assert!(error.contains("no budget"), "{error}");
    }
}
