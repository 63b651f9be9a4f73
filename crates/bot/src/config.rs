//! How a search plays ([`MctsConfig`], [`Playout`]) and how long it thinks ([`Budget`]): the
//! settings levels and bot specs are written in, apart from the search that reads them.

use serde::{Deserialize, Serialize};
use web_time::Duration;

/// How a search plays. [`MctsConfig::plain_uct`] is the textbook baseline the levels are
/// measured against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MctsConfig {
    /// The UCT exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// How long a playout runs before the evaluation judges the position.
    pub playout: Playout,
    /// Use the game's evaluation, candidate moves and playout policy.
    pub knowledge: bool,
    /// Prove wins, losses and draws and play by them; look for a win in one first.
    pub solver: bool,
    /// The most moves one node searches; beyond that the game's candidates are used.
    pub max_moves: usize,
    /// How a playout that stops before the end is judged (with `knowledge` on).
    pub evaluation: Evaluation,
    /// How often a bot plays a move other than the best the search found: 0 plays the
    /// best; above 0 a searched move is drawn with a weight of its visits to the power
    /// 1 / `temperature` (a weaker level's way of erring). Hints and reviews ignore it.
    pub temperature: f64,
    /// How a playout (with `knowledge` on) chooses its moves.
    pub policy: Policy,
}

/// How a playout with the game's knowledge chooses each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Policy {
    /// The game's light policy (`Knowledge::playout_move`): nearly random, fast.
    #[default]
    Light,
    /// The game's tactical policy (`Knowledge::tactical_playout_move`): weighs what each
    /// drawn move takes and loses, slower a move; the light one where a game has none.
    Tactical,
}

/// Which evaluation judges a position a playout stopped in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Evaluation {
    /// The game's hand-written evaluation (`Knowledge::evaluate`).
    #[default]
    Hand,
    /// The weights the game ships, learned from self-play (the hand-written evaluation
    /// where a game ships none).
    Learned,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.2,
            playout: Playout::Game,
            knowledge: true,
            solver: true,
            max_moves: 400,
            evaluation: Evaluation::Hand,
            temperature: 0.0,
            policy: Policy::Light,
        }
    }
}

impl MctsConfig {
    /// UCT with uniformly random playouts to the end, no knowledge and no solver.
    pub fn plain_uct() -> MctsConfig {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            playout: Playout::End,
            knowledge: false,
            solver: false,
            max_moves: 400,
            evaluation: Evaluation::Hand,
            temperature: 0.0,
            policy: Policy::Light,
        }
    }

    /// What this search asks of the game's knowledge while it has none, as a spec writes
    /// it (`eval=learned`, `policy=tactical`): asked for without it, it is said, not
    /// ignored.
    pub fn knowledge_missing(&self) -> Option<&'static str> {
        let needing_knowledge = [
            (self.evaluation == Evaluation::Learned, "eval=learned"),
            (self.policy == Policy::Tactical, "policy=tactical"),
        ];
        needing_knowledge
            .into_iter()
            .find(|(asked, _)| *asked && !self.knowledge)
            .map(|(_, key)| key)
    }
}

/// How long a playout runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Playout {
    /// To the end of the game.
    End,
    /// This many plies, then the evaluation.
    Plies(u32),
    /// As long as the game's knowledge says (`Knowledge::playout_plies`).
    Game,
}

/// How long to think: iterations, wall time, or whichever runs out first; and on how many
/// threads (one unless said: a level's strength is measured on one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Budget {
    pub iterations: Option<u64>,
    pub millis: Option<u64>,
    /// Threads sharing the search's tree: the same time searches more, the same
    /// iterations end sooner.
    pub threads: Option<u32>,
}

impl Budget {
    pub fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            ..Budget::default()
        }
    }

    pub fn millis(ms: u64) -> Budget {
        Budget {
            millis: Some(ms),
            ..Budget::default()
        }
    }

    /// This budget on `threads` threads.
    pub fn on_threads(self, threads: u32) -> Budget {
        Budget {
            threads: Some(threads),
            ..self
        }
    }

    /// One of `parts` equal parts of this budget (each at least an iteration or a
    /// millisecond), on the same threads.
    pub fn part(self, parts: u32) -> Budget {
        let part = |n: u64| n.div_ceil(u64::from(parts.max(1))).max(1);
        Budget {
            iterations: self.iterations.map(part),
            millis: self.millis.map(part),
            ..self
        }
    }

    /// The threads to search on: one unless said.
    pub fn thread_count(&self) -> usize {
        self.threads.map_or(1, |n| n as usize)
    }

    /// Whether this budget is spent after `done` iterations and `elapsed` time.
    pub fn spent(&self, done: u64, elapsed: Duration) -> bool {
        self.iterations.is_some_and(|n| done >= n)
            || self
                .millis
                .is_some_and(|ms| elapsed >= Duration::from_millis(ms))
    }

    /// How far through the budget a search is, from 0 to 1 (for a progress bar).
    pub fn progress(&self, done: u64, elapsed: Duration) -> f64 {
        let by_iterations = self.iterations.map(|n| done as f64 / n.max(1) as f64);
        let by_time = self
            .millis
            .map(|ms| elapsed.as_secs_f64() * 1000.0 / ms.max(1) as f64);
        by_iterations
            .into_iter()
            .chain(by_time)
            .fold(0.0, f64::max)
            .min(1.0)
    }
}
