//! Fuzz targets, one per input Tabula reads. Each takes raw bytes, feeds them to the same
//! parser the program uses, and panics when a property fails: what parses formats back to
//! the same value, a parsed position's legal moves agree with `check_move`, invariants hold,
//! and an error quotes the input short, on one line.
//!
//! The targets run under libFuzzer (`fuzz/`, through cargo-fuzz) for long coverage-guided
//! runs, and under this crate's own runner (`tabula-fuzz`), which mutates the corpus kept in
//! `fuzz/corpus/` for a fixed time on stable Rust, as CI does.

pub mod corpus;
// The mutator and the error check, which the app's and the server's tests use too.
pub use tabula_mutate as mutate;
pub use tabula_mutate::{MAX_ERROR_CHARS, check_error};
mod games;
mod online;
pub mod runner;
pub mod seeds;
mod texts;

use tabula_session::rules::absorption::Absorption;
use tabula_session::rules::adamas::Adamas;
use tabula_session::rules::adaptoid::Adaptoid;
use tabula_session::rules::adomoc::Adomoc;

/// One fuzz target: its name (also its corpus folder) and the function libFuzzer calls.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
}

pub const TARGETS: &[Target] = &[
    Target {
        name: "absorption_notation",
        run: games::notation::<Absorption>,
    },
    Target {
        name: "adamas_notation",
        run: games::notation::<Adamas>,
    },
    Target {
        name: "adaptoid_notation",
        run: games::notation::<Adaptoid>,
    },
    Target {
        name: "adomoc_notation",
        run: games::notation::<Adomoc>,
    },
    Target {
        name: "absorption_position",
        run: games::position::<Absorption>,
    },
    Target {
        name: "adamas_position",
        run: games::position::<Adamas>,
    },
    Target {
        name: "adaptoid_position",
        run: games::position::<Adaptoid>,
    },
    Target {
        name: "adomoc_position",
        run: games::position::<Adomoc>,
    },
    Target {
        name: "options",
        run: games::options,
    },
    Target {
        name: "board",
        run: games::board,
    },
    Target {
        name: "record",
        run: texts::record,
    },
    Target {
        name: "pasted",
        run: texts::pasted,
    },
    Target {
        name: "bot_spec",
        run: texts::bot_spec,
    },
    Target {
        name: "cli_args",
        run: texts::cli_args,
    },
    Target {
        name: "client_message",
        run: online::client_message,
    },
    Target {
        name: "server_messages",
        run: online::server_messages,
    },
    Target {
        name: "sessions_file",
        run: online::sessions_file,
    },
];

pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Calls a target by name, for libFuzzer's one-line wrappers.
pub fn run(name: &str, data: &[u8]) {
    (target(name).expect("a target of TARGETS").run)(data)
}

/// The input as text, as a program reading a file or a socket would see it after a lossy
/// decoding; libFuzzer still reaches every byte sequence.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}
