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

/// The position's own checks and its text form: invariants, the hash against a
/// recomputation, and the position string read back to the same string (and hash, while
/// the game goes on; with `same_status`, also to the same result unless drawn, since a
/// repetition draw needs the history the string does not hold).
pub fn check_position_text<G: Game>(game: &G, same_status: bool) -> Result<(), TestCaseError> {
    game.check_invariants().map_err(TestCaseError::fail)?;
    prop_assert_eq!(game.hash(), game.recompute_hash());
    let text = game.position_string();
    let again = G::from_position(game.options().clone(), &text)
        .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(again.position_string(), text.clone());
    if same_status && !matches!(game.status(), tabula_rules::Status::Draw { .. }) {
        prop_assert_eq!(again.status(), game.status());
    }
    if game.status() == tabula_rules::Status::Ongoing {
        prop_assert_eq!(again.hash(), game.hash());
    }
    Ok(())
}

/// The legal list against the count (no duplicates) and against `check_move` on every
/// candidate and every legal move, with each legal move's notation read back. Returns
/// the legal moves.
pub fn check_moves<G: Game>(
    game: &G,
    candidates: impl IntoIterator<Item = G::Move>,
) -> Result<std::collections::HashSet<G::Move>, TestCaseError> {
    let legal: std::collections::HashSet<G::Move> = game.legal_moves().collect();
    prop_assert_eq!(legal.len() as u64, game.count_moves().to_u64().unwrap());
    prop_assert_eq!(legal.len(), game.legal_moves().count(), "no duplicates");
    let text = game.position_string();
    for mv in candidates.into_iter().chain(legal.iter().cloned()) {
        let verdict = game.check_move(&mv);
        prop_assert_eq!(
            verdict.is_ok(),
            legal.contains(&mv),
            "{:?} in {}: {:?}",
            mv,
            text,
            verdict
        );
        if legal.contains(&mv) {
            let written = game.format_move(&mv);
            prop_assert_eq!(game.parse_move(&written), Ok(mv), "{}", written);
        }
    }
    Ok(legal)
}
