//! The one runner for the app's searches: a bot's move or hint (`bot.rs`), the analysis
//! board's live evaluation (`analysis.rs`) and a review (`review.rs`). Each is a [`Job`]
//! built into work done in [`Steps`]; [`Background`] runs it on Bevy's async compute pool
//! on the desktop, in the browser's search worker (a second instance of the module, so the
//! page's frames never wait for a search), or in slices of frames where neither is there,
//! and hands the frame copies of what it has found. Nothing ever waits for it: a search
//! dropped stops at its next batch.

mod host;
mod job;
mod link;
mod task;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "wasm32")]
mod worker_exports;

pub use host::{FromWorker, SearchHost, ToWorker};
pub use job::{GameSetup, Job, KeptSearches, KeptSeat, SearchJob};

use bevy::prelude::*;
use bevy::tasks::{Task, futures::check_ready};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use task::{Shared, spawn};
use web_time::{Duration, Instant};

/// Where searches run.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotRunner {
    /// On Bevy's async compute pool, off the frame.
    Background,
    /// In the search worker: the browser's Web Worker, or a thread standing in for it off
    /// the web (a test of the browser's way).
    Worker,
    /// A few milliseconds of each frame (a browser without the worker, or a test of it).
    FrameSlices,
}

impl Default for BotRunner {
    fn default() -> Self {
        if !cfg!(target_arch = "wasm32") {
            BotRunner::Background
        } else if link::connected() {
            BotRunner::Worker
        } else {
            BotRunner::FrameSlices
        }
    }
}

/// Forgets this app's kept bot trees (it left the game), wherever searches run.
pub fn forget_kept(kept: &KeptSearches, runner: BotRunner) {
    kept.forget(kept.owner());
    if runner == BotRunner::Worker && link::usable() {
        link::forget(kept.owner());
    }
}

/// Whether this instance of the module is the browser's search worker, not the game.
pub fn in_search_worker() -> bool {
    link::in_search_worker()
}

/// Work done a few iterations at a time: a search, a review.
pub trait Steps: Send + 'static {
    /// What the frame shows of the work: a copy, taken as it goes on.
    type Shown: Clone + Default + Send + Serialize + DeserializeOwned + 'static;
    /// What the finished work gives the frame.
    type Output: Send + Serialize + DeserializeOwned + 'static;
    /// How often a copy is taken while nothing worth showing at once happens.
    const SHOW_EVERY: Duration;
    /// Does up to `iterations` more; false once the work is finished.
    fn step(&mut self, iterations: u64) -> bool;
    /// The copy to show; `finished` for the last one.
    fn shown(&self, finished: bool) -> Self::Shown;
    /// Changes when the work reaches something to show at once (a review: a position
    /// judged); a copy is taken then, whatever the time.
    fn milestone(&self) -> usize {
        0
    }
    /// The finished work's result, made where it ran, and the work dropped there (a big
    /// search tree freed on the frame would cost it tens of milliseconds).
    fn output(self) -> Self::Output;
}

/// What a search that panicked says, wherever it ran.
const STOPPED: &str = "the search stopped unexpectedly";

/// What happened to work: its output, or why it failed.
pub type Ended<W> = Result<<W as Steps>::Output, String>;

/// Work under way, on a background task, in the search worker or in slices of frames.
pub struct Background<W: Steps> {
    run: Run<W>,
    shown: W::Shown,
    /// The work's end, until it is taken.
    finished: Option<Ended<W>>,
    taken: bool,
}

enum Run<W: Steps> {
    Task {
        shared: Arc<Shared<W::Shown>>,
        /// The version of the copy shown.
        seen: u64,
        task: Task<Ended<W>>,
    },
    Worker {
        id: u64,
        /// Builds the work here, should the worker fail before it could search.
        in_frames: Option<Rebuild<W>>,
    },
    Slices {
        work: Option<W>,
        /// The slices' time added up.
        searched: Duration,
        due: CopyDue,
    },
    /// Work that could not be built: its failure is the end.
    Failed,
}

/// A job kept to build its work again.
type Rebuild<W> = Box<dyn FnOnce() -> Result<W, String> + Send + Sync>;

/// When the frame is due a copy of work, wherever it runs: at its end, when it reaches a
/// new milestone, and otherwise every `Steps::SHOW_EVERY`.
struct CopyDue {
    copied_at: Instant,
    milestone: usize,
}

impl CopyDue {
    fn new(milestone: usize) -> CopyDue {
        CopyDue {
            copied_at: Instant::now(),
            milestone,
        }
    }

    /// Whether a copy is due now, for work at `milestone` that has `finished` or not; one
    /// that is due counts as taken.
    fn take(&mut self, finished: bool, milestone: usize, every: Duration) -> bool {
        let due = finished || milestone != self.milestone || self.copied_at.elapsed() >= every;
        if due {
            self.milestone = milestone;
            self.copied_at = Instant::now();
        }
        due
    }
}

