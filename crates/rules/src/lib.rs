//! Pure rules of the Tabula games: no Bevy, no I/O, no threads, no clocks.
//!
//! Every game implements [`Game`], so the bots, the terminal front end and the app
//! are generic over games. Randomness always comes in through an RNG argument.

pub mod adamas;
mod cellset;
mod count;
mod error;
mod game;
mod hash;
pub mod hexgrid;
mod player;
mod status;

pub use cellset::CellSet;
pub use count::Count;
pub use error::{IllegalMove, NotationError, OptionsError, PositionError};
pub use game::{Game, MoveBuilder, perft};
pub use player::Player;
pub use status::{DrawReason, Status, WinReason};
