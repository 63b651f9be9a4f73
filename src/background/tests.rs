//! The runner on each of its three ways, through the tests' own work.

use super::*;
use bevy::tasks::{AsyncComputeTaskPool, TaskPool};
use serde::Deserialize;

/// `job`'s work started by `runner`, with a compute pool for the background task.
fn started<W: Steps, J: Job<Work = W>>(job: J, runner: BotRunner) -> Background<W> {
    AsyncComputeTaskPool::get_or_init(TaskPool::new);
    Background::start(job, runner, &KeptSearches::default())
}

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
    let mut work = started(job, runner);
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
    let mut work = started(CountTo(1000), BotRunner::FrameSlices);
    work.poll(None);
    assert_eq!(*work.shown(), 0);
    assert!(!work.has_ended());
    assert_eq!(work.searched_in_slices(), Some(Duration::ZERO));
}

#[test]
fn a_search_dropped_stops_in_the_worker() {
    let mut endless = started(CountTo(u64::MAX), BotRunner::Worker);
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
    let mut work = started(job, runner);
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
