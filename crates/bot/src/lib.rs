//! Bots for the Tabula games: Monte Carlo tree search over the rules crate's [`Game`]
//! trait, with a solver for decided positions and per-game [`Knowledge`]. No Bevy: the app
//! runs a [`Search`] on a background task or in slices per frame, and a search runs on
//! more than one thread only when its budget says so ([`Budget::threads`]).
//!
//! ```
//! use tabula_bot::{Budget, MctsConfig, Search};
//! use tabula_rules::Game;
//! use tabula_rules::adaptoid::Adaptoid;
//!
//! let game = Adaptoid::new(Default::default()).unwrap();
//! let mut search = Search::new(game.clone(), MctsConfig::default(), 7);
//! search.think(Budget::iterations(200));
//! let mv = search.best_move().unwrap();
//! assert!(game.check_move(&mv).is_ok());
//! ```
//!
//! [`Game`]: tabula_rules::Game

mod bot;
mod config;
mod elo;
mod games;
mod knowledge;
pub mod learned;
mod levels;
mod matches;
mod mcts;
mod outcome;
mod spec;
pub mod turns;

pub use bot::Bot;
pub use config::{Budget, Evaluation, MctsConfig, Playout};
pub use elo::{EloEstimate, Score};
pub use knowledge::{Knowledge, add_samples, sampled_moves};
pub use levels::{FORMER_LEVELS, Level, Levels, TWELVE};
pub use matches::{Played, Schedule, Side, play_game, play_games};
pub use mcts::{MAX_THREADS, MoveStats, Search, usable_threads};
pub use outcome::{MAX_PLAYERS, Proof, Rewards, chances, even};
pub use spec::{BotSpec, SPEC_HELP};
