//! A course as data: its steps, their positions, words and tasks.

use crate::data::{built_in_for, read_ron};
use serde::{Deserialize, Serialize};
use tabula_session::GameKind;

/// One game's course: steps from the first move to the finer rules and its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Course {
    pub game: GameKind,
    pub title: String,
    /// One sentence saying what the course teaches.
    pub about: String,
    pub steps: Vec<Step>,
}

/// One step: a position, a few sentences about it, and a task or moves to watch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: String,
    /// The rules section this step teaches, as the rules window names it, so reading and
    /// trying link to each other.
    #[serde(default)]
    pub rule: Option<String>,
    /// Options as `key=value` text, over the game's defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// The game's own position string; none means the start position.
    #[serde(default)]
    pub position: Option<String>,
    /// Moves played for the player to watch before the task (in notation, one move each).
    #[serde(default)]
    pub watch: Vec<String>,
    /// What the step says, a sentence or two a paragraph.
    pub text: Vec<String>,
    /// The cells the words talk about, in notation, highlighted on the board.
    #[serde(default)]
    pub cells: Vec<String>,
    /// Where the step relies on a reading of ours rather than the designer's words, that
    /// reading, shown as ours.
    #[serde(default)]
    pub decision: Option<String>,
    /// What the player does; none means the step is read (and watched) only.
    #[serde(default)]
    pub task: Option<Task>,
}

/// What the player is asked to do: one turn of the side to move, which must meet every
/// need.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// The task in words, as an instruction.
    pub goal: String,
    pub needs: Vec<Need>,
    /// A turn that does it (moves in notation, `;` between a turn's moves), which **Show
    /// me** plays.
    pub solution: String,
    /// Why a legal turn that misses the task misses it, said after the rules' account.
    #[serde(default)]
    pub miss: Option<String>,
}

/// One thing the turn must do, read from the rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Need {
    /// The turn is one of these (each a turn in notation).
    OneOf(Vec<String>),
    /// The turn does this (a [`crate::Happening`] of the game) at least so many times.
    Does(String, u32),
    /// The turn does not do this.
    Never(String),
    /// The turn wins the game.
    Wins,
    /// After the turn, no turn of the next player does this.
    Prevents(String),
    /// After the turn, this fact of the game holds (for the player who moved).
    Holds(String),
    /// After the turn, this fact does not hold.
    Lacks(String),
}

const BUILT_IN: [(GameKind, &str); 4] = [
    (
        GameKind::Absorption,
        include_str!("../../../config/learn/absorption.ron"),
    ),
    (
        GameKind::Adamas,
        include_str!("../../../config/learn/adamas.ron"),
    ),
    (
        GameKind::Adaptoid,
        include_str!("../../../config/learn/adaptoid.ron"),
    ),
    (
        GameKind::Adomoc,
        include_str!("../../../config/learn/adomoc.ron"),
    ),
];

/// Reads a course from RON text; the error names where the text is wrong.
pub fn read_course(text: &str) -> Result<Course, String> {
    read_ron(text, "course")
}

/// The course that comes with Tabula for `game` (its tests read every one, so an error
/// here means a course was edited without running them).
pub fn course_for(game: GameKind) -> Result<Course, String> {
    built_in_for(&BUILT_IN, game, "course")
}

/// Every built-in course, in the order menus list the games.
pub fn built_in() -> Result<Vec<Course>, String> {
    GameKind::ALL.into_iter().map(course_for).collect()
}

/// Words a minute a newcomer reads instructions at, and the seconds a task takes to do
/// beyond reading it: the figures a course's length is estimated with.
pub const READING_WORDS_PER_MINUTE: usize = 200;
pub const SECONDS_A_TASK: usize = 20;

impl Course {
    /// The words a player reads: titles, sentences, our readings and the tasks' goals.
    pub fn words(&self) -> usize {
        let count = |text: &str| text.split_whitespace().count();
        self.steps
            .iter()
            .map(|step| {
                count(&step.title)
                    + step.text.iter().map(|t| count(t)).sum::<usize>()
                    + step.decision.as_deref().map_or(0, count)
                    + step.task.as_ref().map_or(0, |task| count(&task.goal))
            })
            .sum()
    }

    /// About how long a newcomer takes, in whole minutes: reading at
    /// [`READING_WORDS_PER_MINUTE`] and [`SECONDS_A_TASK`] for each task.
    pub fn minutes(&self) -> usize {
        let tasks = self.steps.iter().filter(|s| s.task.is_some()).count();
        let seconds = self.words() * 60 / READING_WORDS_PER_MINUTE + tasks * SECONDS_A_TASK;
        seconds.div_ceil(60)
    }

    /// The index of the first step teaching `rule` (a rules section), for "Try it".
    pub fn step_for_rule(&self, rule: &str) -> Option<usize> {
        self.steps
            .iter()
            .position(|step| step.rule.as_deref() == Some(rule))
    }
}
