//! Property tests over random Adaptoid games: `check_move` accepts exactly the legal turns
//! among every turn that names cells of the board, and bodies, legs and pincers add up to
//! 12 each; a turn's preview says what playing it takes, loses and leaves starving. Also
//! a Super-Adaptoid board read from a file. The checks every game shares
//! (invariants, the legal list, text round trips, malformed text) are in properties.rs.

mod common;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_rules::adaptoid::{Adaptoid, AdaptoidMove, AdaptoidOptions, Colour, Growth, SUPPLY};
use tabula_rules::{Game, Player, Status};

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

/// Every legal turn's preview against the turn played: the captures each side gains, the
/// mover's adaptoids starving after it, and whether the mover has won.
fn check_previews(game: &Adaptoid) -> Result<(), TestCaseError> {
    let mover = game.to_move();
    let other = Player(1 - mover.0);
    for mv in game.legal_moves() {
        let preview = game.preview(&mv);
        let mut after = game.clone();
        after.play_unchecked(&mv);
        let gained = |player| after.captures_of(player) - game.captures_of(player);
        let seen = (
            preview.taken,
            preview.lost,
            preview.left_starving,
            preview.wins,
        );
        let played = (
            gained(mover),
            gained(other),
            after.starving(mover).count_ones() as u8,
            matches!(after.status(), Status::Win { winner, .. } if winner == mover),
        );
        prop_assert_eq!(seen, played, "{}", game.format_move(&mv));
    }
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

    #[test]
    fn previews_say_what_each_turn_takes_and_loses(
        seed in any::<u64>(),
        forbid_losing_attacks in any::<bool>(),
        plies in 0usize..120,
    ) {
        let options = AdaptoidOptions {
            forbid_losing_attacks,
            ..AdaptoidOptions::default()
        };
        let mut game = Adaptoid::new(options).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        common::walk_random_game(&mut game, &mut rng, plies, 3, &mut |g, _| check_previews(g))?;
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
