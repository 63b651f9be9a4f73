//! The match layer every Tabula front end shares: the app, the terminal and the server.
//!
//! - [`GameKind`] is the one list of games, and [`with_game!`] the one dispatch from a
//!   game's key to its concrete rules type.
//! - [`options`] reads `key=value` option text (and `@file` values, through a reader the
//!   caller hands in) into each game's options, and writes them back.
//! - [`Seat`] says who plays a seat: a person here, a bot, or a person elsewhere.
//! - [`Match`] is one game in progress: its line of moves with undo, redo and jumps, who is
//!   to move, the move being built, and the rules events of each move; [`AnyMatch`] is the
//!   same for any game, in text.
//! - [`Record`] reads and writes games as RON, and pasted move lists and positions.
//! - [`Thinker`] is a bot's search over whichever game, run a slice at a time.
//! - [`Review`] judges every position of a game with a bot's search and marks each move
//!   by how far it lowered its mover's chance of winning.
//!
//! No Bevy and no I/O: callers hand it text and the contents of files.

mod any_match;
mod game_match;
mod games;
pub mod options;
pub mod rating;
mod record;
pub mod review;
mod seat;
#[doc(hidden)]
pub mod testing;
mod thinker;
mod tree;

pub use any_match::{AnyMatch, match_at, new_match};
pub use game_match::{Match, StepOf};
pub use games::{GameKind, unknown_game};
pub use options::Settings;
pub use rating::{RatedGame, Rating, RatingSettings};
pub use record::{Loaded, RECORD_FORMAT, Record, import_moves};
pub use review::{Evaluation, Mark, MoveReview, PlayerSummary, Review, ReviewSettings};
pub use seat::{Seat, split_specs};
pub use thinker::{Thinker, thinker_for};
pub use tree::{MoveTree, NodeId, TreeRow, Variation};

/// The rules crate, so front ends and [`with_game!`] name the games' types through here.
pub use tabula_rules as rules;
