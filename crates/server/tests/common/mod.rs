//! A server on 127.0.0.1 for the tests, in this process or as its own, and clients to
//! talk to it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tabula_online::protocol::ServerMsg;
use tabula_online::{Connection, Event};
use tabula_server::Background;

/// How long a test waits for anything before it fails.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A server in this process on a free port, with its games in `database`; it stops
/// when dropped.
pub fn in_process(database: &Path) -> Background {
    Background::start(&format!("sqlite://{}", database.display()), "127.0.0.1:0").unwrap()
}

/// `tabula-server` as a process of its own (to be killed), killed when dropped.
pub struct ServerProcess {
    pub address: String,
    child: Child,
}

impl ServerProcess {
    /// Starts the server on `listen` (`127.0.0.1:0` for any free port).
    pub fn start(database: &Path, listen: &str) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula-server"))
            .args([
                "--listen",
                listen,
                "--database",
                &format!("sqlite://{}", database.display()),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tabula-server starts");
        let mut first = String::new();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
        // Whatever else it prints is read, so its pipe never fills or closes under it.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let address = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the server's first line: {first:?}"))
            .to_string();
        ServerProcess { address, child }
    }

    /// SIGKILL: no shutdown, no flush, nothing.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw connection, for messages no well-behaved client sends.
pub fn raw(address: &str) -> Connection {
    let connection = Connection::open(address).unwrap();
    next_message(&connection, |m| matches!(m, ServerMsg::Hello { .. }));
    connection
}

/// Waits for the first message for which `wanted` holds, passing over others.
pub fn next_message(connection: &Connection, wanted: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
    let end = Instant::now() + PATIENCE;
    while Instant::now() < end {
        match connection.next_timeout(Duration::from_millis(100)) {
            Some(Event::Message(msg)) if wanted(&msg) => return msg,
            Some(other) if std::env::var_os("TABULA_TEST_TRACE").is_some() => {
                eprintln!("passed over: {other:?}")
            }
            _ => {}
        }
    }
    panic!("no such message came");
}

/// The next error message's text.
pub fn next_error(connection: &Connection) -> String {
    match next_message(connection, |m| matches!(m, ServerMsg::Error { .. })) {
        ServerMsg::Error { message, .. } => message,
        _ => unreachable!(),
    }
}
