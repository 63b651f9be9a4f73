//! The desktop's runner: work on Bevy's async compute pool, which publishes copies of
//! what it has found for the frame to take, and stops at its next batch once dropped.

use super::{CopyDue, Job, KeptSearches, Run, STOPPED, Steps};
use bevy::tasks::{AsyncComputeTaskPool, futures_lite};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Iterations between looks at the stop flag.
const BATCH: u64 = 64;

/// What a background task and the frame share.
pub(super) struct Shared<S> {
    pub stop: AtomicBool,
    /// Counts the copies published, so the frame copies only a new one.
    pub version: AtomicU64,
    pub shown: Mutex<S>,
}

pub(super) fn spawn<W: Steps, J: Job<Work = W>>(
    job: J,
    kept: KeptSearches,
    shown: W::Shown,
) -> Run<W> {
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
        let failed = |_| STOPPED.to_string();
        let (mut work, first) = catch_unwind(AssertUnwindSafe(|| {
            let work = job.build(&kept)?;
            let first = work.shown(false);
            Ok::<_, String>((work, first))
        }))
        .map_err(failed)??;
        publish(first);
        let mut going = true;
        let mut due = CopyDue::new(work.milestone());
        while going && !stop.stop.load(Ordering::Relaxed) {
            // A search that panics ends as a failure the frame reports, not a crash.
            let batch = catch_unwind(AssertUnwindSafe(|| {
                let going = work.step(BATCH);
                let copy = due
                    .take(!going, work.milestone(), W::SHOW_EVERY)
                    .then(|| work.shown(!going));
                (going, copy)
            }));
            let copy;
            (going, copy) = batch.map_err(failed)?;
            if let Some(copy) = copy {
                publish(copy);
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
