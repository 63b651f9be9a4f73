//! Running a target: over the kept corpus, then over mutations of it for a budget, catching
//! a failing input (a panic) and one that runs too long (a watchdog thread).

use crate::Target;
use crate::mutate::Mutator;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a runner fuzzes one target.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    Runs(u64),
    Time(Duration),
}

/// An input that made a target panic, and the panic's message.
#[derive(Debug)]
pub struct Failure {
    pub input: Vec<u8>,
    pub message: String,
}

#[derive(Debug)]
pub struct Outcome {
    pub runs: u64,
    pub elapsed: Duration,
    pub failure: Option<Failure>,
}

/// The input being run, for the watchdog: when it started, which target, the bytes.
type Running = Arc<Mutex<Option<(Instant, &'static str, Vec<u8>)>>>;

/// Stops the process when one input runs longer than `limit`, after saving that input in
/// `artifacts/TARGET/` and naming it: a hang is a failure too, and no thread can stop it.
pub struct Watchdog {
    running: Running,
}

impl Watchdog {
    pub fn start(limit: Duration, artifacts: PathBuf) -> Watchdog {
        let running: Running = Arc::default();
        let watched = running.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(250));
                let guard = watched.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((started, name, input)) = guard.as_ref()
                    && started.elapsed() > limit
                {
                    let saved = save(&artifacts, name, "timeout", input);
                    eprintln!(
                        "{name}: one input ran past {} s; saved as {}",
                        limit.as_secs_f64(),
                        saved.map_or_else(|e| e, |p| p.display().to_string())
                    );
                    std::process::exit(1);
                }
            }
        });
        Watchdog { running }
    }

    /// A watchdog that watches nothing, for the tests.
    pub fn none() -> Watchdog {
        Watchdog {
            running: Arc::default(),
        }
    }

    pub(crate) fn run(&self, target: &Target, input: &[u8]) -> Result<(), String> {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((Instant::now(), target.name, input.to_vec()));
        let result = catch_unwind(AssertUnwindSafe(|| (target.run)(input)));
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
        result.map_err(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic with no message".to_string());
            match PANIC_PLACE.lock().unwrap_or_else(|e| e.into_inner()).take() {
                Some(place) => format!("{message} (at {place})"),
                None => message,
            }
        })
    }
}

/// Where the last panic happened, kept by [`quiet_panics`]' hook.
static PANIC_PLACE: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the panic message on stderr (and its backtrace) with a note of where it
/// happened, which the runner adds to the failure it reports once.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()));
        *PANIC_PLACE.lock().unwrap_or_else(|e| e.into_inner()) = place;
    }));
}

/// Runs every corpus input, then mutations of the corpus until the budget is spent or an
/// input fails.
pub fn fuzz(
    target: &Target,
    corpus: &[Vec<u8>],
    budget: Budget,
    seed: u64,
    watchdog: &Watchdog,
) -> Outcome {
    let start = Instant::now();
    let mut runs = 0;
    let fail = |input: &[u8], message: String, runs| Outcome {
        runs,
        elapsed: start.elapsed(),
        failure: Some(Failure {
            input: input.to_vec(),
            message,
        }),
    };
    for input in corpus {
        runs += 1;
        if let Err(message) = watchdog.run(target, input) {
            return fail(input, message, runs);
        }
    }
    let mut mutator = Mutator::new(seed);
    loop {
        let spent = match budget {
            Budget::Runs(n) => runs >= n + corpus.len() as u64,
            Budget::Time(limit) => start.elapsed() >= limit,
        };
        if spent {
            return Outcome {
                runs,
                elapsed: start.elapsed(),
                failure: None,
            };
        }
        let input = mutator.next(corpus);
        runs += 1;
        if let Err(message) = watchdog.run(target, &input) {
            return fail(&input, message, runs);
        }
    }
}

/// Writes `input` as `dir/NAME/KIND-HASH`, named by its content as libFuzzer names them.
pub fn save(dir: &Path, name: &str, kind: &str, input: &[u8]) -> Result<PathBuf, String> {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let path = folder.join(input_name(kind, input));
    std::fs::write(&path, input).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// `KIND-HASH`: an input named by its content, as libFuzzer names them.
pub fn input_name(kind: &str, input: &[u8]) -> String {
    format!("{kind}{:016x}", content_hash(input))
}

/// FNV-1a: a stable name for an input, the same on every machine and run.
pub fn content_hash(input: &[u8]) -> u64 {
    input.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
