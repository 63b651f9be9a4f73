//! The shared tree's bookkeeping and the thread counts a search accepts.

use super::temperature::pick_by_temperature;
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

#[test]
fn a_temperature_plays_moves_by_how_much_the_search_looked_at_them() {
    let stats = |mv: u8, visits: u32, value: f64| MoveStats {
        mv,
        visits,
        value,
        proof: None,
    };
    let moves = [
        stats(0, 50, 0.60),
        stats(1, 40, 0.59),
        stats(2, 10, 0.10),
        // Seen once with a lucky playout: it weighs a fiftieth of the best at T = 1.
        stats(3, 1, 1.0),
        // Not searched: its chance is unknown, so it is never played.
        stats(4, 0, 0.99),
    ];
    let moves: Vec<&MoveStats<u8>> = moves.iter().collect();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut played = |temperature: f64| {
        let mut counts = [0u32; 5];
        for _ in 0..4000 {
            counts[pick_by_temperature(&moves, temperature, &mut rng)
                .unwrap()
                .mv as usize] += 1;
        }
        counts
    };
    // T = 1: in proportion to the visits, 50 : 40 : 10 : 1.
    let at_one = played(1.0);
    assert!((1800..2150).contains(&at_one[0]), "{at_one:?}");
    assert!((1400..1750).contains(&at_one[1]), "{at_one:?}");
    assert!((300..500).contains(&at_one[2]), "{at_one:?}");
    assert!(at_one[3] < 80 && at_one[4] == 0, "{at_one:?}");
    // Toward 0 only the most visited; high, nearer even among the searched.
    assert_eq!(played(0.01)[0], 4000);
    let hot = played(10.0);
    assert!(hot[3] > 400 && hot[4] == 0, "{hot:?}");
    let unsearched = [stats(0, 0, 0.5)];
    let unsearched: Vec<&MoveStats<u8>> = unsearched.iter().collect();
    assert!(pick_by_temperature(&unsearched, 1.0, &mut rng).is_none());
}
