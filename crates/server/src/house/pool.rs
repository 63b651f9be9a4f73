//! The house bots' searches, on a fixed number of threads of their own: the server's tasks
//! never search, so a bot's thinking cannot hold up another game's moves, and however many
//! games the bots play, they search on no more than these threads.

use crate::room::now_ms;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use tabula_bot::BotSpec;
use tabula_session::AnyMatch;
use tokio::sync::oneshot;

/// A search to run: the game as it stands, how to search it, and whom to tell.
struct Job {
    game: Box<dyn AnyMatch>,
    spec: BotSpec,
    seed: u64,
    /// When the player to move runs out of time, if a clock runs: the search stops well
    /// before it.
    deadline_ms: Option<u64>,
    reply: oneshot::Sender<Option<String>>,
}

pub struct SearchPool {
    jobs: mpsc::Sender<Job>,
}

/// The least a search under a clock is given, however close the deadline.
const MIN_SEARCH_MS: u64 = 20;
/// What a search under a clock leaves for the move to reach the store.
const CLOCK_MARGIN_MS: u64 = 1_000;

impl SearchPool {
    /// `threads` threads (at least one), each running one search at a time; they stop when
    /// the pool is dropped.
    pub fn new(threads: usize) -> Result<SearchPool, String> {
        let threads = threads.max(1);
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..threads {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("house-search-{n}"))
                .spawn(move || {
                    yield_to_games();
                    loop {
                        // The lock is held while waiting for a job alone, not during a search.
                        let job = queue.lock().map(|queue| queue.recv());
                        match job {
                            // A search that panics loses its move (the bot tries again),
                            // not the thread.
                            Ok(Ok(job)) => {
                                let _ =
                                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                        run(job)
                                    }));
                            }
                            _ => break,
                        }
                    }
                })
                .map_err(|e| format!("cannot start the house bots' search threads: {e}"))?;
        }
        Ok(SearchPool { jobs })
    }

    /// The move `spec` plays in `game` (its notation), once a thread is free and has
    /// searched it; `None` if the game has no move or the pool has stopped.
    pub async fn best_move(
        &self,
        game: Box<dyn AnyMatch>,
        spec: BotSpec,
        seed: u64,
        deadline_ms: Option<u64>,
    ) -> Option<String> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            game,
            spec,
            seed,
            deadline_ms,
            reply,
        };
        self.jobs.send(job).ok()?;
        answer.await.ok().flatten()
    }
}

/// The nice value of a search thread: below the games' threads (0), so a move that comes
/// while a bot thinks takes the core at once.
const SEARCH_NICE: i32 = 10;

/// Lowers this thread's priority (Linux keeps a nice value for each thread).
#[cfg(target_os = "linux")]
fn yield_to_games() {
    // SAFETY: setpriority only reads its arguments; `who` 0 is the calling thread.
    let failed = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, SEARCH_NICE) } != 0;
    if failed {
        eprintln!("house bots: a search thread keeps its priority (setpriority failed)");
    }
}

#[cfg(not(target_os = "linux"))]
fn yield_to_games() {}

/// Searches one job: its spec's budget, and under a clock no more than half the time left
/// once the margin is kept (the time counts from when a thread takes the job, not from when
/// it was queued).
fn run(job: Job) {
    let spec = match job.deadline_ms {
        Some(deadline) => {
            let left = deadline
                .saturating_sub(now_ms())
                .saturating_sub(CLOCK_MARGIN_MS);
            capped(&job.spec, &*job.game, (left / 2).max(MIN_SEARCH_MS))
        }
        None => job.spec,
    };
    let mut thinker = job.game.thinker(&spec, job.seed);
    let best = thinker.think_through();
    // The game may have ended meanwhile and nobody waits: not an error.
    let _ = job.reply.send(best);
}

/// `spec` stopping after `millis` at most.
fn capped(spec: &BotSpec, game: &dyn AnyMatch, millis: u64) -> BotSpec {
    match spec.search_for(game.kind().key()) {
        Some((config, mut budget)) => {
            budget.millis = Some(budget.millis.map_or(millis, |own| own.min(millis)));
            BotSpec::Search { config, budget }
        }
        None => spec.clone(),
    }
}
