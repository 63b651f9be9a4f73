//! Input meant to break the program (issue 22's reproducers): each must end with status 2
//! and one clear line, never a panic, a hang or a forged line of output.

use std::ffi::OsStr;
use std::process::{Command, Output};

fn cli<I: AsRef<OsStr>>(args: &[I]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
        .args(args)
        .output()
        .expect("tabula-cli runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Refused with status 2 and one `error:` line that contains `expected`.
fn refused<I: AsRef<OsStr>>(args: &[I], expected: &str) -> String {
    let out = cli(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(expected), "{expected:?} not in {err}");
    err
}

#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_refused() {
    use std::os::unix::ffi::OsStrExt;
    let args = [
        OsStr::new("show"),
        OsStr::new("adamas"),
        OsStr::new("--position"),
        OsStr::from_bytes(b"\xff"),
    ];
    refused(&args, "argument 4 is not valid UTF-8");
}

#[test]
fn time_budgets_must_be_finite_and_in_range() {
    for seconds in ["-1", "NaN", "inf", "1e300", "0"] {
        refused(
            &["bench", "adamas", "--seconds", seconds],
            "--seconds must be 0.01 to 86400",
        );
    }
    refused(&["bench", "adamas", "--seconds", "soon"], "needs a number");
}

#[test]
fn numbers_out_of_range_say_the_range() {
    let position = ".../..../o8...x30/..../... x ox 99999999999 0";
    let cases: &[(&[&str], &str)] = &[
        (
            &["show", "adamas", "-o", "size=1000"],
            "size must be 2 to 8",
        ),
        (&["show", "adamas", "-o", "size=-1"], "size must be 2 to 8"),
        (
            &["show", "adamas", "-o", "pieces=100000"],
            "pieces must be 1 to 99",
        ),
        (
            &["show", "adamas", "-o", "players=300"],
            "players must be 2 to 3",
        ),
        (
            &["show", "adamas", "-o", "capture_cap=4294967296"],
            "capture_cap must be 0 to 4294967295",
        ),
        (
            &["show", "adamas", "--position", position],
            "plies must be 0 to 4294967295",
        ),
        (
            &["show", "absorption", "-o", "turn_cap=4294967296"],
            "turn_cap must be 0 to 4294967295",
        ),
        (
            &["show", "adomoc", "-o", "ply_cap=4294967296"],
            "ply_cap must be 0 to 4294967295",
        ),
        (
            &["perft", "adamas", "--depth", "99999999999999999999"],
            "--depth must be 1 to 64",
        ),
        (
            &["random", "adamas", "--seed", "99999999999999999999"],
            "--seed must be 0 to 18446744073709551615",
        ),
        (&["show", "adamas", "-o", "size=x"], "needs a whole number"),
    ];
    for (args, expected) in cases {
        refused(args, expected);
    }
}

#[test]
fn error_positions_count_characters() {
    refused(&["apply", "adamas", "éé-c1-"], "at character 6");
    for game in ["absorption", "adaptoid", "adomoc"] {
        refused(&["apply", game, "c1é"], "at character 3");
    }
}

#[test]
fn echoed_input_cannot_forge_lines_or_flood_the_terminal() {
    let err = refused(
        &["apply", "adamas", "c1-a1", "c5-a3\nerror: forged line"],
        "c5-a3\\nerror",
    );
    assert!(
        !err.lines().any(|line| line.starts_with("error: forged")),
        "{err}"
    );
    refused(&["apply", "adamas", "\u{1b}[31mred"], "\\u{1b}[31mred");
    // A single argument may hold just under 128 KiB on Linux.
    let long = "x".repeat(100 * 1024);
    let err = refused(&["apply", "adamas", &long], "(102400 characters)");
    assert!(err.len() < 400, "{} bytes", err.len());
    refused(&["show", "adamas", "--bogus\nerror: x"], "unknown flag");
    // What the parser skips around a move that reads (a carriage return, a vertical tab, a
    // Unicode line separator) is not echoed: the move is shown as the game writes it.
    for typed in ["c1-a1\r", "\u{b}c1-a1", "c1-a1\u{2028}"] {
        let out = cli(&["apply", "adamas", typed]);
        assert!(out.status.success(), "{typed:?}: {}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.lines().next(), Some("O c1-a1"), "{typed:?}: {text}");
        assert!(
            !text.contains(['\r', '\u{b}', '\u{2028}']),
            "{typed:?}: {text}"
        );
    }
}

#[test]
fn option_files_are_bounded_trimmed_and_quoted_short() {
    let dir = tempfile::tempdir().unwrap();
    let size = dir.path().join("size");
    std::fs::write(&size, "3\n").unwrap();
    let out = cli(&[
        "show",
        "adamas",
        "--option",
        &format!("size=@{}", size.display()),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));

    let big = dir.path().join("big");
    std::fs::write(&big, vec![b'o'; 2 << 20]).unwrap();
    refused(
        &[
            "show",
            "adaptoid",
            "--option",
            &format!("board=@{}", big.display()),
        ],
        "more than the 1048576",
    );
    #[cfg(unix)]
    refused(
        &["show", "adaptoid", "--option", "board=@/dev/zero"],
        "not a regular file",
    );
    // Opening a pipe would wait for a writer that never comes.
    #[cfg(unix)]
    {
        let pipe = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        assert!(made.unwrap().success());
        refused(
            &[
                "show",
                "adaptoid",
                "--option",
                &format!("board=@{}", pipe.display()),
            ],
            "not a regular file",
        );
    }

    let text = dir.path().join("text");
    std::fs::write(&text, "NAME=\"x\"\n".repeat(100)).unwrap();
    let err = refused(
        &[
            "show",
            "adamas",
            "--option",
            &format!("size=@{}", text.display()),
        ],
        // The file's last line break is trimmed as a typed value's would be.
        "(899 characters)",
    );
    assert!(err.len() < 300, "{err}");
}

#[test]
fn perft_stops_when_the_game_is_over() {
    // Two pieces that cannot reach each other: a draw, and perft says 0 once.
    let out = cli(&[
        "perft",
        "adamas",
        "--position",
        "o1../..../....x1/..../... o ox 4 0",
        "--depth",
        "64",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.trim(), "1 0", "{}", stderr(&out));
}

#[test]
fn a_bench_cut_short_by_its_time_reports_honest_figures() {
    // Stacks of 99 on the biggest board: a playout and a position's moves both outlast the
    // time, and the figures must neither count a cut playout's plies in the average length
    // nor say the moves came from no position at all.
    let out = cli(&[
        "bench",
        "adamas",
        "--option",
        "size=8",
        "--option",
        "pieces=99",
        "--max-plies",
        "40",
        "--seconds",
        "0.3",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    let playouts = text
        .lines()
        .find(|line| line.contains("random playouts:"))
        .unwrap_or_else(|| panic!("no playout line in {text}"));
    if let Some(average) = playouts.split("average ").nth(1) {
        let plies: f64 = average
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no average in {playouts}"));
        assert!(plies <= 40.0, "average past the 40-ply cap: {playouts}");
    } else {
        assert!(playouts.contains("no playout finished"), "{playouts}");
    }
    let generated = text
        .lines()
        .find(|line| line.contains("legal moves generated:"))
        .unwrap_or_else(|| panic!("no generation line in {text}"));
    assert!(
        generated.contains(" moves in 0 positions") == generated.contains("(0 moves"),
        "moves from no position: {generated}"
    );
}

#[test]
fn progressive_capture_counts_say_when_they_would_take_too_long() {
    // A 30-stack with one untouchable enemy in sight: tens of millions of splits would each
    // need an order found.
    let position = ".../..../o8...x30/..../... x ox 1 1";
    refused(
        &[
            "moves",
            "adamas",
            "--option",
            "prog_cap=true",
            "--position",
            position,
            "--count",
        ],
        "too many moves to count quickly",
    );
    // perft's last ply is the same count, and says so too.
    refused(
        &[
            "perft",
            "adamas",
            "--option",
            "prog_cap=true",
            "--position",
            position,
            "--depth",
            "1",
        ],
        "too many moves to count quickly",
    );
    // The bots answer there all the same.
    let out = cli(&[
        "hint",
        "adamas",
        "--option",
        "prog_cap=true",
        "--position",
        position,
        "--bot",
        "level:2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn rules_messages_read_right() {
    let out = cli(&["show", "adamas", "--option", "size=4"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(d1 = left corner)"), "{text}");
    let out = cli(&["show", "adamas"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("(c1 = left corner)"));
}
