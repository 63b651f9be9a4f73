//! What the session tests share: random games built through the move builder.

use rand::Rng;
use tabula_bot::Knowledge;
use tabula_session::{AnyMatch, GameKind, Match, with_game};

/// A random game played step by step through the match's own move builder, as a player
/// clicking would, `plies` moves at most.
pub fn random_game<G: Knowledge>(rng: &mut impl Rng, plies: usize) -> Match<G> {
    let mut game = Match::<G>::start(&[]).unwrap();
    while game.ply() < plies && !game.status().is_over() {
        let choices = game.next_steps().len();
        if game.complete_move().is_some() && (choices == 0 || rng.random_bool(0.5)) {
            game.commit().unwrap();
        } else {
            game.choose(rng.random_range(0..choices)).unwrap();
        }
    }
    game
}

/// [`random_game`] for a game named by its kind.
#[allow(dead_code)] // each test file uses some of the helpers
pub fn random_any(kind: GameKind, rng: &mut impl Rng, plies: usize) -> Box<dyn AnyMatch> {
    with_game!(kind, G => Box::new(random_game::<G>(rng, plies)))
}
