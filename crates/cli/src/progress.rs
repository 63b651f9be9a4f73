//! A line a second on stderr for long runs, so a person can see the work going on.

use std::time::{Duration, Instant};

pub struct Progress {
    last: Instant,
}

const EVERY: Duration = Duration::from_secs(1);

impl Progress {
    pub fn new() -> Progress {
        Progress {
            last: Instant::now(),
        }
    }

    /// Shows `line()` if a second has passed since the start or the last line.
    pub fn tick(&mut self, line: impl FnOnce() -> String) {
        if self.last.elapsed() >= EVERY {
            eprintln!("{}", line());
            self.last = Instant::now();
        }
    }
}
