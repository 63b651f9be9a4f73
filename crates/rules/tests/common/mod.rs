//! What the property tests of several games share.

// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use tabula_rules::{Game, Status};

/// Plays up to `plies` random moves from `game`. Each is played both by `apply` and by
/// `play_unchecked`, which must agree; `check` sees the start, every `every`th position
/// and the last. A game that ends must have no moves left. Returns the moves played.
pub fn walk_random_game<G: Game, R: Rng>(
    game: &mut G,
    rng: &mut R,
    plies: usize,
    every: usize,
    check: &mut impl FnMut(&G, &mut R) -> Result<(), TestCaseError>,
) -> Result<Vec<G::Move>, TestCaseError> {
    check(game, rng)?;
    let mut played = Vec::new();
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
        played.push(mv);
        if ply % every == 0 || game.status().is_over() {
            check(game, rng)?;
        }
    }
    Ok(played)
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
    if same_status && !matches!(game.status(), Status::Draw { .. }) {
        prop_assert_eq!(again.status(), game.status());
    }
    if game.status() == Status::Ongoing {
        prop_assert_eq!(again.hash(), game.hash());
    }
    Ok(())
}

/// The legal list against `check_move`, `random_move` and the count (no duplicates), with
/// each legal move's notation read back, alone in a record. Only the first `limit` moves
/// are checked, and the count only when the list is no longer: Adamas stacks split
/// millions of ways, and under progressive capture it counts some splits one by one.
pub fn check_legal_moves<G: Game>(game: &G, limit: usize) -> Result<(), TestCaseError> {
    let text = game.position_string();
    let listed: Vec<G::Move> = game.legal_moves().take(limit + 1).collect();
    let mut seen = HashSet::new();
    for mv in listed.iter().take(limit) {
        let verdict = game.check_move(mv);
        prop_assert!(verdict.is_ok(), "{:?} in {}: {:?}", mv, text, verdict);
        let written = game.format_move(mv);
        prop_assert_eq!(game.parse_move(&written), Ok(mv.clone()), "{}", written);
        prop_assert_eq!(G::split_moves(&written), vec![written.clone()]);
        prop_assert!(seen.insert(mv), "{} is listed twice in {}", written, text);
    }
    if listed.len() <= limit {
        prop_assert_eq!(
            game.count_moves().to_u64(),
            Some(listed.len() as u64),
            "{}",
            text
        );
    }
    if game.status().is_over() {
        prop_assert!(listed.is_empty(), "{} is over but lists moves", text);
    }
    let mut rng = SmallRng::seed_from_u64(game.hash());
    prop_assert_eq!(game.random_move(&mut rng).is_some(), !listed.is_empty());
    Ok(())
}

/// `check_move` on each candidate against the legal list: it accepts exactly the legal
/// ones. Returns the legal moves.
pub fn check_candidates<G: Game>(
    game: &G,
    candidates: impl IntoIterator<Item = G::Move>,
) -> Result<HashSet<G::Move>, TestCaseError> {
    let legal: HashSet<G::Move> = game.legal_moves().collect();
    let text = game.position_string();
    for mv in candidates {
        let verdict = game.check_move(&mv);
        prop_assert_eq!(
            verdict.is_ok(),
            legal.contains(&mv),
            "{:?} in {}: {:?}",
            mv,
            text,
            verdict
        );
    }
    Ok(legal)
}
