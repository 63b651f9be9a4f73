//! Every target over the corpus kept in `fuzz/corpus/` (its archive, and the inputs that
//! once failed, kept as regressions by name), then over a fixed number of mutations of it.

use tabula_fuzz::runner::{Budget, Watchdog, fuzz};
use tabula_fuzz::{TARGETS, corpus};

#[test]
fn every_target_passes_its_corpus_and_mutations_of_it() {
    let corpus_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    for target in TARGETS {
        let corpus = corpus::read(&corpus_dir, target.name).unwrap();
        assert!(!corpus.is_empty(), "{} has no corpus", target.name);
        let outcome = fuzz(target, &corpus, Budget::Runs(300), 1, &Watchdog::none());
        if let Some(failure) = outcome.failure {
            panic!(
                "{} failed on {:?}: {}",
                target.name,
                String::from_utf8_lossy(&failure.input),
                failure.message
            );
        }
        assert_eq!(outcome.runs, corpus.len() as u64 + 300);
    }
}

#[test]
fn every_target_has_seeds() {
    for target in TARGETS {
        assert!(
            !tabula_fuzz::seeds::seeds(target.name).is_empty(),
            "{}",
            target.name
        );
    }
}
