//! A player's rating against the bots, one for each game: Elo against each level's rating
//! in `config/ratings.ron` (each level's measured strength in docs/bots.md), moved by every
//! finished game of one person against bots of those levels.

use crate::{GameKind, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;
use tabula_rules::Status;
use tabula_rules::text::shown_line;

const BUILT_IN: &str = include_str!("../../../config/ratings.ron");

/// Each level's rating in each game, and how far a game moves a player's.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingSettings {
    pub start: f64,
    pub k: f64,
    pub provisional_k: f64,
    pub provisional_games: u32,
    /// Each level's rating, from level 1 to the game's top, by game key.
    pub levels: BTreeMap<String, Vec<f64>>,
}

/// A player's rating in one game, and how many rated games it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub games: u32,
}

/// What a finished game counts for: the bots' rating and the person's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// The bots' rating (their mean, when two bots play).
    pub opponent: f64,
    /// 1 for a win, ½ for a draw, 0 for a loss.
    pub score: f64,
}

impl RatingSettings {
    pub fn built_in() -> &'static RatingSettings {
        static SETTINGS: OnceLock<RatingSettings> = OnceLock::new();
        SETTINGS.get_or_init(|| {
            RatingSettings::parse(BUILT_IN).expect("config/ratings.ron is checked by a test")
        })
    }

    /// Reads a ratings file: every game, a rating for each level rising, and sensible
    /// constants.
    pub fn parse(text: &str) -> Result<RatingSettings, String> {
        let settings: RatingSettings = ron::from_str(text).map_err(|e| {
            shown_line(&format!(
                "line {}, column {}: {}",
                e.span.start.line, e.span.start.col, e.code
            ))
        })?;
        for kind in GameKind::ALL {
            let levels = settings
                .levels
                .get(kind.key())
                .ok_or_else(|| format!("levels: {} is missing", kind.key()))?;
            let rising = levels.windows(2).all(|pair| pair[0] < pair[1]);
            let count = tabula_bot::Levels::built_in().top_in(kind.key());
            if levels.len() != count || !rising || levels.iter().any(|r| !r.is_finite()) {
                return Err(format!(
                    "levels: {} needs {count} ratings (one a level), each above the one before",
                    kind.key()
                ));
            }
        }
        let k_fits = |k: f64| k > 0.0 && k <= 400.0;
        if !k_fits(settings.k) || !k_fits(settings.provisional_k) || !settings.start.is_finite() {
            return Err(
                "start, k and provisional_k: a rating, and K above 0 and at most 400".into(),
            );
        }
        Ok(settings)
    }

    /// A bot level's rating in a game (levels from 1).
    pub fn level(&self, kind: GameKind, level: u8) -> Option<f64> {
        let levels = self.levels.get(kind.key())?;
        levels.get(usize::from(level).checked_sub(1)?).copied()
    }

    /// The level whose rating is nearest `rating`: the bot a player scores about half
    /// against.
    pub fn suggested_level(&self, kind: GameKind, rating: f64) -> u8 {
        let levels = self.levels.get(kind.key()).map_or(&[][..], Vec::as_slice);
        let nearest = (0..levels.len()).min_by(|&a, &b| {
            let off = |i: usize| (levels[i] - rating).abs();
            off(a).total_cmp(&off(b))
        });
        nearest.map_or(1, |i| i as u8 + 1)
    }

    /// A finished game's part in the rating of its one person against bot levels; `None`
    /// when it has none (two people, a custom or remote seat, no bot, not over).
    pub fn rated_game(&self, kind: GameKind, seats: &[Seat], status: Status) -> Option<RatedGame> {
        let mut people = seats.iter().enumerate().filter(|(_, s)| **s == Seat::Human);
        let (person, _) = people.next()?;
        if people.next().is_some() {
            return None;
        }
        let mut bots = Vec::new();
        for seat in seats {
            match seat {
                Seat::Human => {}
                Seat::Bot(level) => bots.push(self.level(kind, *level)?),
                Seat::Custom(_) | Seat::Remote => return None,
            }
        }
        let score = match status {
            Status::Ongoing => return None,
            Status::Win { winner, .. } if winner.index() == person => 1.0,
            Status::Win { .. } => 0.0,
            Status::Draw { .. } => 0.5,
        };
        let opponent = bots.iter().sum::<f64>() / bots.len().max(1) as f64;
        (!bots.is_empty()).then_some(RatedGame { opponent, score })
    }
}

impl Rating {
    /// A player's rating before their first game.
    pub fn new(settings: &RatingSettings) -> Rating {
        Rating {
            rating: settings.start,
            games: 0,
        }
    }

