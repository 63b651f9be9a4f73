//! How a bot with a temperature draws the move it plays from the searched moves.

use super::MoveStats;
use rand::Rng;
use rand::rngs::SmallRng;

/// One of the searched `moves`, drawn with a weight of its visits to the power 1 / T, as
/// AlphaZero's self-play chooses: toward T = 0 the most visited (the best), at T = 1 in
/// proportion to how much the search looked at each, above that nearer to any searched
/// move. Visits, not mean values, because the search visits a move in proportion to how
/// good it looks and how sure it is: a move seen once with a lucky playout weighs little.
/// Moves the search has not visited are left out. `None` when no move was visited.
pub(super) fn pick_by_temperature<'m, M>(
    moves: &[&'m MoveStats<M>],
    temperature: f64,
    rng: &mut SmallRng,
) -> Option<&'m MoveStats<M>> {
    let most = moves.iter().map(|s| s.visits).max().filter(|&v| v > 0)?;
    // Relative to the most visited, so the weights stay in (0, 1] at any temperature.
    let weights: Vec<f64> = moves
        .iter()
        .map(|s| (f64::from(s.visits) / f64::from(most)).powf(1.0 / temperature))
        .collect();
    let mut left = rng.random::<f64>() * weights.iter().sum::<f64>();
    for (stats, weight) in moves.iter().zip(&weights) {
        if left < *weight {
            return Some(stats);
        }
        left -= weight;
    }
    // Rounding left a sliver: the most visited.
    moves.iter().copied().max_by_key(|s| s.visits)
}
