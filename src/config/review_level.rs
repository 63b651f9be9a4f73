//! The settings' review level across the ladders the game has had: one number for every
//! game, counted on today's ladders, read from files written on older ones.

use super::Settings;

/// Settings written before reviews came in hold no level: 0 until [`super::parse`] makes
/// it the strongest, as the review's own settings (`config/review.ron`) say.
pub(super) fn unset() -> u8 {
    0
}

/// The ladder settings count their levels on (see `level_ladder`).
const LEVEL_LADDER: u32 = 3;

/// Settings without `level_ladder` were written before the ladder.
pub(super) fn before_the_ladder() -> u32 {
    1
}

/// Counts the review level on the ladders of today: a file written before the ladder
/// counted the five former levels, one of `level_ladder` 2 the one ladder of twelve every
/// game shared, and one written before reviews holds none (the top).
pub(super) fn onto_the_ladder(settings: &mut Settings) -> Result<(), String> {
    if settings.level_ladder > LEVEL_LADDER {
        return Err(format!(
            "level_ladder must be 1 to {LEVEL_LADDER} (or absent: settings from before the \
             ladder), not {}",
            settings.level_ladder
        ));
    }
    let levels = tabula_bot::Levels::built_in();
    if settings.review_level == 0 {
        settings.review_level = levels.top() as u8;
    } else if settings.level_ladder < LEVEL_LADDER {
        // The old level plays as the level named for it.
        let old = usize::from(settings.review_level);
        let (today, count, when) = match settings.level_ladder {
            ..=1 => (
                levels.from_former_anywhere(old),
                tabula_bot::FORMER_LEVELS,
                "settings before the ladder",
            ),
            _ => (
                levels.from_twelve_anywhere(old),
                tabula_bot::TWELVE,
                "settings of one ladder of twelve",
            ),
        };
        settings.review_level = today
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| format!("review_level must be 1 to {count} ({when}), not {old}"))?;
    }
    settings.level_ladder = LEVEL_LADDER;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DEFAULTS, parse, to_text};

    #[test]
    fn settings_from_before_the_ladder_keep_their_review_level() {
        let levels = tabula_bot::Levels::built_in();
        let former = |text: &str| {
            parse(
                &DEFAULTS
                    .replace("    level_ladder: 3,\n", "")
                    .replace("review_level: 16,", text),
            )
        };
        // The former level 3 is played by the level named for it, the former top by the top.
        let third = former("review_level: 3,").unwrap().review_level as usize;
        assert_eq!(third, levels.from_former_anywhere(3).unwrap());
        assert_eq!(levels.get("adaptoid", third).unwrap().name, "Advanced");
        let top = former("review_level: 5,").unwrap();
        assert_eq!(top.review_level as usize, levels.top());
        assert_eq!(top.level_ladder, LEVEL_LADDER);
        // Written again, it stays on the ladder.
        assert_eq!(parse(&to_text(&top)), Ok(top.clone()));
        // Written before reviews: the strongest.
        assert_eq!(former("").unwrap().review_level as usize, levels.top());
        let error = former("review_level: 9,").unwrap_err();
        assert!(error.contains("review_level must be 1 to 5"), "{error}");
        // On the ladder, a file without a review level reviews at the top too.
        let without = parse(&DEFAULTS.replace("review_level: 16,", "")).unwrap();
        assert_eq!(without.review_level as usize, levels.top());
        let error = parse(&DEFAULTS.replace("level_ladder: 3,", "level_ladder: 4,")).unwrap_err();
        assert!(error.contains("level_ladder must be 1 to 3"), "{error}");
        // Settings of the one ladder of twelve: its top is the top.
        let twelve = |text: &str| {
            parse(
                &DEFAULTS
                    .replace("level_ladder: 3,", "level_ladder: 2,")
                    .replace("review_level: 16,", text),
            )
        };
        assert_eq!(
            twelve("review_level: 12,").unwrap().review_level as usize,
            levels.top()
        );
        // Its level 8 ("Advanced" in every game) is the same search where the ladder kept
        // twelve levels, and a weaker, quicker one where levels came in below it.
        let advanced = twelve("review_level: 8,").unwrap().review_level as usize;
        assert_eq!(levels.get("adaptoid", advanced).unwrap().name, "Advanced");
        assert_eq!(
            levels.get("absorption", advanced).unwrap().name,
            "Tournament"
        );
        let error = twelve("review_level: 13,").unwrap_err();
        assert!(error.contains("review_level must be 1 to 12"), "{error}");
    }
}
