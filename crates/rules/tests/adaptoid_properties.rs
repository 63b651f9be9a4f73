//! Property tests over random Adaptoid games: `check_move` accepts exactly the legal turns
//! among every turn that names cells of the board, and bodies, legs and pincers add up to
//! 12 each. Also a Super-Adaptoid board read from a file. The checks every game shares
//! (invariants, the legal list, text round trips, malformed text) are in properties.rs.

mod common;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_rules::adaptoid::{Adaptoid, AdaptoidMove, AdaptoidOptions, Colour, Growth, SUPPLY};
use tabula_rules::{Game, Player};

/// Near misses for `check_move`: no move with every growth, and every step from each
/// adaptoid to every cell (and one off the board) with the growths most likely to be
/// confused after it: none, a part on the cell it reached, a creation on the cell it left.
fn candidates(game: &Adaptoid) -> Vec<AdaptoidMove> {
    let n = game.board().len() as u8;
    let mut all = Vec::new();
    for cell in 0..=n {
        for growth in [
            Growth::Create(cell),
            Growth::Leg(cell),
            Growth::Pincer(cell),
        ] {
            all.push(AdaptoidMove::Turn {
                step: None,
                growth: Some(growth),
            });
        }
    }
    all.push(AdaptoidMove::Turn {
        step: None,
        growth: None,
    });
    for from in (0..n).filter(|&c| game.creature(c).is_some()) {
        for to in 0..=n {
            for growth in [
                None,
                Some(Growth::Leg(to)),
                Some(Growth::Pincer(to)),
                Some(Growth::Create(from)),
                Some(Growth::Leg(from)),
            ] {
                all.push(AdaptoidMove::Turn {
                    step: Some((from, to)),
                    growth,
                });
            }
        }
    }
    all.push(AdaptoidMove::Choose(Colour::White));
    all.push(AdaptoidMove::Place { white: 0, black: 1 });
    all.push(AdaptoidMove::Place { white: 2, black: 2 });
    all.push(AdaptoidMove::Place { white: 0, black: n });
    all
}

fn check_position(game: &Adaptoid) -> Result<(), TestCaseError> {
    for player in [Player(0), Player(1)] {
        let on_board = (0..game.board().len() as u8)
            .filter_map(|c| game.creature(c))
            .filter(|c| c.owner == player)
            .fold([0u8; 3], |[b, l, p], c| [b + 1, l + c.legs, p + c.pincers]);
        let supply = game.supply_of(player);
        for kind in 0..3 {
            prop_assert_eq!(on_board[kind] + supply[kind], SUPPLY);
        }
    }

    common::check_candidates(game, candidates(game))?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_the_supply_and_judge_near_misses(
        seed in any::<u64>(),
        forbid_losing_attacks in any::<bool>(),
        pie_start in any::<bool>(),
        plies in 0usize..200,
    ) {
        let options = AdaptoidOptions {
            forbid_losing_attacks,
            pie_start,
            ..AdaptoidOptions::default()
        };
        let mut game = Adaptoid::new(options).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        // Checking every position is slow in debug builds; a sample suffices.
        common::walk_random_game(&mut game, &mut rng, plies, 2, &mut |g, _| check_position(g))?;
    }
}

#[test]
fn a_super_adaptoid_board_from_a_file() {
    let text = include_str!("../../../boards/super-adaptoid-example.txt");
    let mut options = AdaptoidOptions::default();
    Adaptoid::set_option(&mut options, "board", text).unwrap();
    let game = Adaptoid::new(options).unwrap();
    assert_eq!(game.board().len(), 37);
    // A Super-Adaptoid board is a graph: c1 and c13 are linked under the board.
    let degree = |label: &str| {
        let cell = game.board().parse_label(label).unwrap();
        game.board().neighbours(cell).count_ones()
    };
    assert_eq!((degree("a1"), degree("c1"), degree("c7")), (3, 4, 2));
    let mut rng = SmallRng::seed_from_u64(7);
    let mut game = game;
    while let Some(mv) = game.random_move(&mut rng) {
        game.apply(&mv).unwrap();
        game.check_invariants().unwrap();
    }
    assert!(game.status().is_over());
}
