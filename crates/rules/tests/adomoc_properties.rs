//! Property tests over random Adomoc games: `check_move` accepts exactly the legal moves
//! among every move from each piece to every space with every effect, and 30 pieces less
//! those consumed stay on the board. The checks every game shares (invariants, the legal
//! list, text round trips, malformed text) are in properties.rs.

mod common;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_rules::Game;
use tabula_rules::adomoc::{
    Adomoc, AdomocEvent, AdomocMove, AdomocOptions, DARK, Effect, LIGHT, SPACES, SpiralMode,
};

/// Every move of the mover's pieces to every space, with no effect, a consumption and an
/// origination to each origin cycle's spaces (and one space off the board).
fn candidates(game: &Adomoc) -> Vec<AdomocMove> {
    let mut all = Vec::new();
    let origins: Vec<u8> = (0..30).chain([SPACES as u8]).collect();
    for from in (0..SPACES as u8).filter(|&s| game.piece_at(s).is_some()) {
        for to in 0..=SPACES as u8 {
            all.push(AdomocMove {
                from,
                to,
                effect: Effect::None,
            });
            all.push(AdomocMove {
                from,
                to,
                effect: Effect::Consume,
            });
            if game.piece_at(to).is_some() {
                for &origin in &origins {
                    all.push(AdomocMove {
                        from,
                        to,
                        effect: Effect::Originate(origin),
                    });
                }
            }
        }
    }
    all
}

fn check_position(game: &Adomoc) -> Result<(), TestCaseError> {
    common::check_candidates(game, candidates(game))?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_games_count_pieces_and_judge_near_misses(
        seed in any::<u64>(),
        spirals in prop_oneof![
            Just(SpiralMode::Both),
            Just(SpiralMode::CcwInward),
            Just(SpiralMode::CwInward)
        ],
        infinite in any::<bool>(),
        plies in 0usize..300,
    ) {
        let options = AdomocOptions { spirals, infinite, ..AdomocOptions::default() };
        let mut game = Adomoc::new(options).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pieces = 30;
        common::walk_random_game(&mut game, &mut rng, plies, 5, &mut |g, _| check_position(g))?;
        // Pieces leave the board only by consumption, one event each.
        let mut replay = Adomoc::new(game.options().clone()).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..plies {
            let Some(mv) = replay.random_move(&mut rng) else { break };
            let events = replay.apply(&mv).unwrap();
            pieces -= events.iter().filter(|e| matches!(e, AdomocEvent::Consumed { .. })).count();
            prop_assert_eq!((replay.pieces_of(LIGHT) + replay.pieces_of(DARK)) as usize, pieces);
        }
    }
}
