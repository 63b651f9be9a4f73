//! How much one connection may ask, so that one client cannot starve the others.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::Instant;

/// Messages a second a connection may keep up.
pub const MESSAGES_PER_SECOND: f64 = 20.0;
/// Messages a connection may send at once after a quiet spell.
const BURST: f64 = 40.0;
/// Refused messages in a row after which the connection is closed.
const REFUSED_BEFORE_CLOSE: u32 = 200;

/// A token bucket: `burst` at once after a quiet spell, refilled at `per_second`.
#[derive(Clone, Debug)]
pub struct Bucket {
    allowance: f64,
    last: Instant,
    per_second: f64,
    burst: f64,
}

impl Bucket {
    pub fn new(per_second: f64, burst: f64) -> Bucket {
        Bucket {
            allowance: burst,
            last: Instant::now(),
            per_second,
            burst,
        }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.allowance = (self.allowance + earned).min(self.burst);
        self.last = now;
    }

    /// Takes one, if there is one.
    pub fn take(&mut self) -> bool {
        self.refill();
        if self.allowance >= 1.0 {
            self.allowance -= 1.0;
            true
        } else {
            false
        }
    }

    /// Returns one taken.
    pub fn put_back(&mut self) {
        self.allowance = (self.allowance + 1.0).min(self.burst);
    }

    /// Whether it is as full as it gets (nothing to remember about its owner).
    pub fn is_full(&mut self) -> bool {
        self.refill();
        self.allowance >= self.burst
    }
}

pub struct RateLimit {
    bucket: Bucket,
    refused: u32,
}

pub struct Over {
    pub message: String,
    pub close: bool,
}

impl Default for RateLimit {
    fn default() -> RateLimit {
        RateLimit::new()
    }
}

impl RateLimit {
    pub fn new() -> RateLimit {
        RateLimit {
            bucket: Bucket::new(MESSAGES_PER_SECOND, BURST),
            refused: 0,
        }
    }

    /// Counts one message: an error if over the rate, and the close once it goes on.
    pub fn take(&mut self) -> Result<(), Over> {
        if self.bucket.take() {
            self.refused = 0;
            return Ok(());
        }
        self.refused += 1;
        Err(Over {
            message: format!(
                "too many messages: at most {MESSAGES_PER_SECOND} a second; this one was ignored"
            ),
            close: self.refused >= REFUSED_BEFORE_CLOSE,
        })
    }
}

/// Games one address may create in an hour, by default (a few at once after a quiet spell).
pub const GAMES_PER_HOUR: u32 = 60;
/// New games one address may create at once.
const GAMES_AT_ONCE: f64 = 20.0;

/// The part of an address that stands for one client: an IPv4 address (also when it comes
/// mapped into IPv6), or an IPv6 address's /64 network, which one household or machine
/// usually has whole (so stepping through it does not give a new allowance).
fn one_client(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// How many games each address may create, so that one client cannot fill the database.
/// Behind a proxy every client has the proxy's address: limit there instead (and give the
/// server `--games-per-hour 0`).
pub struct CreationLimit {
    per_hour: u32,
    by_address: Mutex<HashMap<IpAddr, Bucket>>,
}

impl CreationLimit {
    /// `per_hour` games an hour from each address; 0 for no limit.
    pub fn new(per_hour: u32) -> CreationLimit {
        CreationLimit {
            per_hour,
            by_address: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one new game from `address`, or says why not.
    pub fn allow(&self, address: IpAddr) -> Result<(), String> {
        if self.per_hour == 0 {
            return Ok(());
        }
        let per_hour = self.per_hour;
        let mut by_address = self.by_address.lock().expect("creation limit lock");
        let bucket = by_address.entry(one_client(address)).or_insert_with(|| {
            Bucket::new(
                f64::from(per_hour) / 3600.0,
                GAMES_AT_ONCE.min(f64::from(per_hour)),
            )
        });
        if bucket.take() {
            Ok(())
        } else {
            Err(format!(
                "too many new games from your address: at most {per_hour} an hour; \
                 join or resume one instead, or wait a minute"
            ))
        }
    }

    /// Gives back what [`CreationLimit::allow`] took, for a game that was not made after
    /// all (a refused request does not count).
    pub fn give_back(&self, address: IpAddr) {
        if let Some(bucket) = self
            .by_address
            .lock()
            .expect("creation limit lock")
            .get_mut(&one_client(address))
        {
            bucket.put_back();
        }
    }

    /// Forgets the addresses that have their whole allowance again.
    pub fn forget_rested(&self) {
        self.by_address
            .lock()
            .expect("creation limit lock")
            .retain(|_, bucket| !bucket.is_full());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_and_a_flood_is_refused_then_closed() {
        let mut limit = RateLimit::new();
        let passed = (0..1000).filter(|_| limit.take().is_ok()).count();
        // The burst and what the loop's own time earned, nowhere near the thousand.
        assert!((40..100).contains(&passed), "{passed}");
        let over = limit.take().unwrap_err();
        assert!(over.message.contains("too many messages"));
        assert!(
            over.close,
            "a flood of refused messages ends the connection"
        );
    }

    #[test]
    fn each_address_creates_so_many_games_and_no_more() {
        let limit = CreationLimit::new(60);
        let one: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "2001:db8::2".parse().unwrap();
        let made = (0..100).filter(|_| limit.allow(one).is_ok()).count();
        assert_eq!(made, 20, "twenty at once, then one a minute");
        let refused = limit.allow(one).unwrap_err();
        assert!(refused.contains("at most 60 an hour"), "{refused}");
        assert!(limit.allow(other).is_ok(), "another address has its own");
        let same_network: IpAddr = "2001:db8::ffff".parse().unwrap();
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert!(
            limit.allow(mapped).is_err(),
            "an IPv4 address mapped into IPv6 is itself"
        );
        let spent = (0..30)
            .filter(|_| limit.allow(same_network).is_ok())
            .count();
        assert_eq!(spent, 19, "one IPv6 /64 is one client");
        limit.forget_rested();
        assert!(limit.allow(one).is_err(), "a spent address is remembered");
        let fresh: IpAddr = "198.51.100.7".parse().unwrap();
        for _ in 0..50 {
            limit.allow(fresh).unwrap();
            limit.give_back(fresh);
        }
        assert!(
            limit.allow(fresh).is_ok(),
            "what is given back does not count"
        );
        let open = CreationLimit::new(0);
        assert!((0..1000).all(|_| open.allow(one).is_ok()), "0: no limit");
    }
}
