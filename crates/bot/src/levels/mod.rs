//! The bot levels, read from `config/bots.ron` (built in; a file may replace it).

use crate::config::{Budget, MctsConfig};
use crate::spec::{MAX_EXPLORATION, MAX_TEMPERATURE};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use tabula_rules::Game;

const BUILT_IN: &str = include_str!("../../../../config/bots.ron");

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
                if let Some(asked) = search.knowledge_missing() {
                    return Err(format!(
                        "bots.ron: level {} ({}) in {game}: {asked} needs knowledge: true",
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

    /// `game`'s ladder (a `Game::NAME`), weakest first.
    pub fn ladder<'a>(&'a self, game: &str) -> impl Iterator<Item = &'a Level> {
        self.levels.iter().filter(move |level| level.is_in(game))
    }

    /// Level `n` of `game`'s ladder, counted from 1, or `None` beyond its top.
    pub fn get(&self, game: &str, n: usize) -> Option<&Level> {
        n.checked_sub(1).and_then(|i| self.ladder(game).nth(i))
    }

    /// The level that plays as level `n` in `game`: a number above the game's top plays its
    /// top, since one number (a review's level, `level:N` read before the game is known)
    /// serves every game.
    pub fn playing(&self, game: &str, n: usize) -> Option<&Level> {
        n.checked_sub(1)?;
        self.get(game, n).or_else(|| self.ladder(game).last())
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
        Some(
            self.levels[..entry]
                .iter()
                .filter(|level| level.is_in(game))
                .count(),
        )
    }
}

#[cfg(test)]
mod tests;
