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
    // One file for every case: "b" is Adomoc's and Absorption's only, and is the entry of
    // the former level 4 and of level 11 of twelve.
    let levels = Levels::parse(
        "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3], formerly: [1, 1, 1, 2, 3], levels: [\
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
    assert_eq!(levels.from_twelve("adomoc", 12), Some(3));
    assert_eq!(levels.from_twelve("adaptoid", 12), Some(2));
    assert_eq!(levels.from_twelve("adaptoid", 11), Some(1));
    // An old level whose entry a game lacks is played there by its level below.
    assert_eq!(levels.from_twelve("adomoc", 11), Some(2));
    assert_eq!(levels.from_twelve("adaptoid", 11), Some(1));
    assert_eq!(levels.from_former("adaptoid", 4), Some(1));
    assert_eq!(levels.from_former("adaptoid", 5), Some(2));
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
    // A search without the game's knowledge cannot play its tactical policy: said, not
    // played as the light one.
    let error = Levels::parse(
        "(twelve: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], formerly: [1, 1, 1, 1, 1], levels: [(name: \"x\", budget: (iterations: Some(10)), search: (knowledge: false, policy: Tactical))])",
    )
    .unwrap_err();
    assert!(
        error.contains("level 1 (x)") && error.contains("policy=tactical needs knowledge"),
        "{error}"
    );
}
