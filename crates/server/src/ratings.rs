//! Glicko-2 ratings (through `skillratings`): what a rated game's end does to its players'
//! ratings. The stores call [`rate`] inside the transaction that stores the end, so a
//! game's end and the ratings it moves are kept together or not at all.

use crate::store::AccountId;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use tabula_protocol::ShownRating;

/// A rating whose deviation is above this is provisional (lichess's threshold): a new
/// player's 350 falls below it after about ten games.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Rating periods a day: lichess's, one about every 4.7 days. A player's deviation grows
/// by one period's step for each while they are away.
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
/// Glicko-2's scale: a deviation of 173.7178 rating points is one on its own scale.
const GLICKO2_SCALE: f64 = 173.7178;
/// A newcomer's deviation, the most that time away can bring a rating to.
const NEWCOMER_DEVIATION: f64 = 350.0;
const DAY_MS: f64 = 86_400_000.0;

/// A player's rating in one pool as it is kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub glicko: Glicko2Rating,
    /// Rated games played in the pool.
    pub games: u32,
    /// When its last rated game ended, where the store says (0 is never: a house bot's
    /// seeded rating).
    pub updated_ms: Option<u64>,
}

impl Default for Rating {
    /// A newcomer's: 1500 ± 350, volatility 0.06 (Glickman's defaults).
    fn default() -> Rating {
        Rating {
            glicko: Glicko2Rating::new(),
            games: 0,
            updated_ms: None,
        }
    }
}

impl Rating {
    /// This rating at `at_ms`: its deviation grown as Glicko-2 grows it between rating
    /// periods (φ² + σ² for each), for the periods since its last rated game, up to a
    /// newcomer's. A player back after a year away has their rating move as a newcomer's
    /// nearly does, not as little as before they left.
    pub fn at(self, at_ms: u64) -> Rating {
        let Some(since) = self.updated_ms.filter(|&ms| ms > 0 && ms < at_ms) else {
            return self;
        };
        let periods = at_ms.saturating_sub(since) as f64 / DAY_MS * RATING_PERIODS_PER_DAY;
        let phi = self.glicko.deviation / GLICKO2_SCALE;
        let sigma = self.glicko.volatility;
        let grown = (phi * phi + periods * sigma * sigma).sqrt() * GLICKO2_SCALE;
        let most = NEWCOMER_DEVIATION.max(self.glicko.deviation);
        Rating {
            glicko: Glicko2Rating {
                deviation: if grown.is_finite() {
                    grown.min(most)
                } else {
                    self.glicko.deviation
                },
                ..self.glicko
            },
            ..self
        }
    }

    pub fn shown(&self) -> ShownRating {
        ShownRating {
            rating: self.glicko.rating.round() as i32,
            deviation: self.glicko.deviation.round().max(0.0) as u32,
            provisional: self.glicko.deviation > PROVISIONAL_DEVIATION,
            games: self.games,
        }
    }
}

/// A rated game's end, for the store to apply with it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedEnd {
    /// See [`tabula_protocol::ratings::rating_pool`].
    pub pool: String,
    /// Each seat's account (all distinct).
    pub accounts: Vec<AccountId>,
    /// Each seat's points: between two seats, more points is a win and equal a draw.
    pub points: Vec<f64>,
    pub at_ms: u64,
}

/// Everyone's ratings after a game that ended at `at_ms`, in which seat `i` scored
/// `points[i]`, from `before` (each as of its last game: grown for the time since first).
///
/// Each player's game is one Glicko-2 rating period with one result against each other
/// player, so three-player Adamas counts as a game against each opponent, all at once.
pub fn rate(before: &[Rating], points: &[f64], at_ms: u64) -> Vec<Rating> {
    let config = Glicko2Config::new();
    let before: Vec<Rating> = before.iter().map(|r| r.at(at_ms)).collect();
    (0..before.len())
        .map(|me| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..before.len())
                .filter(|&other| other != me)
                .map(|other| {
                    let outcome = match points[me].partial_cmp(&points[other]) {
                        Some(std::cmp::Ordering::Greater) => Outcomes::WIN,
                        Some(std::cmp::Ordering::Less) => Outcomes::LOSS,
                        _ => Outcomes::DRAW,
                    };
                    (before[other].glicko, outcome)
                })
                .collect();
            let after = glicko2_rating_period(&before[me].glicko, &results, &config);
            let finite = [after.rating, after.deviation, after.volatility]
                .iter()
                .all(|x| x.is_finite());
            Rating {
                // Never a NaN written: numbers the formulas cannot take leave it as it was.
                glicko: if finite { after } else { before[me].glicko },
                games: before[me].games.saturating_add(1),
                updated_ms: Some(at_ms),
            }
        })
        .collect()
}

/// The rating a game's end starts from: a stored one that does not read counts as a
/// newcomer's, its count of games too (said on standard error), so one damaged row never
/// stops a game ending.
pub fn rating_to_start_from(
    account: AccountId,
    pool: &str,
    kept: Result<Rating, String>,
) -> Rating {
    kept.unwrap_or_else(|why| {
        eprintln!("account {account}, {pool}: {why}; rated from a newcomer's rating");
        Rating::default()
    })
}

