//! The shared tree's bookkeeping and the thread counts a search accepts.

use super::*;
use tabula_rules::Game;
use tabula_rules::adamas::Adamas;
use tabula_rules::adaptoid::Adaptoid;

/// Every visit counted on the way down has come back up: a node is visited at least as
/// often as its children together, and holds at most one reward a visit.
fn check_visits<G: Knowledge>(search: &Search<G>, root_visits: u64) {
    assert_eq!(
        u64::from(search.nodes[search.root as usize].visits),
        root_visits
    );
    for node in &search.nodes {
        let below: u64 = node
            .children
            .iter()
            .map(|&child| u64::from(search.nodes[child as usize].visits))
            .sum();
        assert!(below <= u64::from(node.visits), "{below} > {}", node.visits);
        assert!((0.0..=f64::from(node.visits) + 1e-9).contains(&node.value));
    }
}

fn threads_share_one_tree<G: Knowledge>(game: G) {
    let mut search = Search::new(game, MctsConfig::default(), 1);
    search.set_threads(2);
    search.think(Budget::iterations(1500));
    assert_eq!(search.iterations(), 1500, "{}", G::NAME);
    check_visits(&search, 1500);
    if search.position.num_players() > 2 {
        let counted: u32 = search.root_child_rewards.values().map(|&(_, n)| n).sum();
        assert_eq!(
            counted, 1500,
            "every iteration adds to its root move's chances"
        );
    }
    // A kept tree goes on growing on both threads after a move.
    let mv = search.best_move().expect("a move at the start");
    search.advance(&mv);
    let kept = search.nodes[search.root as usize].visits;
    search.think(Budget::iterations(500).on_threads(2));
    check_visits(&search, u64::from(kept) + 500);
    let mv = search.best_move().unwrap();
    assert!(search.position.check_move(&mv).is_ok());
}

#[test]
fn threads_share_one_tree_and_count_each_iteration_once() {
    threads_share_one_tree(Adaptoid::new(Default::default()).unwrap());
    threads_share_one_tree(Adamas::new(Default::default()).unwrap());
    let mut three = <Adamas as Game>::Options::default();
    Adamas::set_option(&mut three, "players", "3").unwrap();
    Adamas::set_option(&mut three, "size", "4").unwrap();
    threads_share_one_tree(Adamas::new(three).unwrap());
}

#[test]
fn the_web_and_wild_settings_get_a_thread_count_that_runs() {
    let mut search = Search::new(
        Adaptoid::new(Default::default()).unwrap(),
        MctsConfig::default(),
        1,
    );
    search.set_threads(0);
    assert_eq!(search.threads(), 1);
    search.set_threads(10_000);
    assert_eq!(search.threads(), MAX_THREADS);
}
