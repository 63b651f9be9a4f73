//! The fuzz runner's mutator: stacked byte edits, splices between corpus inputs, and the
//! tokens these inputs are made of. It has no coverage feedback (libFuzzer has); it finds
//! what lies a few edits from a real input, which is where most malformed input is. And the
//! check every error shown to a person passes. A crate of its own, so the app's and the
//! server's tests mutate their inputs without building the fuzz targets (and the terminal
//! and the client those bring).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The longest input the mutator makes; long enough for a record of a long game.
pub const MAX_INPUT: usize = 16 * 1024;

/// Pieces of the inputs' languages, and numbers at the edges of the types that read them.
pub const TOKENS: &[&str] = &[
    "-",
    "x",
    ",",
    "/",
    ".",
    ":",
    "=",
    "*",
    "@",
    "#",
    " ",
    "\n",
    "\r\n",
    "\t",
    "\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "0",
    "1",
    "2",
    "3",
    "9",
    "10",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "1e300",
    "NaN",
    "inf",
    "-0",
    "0.0",
    "true",
    "false",
    "None",
    "Some(",
    "link ",
    "unlink ",
    "level:",
    "mcts:",
    "uct:",
    "random",
    "human",
    "remote",
    "iters=",
    "ms=",
    "playout=",
    "--option",
    "--position",
    "--record",
    "--seats",
    "--depth",
    "\0",
    "size=",
    "players=3",
    "pieces=",
    "prog_cap=true",
    "board=",
    "é",
    "\u{202e}",
    "\u{1b}[31m",
    "\u{feff}",
    "\"type\":",
    "\"state\"",
    "\"moved\"",
    "\"create\"",
    "null",
];

pub struct Mutator {
    rng: SmallRng,
}

impl Mutator {
    pub fn new(seed: u64) -> Mutator {
        Mutator {
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// A random input of the corpus, edited one to four times.
    pub fn next(&mut self, corpus: &[Vec<u8>]) -> Vec<u8> {
        let mut input = match corpus.len() {
            0 => Vec::new(),
            n => corpus[self.rng.random_range(0..n)].clone(),
        };
        for _ in 0..self.rng.random_range(1..=4) {
            self.edit(&mut input, corpus);
        }
        input.truncate(MAX_INPUT);
        input
    }

    fn edit(&mut self, input: &mut Vec<u8>, corpus: &[Vec<u8>]) {
        let rng = &mut self.rng;
        let len = input.len();
        let at = if len == 0 {
            0
        } else {
            rng.random_range(0..=len)
        };
        match rng.random_range(0..9) {
            0 if len > 0 => {
                let i = at.min(len - 1);
                input[i] ^= 1 << rng.random_range(0..8);
            }
            1 if len > 0 => {
                let i = at.min(len - 1);
                input[i] = rng.random();
            }
            2 => input.insert(at, rng.random()),
            3 if len > 0 => {
                let end = (at + rng.random_range(1..=8)).min(len);
                input.drain(at.min(len - 1)..end);
            }
            4 if len > 0 => {
                // A piece of the input again, elsewhere: longer moves, more lines.
                let start = rng.random_range(0..len);
                let end = (start + rng.random_range(1..=32)).min(len);
                let piece = input[start..end].to_vec();
                input.splice(at..at, piece);
            }
            5 if !corpus.is_empty() => {
                // This input's start with another's end.
                let other = &corpus[rng.random_range(0..corpus.len())];
                let from = if other.is_empty() {
                    0
                } else {
                    rng.random_range(0..other.len())
                };
                input.truncate(at);
                input.extend_from_slice(&other[from..]);
            }
            6 if len > 0 => {
                // One piece many times over, for the length limits.
                let start = rng.random_range(0..len);
                let end = (start + rng.random_range(1..=4)).min(len);
                let piece = input[start..end].repeat(rng.random_range(2..=2_000));
                input.splice(at..at, piece);
            }
            7 => {
                // A token where the next number was (numbers from the edges of the integer
                // types among them).
                let token = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                let start = input[at..]
                    .iter()
                    .position(u8::is_ascii_digit)
                    .map_or(at, |n| at + n);
                let end = input[start..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(input.len(), |n| start + n);
                input.splice(start..end, token.iter().copied());
            }
            _ => {
                let token = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                input.splice(at..at, token.iter().copied());
            }
        }
    }
}

/// The tokens as a libFuzzer dictionary (`-dict=`), one quoted entry a line, so that its
/// runs try the same edge numbers and pieces of the languages as the stable runner.
pub fn libfuzzer_dictionary() -> String {
    TOKENS
        .iter()
        .map(|token| {
            let quoted: String = token
                .bytes()
                .map(|b| match b {
                    b'"' | b'\\' => format!("\\{}", b as char),
                    0x20..=0x7e => (b as char).to_string(),
                    _ => format!("\\x{b:02X}"),
                })
                .collect();
            format!("\"{quoted}\"\n")
        })
        .collect()
}

/// The longest error message any input may give: every echo of input is cut short.
pub const MAX_ERROR_CHARS: usize = 1_000;

/// An error shown to a person: short, whatever the input's length, and with no character
/// that could drive a terminal or hide text (a line break only where the message lays out
/// a picture or a list).
pub fn check_error(context: &str, error: &str) {
    let chars = error.chars().count();
    assert!(
        chars <= MAX_ERROR_CHARS,
        "{context}: an error of {chars} characters echoes too much: {:?}",
        error.chars().take(200).collect::<String>()
    );
    // Anything escape_debug would escape does not print (controls, bidirectional
    // overrides, separators), but for quotes and backslashes, and line breaks.
    let unprintable =
        |c: char| !matches!(c, '\n' | '"' | '\'' | '\\') && c.escape_debug().nth(1).is_some();
    assert!(
        !error.chars().any(unprintable),
        "{context}: an error holds a character that does not print: {error:?}"
    );
}