    /// The rating after one more game.
    pub fn after(self, settings: &RatingSettings, game: RatedGame) -> Rating {
        let expected = 1.0 / (1.0 + 10f64.powf((game.opponent - self.rating) / 400.0));
        let k = if self.games < settings.provisional_games {
            settings.provisional_k
        } else {
            settings.k
        };
        Rating {
            rating: self.rating + k * (game.score - expected),
            games: self.games.saturating_add(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_rules::{DrawReason, Player, WinReason};

    fn win(seat: u8) -> Status {
        Status::Win {
            winner: Player(seat),
            reason: WinReason::Goal,
        }
    }

    #[test]
    fn the_built_in_ratings_read_and_rise_with_the_level() {
        let settings = RatingSettings::parse(BUILT_IN).unwrap();
        for kind in GameKind::ALL {
            let top = tabula_bot::Levels::built_in().top_in(kind.key()) as u8;
            assert_eq!(settings.level(kind, 1), Some(1000.0));
            assert!(settings.level(kind, top) > settings.level(kind, top - 1));
            assert_eq!(settings.level(kind, 0), None);
            assert_eq!(settings.level(kind, top + 1), None);
        }
    }

    #[test]
    fn a_win_raises_the_rating_and_a_loss_lowers_it() {
        let settings = RatingSettings::built_in();
        let seats = [Seat::Human, Seat::Bot(2)];
        let kind = GameKind::Adomoc;
        let won = settings.rated_game(kind, &seats, win(0)).unwrap();
        let lost = settings.rated_game(kind, &seats, win(1)).unwrap();
        let drawn = settings
            .rated_game(
                kind,
                &seats,
                Status::Draw {
                    reason: DrawReason::Repetition,
                },
            )
            .unwrap();
        assert_eq!((won.score, lost.score, drawn.score), (1.0, 0.0, 0.5));
        assert_eq!(Some(won.opponent), settings.level(kind, 2));
        let start = Rating::new(settings);
        let after_win = start.after(settings, won);
        let after_loss = start.after(settings, lost);
        assert!(after_win.rating > start.rating);
        assert!(after_loss.rating < start.rating);
        assert_eq!(after_win.games, 1);
        // Beating a stronger bot gains more than losing to it costs.
        assert!(after_win.rating - start.rating > start.rating - after_loss.rating);
        // A draw with a stronger bot gains a little.
        assert!(start.after(settings, drawn).rating > start.rating);
        // After the provisional games a game moves the rating half as far.
        let seasoned = Rating { games: 10, ..start };
        let moved = seasoned.after(settings, won).rating - seasoned.rating;
        assert!((2.0 * moved - (after_win.rating - start.rating)).abs() < 1e-9);
    }

    #[test]
    fn only_one_person_against_levelled_bots_is_rated() {
        let settings = RatingSettings::built_in();
        let kind = GameKind::Adamas;
        let rated = |seats: &[Seat], status| settings.rated_game(kind, seats, status);
        assert!(rated(&[Seat::Human, Seat::Human], win(0)).is_none());
        assert!(rated(&[Seat::Bot(1), Seat::Bot(2)], win(0)).is_none());
        assert!(rated(&[Seat::Human, Seat::Custom("random".into())], win(0)).is_none());
        assert!(rated(&[Seat::Human, Seat::Remote], win(0)).is_none());
        assert!(rated(&[Seat::Human, Seat::Bot(99)], win(0)).is_none());
        assert!(rated(&[Seat::Human, Seat::Bot(1)], Status::Ongoing).is_none());
        // Three seats: the bots' mean, and a bot's win is the person's loss.
        let three = [Seat::Bot(1), Seat::Human, Seat::Bot(3)];
        let game = rated(&three, win(2)).unwrap();
        let level = |n| settings.level(kind, n).unwrap();
        assert_eq!(game.opponent, (level(1) + level(3)) / 2.0);
        assert_eq!(game.score, 0.0);
        assert_eq!(rated(&three, win(1)).unwrap().score, 1.0);
    }

    #[test]
    fn the_suggested_level_is_the_nearest() {
        let settings = RatingSettings::built_in();
        let kind = GameKind::Adaptoid;
        let level = |n| settings.level(kind, n).unwrap();
        let between = |n| (level(n) + level(n + 1)) / 2.0;
        assert_eq!(settings.suggested_level(kind, 0.0), 1);
        assert_eq!(settings.suggested_level(kind, between(1) - 1.0), 1);
        assert_eq!(settings.suggested_level(kind, between(1) + 1.0), 2);
        assert_eq!(settings.suggested_level(kind, between(4) - 1.0), 4);
        let top = tabula_bot::Levels::built_in().top_in(kind.key()) as u8;
        assert_eq!(settings.suggested_level(kind, 9000.0), top);
    }

    #[test]
    fn bad_rating_files_are_refused_with_the_reason() {
        let cut = BUILT_IN.replace("\"adomoc\"", "\"adomok\"");
        assert_eq!(
            RatingSettings::parse(&cut).unwrap_err(),
            "levels: adomoc is missing"
        );
        let with_adamas = |ratings: &str| {
            let lines = BUILT_IN.lines().map(|line| match line.trim_start() {
                own if own.starts_with("\"adamas\":") => format!("\"adamas\": [{ratings}],"),
                _ => line.to_string(),
            });
            RatingSettings::parse(&lines.collect::<Vec<_>>().join("\n")).unwrap_err()
        };
        let top = tabula_bot::Levels::built_in().top_in("adamas");
        let rising: Vec<String> = (0..top).map(|i| format!("{}.0", 1000 + i)).collect();
        let mut falling = rising.clone();
        falling.swap(1, 2);
        assert!(with_adamas(&falling.join(", ")).contains(&format!("adamas needs {top}")));
        let short = &rising[..top - 1];
        assert!(with_adamas(&short.join(", ")).contains(&format!("adamas needs {top}")));
        let wild = BUILT_IN.replace("k: 32.0", "k: -1.0");
        assert!(
            RatingSettings::parse(&wild)
                .unwrap_err()
                .contains("K above 0")
        );
        assert!(
            RatingSettings::parse("(start: 1)")
                .unwrap_err()
                .starts_with("line 1")
        );
    }
}
