//! Running tabula-cli with lines typed at it, for the tests of its interactive verbs.

// Each test program uses its own part of this.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `tabula-cli ARGS...` with `input` on its standard input.
pub fn cli_with_input(args: &[&str], input: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula-cli"));
    command.args(args);
    run_with_input(command, input)
}

/// Runs `command` (tabula-cli with its arguments and environment) with `input` on its
/// standard input, and takes all it printed.
pub fn run_with_input(mut command: Command, input: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
