//! Lessons: a course for each game, steps played on the board, each task checked by the
//! rules.
//!
//! - [`Course`] and [`Step`] are data (`config/learn/<game>.ron`, built in): a position,
//!   a few sentences, the cells they talk about, and a [`Task`] the player does with the
//!   usual moves, or moves to watch.
//! - [`check_turn`] judges a try: the rules' own reason for an illegal move, the turn
//!   going on (Absorption's phases), the task's explanation for a legal turn that misses
//!   it, or done. Tasks are read from the rules: what a move did ([`Teach::happenings`],
//!   from its rules events) and what holds after it ([`Teach::facts`]).
//! - [`problems`] lists what is wrong with a course, for its tests and its authors.
//! - [`Puzzle`]s are positions from the bots' games where the side to move wins by force
//!   in one to three turns, found by [`generate`] and proved by [`prove`] with the exact
//!   solver in [`solve`]; [`bot_solves`] tries a bot at one, the bots' tactics test.
//!
//! No Bevy and no I/O: front ends hand in text.

mod check;
mod course;
mod data;
mod generate;
mod glicko;
mod puzzle;
pub mod solve;
mod solving;
mod tactics;
mod teach;
mod trainer;
mod validate;

pub use check::{Progress, StepGame, check_turn, start_of, step_cells};
pub use course::{Course, Need, Step, Task, built_in, course_for, read_course};
pub use generate::{Generated, generate};
pub use glicko::{Glicko, PUZZLE_DEVIATION};
pub use puzzle::{
    LISTED_WINS, Puzzle, PuzzleSet, prove, puzzle_at, puzzles_for, read_puzzles, refreshed, select,
    write_puzzles,
};
pub use solving::{PuzzleProgress, judge_puzzle, wrong_first_turn};
pub use tactics::bot_solves;
pub use teach::{Fact, Happening, Teach};
pub use trainer::{PuzzleRecord, puzzle_of_the_day};
pub use validate::{failing_turn, problems};
