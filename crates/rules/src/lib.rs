//! Pure rules of the Tabula games: no Bevy, no I/O, no threads, no clocks.
//!
//! Every game implements [`Game`], so the bots, the terminal front end and the app
//! are generic over games. Randomness always comes in through an RNG argument.
//!
//! ```
//! use tabula_rules::adamas::{Adamas, AdamasOptions};
//! use tabula_rules::{Game, Status};
//!
//! let mut game = Adamas::new(AdamasOptions::default()).unwrap();
//! assert_eq!(game.count_moves().to_u64(), Some(6_434));
//! let opening = game.parse_move("c1-a1,c2,4xc3,e1").unwrap();
//! let events = game.apply(&opening).unwrap();
//! assert_eq!(events.len(), 4); // one `Moved` per part
//! assert_eq!(game.position_string(), "o1../..../o1o1o4.x8/..../o1.. x ox 1 1");
//! assert_eq!(game.status(), Status::Ongoing);
//! ```

pub mod absorption;
pub mod adamas;
pub mod adaptoid;
pub mod adomoc;
mod bits;
mod cellset;
mod count;
mod error;
mod game;
mod hash;
pub mod hexgrid;
mod history;
mod option_info;
mod option_value;
mod player;
mod status;
mod step_set;
pub mod text;

pub use cellset::CellSet;
pub use count::Count;
pub use error::{IllegalMove, NotationError, OptionsError, PositionError};
pub use game::{
    Game, MoveBuilder, QUICK_COUNT_WORK, SHOWN_COUNT_WORK, TOO_MANY_TO_COUNT, perft, perft_within,
    shown_move_count,
};
pub use option_info::{OptionInfo, OptionOrigin, OptionValues};
pub use player::Player;
pub use status::{DrawReason, Status, WinReason};
pub use step_set::{StepMoves, StepSetBuilder};
