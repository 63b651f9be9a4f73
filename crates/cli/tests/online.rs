//! `online host` and `online join` between two terminals, through a server on 127.0.0.1:
//! bot seats play to the end, and both print the result and the position as `apply` does.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
}

#[test]
fn a_hosted_game_is_joined_and_played_to_the_end_by_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("cli.sqlite3").display());
    let server = tabula_server::Background::start(&database, "127.0.0.1:0").unwrap();
    let mut host = cli()
        .args(["online", "host", "absorption", "--option", "turn_cap=40"])
        .args([
            "--server",
            &server.address,
            "--seat",
            "random",
            "--seed",
            "3",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut host_out = BufReader::new(host.stdout.take().unwrap());
    let mut first = String::new();
    host_out.read_line(&mut first).unwrap();
    let code = first
        .trim()
        .strip_prefix("code: ")
        .unwrap_or_else(|| panic!("the host's first line: {first:?}"))
        .to_string();
    let join = cli()
        .args([
            "online",
            "join",
            &code.to_lowercase(),
            "--server",
            &server.address,
        ])
        .args(["--seat", "level:1", "--seed", "4"])
        .output()
        .unwrap();
    assert!(
        join.status.success(),
        "{}",
        String::from_utf8_lossy(&join.stderr)
    );
    let mut host_rest = String::new();
    std::io::Read::read_to_string(&mut host_out, &mut host_rest).unwrap();
    assert!(host.wait().unwrap().success());
    let join_out = String::from_utf8(join.stdout).unwrap();
    let last_two = |text: &str| -> Vec<String> {
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len() - 2..]
            .iter()
            .map(|l| l.to_string())
            .collect()
    };
    let end = last_two(&host_rest);
    assert_eq!(end, last_two(&join_out), "both terminals end alike");
    assert!(
        join_out.starts_with(&format!("code: {code}\n")),
        "{join_out}"
    );

    // The same moves through `apply` print the same last line, and the result line is the
    // rules' own.
    let moves: Vec<&str> = host_rest
        .lines()
        .filter_map(|l| l.split_once(" plays ").map(|(_, mv)| mv))
        .collect();
    assert!(!moves.is_empty());
    let applied = cli()
        .args(["apply", "absorption", "--option", "turn_cap=40"])
        .args(&moves)
        .output()
        .unwrap();
    let applied = String::from_utf8(applied.stdout).unwrap();
    assert_eq!(applied.lines().last(), Some(end[1].as_str()));
    assert!(
        end[0].contains("wins") || end[0].contains("draw"),
        "{}",
        end[0]
    );
}

#[test]
fn online_mistakes_are_named() {
    let out = cli().args(["online", "host", "chess"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("chess"));
    let out = cli()
        .args(["online", "join", "ABC234", "--server", "ftp://example.org"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a server address"));
    let out = cli().args(["online", "wander", "x"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("host, join, resume or watch"));
}

#[test]
fn a_server_that_cannot_be_reached_is_said_once() {
    // A port nothing listens on: the client tries again and again, and says why at once
    // instead of waiting in silence.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut join = cli()
        .args(["online", "join", "ABC234", "--server"])
        .arg(format!("ws://127.0.0.1:{port}"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(join.stdout.take().unwrap());
    let (lines, said) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        while out.read_line(&mut line).is_ok_and(|n| n > 0) {
            let _ = lines.send(std::mem::take(&mut line));
        }
    });
    // Generous, only so that a client saying nothing fails the test rather than hang it.
    let first = said.recv_timeout(std::time::Duration::from_secs(120));
    // The client tries again every fraction of a second: what it says in the next two
    // seconds would repeat the line if it were said at every try.
    std::thread::sleep(std::time::Duration::from_secs(2));
    join.kill().unwrap();
    join.wait().unwrap();
    let line = first.expect("the client said nothing");
    assert!(line.starts_with("No connection ("), "{line:?}");
    let more: Vec<String> = said.try_iter().collect();
    assert!(more.is_empty(), "said again: {more:?}");
}