impl<W: Steps> Background<W> {
    /// Starts `job`'s work where `runner` says; a bot's tree is taken from and kept in
    /// `kept` (the search worker keeps its own).
    pub fn start<J: Job<Work = W>>(
        job: J,
        runner: BotRunner,
        kept: &KeptSearches,
    ) -> Background<W> {
        let mut background = Background {
            run: Run::Failed,
            // Nothing found yet (the analysis panel says it is looking, not that the chances
            // are even).
            shown: W::Shown::default(),
            finished: None,
            taken: false,
        };
        let runner = if runner == BotRunner::Worker && !link::usable() {
            BotRunner::FrameSlices
        } else {
            runner
        };
        match runner {
            BotRunner::FrameSlices => background.slice(job.build(kept)),
            BotRunner::Background => {
                background.run = spawn(job, kept.clone(), background.shown.clone())
            }
            BotRunner::Worker => {
                let kept = kept.clone();
                background.run = Run::Worker {
                    id: link::start(job.clone().into()),
                    in_frames: Some(Box::new(move || job.build(&kept))),
                };
            }
        }
        background
    }

    /// Runs `built` in slices of frames from now.
    fn slice(&mut self, built: Result<W, String>) {
        match built {
            Ok(work) => {
                // What it holds from the start (a bot's kept tree) is shown at once.
                self.shown = work.shown(false);
                self.run = Run::Slices {
                    due: CopyDue::new(work.milestone()),
                    work: Some(work),
                    searched: Duration::ZERO,
                };
            }
            Err(failure) => {
                self.run = Run::Failed;
                self.finished = Some(Err(failure));
            }
        }
    }

    /// Takes the newest copy and the end from a task or the worker, or runs the work in
    /// slices for up to `slice` of this frame (none: the frame has no time for it now).
    pub fn poll(&mut self, slice: Option<Duration>) {
        if self.finished.is_some() || self.taken {
            return;
        }
        match &mut self.run {
            Run::Task { shared, seen, task } => {
                let version = shared.version.load(Ordering::Acquire);
                // Never waits for the task: a copy being written is taken next frame.
                if version != *seen
                    && let Ok(shown) = shared.shown.try_lock()
                {
                    self.shown = shown.clone();
                    *seen = version;
                }
                if let Some(ended) = check_ready(task) {
                    // It published its last copy before it ended, perhaps since the look
                    // above; nothing holds the lock any more.
                    if let Ok(shown) = shared.shown.lock() {
                        self.shown = shown.clone();
                    }
                    self.finished = Some(ended);
                }
            }
            Run::Worker { id, in_frames } => {
                if link::failed_to_start()
                    && let Some(rebuild) = in_frames.take()
                {
                    // Nothing of it ran there: it starts again here.
                    link::stop(*id);
                    self.slice(rebuild());
                    return self.poll(slice);
                }
                for reply in link::replies(*id) {
                    match reply {
                        FromWorker::Shown { shown, .. } => match ron::from_str(&shown) {
                            Ok(shown) => self.shown = shown,
                            Err(e) => self.finished = Some(Err(format!("the worker's copy: {e}"))),
                        },
                        FromWorker::Finished { output, .. } => {
                            self.finished = Some(output.and_then(|output| {
                                ron::from_str(&output)
                                    .map_err(|e| format!("the worker's result: {e}"))
                            }));
                        }
                    }
                }
            }
            Run::Slices {
                work,
                searched,
                due,
            } => {
                let (Some(slice), Some(steps)) = (slice, work.as_mut()) else {
                    return;
                };
                let start = Instant::now();
                let mut going = true;
                // One iteration at a time: an iteration may be long, and the frame must not be.
                while going && start.elapsed() < slice {
                    going = steps.step(1);
                }
                *searched += start.elapsed();
                if due.take(!going, steps.milestone(), W::SHOW_EVERY) {
                    self.shown = steps.shown(!going);
                }
                if !going && let Some(done) = work.take() {
                    self.finished = Some(Ok(done.output()));
                }
            }
            Run::Failed => {}
        }
    }

    /// The newest copy of what the work has found.
    pub fn shown(&self) -> &W::Shown {
        &self.shown
    }

    /// Whether the work has ended, finished or failed.
    pub fn has_ended(&self) -> bool {
        self.finished.is_some() || self.taken
    }

    /// The work's output or why it failed, the first time it is asked.
    pub fn take_finished(&mut self) -> Option<Ended<W>> {
        let finished = self.finished.take();
        self.taken |= finished.is_some();
        finished
    }

    /// Whether the work runs in slices of frames (so it needs frames to go on), rather than
    /// on a background task or in the worker (which need a frame now and then to show its
    /// progress).
    pub fn runs_in_frames(&self) -> bool {
        matches!(self.run, Run::Slices { .. })
    }

    /// The time sliced work has spent: its wall time less the frames' own work, which is
    /// how long it would take with the whole of a core.
    pub fn searched_in_slices(&self) -> Option<Duration> {
        match &self.run {
            Run::Slices { searched, .. } => Some(*searched),
            _ => None,
        }
    }
}

impl<W: Steps> Drop for Background<W> {
    /// Work nobody waits for stops at its next batch.
    fn drop(&mut self) {
        match &self.run {
            Run::Task { shared, .. } => shared.stop.store(true, Ordering::Relaxed),
            // Once it has ended this does nothing.
            Run::Worker { id, .. } => link::stop(*id),
            _ => {}
        }
    }
}
