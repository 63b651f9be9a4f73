//! What the property tests of several games share.

use proptest::prelude::*;
use rand::Rng;
use tabula_rules::Game;

/// Plays up to `plies` random moves from `game`. Each is played both by `apply` and by
/// `play_unchecked`, which must agree; `check` sees the start, every `every`th position
/// and the last. A game that ends must have no moves left.
pub fn walk_random_game<G: Game, R: Rng>(
    game: &mut G,
    rng: &mut R,
    plies: usize,
    every: usize,
    check: &mut impl FnMut(&G, &mut R) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    check(game, rng)?;
    for ply in 0..plies {
        let Some(mv) = game.random_move(rng) else {
            prop_assert!(game.status().is_over());
            prop_assert!(game.legal_moves().next().is_none());
            break;
        };
        let mut fast = game.clone();
        fast.play_unchecked(&mv);
        game.apply(&mv)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(fast.position_string(), game.position_string());
        if ply % every == 0 || game.status().is_over() {
            check(game, rng)?;
        }
    }
    Ok(())
}
