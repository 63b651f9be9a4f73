//! Challenges being taken here (out of the lobby while their game is made: a read of the
//! store or a late word must not show them again meanwhile), and those a lost accept put
//! back to wait for the winning process's word, taken down at a look if it never comes.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a challenge put back waits for the word that it was taken elsewhere (words
/// between processes take milliseconds; a lost one would leave it up for good).
const WORD_PATIENCE: Duration = Duration::from_secs(5);

#[derive(Default)]
pub(super) struct Taking {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    now: HashSet<String>,
    awaiting: Vec<(String, Instant)>,
}

impl Taking {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn begin(&self, id: &str) {
        self.state().now.insert(id.to_string());
    }

    pub(super) fn end(&self, id: &str) {
        self.state().now.remove(id);
    }

    pub(super) fn contains(&self, id: &str) -> bool {
        self.state().now.contains(id)
    }

    /// Challenge `id`, put back, waits for its word.
    pub(super) fn await_word(&self, id: &str) {
        self.state().awaiting.push((id.to_string(), Instant::now()));
    }

    /// The challenges put back whose word has not come in time, let go of here.
    pub(super) fn overdue(&self) -> Vec<String> {
        let mut state = self.state();
        if state.awaiting.is_empty() {
            return Vec::new();
        }
        let (late, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut state.awaiting)
            .into_iter()
            .partition(|(_, since)| since.elapsed() >= WORD_PATIENCE);
        state.awaiting = waiting;
        late.into_iter().map(|(id, _)| id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_is_taken_while_begun_and_awaited_until_overdue() {
        let taking = Taking::default();
        taking.begin("a");
        assert!(taking.contains("a") && !taking.contains("b"));
        taking.end("a");
        assert!(!taking.contains("a"));
        taking.await_word("a");
        assert!(taking.overdue().is_empty(), "not yet");
        taking.state().awaiting[0].1 = Instant::now() - WORD_PATIENCE;
        assert_eq!(taking.overdue(), ["a"]);
        assert!(taking.overdue().is_empty(), "once");
    }
}
