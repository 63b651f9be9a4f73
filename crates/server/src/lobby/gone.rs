//! The challenges gone lately (taken or cancelled), so that late news of one does not put
//! it back: a "posted" word heard after the challenge was taken here, or a read of the
//! store that raced its removal.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

/// Ids remembered: at 500 accepts a second, the last 16 seconds' (news between processes
/// takes milliseconds).
const REMEMBERED: usize = 8192;

#[derive(Default)]
pub(super) struct RecentlyGone {
    ids: Mutex<Remembered>,
}

#[derive(Default)]
struct Remembered {
    set: HashSet<String>,
    oldest_first: VecDeque<String>,
}

impl RecentlyGone {
    pub(super) fn add(&self, id: &str) {
        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        if !ids.set.insert(id.to_string()) {
            return;
        }
        ids.oldest_first.push_back(id.to_string());
        if ids.oldest_first.len() > REMEMBERED
            && let Some(oldest) = ids.oldest_first.pop_front()
        {
            ids.set.remove(&oldest);
        }
    }

    pub(super) fn contains(&self, id: &str) -> bool {
        let ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        ids.set.contains(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_are_remembered_and_the_oldest_let_go() {
        let gone = RecentlyGone::default();
        for n in 0..REMEMBERED + 10 {
            gone.add(&format!("{n:012x}"));
        }
        gone.add(&format!("{:012x}", REMEMBERED + 9));
        assert!(!gone.contains(&format!("{:012x}", 9)));
        assert!(gone.contains(&format!("{:012x}", 10)));
        assert!(gone.contains(&format!("{:012x}", REMEMBERED + 9)));
        assert_eq!(gone.ids.lock().unwrap().set.len(), REMEMBERED);
    }
}
