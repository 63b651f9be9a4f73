//! The positions a game has passed through since its last irreversible change, for the
//! threefold-repetition draw every game offers.

#[derive(Clone, Debug, Default)]
pub(crate) struct History(Vec<u64>);

impl History {
    pub fn record(&mut self, hash: u64) {
        self.0.push(hash);
    }

    /// Whether the position `hash` has occurred three times or more.
    pub fn is_threefold(&self, hash: u64) -> bool {
        self.0.iter().filter(|&&h| h == hash).count() >= 3
    }

    /// Forgets every position: after a capture or growth none of them can recur.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether the last position recorded is `hash` (for invariant checks).
    pub fn ends_with(&self, hash: u64) -> bool {
        self.0.last() == Some(&hash)
    }
}