/// A stored rating read back: numbers a damaged store may hold are refused by name rather
/// than carried into the formulas (NaN is outside every range, so it is refused too).
pub fn stored_rating(
    rating: f64,
    deviation: f64,
    volatility: f64,
    games: i64,
) -> Result<Rating, String> {
    // Far wider than any rating a game gives, narrow enough for the formulas to stay finite.
    let sane = (-10_000.0..=10_000.0).contains(&rating)
        && deviation > 0.0
        && deviation <= 1_000.0
        && volatility > 0.0
        && volatility <= 10.0;
    if !sane {
        return Err(format!(
            "a stored rating of {rating:.4e} ± {deviation:.4e} (volatility {volatility:.4e}) \
             is not a rating"
        ));
    }
    Ok(Rating {
        glicko: Glicko2Rating {
            rating,
            deviation,
            volatility,
        },
        games: games.clamp(0, i64::from(u32::MAX)) as u32,
        updated_ms: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_moves_the_winner_up_and_the_loser_down_by_as_much() {
        let after = rate(&[Rating::default(), Rating::default()], &[1.0, 0.0], 0);
        assert!(after[0].glicko.rating > 1500.0 && after[1].glicko.rating < 1500.0);
        let up = after[0].glicko.rating - 1500.0;
        let down = 1500.0 - after[1].glicko.rating;
        assert!((up - down).abs() < 1e-6, "{up} {down}");
        // Two newcomers part to about 1662 and 1338.
        assert_eq!(after[0].shown().rating, 1662);
        assert!(after.iter().all(|r| r.games == 1 && r.shown().provisional));
        assert!(after[0].glicko.deviation < 350.0);
    }

    #[test]
    fn a_draw_between_equals_moves_nobody() {
        let after = rate(&[Rating::default(), Rating::default()], &[0.5, 0.5], 0);
        assert_eq!(after[0].shown().rating, 1500);
        assert_eq!(after[1].shown().rating, 1500);
    }

    #[test]
    fn three_players_the_winner_beats_both_and_the_others_draw_each_other() {
        let after = rate(&[Rating::default(); 3], &[1.0, 0.0, 0.0], 0);
        let two = rate(&[Rating::default(); 2], &[1.0, 0.0], 0);
        assert!(
            after[0].glicko.rating > two[0].glicko.rating,
            "two wins gain more"
        );
        assert_eq!(after[1], after[2]);
        assert!(after[1].glicko.rating < 1500.0);
    }

    #[test]
    fn an_upset_moves_more_than_the_expected_result() {
        let strong = Rating {
            glicko: Glicko2Rating {
                rating: 1900.0,
                deviation: 60.0,
                volatility: 0.06,
            },
            games: 40,
            updated_ms: None,
        };
        let weak = Rating {
            glicko: Glicko2Rating {
                rating: 1500.0,
                deviation: 60.0,
                volatility: 0.06,
            },
            games: 40,
            updated_ms: None,
        };
        let expected = rate(&[strong, weak], &[1.0, 0.0], 0);
        let upset = rate(&[strong, weak], &[0.0, 1.0], 0);
        let gain = |after: &[Rating], seat: usize, from: &Rating| {
            (after[seat].glicko.rating - from.glicko.rating).abs()
        };
        assert!(gain(&upset, 1, &weak) > 3.0 * gain(&expected, 1, &weak));
        assert!(!expected[0].shown().provisional);
    }

    #[test]
    fn a_damaged_stored_rating_is_refused_by_name() {
        assert!(stored_rating(1500.0, 350.0, 0.06, 0).is_ok());
        for (r, d, v) in [
            (f64::NAN, 350.0, 0.06),
            (1500.0, 0.0, 0.06),
            (1500.0, 350.0, -1.0),
            (1e300, 350.0, 0.06),
            (1500.0, f64::INFINITY, 0.06),
        ] {
            let err = stored_rating(r, d, v, 3).unwrap_err();
            assert!(err.contains("is not a rating"), "{err}");
        }
        assert_eq!(stored_rating(1500.0, 350.0, 0.06, -4).unwrap().games, 0);
    }

    #[test]
    fn a_deviation_grows_while_its_player_is_away_and_moves_their_rating_more() {
        const DAY: u64 = 86_400_000;
        let left = 1_000 * DAY;
        let settled = Rating {
            glicko: Glicko2Rating {
                rating: 1800.0,
                deviation: 60.0,
                volatility: 0.06,
            },
            games: 80,
            updated_ms: Some(left),
        };
        let deviation_after = |days: u64| settled.at(left + days * DAY).glicko.deviation;
        assert_eq!(deviation_after(0), 60.0);
        // A month away: a few points; about a year: provisional again (as on lichess);
        // thirty years: a newcomer's, no more.
        assert!(
            (60.0..70.0).contains(&deviation_after(30)),
            "{}",
            deviation_after(30)
        );
        let year = deviation_after(365);
        assert!((105.0..115.0).contains(&year), "{year}");
        assert!(deviation_after(400) > PROVISIONAL_DEVIATION);
        assert_eq!(deviation_after(30 * 365), 350.0);
        // Its rating and volatility stay; a seeded rating (never played: 0) and an end
        // before the last game change nothing.
        let away = settled.at(left + 365 * DAY);
        assert_eq!((away.glicko.rating, away.glicko.volatility), (1800.0, 0.06));
        let seeded = Rating {
            updated_ms: Some(0),
            ..settled
        };
        assert_eq!(seeded.at(left), seeded);
        assert_eq!(settled.at(left - DAY), settled);
        // Back after a year, a win moves the returning player more than it would have.
        let rival = Rating {
            updated_ms: Some(left + 365 * DAY),
            ..settled
        };
        let stayed = rate(&[settled, rival], &[1.0, 0.0], left);
        let returned = rate(&[settled, rival], &[1.0, 0.0], left + 365 * DAY);
        let gain = |after: &[Rating]| after[0].glicko.rating - 1800.0;
        assert!(
            gain(&returned) > 1.5 * gain(&stayed),
            "{returned:?} {stayed:?}"
        );
        assert_eq!(returned[0].updated_ms, Some(left + 365 * DAY));
    }
}
