//! The analysis board's live evaluation. While people explore a game on the analysis board
//! ([`CurrentGame::is_analysing`]), the bot searches the position shown, on a background task
//! (frame slices on the web), and the panel shows each seat's winning chance and the line
//! the search expects as it firms up. Every new position starts a new search; nothing
//! ever waits for one.

use crate::AppSystems;
use crate::bot::{BotRunner, Thinking};
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::screens::InGame;
use crate::table::Thinker;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures_lite};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tabula_bot::BotSpec;
use web_time::{Duration, Instant};

/// The longest line shown.
const LINE_MOVES: usize = 8;
/// Iterations between looks at the stop flag.
const BATCH: u64 = 64;
/// How often a background search shows what it has found.
const PUBLISH_EVERY: Duration = Duration::from_millis(150);
/// The part of a frame a sliced search takes on the web.
const SLICE: Duration = Duration::from_millis(12);

/// What the search has found so far about the position shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluated {
    /// Each seat's chance of winning (draws shared); empty before the first look.
    pub chances: Vec<f64>,
    /// The moves the search expects from here, in notation.
    pub line: Vec<String>,
    /// How far through its budget, from 0 to 1.
    pub progress: f64,
    pub done: bool,
    /// Whether the result is proved, not estimated.
    pub proved: bool,
}

impl Evaluated {
    fn of(thinker: &dyn Thinker, done: bool) -> Evaluated {
        Evaluated {
            chances: thinker.chances(),
            line: thinker.best_line(LINE_MOVES),
            progress: if done { 1.0 } else { thinker.progress() },
            done,
            proved: thinker.proof().is_some(),
        }
    }
}

/// The search of the position shown on the analysis board.
#[derive(Resource)]
pub struct LiveEvaluation {
    /// The game and position it is of.
    pub position: (u64, u64),
    pub level: u8,
    pub shown: Evaluated,
    work: Work,
}

enum Work {
    Task {
        shared: Arc<Shared>,
        seen: u64,
        _task: Task<()>,
    },
    Slices(Box<dyn Thinker>),
}

#[derive(Default)]
struct Shared {
    stop: AtomicBool,
    version: AtomicU64,
    shown: Mutex<Evaluated>,
}

impl Drop for LiveEvaluation {
    /// A search of a position left behind stops at its next batch.
    fn drop(&mut self) {
        if let Work::Task { shared, .. } = &self.work {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl LiveEvaluation {
    pub fn runs_in_frames(&self) -> bool {
        matches!(self.work, Work::Slices(_))
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnExit(InGame), |mut commands: Commands| {
        commands.remove_resource::<LiveEvaluation>();
    })
    .add_systems(
        Update,
        (follow_the_position, evaluate)
            .chain()
            .in_set(AppSystems::Think)
            .run_if(in_state(InGame)),
    );
}

/// Starts a search for each new position on the analysis board; off the board, none.
fn follow_the_position(
    mut commands: Commands,
    game: Option<Res<CurrentGame>>,
    live: Option<Res<LiveEvaluation>>,
    settings: Res<Settings>,
    runner: Res<BotRunner>,
) {
    let Some(game) = game.filter(|game| game.is_analysing()) else {
        if live.is_some() {
            commands.remove_resource::<LiveEvaluation>();
        }
        return;
    };
    let level = settings.review_level;
    if live.is_some_and(|live| live.position == game.position() && live.level == level) {
        return;
    }
    let Ok(spec) = BotSpec::level(level as usize) else {
        return;
    };
    let seed = game.position().1;
    let thinker = game.table.as_match().thinker(&spec, seed);
    let work = match *runner {
        BotRunner::FrameSlices => Work::Slices(thinker),
        BotRunner::Background => background(thinker),
    };
    // The search of the last position is dropped, which stops it.
    commands.insert_resource(LiveEvaluation {
        position: game.position(),
        level,
        shown: Evaluated::default(),
        work,
    });
}

fn background(mut thinker: Box<dyn Thinker>) -> Work {
    let shared = Arc::new(Shared::default());
    let published = shared.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let mut going = true;
        let mut last: Option<Instant> = None;
        while going && !published.stop.load(Ordering::Relaxed) {
            going = thinker.think(BATCH);
            if !going || last.is_none_or(|last| last.elapsed() >= PUBLISH_EVERY) {
                last = Some(Instant::now());
                let evaluated = Evaluated::of(thinker.as_ref(), !going);
                if let Ok(mut shown) = published.shown.lock() {
                    *shown = evaluated;
                }
                published.version.fetch_add(1, Ordering::Release);
            }
            // The compute pool may have one thread (two cores): a review waiting there
            // goes on between batches.
            futures_lite::future::yield_now().await;
        }
    });
    Work::Task {
        shared,
        seen: 0,
        _task: task,
    }
}

/// Takes the background search's latest findings, or runs a slice of a sliced one.
fn evaluate(
    live: Option<ResMut<LiveEvaluation>>,
    game: Option<Res<CurrentGame>>,
    thinking: Option<Res<Thinking>>,
    board: Res<BoardShows>,
) {
    let (Some(mut live), Some(game)) = (live, game) else {
        return;
    };
    if live.position != game.position() {
        return;
    }
    let live = &mut *live;
    match &mut live.work {
        Work::Task { shared, seen, .. } => {
            let version = shared.version.load(Ordering::Acquire);
            // Never waits: a copy being written is taken next frame.
            if version != *seen
                && let Ok(shown) = shared.shown.try_lock()
            {
                live.shown = shown.clone();
                *seen = version;
            }
        }
        Work::Slices(thinker) => {
            // Moving pieces and a hint's search have the frame first.
            if live.shown.done
                || thinking.is_some()
                || phase_now(&game, &board) == TurnPhase::Animating
            {
                return;
            }
            let start = Instant::now();
            let mut going = true;
            // One iteration at a time: an iteration may be long, and the frame must not be.
            while going && start.elapsed() < SLICE {
                going = thinker.think(1);
            }
            live.shown = Evaluated::of(thinker.as_ref(), !going);
        }
    }
}
