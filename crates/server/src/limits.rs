//! How much one connection may ask, so that one client cannot starve the others.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tabula_protocol::MESSAGES_PER_SECOND;
use tabula_protocol::bucket::Bucket;

/// A spell over the rate this long ends the connection, whatever its pace: a client that
/// paces itself (as Tabula's do) is never over it for more than a moment.
const OVER_FOR_AT_MOST: Duration = Duration::from_secs(5);
/// Refused messages in one spell after which the connection is closed at once.
const REFUSED_BEFORE_CLOSE: u32 = 200;
/// A spell over the rate ends after this long with nothing refused.
const SPELL_ENDS_AFTER: Duration = Duration::from_secs(1);

/// One connection's allowance of messages, and how long it has been over it.
pub struct RateLimit {
    bucket: Bucket,
    /// The first and the last refusal of the spell over the rate, and how many so far.
    spell: Option<Spell>,
}

struct Spell {
    began: Instant,
    last: Instant,
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
        RateLimit::starting(Instant::now())
    }

    fn starting(now: Instant) -> RateLimit {
        RateLimit {
            bucket: Bucket::server_limit(now),
            spell: None,
        }
    }

    /// Counts one message: an error if over the rate, and the close once it goes on.
    pub fn take(&mut self) -> Result<(), Over> {
        self.take_at(Instant::now())
    }

    /// [`RateLimit::take`] for a message that came at `now`. A message that passes does not
    /// end a spell over the rate (a flood a little over it passes every few messages):
    /// only a quiet second does.
    fn take_at(&mut self, now: Instant) -> Result<(), Over> {
        if self
            .spell
            .as_ref()
            .is_some_and(|spell| now.saturating_duration_since(spell.last) >= SPELL_ENDS_AFTER)
        {
            self.spell = None;
        }
        if self.bucket.take(now) {
            return Ok(());
        }
        let spell = self.spell.get_or_insert(Spell {
            began: now,
            last: now,
            refused: 0,
        });
        spell.last = now;
        spell.refused += 1;
        Err(Over {
            message: format!(
                "too many messages: at most {MESSAGES_PER_SECOND} a second; this one was ignored"
            ),
            close: spell.refused >= REFUSED_BEFORE_CLOSE
                || now.saturating_duration_since(spell.began) >= OVER_FOR_AT_MOST,
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
pub(crate) fn one_client(address: IpAddr) -> IpAddr {
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
        let now = Instant::now();
        let bucket = by_address.entry(one_client(address)).or_insert_with(|| {
            Bucket::new(
                f64::from(per_hour) / 3600.0,
                GAMES_AT_ONCE.min(f64::from(per_hour)),
                now,
            )
        });
        if bucket.take(now) {
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
        let now = Instant::now();
        self.by_address
            .lock()
            .expect("creation limit lock")
            .retain(|_, bucket| !bucket.is_full(now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages `gap` apart from `start` for as long as `for_long`: how many passed, and
    /// the time of the first that closed the connection, if one did.
    fn flood(gap: Duration, for_long: Duration) -> (usize, Option<Duration>) {
        let start = Instant::now();
        let mut limit = RateLimit::starting(start);
        let mut passed = 0;
        let mut now = start;
        while now < start + for_long {
            match limit.take_at(now) {
                Ok(()) => passed += 1,
                Err(over) if over.close => return (passed, Some(now - start)),
                Err(_) => {}
            }
            now += gap;
        }
        (passed, None)
    }

    /// The probe's flood: 5,000 messages a millisecond apart were each refused and never
    /// closed, as every message that passed began the count of refusals again.
    #[test]
    fn a_flood_at_any_pace_over_the_rate_is_closed() {
        let (_, closed) = flood(Duration::from_millis(1), Duration::from_secs(5));
        let closed = closed.expect("a flood a millisecond apart is closed");
        assert!(closed < Duration::from_secs(1), "closed after {closed:?}");
        // A little over the rate: refused now and then, never for long in a row.
        let (_, closed) = flood(Duration::from_millis(40), Duration::from_secs(30));
        let closed = closed.expect("25 a second, held up, is closed");
        // The burst lasts eight seconds at that pace; then five over the rate.
        assert!(closed <= Duration::from_secs(14), "closed after {closed:?}");
    }

    #[test]
    fn a_client_at_the_rate_or_a_burst_now_and_then_is_never_closed() {
        let (passed, closed) = flood(Duration::from_millis(50), Duration::from_secs(60));
        assert_eq!(
            (passed, closed),
            (1200, None),
            "20 a second pass for a minute"
        );
        // A burst over the allowance, then quiet: the spell ends with it.
        let start = Instant::now();
        let mut limit = RateLimit::starting(start);
        for round in 0..10 {
            let at = start + Duration::from_secs(10 * round);
            let refused = (0..60).filter(|_| limit.take_at(at).is_err()).count();
            assert_eq!(refused, 20, "round {round}");
            assert!(limit.take_at(at).is_err_and(|over| !over.close));
        }
    }

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
