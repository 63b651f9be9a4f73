//! How often a name may be guessed at and an address may try: failed logins count against
//! the name (so a stranger who spams a name fails only themselves after a few tries, and
//! its owner, who knows the password, is never locked out for long); every attempt that
//! costs a hash (log in, register, change or check a password) counts against the address.

use crate::limits::one_client;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tabula_protocol::bucket::Bucket;

/// Failed logins a name takes at once, then one a minute.
pub const NAME_FAILURES_AT_ONCE: f64 = 5.0;
const NAME_FAILURE_EVERY: Duration = Duration::from_secs(60);
/// Attempts an address makes at once, then one every three seconds.
pub const ADDRESS_ATTEMPTS_AT_ONCE: f64 = 20.0;
const ADDRESS_ATTEMPT_EVERY: Duration = Duration::from_secs(3);

#[derive(Default)]
pub struct Throttle {
    by_name: Mutex<HashMap<String, Bucket>>,
    by_address: Mutex<HashMap<IpAddr, Bucket>>,
}

impl Throttle {
    /// Counts an attempt from `address` on the account `name_key`, or says why not now.
    pub fn attempt(&self, name_key: &str, address: IpAddr) -> Result<(), String> {
        self.attempt_at(name_key, address, Instant::now())
    }

    fn attempt_at(&self, name_key: &str, address: IpAddr, now: Instant) -> Result<(), String> {
        let wait = self
            .by_name
            .lock()
            .expect("throttle lock")
            .get_mut(name_key)
            .map_or(Duration::ZERO, |bucket| bucket.wait(now));
        if !wait.is_zero() {
            return Err(format!(
                "too many wrong passwords for this name: try again in {} s",
                wait.as_secs() + 1
            ));
        }
        self.attempt_from_at(address, now)
    }

    /// Counts an attempt from `address` that names no account yet (a registration).
    pub fn attempt_from(&self, address: IpAddr) -> Result<(), String> {
        self.attempt_from_at(address, Instant::now())
    }

    fn attempt_from_at(&self, address: IpAddr, now: Instant) -> Result<(), String> {
        let mut by_address = self.by_address.lock().expect("throttle lock");
        let bucket = by_address.entry(one_client(address)).or_insert_with(|| {
            Bucket::new(
                1.0 / ADDRESS_ATTEMPT_EVERY.as_secs_f64(),
                ADDRESS_ATTEMPTS_AT_ONCE,
                now,
            )
        });
        if bucket.take(now) {
            Ok(())
        } else {
            Err(format!(
                "too many attempts from your address: try again in {} s",
                bucket.wait(now).as_secs() + 1
            ))
        }
    }

    /// Counts a wrong password given for `name_key`.
    pub fn failed(&self, name_key: &str) {
        self.failed_at(name_key, Instant::now());
    }

    fn failed_at(&self, name_key: &str, now: Instant) {
        self.by_name
            .lock()
            .expect("throttle lock")
            .entry(name_key.to_string())
            .or_insert_with(|| {
                Bucket::new(
                    1.0 / NAME_FAILURE_EVERY.as_secs_f64(),
                    NAME_FAILURES_AT_ONCE,
                    now,
                )
            })
            .take(now);
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
        for _ in 0..5 {
            throttle.attempt_at("ada", home, start).unwrap();
            throttle.failed_at("ada", start);
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
        assert_eq!(passed, ADDRESS_ATTEMPTS_AT_ONCE as usize);
        let err = throttle.attempt_at("n0", busy, start).unwrap_err();
        assert!(err.contains("from your address"), "{err}");
        assert!(
            throttle
                .attempt_at("n0", busy, start + ADDRESS_ATTEMPT_EVERY)
                .is_ok()
        );
    }
}
