//! What the search may know about one game beyond its rules: how good a position looks,
//! which moves are worth trying when there are too many, and how to play a playout.

use crate::learned::Weights;
use crate::outcome::{Rewards, even};
use rand::Rng;
use std::collections::HashSet;
use std::sync::Arc;
use tabula_rules::{Game, Player};

/// Positions with up to this many moves search them all unless the game orders its own
/// candidates.
pub const ALL_MOVES_UP_TO: usize = 400;

/// Per-game knowledge. The defaults know nothing: an even evaluation, every legal move
/// (or a random sample when there are too many), uniformly random playouts.
pub trait Knowledge: Game {
    /// Win chances per seat for a position a playout stopped in before the end.
    fn evaluate(&self) -> Rewards {
        even(self.num_players())
    }

    /// Playout plies before the evaluation judges; `None` plays to the end. Short where
    /// games are long and the evaluation is sound.
    fn playout_plies(&self) -> Option<u32> {
        Some(12)
    }

    /// The moves to search from here when there are more than `limit`; `None` means all
    /// legal moves. The list never holds an illegal move or the same move twice.
    /// The default searches every move up to [`ALL_MOVES_UP_TO`] whatever `limit` says:
    /// a random sample is worse than all the moves (measured in Adomoc), so a small
    /// `limit` only trims games that order their candidates best first.
    fn candidates<R: Rng + ?Sized>(&self, rng: &mut R, limit: usize) -> Option<Vec<Self::Move>> {
        sampled_moves(self, rng, limit.max(ALL_MOVES_UP_TO))
    }

    /// One playout move: uniformly random unless the game knows better.
    fn playout_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
        self.random_move(rng)
    }

    /// One playout move by the tactical policy (`Policy::Tactical`): slower than
    /// [`Knowledge::playout_move`], worth it where it judges what a move takes and loses.
    /// The light policy unless the game has one.
    fn tactical_playout_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
        self.playout_move(rng)
    }

    /// The names of the features the learned evaluation weighs ([`crate::learned`]), at
    /// most [`crate::learned::MAX_FEATURES`].
    const FEATURES: &'static [&'static str] = &[];

    /// `seat`'s features, in the order of [`Knowledge::FEATURES`], into `out` (as long
    /// as the names, zeroed).
    fn features(&self, _seat: Player, _out: &mut [f64]) {}

    /// Whether `seat` is still in the game (a learned evaluation gives a seat out of it
    /// no chance).
    fn in_play(&self, _seat: Player) -> bool {
        true
    }

    /// The learned weights this game ships (`config/weights/GAME.ron`), if any.
    fn shipped_weights() -> Option<Arc<Weights>> {
        None
    }
}

/// `None` when the position has at most `limit` legal moves; otherwise up to `limit`
/// distinct moves drawn uniformly, for games where some positions have millions.
pub fn sampled_moves<G: Game, R: Rng + ?Sized>(
    game: &G,
    rng: &mut R,
    limit: usize,
) -> Option<Vec<G::Move>> {
    if game.has_at_most_moves(limit as u64) {
        return None;
    }
    let mut moves = Vec::with_capacity(limit);
    let mut seen = HashSet::with_capacity(limit);
    add_samples(game, rng, limit, &mut moves, &mut seen);
    Some(moves)
}

/// Adds random moves not yet in `seen` until `moves` holds `limit` (or the draws keep
/// repeating, which means the position has few more to give).
pub fn add_samples<G: Game, R: Rng + ?Sized>(
    game: &G,
    rng: &mut R,
    limit: usize,
    moves: &mut Vec<G::Move>,
    seen: &mut HashSet<G::Move>,
) {
    let mut misses = 0;
    while moves.len() < limit && misses < 2 * limit {
        let Some(mv) = game.random_move(rng) else {
            return;
        };
        if seen.insert(mv.clone()) {
            moves.push(mv);
        } else {
            misses += 1;
        }
    }
}
