//! A bot that plays whole games: a spec made into a random mover or a kept search.

use crate::config::Budget;
use crate::knowledge::Knowledge;
use crate::mcts::Search;
use crate::spec::BotSpec;
use rand::SeedableRng;
use rand::rngs::SmallRng;

pub enum Bot<G: Knowledge> {
    Random(SmallRng),
    Search { search: Search<G>, budget: Budget },
}

impl<G: Knowledge> Bot<G> {
    pub fn new(spec: &BotSpec, game: &G, seed: u64) -> Bot<G> {
        match spec {
            BotSpec::Random => Bot::Random(SmallRng::seed_from_u64(seed)),
            BotSpec::Search { config, budget } => Bot::Search {
                search: Search::new(game.clone(), config.clone(), seed),
                budget: *budget,
            },
        }
    }

    /// The move to play in `game`; `None` only when the game is over. The search keeps
    /// what it learnt about the position `game` grew from.
    pub fn choose(&mut self, game: &G) -> Option<G::Move> {
        match self {
            Bot::Random(rng) => game.random_move(rng),
            Bot::Search { search, budget } => {
                search.set_position(game);
                search.think(*budget);
                let mv = search.best_move()?;
                // The root follows the game, so after the reply the tree under it is kept.
                search.advance(&mv);
                Some(mv)
            }
        }
    }
}
