//! Property tests over random Adamas games: pieces are conserved but for captures, every
//! move leads to a different position, and the random move sampler is uniform. The checks
//! every game shares (invariants, the legal list, text round trips, malformed text) are in
//! properties.rs.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::HashSet;
use tabula_rules::Game;
use tabula_rules::adamas::{Adamas, AdamasEvent, AdamasMove, AdamasOptions};

fn options(size: u8, players: u8, prog_cap: bool, pieces: u16) -> AdamasOptions {
    AdamasOptions {
        size: Some(size),
        players,
        prog_cap,
        pieces: Some(pieces),
        ..AdamasOptions::default()
    }
}

fn total_pieces(game: &Adamas) -> u32 {
    (0..game.num_players())
        .map(|p| game.pieces_of(tabula_rules::Player(p as u8)) as u32)
        .sum()
}

/// Different moves always lead to different positions (adamas.md §4.6), checked where
/// there are at most 3,000. The legal list itself is checked in properties.rs.
fn check_distinct_results(game: &Adamas) -> Result<(), TestCaseError> {
    let moves: Vec<AdamasMove> = game.legal_moves().take(3_001).collect();
    if moves.len() > 3_000 {
        return Ok(());
    }
    let results: HashSet<String> = moves
        .iter()
        .map(|mv| {
            let mut after = game.clone();
            after.play_unchecked(mv);
            after.position_string()
        })
        .collect();
    prop_assert_eq!(results.len(), moves.len(), "{}", game.position_string());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_conserve_pieces(
        seed in any::<u64>(),
        size in 2u8..=4,
        players in 2u8..=3,
        prog_cap in any::<bool>(),
        pieces in 1u16..=10,
        plies in 0usize..40,
    ) {
        let mut game = Adamas::new(options(size, players, prog_cap, pieces)).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        check_distinct_results(&game)?;
        for _ in 0..plies {
            let Some(mv) = game.random_move(&mut rng) else {
                prop_assert!(game.status().is_over());
                prop_assert_eq!(game.legal_moves().next(), None);
                break;
            };
            let before = total_pieces(&game);
            let events = game.apply(&mv).unwrap();
            let lost: u32 = events
                .iter()
                .map(|e| match e {
                    AdamasEvent::Captured { height, .. } => *height as u32,
                    AdamasEvent::Eliminated { removed, .. } => {
                        removed.iter().map(|(_, h)| *h as u32).sum()
                    }
                    _ => 0,
                })
                .sum();
            prop_assert_eq!(total_pieces(&game) + lost, before, "pieces are conserved but for captures");
            let moved: u32 = events
                .iter()
                .map(|e| match e {
                    AdamasEvent::Moved { count, .. } => *count as u32,
                    _ => 0,
                })
                .sum();
            prop_assert_eq!(moved, mv.pieces_moved());
            check_distinct_results(&game)?;
        }
    }

    #[test]
    fn random_moves_are_uniform_enough_to_reach_merges(seed in any::<u64>()) {
        // After a few plies merges exist; over many draws a uniform sampler must produce
        // both kinds in roughly their proportion.
        let mut game = Adamas::new(AdamasOptions::default()).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        for text in ["c1-a1,c2,4xc3,e1", "c5-c4,3xe3"] {
            let mv = game.parse_move(text).unwrap();
            game.apply(&mv).unwrap();
        }
        // 518 splits and 60 merges: expect about 10% merges.
        let merges = (0..2000)
            .filter(|_| matches!(game.random_move(&mut rng), Some(AdamasMove::Merge { .. })))
            .count();
        prop_assert!((120..=300).contains(&merges), "{} merges of 2000", merges);
    }
}

#[test]
fn a_uniform_split_sampler_hits_every_start_move() {
    // Size 2 with 2 pieces: few enough moves to see each one drawn.
    let game = Adamas::new(options(2, 2, false, 2)).unwrap();
    let all: HashSet<AdamasMove> = game.legal_moves().collect();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut drawn = HashSet::new();
    for _ in 0..20 * all.len() {
        drawn.insert(game.random_move(&mut rng).unwrap());
    }
    assert_eq!(drawn, all);
}
