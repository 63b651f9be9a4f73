//! How often a name may be guessed at and an address may try: failed logins count against
//! the name (so a stranger who spams a name fails only themselves after a few tries, and
//! its owner, who knows the password, is never locked out for long); every attempt that
//! costs a hash (log in, register, change or check a password) counts against the address.
//! A try at a name takes its allowance before the hash and gets it back if the password
//! was right, so guesses sent all at once are counted as they come, not after.

use crate::limits::one_client;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tabula_protocol::bucket::Bucket;

/// Failed logins a name takes at once, then one a minute.
pub const NAME_FAILURES_AT_ONCE: f64 = 5.0;
const NAME_FAILURE_EVERY: Duration = Duration::from_secs(60);
/// Attempts an address makes in a minute by default (all at once after a quiet minute).
pub const ATTEMPTS_PER_MINUTE: u32 = 20;

pub struct Throttle {
    by_name: Mutex<HashMap<String, Bucket>>,
    by_address: Mutex<HashMap<IpAddr, Bucket>>,
    /// Attempts an address may make in a minute; 0 for any number (behind a proxy, where
    /// every client has its address).
    per_minute: u32,
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::new(ATTEMPTS_PER_MINUTE)
    }
}

impl Throttle {
    /// A throttle that lets each address try `per_minute` times a minute (0: any number).
    pub fn new(per_minute: u32) -> Throttle {
        Throttle {
            by_name: Mutex::default(),
            by_address: Mutex::default(),
            per_minute,
        }
    }

    /// Counts an attempt from `address` on the account `name_key`, or says why not now.
    /// Give it back with [`Throttle::succeeded`] if the password was right.
    pub fn attempt(&self, name_key: &str, address: IpAddr) -> Result<(), String> {
        self.attempt_at(name_key, address, Instant::now())
    }

    fn attempt_at(&self, name_key: &str, address: IpAddr, now: Instant) -> Result<(), String> {
        self.attempt_from_at(address, now)?;
        let mut by_name = self.by_name.lock().expect("throttle lock");
        let bucket = by_name.entry(name_key.to_string()).or_insert_with(|| {
            Bucket::new(
                1.0 / NAME_FAILURE_EVERY.as_secs_f64(),
                NAME_FAILURES_AT_ONCE,
                now,
            )
        });
        if bucket.take(now) {
            Ok(())
        } else {
            Err(format!(
                "too many wrong passwords for this name: try again in {} s",
                bucket.wait(now).as_secs() + 1
            ))
        }
    }

    /// Gives back what [`Throttle::attempt`] took from `name_key`: the password was right.
    pub fn succeeded(&self, name_key: &str) {
        if let Some(bucket) = self
            .by_name
            .lock()
            .expect("throttle lock")
            .get_mut(name_key)
        {
            bucket.put_back();
        }
    }

    /// Counts an attempt from `address` that names no account yet (a registration).
    pub fn attempt_from(&self, address: IpAddr) -> Result<(), String> {
        self.attempt_from_at(address, Instant::now())
    }

    fn attempt_from_at(&self, address: IpAddr, now: Instant) -> Result<(), String> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let per_minute = f64::from(self.per_minute);
        let mut by_address = self.by_address.lock().expect("throttle lock");
        let bucket = by_address
            .entry(one_client(address))
            .or_insert_with(|| Bucket::new(per_minute / 60.0, per_minute, now));
        if bucket.take(now) {
            Ok(())
        } else {
            Err(format!(
                "too many attempts from your address: try again in {} s",
                bucket.wait(now).as_secs() + 1
            ))
        }
    }

    /// Forgets the names and addresses that have their whole allowance again.
    pub fn forget_rested(&self) {
        let now = Instant::now();
        self.by_name
            .lock()
            .expect("throttle lock")
            .retain(|_, bucket| !bucket.is_full(now));
        self.by_address
            .lock()
            .expect("throttle lock")
            .retain(|_, bucket| !bucket.is_full(now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_passwords_hold_back_the_name_and_attempts_the_address() {
        let throttle = Throttle::default();
        let start = Instant::now();
        let home: IpAddr = "192.0.2.7".parse().unwrap();
        let elsewhere: IpAddr = "198.51.100.1".parse().unwrap();
        // Right passwords give their try back: the owner logs in as often as they like.
        for _ in 0..10 {
            throttle.attempt_at("ada", home, start).unwrap();
            throttle.succeeded("ada");
        }
        // Guesses sent together are counted as they come, before any is answered.
        for _ in 0..5 {
            throttle.attempt_at("ada", home, start).unwrap();
        }
        let err = throttle.attempt_at("ada", elsewhere, start).unwrap_err();
        assert!(err.contains("too many wrong passwords"), "{err}");
        // Another name from the same address goes on; a minute later one more try.
        throttle.attempt_at("bea", home, start).unwrap();
        throttle
            .attempt_at("ada", elsewhere, start + NAME_FAILURE_EVERY)
            .unwrap();
        // An address that tries many names is held back by itself.
        let busy: IpAddr = "203.0.113.9".parse().unwrap();
        let passed = (0..100)
            .filter(|n| throttle.attempt_at(&format!("n{n}"), busy, start).is_ok())
            .count();
        assert_eq!(passed, ATTEMPTS_PER_MINUTE as usize);
        let err = throttle.attempt_at("n0", busy, start).unwrap_err();
        assert!(err.contains("from your address"), "{err}");
        let next = start + Duration::from_secs(60 / u64::from(ATTEMPTS_PER_MINUTE));
        assert!(throttle.attempt_at("n0", busy, next).is_ok());
        // Behind a proxy, addresses are not limited; names still are.
        let proxied = Throttle::new(0);
        let passed = (0..100)
            .filter(|n| proxied.attempt_at(&format!("n{n}"), busy, start).is_ok())
            .count();
        assert_eq!(passed, 100);
    }
}
