//! A token bucket: the server's limit on what one connection sends, and the pace a client
//! keeps to stay inside it. Time is passed in, so both sides (and tests) count it the same.

use crate::{CLIENT_MESSAGE_BURST, CLIENT_MESSAGES_PER_SECOND, MESSAGE_BURST, MESSAGES_PER_SECOND};
use web_time::{Duration, Instant};

/// `burst` at once after a quiet spell, refilled at `per_second`.
#[derive(Clone, Debug)]
pub struct Bucket {
    allowance: f64,
    last: Instant,
    per_second: f64,
    burst: f64,
}

impl Bucket {
    /// A full bucket at `now`.
    pub fn new(per_second: f64, burst: f64, now: Instant) -> Bucket {
        Bucket {
            allowance: burst,
            last: now,
            per_second,
            burst,
        }
    }

    /// The server's allowance for one connection's messages, full at `now`.
    pub fn server_limit(now: Instant) -> Bucket {
        Bucket::new(MESSAGES_PER_SECOND, MESSAGE_BURST, now)
    }

    /// The pace a client keeps to stay inside [`Bucket::server_limit`], full at `now`.
    pub fn client_pace(now: Instant) -> Bucket {
        Bucket::new(CLIENT_MESSAGES_PER_SECOND, CLIENT_MESSAGE_BURST, now)
    }

    fn refill(&mut self, now: Instant) {
        // A clock read out of order earns nothing rather than panicking.
        let earned = now.saturating_duration_since(self.last).as_secs_f64() * self.per_second;
        self.allowance = (self.allowance + earned).min(self.burst);
        self.last = self.last.max(now);
    }

    /// Takes one at `now`, if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.allowance >= 1.0 {
            self.allowance -= 1.0;
            true
        } else {
            false
        }
    }

    /// How long after `now` there is one to take (zero if there is one now).
    pub fn wait(&mut self, now: Instant) -> Duration {
        self.refill(now);
        if self.allowance >= 1.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64((1.0 - self.allowance) / self.per_second)
        }
    }

    /// Returns one taken.
    pub fn put_back(&mut self) {
        self.allowance = (self.allowance + 1.0).min(self.burst);
    }

    /// Whether it is as full as it gets at `now` (nothing to remember about its owner).
    pub fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.allowance >= self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_rate() {
        let start = Instant::now();
        let mut bucket = Bucket::new(10.0, 5.0, start);
        assert_eq!((0..20).filter(|_| bucket.take(start)).count(), 5);
        assert_eq!(bucket.wait(start), Duration::from_millis(100));
        let later = start + Duration::from_secs(1);
        assert_eq!(bucket.wait(later), Duration::ZERO);
        assert_eq!((0..20).filter(|_| bucket.take(later)).count(), 5);
        assert!(!bucket.is_full(later));
        assert!(bucket.is_full(later + Duration::from_secs(1)));
    }

    /// A client that sends as fast as its pace lets it, for a minute, is never refused by
    /// the server's bucket, even when the network holds its messages back and hands them
    /// over together.
    #[test]
    fn a_paced_client_is_never_over_the_servers_limit() {
        let start = Instant::now();
        let mut pace = Bucket::client_pace(start);
        let mut server = Bucket::server_limit(start);
        let mut now = start;
        let mut sent = Vec::new();
        while now < start + Duration::from_secs(60) {
            now += pace.wait(now);
            assert!(pace.take(now));
            sent.push(now);
        }
        // A second's worth held back by the network at a time, then all at once.
        let mut refused = 0;
        for chunk in sent
            .chunk_by(|a, b| b.duration_since(start).as_secs() == a.duration_since(start).as_secs())
        {
            let arrival = *chunk.last().unwrap();
            refused += chunk.iter().filter(|_| !server.take(arrival)).count();
        }
        assert!(sent.len() > 900, "{} messages sent", sent.len());
        assert_eq!(refused, 0);
    }
}
