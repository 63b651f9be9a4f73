//! Property tests over random Adamas games: every position reached by random play keeps
//! the rules' invariants, and every text form round-trips.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::HashSet;
use tabula_rules::adamas::{Adamas, AdamasEvent, AdamasMove, AdamasOptions};
use tabula_rules::{Game, Status};

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

fn check_position(game: &Adamas) -> Result<(), TestCaseError> {
    game.check_invariants().map_err(TestCaseError::fail)?;
    prop_assert_eq!(game.hash(), game.recompute_hash());

    let text = game.position_string();
    let again = Adamas::from_position(game.options().clone(), &text)
        .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(again.position_string(), text.clone());
    if game.status() == Status::Ongoing {
        prop_assert_eq!(again.hash(), game.hash());
    }

    // Enumeration agrees with the count and with check_move, with no duplicate moves.
    let count = game.count_moves().to_u64().unwrap_or(u64::MAX);
    if count <= 3_000 {
        let mut seen = HashSet::new();
        let mut results = HashSet::new();
        for mv in game.legal_moves() {
            prop_assert!(game.check_move(&mv).is_ok(), "{}", game.format_move(&mv));
            let written = game.format_move(&mv);
            prop_assert_eq!(game.parse_move(&written), Ok(mv.clone()), "{}", written);
            let mut after = game.clone();
            after.play_unchecked(&mv);
            results.insert(after.position_string());
            prop_assert!(seen.insert(mv));
        }
        prop_assert_eq!(seen.len() as u64, count, "{}", text);
        // Different moves always lead to different positions (adamas.md §4.6).
        prop_assert_eq!(results.len(), seen.len());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_every_invariant(
        seed in any::<u64>(),
        size in 2u8..=4,
        players in 2u8..=3,
        prog_cap in any::<bool>(),
        pieces in 1u16..=10,
        plies in 0usize..40,
    ) {
        let mut game = Adamas::new(options(size, players, prog_cap, pieces)).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        check_position(&game)?;
        for _ in 0..plies {
            let Some(mv) = game.random_move(&mut rng) else {
                prop_assert!(game.status().is_over());
                prop_assert_eq!(game.legal_moves().next(), None);
                break;
            };
            prop_assert!(game.check_move(&mv).is_ok(), "{}", game.format_move(&mv));
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
            check_position(&game)?;
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

    #[test]
    fn move_text_never_panics(text in "\\PC{0,24}") {
        let game = Adamas::new(AdamasOptions::default()).unwrap();
        if let Ok(mv) = game.parse_move(&text) {
            let _ = game.check_move(&mv);
            let _ = game.format_move(&mv);
        }
    }

    #[test]
    fn move_like_text_never_panics(text in "[0-9]{0,3}x?[a-h][0-9]{1,2}(,[0-9]{0,2}x?[a-h][0-9])*-[0-9x]{0,3}[a-h][0-9](,[a-h][0-9])*") {
        let game = Adamas::new(AdamasOptions::default()).unwrap();
        if let Ok(mv) = game.parse_move(&text) {
            let _ = game.check_move(&mv);
            let mut copy = game.clone();
            let _ = copy.apply(&mv);
        }
    }

    #[test]
    fn position_text_never_panics(text in "[.ox0-9/ ]{0,40}|[.oxy0-9/ -]{0,60}") {
        if let Ok(game) = Adamas::from_position(AdamasOptions::default(), &text) {
            let _ = game.count_moves();
            game.check_invariants().map_err(TestCaseError::fail)?;
        }
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
