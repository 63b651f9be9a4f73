//! The one runner for the app's searches: a bot's move or hint (`bot.rs`), the analysis
//! board's live evaluation (`analysis.rs`) and a review (`review.rs`). Each is work done in
//! [`Steps`]; [`Background`] runs it on Bevy's async compute pool on the desktop, or in
//! slices of frames where there is one thread (the web, or a test of the web's way), and
//! hands the frame copies of what it has found. Nothing ever waits for it: a search dropped
//! stops at its next batch.

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready, futures_lite};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use web_time::{Duration, Instant};

/// Where searches run.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotRunner {
    /// On Bevy's async compute pool, off the frame.
    Background,
    /// A few milliseconds of each frame (the web, or a test of the web's way).
    FrameSlices,
}

impl Default for BotRunner {
    fn default() -> Self {
        if cfg!(target_arch = "wasm32") {
            BotRunner::FrameSlices
        } else {
            BotRunner::Background
        }
    }
}

/// Work done a few iterations at a time: a search, a review.
pub trait Steps: Send + 'static {
    /// What the frame shows of the work: a copy, taken as it goes on.
    type Shown: Clone + Default + Send + 'static;
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
    /// Whether the frame takes the finished work back (a bot's search, kept for its seat's
    /// next move). Other work is dropped where it ran: a big search tree freed on the frame
    /// would cost it tens of milliseconds.
    const HANDED_BACK: bool = false;
}

/// Iterations between looks at the stop flag on a background task.
const BATCH: u64 = 64;

/// Work under way, on a background task or in slices of frames.
pub struct Background<W: Steps> {
    run: Run<W>,
    shown: W::Shown,
    /// The work once it has finished (itself if [`Steps::HANDED_BACK`]), until it is
    /// taken; or why it failed.
    finished: Option<Result<Option<W>, String>>,
    taken: bool,
}

enum Run<W: Steps> {
    Task {
        shared: Arc<Shared<W::Shown>>,
        /// The version of the copy shown.
        seen: u64,
        task: Task<Result<Option<W>, String>>,
    },
    Slices {
        work: Option<W>,
        /// The slices' time added up.
        searched: Duration,
        copied_at: Instant,
        milestone: usize,
    },
}

/// What a background task and the frame share.
struct Shared<S> {
    stop: AtomicBool,
    /// Counts the copies published, so the frame copies only a new one.
    version: AtomicU64,
    shown: Mutex<S>,
}

impl<W: Steps> Background<W> {
    pub fn start(work: W, runner: BotRunner) -> Background<W> {
        // Nothing found yet (the analysis panel says it is looking, not that the chances are even).
        let shown = W::Shown::default();
        let run = match runner {
            BotRunner::FrameSlices => Run::Slices {
                milestone: work.milestone(),
                work: Some(work),
                searched: Duration::ZERO,
                copied_at: Instant::now(),
            },
            BotRunner::Background => spawn(work, shown.clone()),
        };
        Background {
            run,
            shown,
            finished: None,
            taken: false,
        }
    }

    /// Takes the task's newest copy and its end, or runs the work in slices for up to
    /// `slice` of this frame (none: the frame has no time for it now).
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
            Run::Slices {
                work,
                searched,
                copied_at,
                milestone,
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
                if !going || steps.milestone() != *milestone || copied_at.elapsed() >= W::SHOW_EVERY
                {
                    self.shown = steps.shown(!going);
                    *milestone = steps.milestone();
                    *copied_at = Instant::now();
                }
                if !going {
                    self.finished = Some(Ok(work.take().filter(|_| W::HANDED_BACK)));
                }
            }
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

    /// Whether the work has finished (with the work itself if [`Steps::HANDED_BACK`]) or
    /// why it failed, the first time it is asked.
    pub fn take_finished(&mut self) -> Option<Result<Option<W>, String>> {
        let finished = self.finished.take();
        self.taken |= finished.is_some();
        finished
    }

    /// Whether the work runs in slices of frames (so it needs frames to go on), rather than
    /// on a background task (which needs a frame now and then to show its progress).
    pub fn runs_in_frames(&self) -> bool {
        matches!(self.run, Run::Slices { .. })
    }

    /// The time sliced work has spent: its wall time less the frames' own work, which is
    /// how long it would take with the whole of a core.
    pub fn searched_in_slices(&self) -> Option<Duration> {
        match &self.run {
            Run::Slices { searched, .. } => Some(*searched),
            Run::Task { .. } => None,
        }
    }
}

