//! What one password hash costs here, and so how many logins a second a server can take:
//! `cargo run --release -p tabula-server --example hash_timing [HASHES]`. The server hashes
//! at most one password per core at once (see `accounts::passwords`).

use std::time::Instant;
use tabula_server::accounts::passwords::Hasher;

fn main() {
    let hashes: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let hasher = std::sync::Arc::new(Hasher::new());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    runtime.block_on(async {
        let hash = hasher.hash("correct horse".into()).await.expect("a hash");
        let start = Instant::now();
        for _ in 0..hashes {
            hasher
                .verify("correct horse".into(), Some(hash.clone()))
                .await
                .expect("a check");
        }
        let one = start.elapsed().as_secs_f64() / hashes as f64;
        let start = Instant::now();
        let checks: Vec<_> = (0..hashes)
            .map(|_| {
                let (hasher, hash) = (hasher.clone(), hash.clone());
                tokio::spawn(async move { hasher.verify("correct horse".into(), Some(hash)).await })
            })
            .collect();
        for check in checks {
            check.await.expect("a task").expect("a check");
        }
        let all = start.elapsed().as_secs_f64();
        println!(
            "argon2id m=19456 KiB t=2 p=1: {:.1} ms a hash on one core; {hashes} logins at once \
             on {cores} cores: {:.0} a second",
            one * 1000.0,
            hashes as f64 / all
        );
    });
}
