//! Passwords hashed with Argon2id, off the server's tasks and a few at a time: a hash
//! takes tens of milliseconds of one core and 19 MiB, so logins a second are bounded by
//! the cores, and a flood of them cannot hold up the games' moves.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// OWASP's first choice (2023): Argon2id, 19 MiB, 2 passes, 1 lane.
fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("fixed parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

pub struct Hasher {
    /// One hash at a time per core the machine has.
    permits: Arc<Semaphore>,
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher::new()
    }
}

impl Hasher {
    pub fn new() -> Hasher {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Hasher {
            permits: Arc::new(Semaphore::new(cores)),
        }
    }

    /// The PHC string of `password` with a fresh salt.
    pub async fn hash(&self, password: String) -> Result<String, String> {
        self.blocking(move || hash_now(&password)).await?
    }

    /// Whether `password` is the one `hash` was made from. With no hash (no such account)
    /// it spends the same time on a hash that nothing matches, so the time taken does not
    /// tell whether a name exists.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, String> {
        self.blocking(move || {
            let hash = hash.as_deref().unwrap_or_else(|| no_account_hash());
            verify_now(&password, hash)
        })
        .await
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, String> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| "the server is stopping".to_string())?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| format!("hashing failed: {e}"))
    }
}

fn hash_now(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    StdRng::from_os_rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| format!("a password's salt: {e}"))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| format!("hashing a password: {e}"))
}

fn verify_now(password: &str, hash: &str) -> bool {
    // A stored hash that does not read matches nothing.
    PasswordHash::new(hash)
        .is_ok_and(|hash| argon2().verify_password(password.as_bytes(), &hash).is_ok())
}

/// A hash of a random password, made once.
fn no_account_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let mut bytes = [0u8; 16];
        StdRng::from_os_rng().fill_bytes(&mut bytes);
        hash_now(&format!("{bytes:?}")).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_matches_its_password_alone_and_never_holds_it() {
        let hash = hash_now("correct horse").unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(!hash.contains("correct"));
        assert!(verify_now("correct horse", &hash));
        assert!(!verify_now("correct horsE", &hash));
        assert_ne!(
            hash,
            hash_now("correct horse").unwrap(),
            "a fresh salt each time"
        );
        assert!(!verify_now("x", "not a hash"));
        assert!(!verify_now("", no_account_hash()));
    }
}
