//! Property tests over random Absorption games: `check_move` accepts exactly the legal
//! actions among a wide set of candidates, and all 36 pieces stay on the board. The checks
//! every game shares (invariants, the legal list, text round trips, malformed text) are in
//! properties.rs.

mod common;

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_rules::Game;
use tabula_rules::absorption::{
    Absorption, AbsorptionMove, AbsorptionOptions, Allotment, DARK, LIGHT, SquareList,
};

/// Actions worth asking `check_move` about: every legal one plus many near misses (any
/// stack to any square within two steps, splits and merges around each stack,
/// absorptions with every small distribution).
fn candidates(game: &Absorption, rng: &mut SmallRng) -> Vec<AbsorptionMove> {
    let mut all: Vec<AbsorptionMove> = game.legal_moves().collect();
    let near = |s: u8| {
        (0..64u8).filter(move |&t| {
            let (dx, dy) = ((t % 8).abs_diff(s % 8), (t / 8).abs_diff(s / 8));
            t != s && dx <= 2 && dy <= 2
        })
    };
    all.push(AbsorptionMove::Pass);
    for off_board in [64, 200, 255] {
        all.push(AbsorptionMove::Move {
            from: off_board,
            to: 0,
        });
        all.push(AbsorptionMove::FollowUp {
            from: 0,
            to: off_board,
        });
        all.push(AbsorptionMove::Merge {
            dest: 0,
            others: SquareList::new(&[off_board]).unwrap(),
        });
        all.push(AbsorptionMove::Absorb {
            target: off_board,
            gifts: Allotment::new(&[(0, 1)]).unwrap(),
        });
    }
    for from in 0..64u8 {
        if game.stack(from).is_none() {
            continue;
        }
        for to in near(from) {
            all.push(AbsorptionMove::Move { from, to });
            all.push(AbsorptionMove::FollowUp { from, to });
            all.push(AbsorptionMove::Merge {
                dest: to,
                others: SquareList::new(&[from]).unwrap(),
            });
            let gifts = Allotment::new(&[(to, rng.random_range(1..=3))]).unwrap();
            all.push(AbsorptionMove::Absorb {
                target: from,
                gifts,
            });
        }
        let around: Vec<u8> = near(from).collect();
        for _ in 0..6 {
            let a = around[rng.random_range(0..around.len())];
            let b = around[rng.random_range(0..around.len())];
            let c = around[rng.random_range(0..around.len())];
            let h = rng.random_range(1..=2);
            if let Some(parts) = Allotment::new(&[(a, h), (b, 1)]) {
                all.push(AbsorptionMove::Split { from, parts });
            }
            if let Some(parts) = Allotment::new(&[(a, 1), (b, 1), (c, 1)]) {
                all.push(AbsorptionMove::Split { from, parts });
            }
            if let Some(others) = SquareList::new(&[a, b]) {
                all.push(AbsorptionMove::Merge { dest: from, others });
            }
            if let Some(others) = SquareList::new(&[from, a]) {
                all.push(AbsorptionMove::Merge { dest: from, others });
            }
            if let Some(gifts) = Allotment::new(&[(a, 1), (b, h)]) {
                all.push(AbsorptionMove::Absorb {
                    target: from,
                    gifts,
                });
            }
        }
    }
    all
}

fn check_position(game: &Absorption, rng: &mut SmallRng) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        game.pieces_of(LIGHT) as u32 + game.pieces_of(DARK) as u32,
        36
    );
    common::check_candidates(game, candidates(game, rng))?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_games_keep_36_pieces_and_judge_near_misses(
        seed in any::<u64>(),
        merge_connected in any::<bool>(),
        forbid_pass_over_origin in any::<bool>(),
        symmetric_absorption in any::<bool>(),
        dark_first in any::<bool>(),
        plies in 0usize..400,
    ) {
        let options = AbsorptionOptions {
            merge_connected,
            forbid_pass_over_origin,
            symmetric_absorption,
            dark_first,
            ..AbsorptionOptions::default()
        };
        let mut game = Absorption::new(options).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        // Checking every position is slow in debug builds; a sample suffices.
        common::walk_random_game(&mut game, &mut rng, plies, 3, &mut |g, rng| check_position(g, rng))?;
    }
}
