//! tabula-fuzz: runs the fuzz targets on stable Rust for a fixed time each, over the corpus
//! kept in `fuzz/corpus/` and mutations of it, writes the first corpus, and packs and
//! unpacks the corpus's archives for libFuzzer.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tabula_fuzz::runner::{Budget, Watchdog, fuzz, input_name, save};
use tabula_fuzz::{TARGETS, Target, corpus, seeds::seeds};

const USAGE: &str =
    "usage: tabula-fuzz [--seconds S] [--timeout T] [--seed N] [--corpus DIR] [TARGET...]
       tabula-fuzz seed [--corpus DIR]     adds the seed inputs to the corpus
       tabula-fuzz unpack TARGET DIR       writes TARGET's kept inputs as files in DIR
       tabula-fuzz pack TARGET DIR         makes DIR's files TARGET's archive
       tabula-fuzz list                    the targets
       tabula-fuzz dict                    the mutation tokens as a libFuzzer dictionary

Runs each target (all by default) over its corpus, then over mutations of it for S seconds
(10 by default). A failing input is saved in fuzz/artifacts/TARGET/, and so is one that
runs past T seconds (10), which also stops the run. Exits with 1 if any target failed.";

struct Options {
    seconds: f64,
    timeout: f64,
    seed: u64,
    corpus: PathBuf,
    targets: Vec<&'static Target>,
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let code = match words.first().map(String::as_str) {
        Some("list") => {
            TARGETS.iter().for_each(|t| println!("{}", t.name));
            0
        }
        Some("dict") => {
            print!("{}", tabula_fuzz::mutate::libfuzzer_dictionary());
            0
        }
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            0
        }
        Some("seed") => finish(parse(&words[1..]).and_then(|o| write_seeds(&o))),
        Some(verb @ ("pack" | "unpack")) => finish(pack_or_unpack(verb, &words[1..])),
        _ => finish(parse(&words).and_then(|o| run(&o))),
    };
    std::process::exit(code);
}

fn finish(result: Result<bool, String>) -> i32 {
    match result {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            2
        }
    }
}

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn parse(words: &[String]) -> Result<Options, String> {
    let mut options = Options {
        seconds: 10.0,
        timeout: 10.0,
        seed: 0,
        corpus: fuzz_dir().join("corpus"),
        targets: Vec::new(),
    };
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let mut value = |flag: &str| {
            words
                .next()
                .ok_or_else(|| format!("{flag} needs a value"))
                .cloned()
        };
        let seconds = |flag: &str, text: String| match text.parse::<f64>() {
            Ok(s) if (0.0..=1e6).contains(&s) => Ok(s),
            _ => Err(format!(
                "{flag} needs a number of seconds up to 1000000, not {text:?}"
            )),
        };
        match word.as_str() {
            "--seconds" => options.seconds = seconds(word, value(word)?)?,
            "--timeout" => options.timeout = seconds(word, value(word)?)?.max(0.5),
            "--seed" => {
                let text = value(word)?;
                options.seed = text
                    .parse()
                    .map_err(|_| format!("--seed needs a whole number, not {text:?}"))?;
            }
            "--corpus" => options.corpus = PathBuf::from(value(word)?),
            name => options.targets.push(
                tabula_fuzz::target(name)
                    .ok_or_else(|| format!("no target {name:?}; `tabula-fuzz list` names them"))?,
            ),
        }
    }
    if options.targets.is_empty() {
        options.targets = TARGETS.iter().collect();
    }
    Ok(options)
}

/// Fuzzes each target in turn; true if none failed.
fn run(options: &Options) -> Result<bool, String> {
    tabula_fuzz::runner::quiet_panics();
    let artifacts = fuzz_dir().join("artifacts");
    let watchdog = Watchdog::start(Duration::from_secs_f64(options.timeout), artifacts.clone());
    let budget = Budget::Time(Duration::from_secs_f64(options.seconds));
    let mut all_passed = true;
    for target in &options.targets {
        let corpus = corpus::read(&options.corpus, target.name)?;
        let outcome = fuzz(target, &corpus, budget, options.seed, &watchdog);
        let seconds = outcome.elapsed.as_secs_f64();
        let rate = outcome.runs as f64 / seconds.max(1e-9);
        match outcome.failure {
            None => println!(
                "{}: {} runs in {seconds:.1} s ({rate:.0} a second) from {} corpus inputs: no failure",
                target.name,
                outcome.runs,
                corpus.len()
            ),
            Some(failure) => {
                all_passed = false;
                let saved = save(&artifacts, target.name, "crash-", &failure.input)?;
                println!(
                    "{}: FAILED after {} runs: {}\n  input saved as {}",
                    target.name,
                    outcome.runs,
                    failure.message,
                    saved.display()
                );
            }
        }
    }
    Ok(all_passed)
}

fn write_seeds(options: &Options) -> Result<bool, String> {
    for target in &options.targets {
        let inputs = seeds(target.name);
        let named = inputs
            .iter()
            .map(|input| (input_name("seed-", input), input.clone()))
            .collect();
        let kept = corpus::add(&options.corpus, target.name, named)?;
        println!(
            "{}: {} seed inputs; {kept} inputs in its archive",
            target.name,
            inputs.len()
        );
    }
    Ok(true)
}

/// `unpack TARGET DIR` and `pack TARGET DIR`, on the corpus in `fuzz/corpus/`: what
/// fuzz/run.sh and fuzz/keep.sh use to give libFuzzer a folder and keep what it found.
fn pack_or_unpack(verb: &str, words: &[String]) -> Result<bool, String> {
    let [name, dir] = words else {
        return Err(format!("{verb} takes a target and a folder"));
    };
    let target = tabula_fuzz::target(name)
        .ok_or_else(|| format!("no target {name:?}; `tabula-fuzz list` names them"))?;
    let corpus_dir = fuzz_dir().join("corpus");
    let dir = Path::new(dir);
    if verb == "unpack" {
        let count = corpus::unpack(&corpus_dir, target.name, dir)?;
        println!(
            "{}: {count} inputs written to {}",
            target.name,
            dir.display()
        );
    } else {
        // A folder mistyped or emptied would leave the target without its corpus.
        let inputs = corpus::read_folder(dir)?;
        if inputs.is_empty() {
            return Err(format!(
                "{} has no inputs: the archive is left as it is",
                dir.display()
            ));
        }
        let count = corpus::write_archive(&corpus_dir, target.name, &inputs)?;
        println!(
            "{}: {count} inputs in {}",
            target.name,
            corpus::archive_path(&corpus_dir, target.name).display()
        );
    }
    Ok(true)
}
