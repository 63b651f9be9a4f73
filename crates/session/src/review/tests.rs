//! How a review spends its threads: tested here, where the search's spec can be seen.

use super::*;
use crate::Match;
use tabula_bot::MAX_THREADS;
use tabula_rules::adomoc::Adomoc;

/// A search for time searches each position on one thread, whatever the bot's threads:
/// on more it would search more in its time, and the studies would then match it, no
/// sooner. The moves played are studied on all the bot's threads; a search capped by
/// iterations keeps its threads for both.
#[test]
fn a_search_for_time_runs_on_one_thread_and_studies_on_the_bots() {
    let game = Match::<Adomoc>::start(&[]).unwrap();
    let one_look = ReviewSettings {
        looks: 1,
        ..ReviewSettings::built_in().clone()
    };
    for (bot, threads, settings, searching_on, studying_on) in [
        ("mcts:ms=90", None, ReviewSettings::built_in(), 1, 1),
        (
            "mcts:ms=90,threads=2",
            None,
            ReviewSettings::built_in(),
            1,
            2,
        ),
        ("mcts:ms=90,threads=2", None, &one_look, 1, 2),
        // The app's: the top level on the machine's cores (none past the most).
        ("level:16", Some(2), ReviewSettings::built_in(), 1, 2),
        (
            "level:16",
            Some(1_000),
            ReviewSettings::built_in(),
            1,
            MAX_THREADS,
        ),
        (
            "mcts:iters=300,threads=2",
            None,
            ReviewSettings::built_in(),
            2,
            2,
        ),
        (
            "mcts:iters=300,ms=90,threads=2",
            None,
            ReviewSettings::built_in(),
            2,
            2,
        ),
    ] {
        let spec: BotSpec = bot.parse().unwrap();
        let spec = match threads {
            Some(cap) => spec.on_threads(cap),
            None => spec,
        };
        let review = Review::new(&game, spec, settings, 1).unwrap();
        let (_, budget) = review.spec.search_for("adomoc").unwrap();
        assert_eq!(budget.thread_count(), searching_on, "{bot} {threads:?}");
        assert_eq!(review.study_threads(), studying_on, "{bot} {threads:?}");
    }
}
