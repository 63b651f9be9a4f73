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
//!
//! No Bevy and no I/O: front ends hand in text.

mod check;
mod course;
mod teach;
mod validate;

pub use check::{Progress, StepGame, check_turn, start_of};
pub use course::{Course, Need, Step, Task, built_in, course_for, read_course};
pub use teach::{Fact, Happening, Teach};
pub use validate::{failing_turn, problems};
