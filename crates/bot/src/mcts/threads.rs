//! A search's iterations on several threads sharing its tree under one lock: a thread
//! descends and grows the tree holding the lock, plays out without it, then backs up
//! holding it again. A visit counted on the way down and its reward added on the way up is
//! a virtual loss that sends the other threads down other paths meanwhile.

use super::Search;
use super::iteration::playout;
use crate::knowledge::Knowledge;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

impl<G: Knowledge> Search<G> {
    /// `Search::run` on the search's threads (the caller's among them).
    pub(super) fn run_on_threads(
        &mut self,
        first: Option<u32>,
        more: &(dyn Fn(u64) -> bool + Sync),
    ) -> u64 {
        let seeds: Vec<u64> = (0..self.threads).map(|_| self.rng.random()).collect();
        let (config, root) = (self.config.clone(), self.position.clone());
        let weights = self.weights.clone();
        let players = root.num_players();
        let shared = Mutex::new((&mut *self, 0u64));
        let work = |seed: u64| {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut path = Vec::new();
            loop {
                let start = root.clone();
                let (mut position, decided) = {
                    let mut guard = lock_spinning(&shared);
                    let (search, started) = &mut *guard;
                    if !search.open(first) || !more(*started) {
                        break;
                    }
                    *started += 1;
                    search.descend(start, first, &mut path)
                };
                let rewards = decided.unwrap_or_else(|| {
                    playout(&config, weights.as_deref(), &mut position, &mut rng)
                });
                lock_spinning(&shared).0.back_up(&path, &rewards, players);
            }
        };
        std::thread::scope(|scope| {
            // The caller's thread is one of them.
            for &seed in &seeds[1..] {
                scope.spawn(move || work(seed));
            }
            work(seeds[0]);
        });
        let started = shared
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .1;
        self.iterations += started;
        started
    }
}

/// Tries for the tree's lock this many times before sleeping until it is free.
const SPINS: u32 = 2_000;

/// The tree's lock, taken by trying again and again for a while before sleeping: it is held
/// for a few microseconds at a time, less than a thread takes to fall asleep and be woken
/// (sleeping at once cost Absorption, whose iterations are shortest, all it gained).
fn lock_spinning<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    for _ in 0..SPINS {
        match mutex.try_lock() {
            Ok(guard) => return guard,
            Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => std::hint::spin_loop(),
        }
    }
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
