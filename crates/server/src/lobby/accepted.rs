//! Word to a poster that its challenge was taken, on each of the poster's connections that
//! listen (those that follow the lobby, or posted): an account's word reaches its own
//! connections alone. Through the lobby's news, every follower heard of every accept; a
//! poster had to follow the lobby to hear of its own, and a thousand posters made each
//! accept a thousand messages (82 accepts a second at most, measured in docs/benchmarks.md).

use crate::store::AccountId;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// Challenge `id` became game `code`, where the poster holds `seat`.
#[derive(Clone, Debug)]
pub struct Accepted {
    pub id: String,
    pub code: String,
    pub seat: usize,
}

/// Words a listener may have waiting: a poster has at most five challenges open.
const WAITING: usize = 16;

#[derive(Default)]
pub struct AcceptedNews {
    listeners: Mutex<Listeners>,
}

#[derive(Default)]
struct Listeners {
    by_account: HashMap<AccountId, broadcast::Sender<Accepted>>,
    /// Accounts kept at the last sweep of those nobody listens for any more.
    kept_at_sweep: usize,
}

impl AcceptedNews {
    /// The word for `account`'s challenges from now on.
    pub fn listen(&self, account: AccountId) -> broadcast::Receiver<Accepted> {
        let mut listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        // Let go of accounts whose connections went, once they are as many as the rest.
        if listeners.by_account.len() >= 2 * listeners.kept_at_sweep.max(32) {
            listeners.by_account.retain(|_, s| s.receiver_count() > 0);
            listeners.kept_at_sweep = listeners.by_account.len();
        }
        listeners
            .by_account
            .entry(account)
            .or_insert_with(|| broadcast::channel(WAITING).0)
            .subscribe()
    }

    /// Tells `account`'s listening connections, if any.
    pub fn tell(&self, account: AccountId, accepted: Accepted) {
        let mut listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sender) = listeners.by_account.get(&account)
            && sender.send(accepted).is_err()
        {
            listeners.by_account.remove(&account);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(id: &str) -> Accepted {
        Accepted {
            id: id.into(),
            code: "ABCDEF".into(),
            seat: 0,
        }
    }

    #[test]
    fn an_account_hears_its_own_accepts_on_each_connection_and_no_other() {
        let news = AcceptedNews::default();
        let (ada, bea): (AccountId, AccountId) = (1, 2);
        let mut desk = news.listen(ada);
        let mut phone = news.listen(ada);
        let mut other = news.listen(bea);
        news.tell(ada, word("x"));
        assert_eq!(desk.try_recv().unwrap().id, "x");
        assert_eq!(phone.try_recv().unwrap().id, "x");
        assert!(other.try_recv().is_err());
    }

    #[test]
    fn accounts_whose_connections_went_are_let_go() {
        let news = AcceptedNews::default();
        for n in 0..1000 {
            drop(news.listen(n as AccountId));
        }
        let kept = news.listen(5000);
        let held = news.listeners.lock().unwrap().by_account.len();
        assert!(held <= 64, "{held} accounts held for 1 connection");
        news.tell(5000, word("y"));
        drop(kept);
        news.tell(5000, word("z"));
        assert!(
            !news
                .listeners
                .lock()
                .unwrap()
                .by_account
                .contains_key(&5000)
        );
    }
}
