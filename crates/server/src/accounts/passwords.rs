//! Passwords hashed with Argon2id, off the server's tasks and a few at a time: a hash
//! takes tens of milliseconds of one core and 19 MiB, so logins a second are bounded by
//! the cores, and a flood of them cannot hold up the games' moves. The 19 MiB are kept
//! and used again, one block of memory a core: allocated afresh for each hash, the memory
//! the allocator kept of them grew to 660 MB after 300 registrations.

use argon2::password_hash::{Output, ParamsString, PasswordHash, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use std::sync::{Arc, Mutex, OnceLock};
use tokio::sync::Semaphore;

/// OWASP's first choice (2023): Argon2id, 19 MiB, 2 passes, 1 lane.
fn params() -> Params {
    Params::new(19 * 1024, 2, 1, None).expect("fixed parameters are valid")
}

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params())
}

/// The memory one hash works in.
type Memory = Vec<Block>;

fn new_memory() -> Memory {
    vec![Block::default(); params().block_count()]
}

pub struct Hasher {
    /// One hash at a time per core the machine has.
    permits: Arc<Semaphore>,
    /// The hashes' memory when no hash uses it: at most one a permit.
    memory: Arc<Mutex<Vec<Memory>>>,
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
            memory: Arc::default(),
        }
    }

    /// The PHC string of `password` with a fresh salt.
    pub async fn hash(&self, password: String) -> Result<String, String> {
        self.blocking(move |memory| hash_now(&password, memory))
            .await?
    }

    /// Whether `password` is the one `hash` was made from. With no hash (no such account)
    /// it spends the same time on a hash that nothing matches, so the time taken does not
    /// tell whether a name exists.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, String> {
        self.blocking(move |memory| {
            let hash = hash.as_deref().unwrap_or_else(|| no_account_hash());
            verify_now(&password, hash, memory)
        })
        .await
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Memory) -> T + Send + 'static,
    ) -> Result<T, String> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| "the server is stopping".to_string())?;
        let kept = self.memory.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let memory = self.memory.clone();
        tokio::task::spawn_blocking(move || {
            let mut mine = kept.unwrap_or_else(new_memory);
            let done = work(&mut mine);
            memory.lock().unwrap_or_else(|e| e.into_inner()).push(mine);
            done
        })
        .await
        .map_err(|e| format!("hashing failed: {e}"))
    }
}

fn hash_now(password: &str, memory: &mut Memory) -> Result<String, String> {
    let mut salt = [0u8; 16];
    StdRng::from_os_rng().fill_bytes(&mut salt);
    let salt_text = SaltString::encode_b64(&salt).map_err(|e| format!("a password's salt: {e}"))?;
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    argon2()
        .hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, &mut *memory)
        .map_err(|e| format!("hashing a password: {e}"))?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params()).map_err(|e| format!("a hash's params: {e}"))?,
        salt: Some(salt_text.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| format!("a hash's output: {e}"))?),
    };
    Ok(hash.to_string())
}

/// Whether a hash's parameters are the ones the kept memory fits (a hash read back also
/// names its output's length, which ours leave to the default).
fn is_ours(read: &Params) -> bool {
    let ours = params();
    read.m_cost() == ours.m_cost()
        && read.t_cost() == ours.t_cost()
        && read.p_cost() == ours.p_cost()
        && read.keyid().is_empty()
        && read.data().is_empty()
}

fn verify_now(password: &str, hash: &str, memory: &mut Memory) -> bool {
    // A stored hash that does not read matches nothing.
    let Ok(hash) = PasswordHash::new(hash) else {
        return false;
    };
    let ours = hash.algorithm == Algorithm::Argon2id.ident()
        && hash.version == Some(Version::V0x13.into())
        && Params::try_from(&hash).is_ok_and(|p| is_ours(&p));
    let (Some(salt), Some(expected), true) = (hash.salt, hash.hash, ours) else {
        // Made some other way (not by this server): checked as the hash says, in memory of
        // its own.
        return argon2().verify_password(password.as_bytes(), &hash).is_ok();
    };
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    argon2()
        .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut *memory)
        .is_ok()
        // Output's comparison takes the same time wherever the bytes differ.
        && Output::new(&out).is_ok_and(|found| found == expected)
}

/// A hash of a random password, made once.
fn no_account_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let mut bytes = [0u8; 16];
        StdRng::from_os_rng().fill_bytes(&mut bytes);
        hash_now(&format!("{bytes:?}"), &mut new_memory()).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_matches_its_password_alone_and_never_holds_it() {
        let memory = &mut new_memory();
        let hash = hash_now("correct horse", memory).unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(!hash.contains("correct"));
        assert!(verify_now("correct horse", &hash, memory));
        assert!(!verify_now("correct horsE", &hash, memory));
        assert_ne!(
            hash,
            hash_now("correct horse", memory).unwrap(),
            "a fresh salt each time"
        );
        assert!(!verify_now("x", "not a hash", memory));
        assert!(!verify_now("", no_account_hash(), memory));
    }

    #[test]
    fn the_hashes_memory_is_kept_at_most_one_block_a_core() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        let hasher = Arc::new(Hasher::new());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        runtime.block_on(async {
            let hashes: Vec<_> = (0..3 * cores)
                .map(|i| {
                    let hasher = hasher.clone();
                    tokio::spawn(async move { hasher.hash(format!("password {i}")).await })
                })
                .collect();
            for hash in hashes {
                let hash = hash.await.unwrap().unwrap();
                assert!(hasher.verify("password 0".into(), Some(hash)).await.is_ok());
            }
        });
        let kept = hasher.memory.lock().unwrap().len();
        assert!(
            (1..=cores).contains(&kept),
            "{kept} blocks kept for {cores} cores"
        );
    }

    #[test]
    fn hashes_read_alike_by_the_crate_and_in_kept_memory() {
        use argon2::password_hash::PasswordHasher;
        let memory = &mut new_memory();
        // As stored before the memory was kept: the crate's own hash.
        let salt = SaltString::encode_b64(b"sixteen bytes!!!").unwrap();
        let theirs = argon2()
            .hash_password(b"correct horse", &salt)
            .unwrap()
            .to_string();
        assert!(verify_now("correct horse", &theirs, memory));
        assert!(!verify_now("correct horse ", &theirs, memory));
        let ours = hash_now("correct horse", memory).unwrap();
        let ours = PasswordHash::new(&ours).unwrap();
        assert!(argon2().verify_password(b"correct horse", &ours).is_ok());
        // Ours and the crate's are checked in the kept memory, not one of their own.
        for hash in [&ours, &PasswordHash::new(&theirs).unwrap()] {
            assert!(is_ours(&Params::try_from(hash).unwrap()), "{hash}");
        }
        // Other parameters: checked as the hash says.
        let light = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(1024, 1, 1, None).unwrap(),
        );
        let other = light.hash_password(b"pw", &salt).unwrap().to_string();
        assert!(!is_ours(
            &Params::try_from(&PasswordHash::new(&other).unwrap()).unwrap()
        ));
        assert!(verify_now("pw", &other, memory));
        assert!(!verify_now("px", &other, memory));
    }
}