impl<W: Steps> Drop for Background<W> {
    /// Work nobody waits for stops at its next batch.
    fn drop(&mut self) {
        if let Run::Task { shared, .. } = &self.run {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }
}

fn spawn<W: Steps>(mut work: W, shown: W::Shown) -> Run<W> {
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        version: AtomicU64::new(0),
        shown: Mutex::new(shown),
    });
    let published = shared.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let mut going = true;
        let mut copied_at = Instant::now();
        let mut milestone = work.milestone();
        while going && !published.stop.load(Ordering::Relaxed) {
            // A search that panics ends as a failure the frame reports, not a crash.
            let batch = catch_unwind(AssertUnwindSafe(|| {
                let going = work.step(BATCH);
                let due =
                    !going || work.milestone() != milestone || copied_at.elapsed() >= W::SHOW_EVERY;
                (going, due.then(|| (work.shown(!going), work.milestone())))
            }));
            let copy;
            (going, copy) = batch.map_err(|_| "the search stopped unexpectedly".to_string())?;
            if let Some((copy, reached)) = copy {
                if let Ok(mut shown) = published.shown.lock() {
                    *shown = copy;
                }
                published.version.fetch_add(1, Ordering::Release);
                milestone = reached;
                copied_at = Instant::now();
            }
            // The compute pool may have one thread (two cores): other work waiting there (a
            // bot's move beside a review) goes on between batches.
            futures_lite::future::yield_now().await;
        }
        Ok(W::HANDED_BACK.then_some(work))
    });
    Run::Task {
        shared,
        seen: 0,
        task,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts to a number, with a milestone every ten.
    struct Count {
        at: u64,
        to: u64,
    }

    impl Steps for Count {
        type Shown = u64;
        const SHOW_EVERY: Duration = Duration::from_secs(3600);
        const HANDED_BACK: bool = true;

        fn step(&mut self, iterations: u64) -> bool {
            self.at = (self.at + iterations).min(self.to);
            self.at < self.to
        }

        fn shown(&self, _finished: bool) -> u64 {
            self.at
        }

        fn milestone(&self) -> usize {
            (self.at / 10) as usize
        }
    }

    fn run_to_the_end(runner: BotRunner) -> (Vec<u64>, Background<Count>) {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
        let mut work = Background::start(Count { at: 0, to: 1000 }, runner);
        let mut seen = Vec::new();
        while !work.has_ended() {
            work.poll(Some(Duration::from_micros(50)));
            seen.push(*work.shown());
            std::thread::yield_now();
        }
        (seen, work)
    }

    #[test]
    fn work_runs_to_its_end_either_way_and_shows_its_last_copy() {
        for runner in [BotRunner::Background, BotRunner::FrameSlices] {
            let (seen, mut work) = run_to_the_end(runner);
            assert_eq!(seen.last(), Some(&1000), "{runner:?}");
            assert!(
                seen.windows(2).all(|w| w[0] <= w[1]),
                "{runner:?}: {seen:?}"
            );
            let finished = work.take_finished().expect("finished").expect("no failure");
            assert_eq!(finished.map(|count| count.at), Some(1000));
            assert!(work.take_finished().is_none(), "taken once");
            assert_eq!(work.runs_in_frames(), runner == BotRunner::FrameSlices);
        }
    }

    #[test]
    fn sliced_work_waits_for_a_frame_with_time_for_it() {
        let mut work = Background::start(Count { at: 0, to: 1000 }, BotRunner::FrameSlices);
        work.poll(None);
        assert_eq!(*work.shown(), 0);
        assert!(!work.has_ended());
        assert_eq!(work.searched_in_slices(), Some(Duration::ZERO));
    }

    struct Fails;

    impl Steps for Fails {
        type Shown = ();
        const SHOW_EVERY: Duration = Duration::ZERO;

        fn step(&mut self, _iterations: u64) -> bool {
            panic!("a search's bug")
        }

        fn shown(&self, _finished: bool) {}
    }

    /// Searches fine, but panics making the copy the frame is shown.
    struct FailsToShow;

    impl Steps for FailsToShow {
        type Shown = ();
        const SHOW_EVERY: Duration = Duration::ZERO;

        fn step(&mut self, _iterations: u64) -> bool {
            true
        }

        fn shown(&self, _finished: bool) {
            panic!("a copy's bug")
        }
    }

    fn failure_of<W: Steps>(work: W) -> String {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
        let mut work = Background::start(work, BotRunner::Background);
        while !work.has_ended() {
            work.poll(None);
            std::thread::yield_now();
        }
        match work.take_finished() {
            Some(Err(failure)) => failure,
            _ => panic!("the work did not fail"),
        }
    }

    #[test]
    fn a_search_that_panics_on_a_task_ends_as_a_failure() {
        for failure in [failure_of(Fails), failure_of(FailsToShow)] {
            assert!(failure.contains("stopped unexpectedly"), "{failure}");
        }
    }
}
