//! The five house bots: their names, what each is like, which level of each game's ladder
//! it plays (`config/bots.ron`), and the rating it starts with in each game.

use crate::ratings::Rating;
use skillratings::glicko2::Glicko2Rating;
use tabula_bot::BotSpec;
use tabula_session::{GameKind, RatingSettings};

/// The house bots, the weakest first: each name ends in "bot", which no person's may.
pub const HOUSE_BOTS: [(&str, &str); 5] = [
    (
        "Novicebot",
        "The ladder's first level: barely better than a random mover.",
    ),
    ("Casualbot", "Sees a capture and a threat; misses plans."),
    ("Clubbot", "A solid club player's search."),
    ("Expertbot", "Punishes most mistakes."),
    (
        "Masterbot",
        "The strongest level that answers in a bounded number of iterations.",
    ),
];

/// A house bot's rating before its first game in a pool is its level's rating in
/// `config/ratings.ron` plus this, so the first level starts where a newcomer does (1500,
/// as the app's rating against the bots starts a player at level 1's).
const SEED_OFFSET: f64 = 500.0;

/// How sure a house bot's first rating is: the ladder's steps are measured, but not
/// against people, so it stays provisional until games settle it.
const SEED_DEVIATION: f64 = 150.0;

/// The strongest level of `kind`'s ladder that stops at a number of iterations: the top
/// thinks for a time on every core, which a server shares with every other game.
fn strongest_bounded(kind: GameKind) -> usize {
    let top = tabula_bot::Levels::built_in().top_in(kind.key());
    (1..=top)
        .rev()
        .find(|&n| {
            BotSpec::level(n)
                .ok()
                .and_then(|spec| spec.search_for(kind.key()))
                .is_some_and(|(_, budget)| budget.iterations.is_some())
        })
        .unwrap_or(1)
}

/// The level of `kind`'s ladder house bot `house` (1 to 5) plays: 1 its first, 5 its
/// strongest bounded level, and those between the levels whose ratings are nearest an even
/// spacing of the ratings between the two.
pub fn ladder_level(kind: GameKind, house: u8) -> u8 {
    let strongest = strongest_bounded(kind);
    let settings = RatingSettings::built_in();
    let rating = |level: usize| settings.level(kind, level as u8);
    let house = f64::from(house.clamp(1, 5));
    let (Some(low), Some(high)) = (rating(1), rating(strongest)) else {
        // No ratings for this game: spaced by number instead.
        return (1.0 + (strongest as f64 - 1.0) * (house - 1.0) / 4.0).round() as u8;
    };
    let target = low + (high - low) * (house - 1.0) / 4.0;
    (1..=strongest)
        .min_by(|&a, &b| {
            let off = |n| rating(n).map_or(f64::INFINITY, |r| (r - target).abs());
            off(a).total_cmp(&off(b))
        })
        .unwrap_or(1) as u8
}

/// The rating house bot `house` starts with in `kind`'s pool.
pub fn seed_rating(kind: GameKind, house: u8) -> Rating {
    let level = ladder_level(kind, house);
    let ladder = RatingSettings::built_in()
        .level(kind, level)
        .unwrap_or(1000.0);
    Rating {
        glicko: Glicko2Rating {
            rating: ladder + SEED_OFFSET,
            deviation: SEED_DEVIATION,
            ..Glicko2Rating::new()
        },
        games: 0,
        updated_ms: None,
    }
}

/// How house bot `house` searches `kind`.
pub fn spec(kind: GameKind, house: u8) -> BotSpec {
    BotSpec::Level {
        level: usize::from(ladder_level(kind, house)),
        threads: Some(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_climb_each_ladder_from_its_first_level_to_its_strongest_bounded_one() {
        for kind in GameKind::ALL {
            let levels: Vec<u8> = (1..=5).map(|h| ladder_level(kind, h)).collect();
            assert_eq!(levels[0], 1, "{kind:?}: {levels:?}");
            assert!(
                levels.windows(2).all(|w| w[0] < w[1]),
                "{kind:?}: each stronger than the last: {levels:?}"
            );
            let top = tabula_bot::Levels::built_in().top_in(kind.key());
            assert_eq!(
                usize::from(levels[4]),
                top - 1,
                "{kind:?}: the top thinks for a time, the level below it does not"
            );
            let seeds: Vec<f64> = (1..=5)
                .map(|h| seed_rating(kind, h).glicko.rating)
                .collect();
            assert_eq!(seeds[0], 1500.0, "{kind:?}");
            assert!(seeds.windows(2).all(|w| w[0] < w[1]), "{kind:?}: {seeds:?}");
        }
    }

    #[test]
    fn the_levels_are_those_docs_online_md_lists() {
        let table = [
            (GameKind::Absorption, [1, 4, 7, 11, 15]),
            (GameKind::Adamas, [1, 3, 5, 8, 10]),
            (GameKind::Adaptoid, [1, 4, 6, 9, 12]),
            (GameKind::Adomoc, [1, 4, 7, 9, 12]),
        ];
        for (kind, levels) in table {
            let chosen: Vec<u8> = (1..=5).map(|h| ladder_level(kind, h)).collect();
            assert_eq!(
                chosen, levels,
                "{kind:?}: change the table in docs/online.md too"
            );
        }
    }

    #[test]
    fn every_house_name_is_kept_for_bots() {
        for (name, _) in HOUSE_BOTS {
            assert!(tabula_protocol::house::is_house_bot(name), "{name}");
            assert!(crate::accounts::names::check_name(name).is_err(), "{name}");
        }
    }
}
