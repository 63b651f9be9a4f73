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
#[cfg(target_arch = "wasm32")]
mod worker_exports;

pub use host::{FromWorker, SearchHost, ToWorker};
pub use job::{GameSetup, Job, KeptSearches, KeptSeat, SearchJob};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready, futures_lite};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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

/// Iterations between looks at the stop flag on a background task.
const BATCH: u64 = 64;

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
        copied_at: Instant,
        milestone: usize,
    },
    /// Work that could not be built: its failure is the end.
    Failed,
}

/// A job kept to build its work again.
type Rebuild<W> = Box<dyn FnOnce() -> Result<W, String> + Send + Sync>;

/// What a background task and the frame share.
struct Shared<S> {
    stop: AtomicBool,
    /// Counts the copies published, so the frame copies only a new one.
    version: AtomicU64,
    shown: Mutex<S>,
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
                    milestone: work.milestone(),
                    work: Some(work),
                    searched: Duration::ZERO,
                    copied_at: Instant::now(),
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

fn spawn<W: Steps, J: Job<Work = W>>(job: J, kept: KeptSearches, shown: W::Shown) -> Run<W> {
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        version: AtomicU64::new(0),
        shown: Mutex::new(shown),
    });
    let published = shared.clone();
    let publish = move |copy: W::Shown| {
        if let Ok(mut shown) = published.shown.lock() {
            *shown = copy;
        }
        published.version.fetch_add(1, Ordering::Release);
    };
    let stop = shared.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        // Built here, off the frame: the moves replayed, a kept tree resumed.
        let failed = |_| "the search stopped unexpectedly".to_string();
        let (mut work, first) = catch_unwind(AssertUnwindSafe(|| {
            let work = job.build(&kept)?;
            let first = work.shown(false);
            Ok::<_, String>((work, first))
        }))
        .map_err(failed)??;
        publish(first);
        let mut going = true;
        let mut copied_at = Instant::now();
        let mut milestone = work.milestone();
        while going && !stop.stop.load(Ordering::Relaxed) {
            // A search that panics ends as a failure the frame reports, not a crash.
            let batch = catch_unwind(AssertUnwindSafe(|| {
                let going = work.step(BATCH);
                let due =
                    !going || work.milestone() != milestone || copied_at.elapsed() >= W::SHOW_EVERY;
                (going, due.then(|| (work.shown(!going), work.milestone())))
            }));
            let copy;
            (going, copy) = batch.map_err(failed)?;
            if let Some((copy, reached)) = copy {
                publish(copy);
                milestone = reached;
                copied_at = Instant::now();
            }
            // The compute pool may have one thread (two cores): other work waiting there (a
            // bot's move beside a review) goes on between batches.
            futures_lite::future::yield_now().await;
        }
        if going {
            // Stopped: nobody waits for it, and a bot's half-done tree is not kept.
            return Err("stopped".to_string());
        }
        catch_unwind(AssertUnwindSafe(|| work.output())).map_err(failed)
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
    use serde::Deserialize;

    /// The tests' own jobs, which every runner, the worker's too, builds.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub enum TestJob {
        Count { to: u64 },
        Fails,
        FailsToShow,
    }

    impl TestJob {
        pub(super) fn build_any(self) -> Result<Box<dyn host::Running>, String> {
            Ok(match self {
                TestJob::Count { to } => Box::new(Count { at: 0, to }),
                TestJob::Fails => Box::new(Fails),
                TestJob::FailsToShow => Box::new(FailsToShow),
            })
        }
    }

    /// Counts to a number, with a milestone every ten.
    struct Count {
        at: u64,
        to: u64,
    }

    #[derive(Clone)]
    struct CountTo(u64);

    impl From<CountTo> for SearchJob {
        fn from(job: CountTo) -> SearchJob {
            SearchJob::Test(TestJob::Count { to: job.0 })
        }
    }

    impl Job for CountTo {
        type Work = Count;

        fn build(self, _kept: &KeptSearches) -> Result<Count, String> {
            Ok(Count { at: 0, to: self.0 })
        }
    }

    impl Steps for Count {
        type Shown = u64;
        type Output = u64;
        const SHOW_EVERY: Duration = Duration::from_secs(3600);

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

        fn output(self) -> u64 {
            self.at
        }
    }

    const RUNNERS: [BotRunner; 3] = [
        BotRunner::Background,
        BotRunner::Worker,
        BotRunner::FrameSlices,
    ];

    fn run_to_the_end<W: Steps, J: Job<Work = W>>(
        job: J,
        runner: BotRunner,
    ) -> (Vec<W::Shown>, Background<W>) {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
        let mut work = Background::start(job, runner, &KeptSearches::default());
        let mut seen = Vec::new();
        for _ in 0..200_000 {
            if work.has_ended() {
                return (seen, work);
            }
            work.poll(Some(Duration::from_micros(50)));
            seen.push(work.shown().clone());
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
        panic!("{runner:?}: the work did not end");
    }

    #[test]
    fn work_runs_to_its_end_every_way_and_shows_its_last_copy() {
        for runner in RUNNERS {
            let (seen, mut work) = run_to_the_end(CountTo(1000), runner);
            assert_eq!(seen.last(), Some(&1000), "{runner:?}");
            assert!(
                seen.windows(2).all(|w| w[0] <= w[1]),
                "{runner:?}: {seen:?}"
            );
            // The worker posts a copy the moment a milestone is reached (its copies are
            // otherwise an hour apart), not at the end of a slice.
            if runner == BotRunner::Worker {
                assert!(seen.iter().all(|at| at % 10 == 0), "{seen:?}");
            }
            assert_eq!(work.take_finished(), Some(Ok(1000)), "{runner:?}");
            assert!(work.take_finished().is_none(), "taken once");
            assert_eq!(work.runs_in_frames(), runner == BotRunner::FrameSlices);
        }
    }

    #[test]
    fn sliced_work_waits_for_a_frame_with_time_for_it() {
        let mut work = Background::start(
            CountTo(1000),
            BotRunner::FrameSlices,
            &KeptSearches::default(),
        );
        work.poll(None);
        assert_eq!(*work.shown(), 0);
        assert!(!work.has_ended());
        assert_eq!(work.searched_in_slices(), Some(Duration::ZERO));
    }

    #[test]
    fn a_search_dropped_stops_in_the_worker() {
        let mut endless = Background::start(
            CountTo(u64::MAX),
            BotRunner::Worker,
            &KeptSearches::default(),
        );
        while *endless.shown() == 0 {
            endless.poll(None);
            std::thread::yield_now();
        }
        drop(endless);
        // The worker runs the oldest search of a rank first: had the endless one gone on
        // there, this one would never end.
        let (seen, mut next) = run_to_the_end(CountTo(100), BotRunner::Worker);
        assert_eq!(seen.last(), Some(&100));
        assert_eq!(next.take_finished(), Some(Ok(100)));
    }

    struct Fails;

    impl Steps for Fails {
        type Shown = ();
        type Output = ();
        const SHOW_EVERY: Duration = Duration::ZERO;

        fn step(&mut self, _iterations: u64) -> bool {
            panic!("a search's bug")
        }

        fn shown(&self, _finished: bool) {}

        fn output(self) {}
    }

    /// Searches fine, but panics making the copy the frame is shown (after its first).
    struct FailsToShow;

    impl Steps for FailsToShow {
        type Shown = ();
        type Output = ();
        const SHOW_EVERY: Duration = Duration::ZERO;

        fn step(&mut self, _iterations: u64) -> bool {
            true
        }

        fn shown(&self, finished: bool) {
            if !finished {
                panic!("a copy's bug")
            }
        }

        fn output(self) {}
    }

    #[derive(Clone)]
    struct Failing(TestJob);

    impl From<Failing> for SearchJob {
        fn from(job: Failing) -> SearchJob {
            SearchJob::Test(job.0)
        }
    }

    impl Job for Failing {
        type Work = Fails;

        fn build(self, _kept: &KeptSearches) -> Result<Fails, String> {
            Ok(Fails)
        }
    }

    fn failure_of(job: Failing, runner: BotRunner) -> String {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
        let mut work = Background::start(job, runner, &KeptSearches::default());
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
    fn a_search_that_panics_off_the_frame_ends_as_a_failure() {
        for runner in [BotRunner::Background, BotRunner::Worker] {
            let failure = failure_of(Failing(TestJob::Fails), runner);
            assert!(
                failure.contains("stopped unexpectedly"),
                "{runner:?}: {failure}"
            );
        }
        // In the worker, a copy that cannot be made fails its search too (the job's own
        // work, not `Fails`, runs there).
        let failure = failure_of(Failing(TestJob::FailsToShow), BotRunner::Worker);
        assert!(failure.contains("stopped unexpectedly"), "{failure}");
    }
}
