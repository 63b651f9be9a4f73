//! A server on 127.0.0.1 for the tests, in this process or as its own, and clients to
//! talk to it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tabula_online::protocol::{ClientMsg, GameState, Pace, ServerMsg};
use tabula_online::unattended::play_to_end;
use tabula_online::{Connection, Event, Goal, OnlineClient, Update};
use tabula_server::Background;

/// How long a test waits for anything before it fails.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A server in this process on a free port, with its games in `database`; it stops
/// when dropped.
pub fn in_process(database: &Path) -> Background {
    in_process_at(&sqlite_url(database))
}

/// A server in this process on a free port, with its games in the database at `url`.
pub fn in_process_at(url: &str) -> Background {
    Background::start(url, "127.0.0.1:0").unwrap()
}

pub fn sqlite_url(database: &Path) -> String {
    format!("sqlite://{}", database.display())
}

/// `tabula-server` as a process of its own (to be killed), killed when dropped.
pub struct ServerProcess {
    pub address: String,
    child: Child,
}

impl ServerProcess {
    /// Starts the server on `listen` (`127.0.0.1:0` for any free port).
    pub fn start(database: &Path, listen: &str) -> ServerProcess {
        ServerProcess::start_at(&sqlite_url(database), listen)
    }

    /// Starts the server on `listen` with its games in the database at `url`.
    pub fn start_at(url: &str, listen: &str) -> ServerProcess {
        ServerProcess::start_with_args(url, listen, &[])
    }

    /// [`ServerProcess::start`] with more of the server's arguments.
    pub fn start_with(database: &Path, listen: &str, more: &[&str]) -> ServerProcess {
        ServerProcess::start_with_args(&sqlite_url(database), listen, more)
    }

    /// The server on a free port, with what it prints after its first line kept in `log`
    /// (standard error) and `log` with the extension `stdout` (standard output).
    pub fn start_logging(database: &Path, log: &Path) -> ServerProcess {
        ServerProcess::spawn(&sqlite_url(database), "127.0.0.1:0", &[], Some(log))
    }

    fn start_with_args(url: &str, listen: &str, more: &[&str]) -> ServerProcess {
        ServerProcess::spawn(url, listen, more, None)
    }

    fn spawn(url: &str, listen: &str, more: &[&str], log: Option<&Path>) -> ServerProcess {
        let (errors, mut rest): (Stdio, Box<dyn Write + Send>) = match log {
            Some(log) => (
                std::fs::File::create(log).unwrap().into(),
                Box::new(std::fs::File::create(log.with_extension("stdout")).unwrap()),
            ),
            None => (Stdio::null(), Box::new(std::io::sink())),
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula-server-e2e"))
            .args(["--listen", listen, "--database", url])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(errors)
            .spawn()
            .expect("tabula-server starts");
        let mut first = String::new();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
        // Whatever else it prints is read, so its pipe never fills or closes under it.
        std::thread::spawn(move || std::io::copy(&mut out, &mut rest));
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

/// A WebSocket spoken by hand over TCP, for what no WebSocket library or paced client sends:
/// frames unmasked, with reserved bits or unknown opcodes, text that is not UTF-8, floods.
pub struct RawSocket {
    stream: TcpStream,
}

/// A frame as it came: its first byte (FIN, reserved bits, opcode) and its payload.
pub type Frame = (u8, Vec<u8>);

impl RawSocket {
    /// The socket's handshake with the server at `address` (`http://HOST:PORT`), and its
    /// hello read.
    pub fn open(address: &str) -> RawSocket {
        let host = address.trim_start_matches("http://");
        let mut stream = TcpStream::connect(host).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            stream,
            "GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8];
        while !head.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&head);
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        let mut socket = RawSocket { stream };
        let (first, hello) = socket.next_frame().expect("a hello");
        assert_eq!(first, 0x81, "{}", String::from_utf8_lossy(&hello));
        socket
    }

    /// Sends a frame whose first byte is `first` (0x81: a whole text frame), masked as a
    /// client's must be unless `masked` is false.
    pub fn send_frame(&mut self, first: u8, payload: &[u8], masked: bool) {
        let mask = [0x37u8, 0xfa, 0x21, 0x3d];
        let mut frame = vec![first];
        let mask_bit = if masked { 0x80 } else { 0 };
        match payload.len() {
            n @ 0..=125 => frame.push(mask_bit | n as u8),
            n @ 126..=0xffff => {
                frame.push(mask_bit | 126);
                frame.extend((n as u16).to_be_bytes());
            }
            n => {
                frame.push(mask_bit | 127);
                frame.extend((n as u64).to_be_bytes());
            }
        }
        if masked {
            frame.extend(mask);
            frame.extend(payload.iter().zip(mask.iter().cycle()).map(|(b, m)| b ^ m));
        } else {
            frame.extend(payload);
        }
        // The server may have closed already: what it said is read next.
        let _ = self.stream.write_all(&frame);
    }

    /// Sends bytes as they are: a frame's head alone, say.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes);
    }

    pub fn send_text(&mut self, text: &str) {
        self.send_frame(0x81, text.as_bytes(), true);
    }

    /// The next frame from the server, or None once the connection is closed.
    pub fn next_frame(&mut self) -> Option<Frame> {
        let mut head = [0u8; 2];
        self.stream.read_exact(&mut head).ok()?;
        let len = match head[1] & 0x7f {
            126 => {
                let mut n = [0u8; 2];
                self.stream.read_exact(&mut n).ok()?;
                u16::from_be_bytes(n) as usize
            }
            127 => {
                let mut n = [0u8; 8];
                self.stream.read_exact(&mut n).ok()?;
                u64::from_be_bytes(n) as usize
            }
            n => n as usize,
        };
        let mut payload = vec![0u8; len];
        self.stream.read_exact(&mut payload).ok()?;
        Some((head[0], payload))
    }

    /// Reads frames until the server's close frame: its code and the text frames before
    /// it. None for the code if the connection ended without one.
    pub fn until_closed(&mut self) -> (Option<u16>, Vec<String>) {
        let mut texts = Vec::new();
        while let Some((first, payload)) = self.next_frame() {
            match first & 0x0f {
                0x8 => {
                    let code =
                        (payload.len() >= 2).then(|| u16::from_be_bytes([payload[0], payload[1]]));
                    return (code, texts);
                }
                0x1 => texts.push(String::from_utf8_lossy(&payload).into_owned()),
                _ => {}
            }
        }
        (None, texts)
    }
}

/// A raw connection, for messages no well-behaved client sends.
pub fn raw(address: &str) -> Connection {
    let connection = Connection::open(address, None).unwrap();
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

/// Creates a live game of `game` and takes its first seat: its code and the seat's token.
pub fn create(connection: &Connection, game: &str) -> (String, String) {
    create_timed(connection, game, None)
}

/// As [`create`], with a time limit for every move.
pub fn create_timed(
    connection: &Connection,
    game: &str,
    move_seconds: Option<u32>,
) -> (String, String) {
    connection.send(&ClientMsg::Create {
        game: game.into(),
        settings: vec![],
        seat: 0,
        pace: Pace::Live,
        move_seconds,
        rated: false,
    });
    match next_message(connection, |m| matches!(m, ServerMsg::Seated { .. })) {
        ServerMsg::Seated { code, token, seat } => {
            assert_eq!(seat, 0);
            (code, token)
        }
        _ => unreachable!(),
    }
}

/// Takes the next free seat of game `code`: its token.
pub fn join(connection: &Connection, code: &str) -> String {
    connection.send(&ClientMsg::Join { code: code.into() });
    match next_message(connection, |m| matches!(m, ServerMsg::Seated { .. })) {
        ServerMsg::Seated { token, .. } => token,
        _ => unreachable!(),
    }
}

/// The next state for which `wanted` holds, passing over others.
pub fn state_where(connection: &Connection, wanted: impl Fn(&GameState) -> bool) -> GameState {
    match next_message(
        connection,
        |m| matches!(m, ServerMsg::State(s) if wanted(s)),
    ) {
        ServerMsg::State(state) => *state,
        _ => unreachable!(),
    }
}

/// The next error message's text.
pub fn next_error(connection: &Connection) -> String {
    match next_message(connection, |m| matches!(m, ServerMsg::Error { .. })) {
        ServerMsg::Error { message, .. } => message,
        _ => unreachable!(),
    }
}

/// What one seat saw at the end: the result and the final position.
#[derive(Debug, PartialEq)]
pub struct End {
    pub result: String,
    pub position: String,
    pub moves: Vec<String>,
}

/// Seat `i` plays through `servers[i % servers.len()]`, and a watcher afterwards through
/// the last of them.
pub fn play_game(servers: &[&str], game: &str, settings: &[(&str, &str)], bots: &[&str]) -> End {
    let server = servers[0];
    let settings: Vec<(String, String)> = settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut host = OnlineClient::start(
        server,
        Goal::Create {
            game: game.into(),
            settings,
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
        },
    )
    .unwrap();
    assert!(host.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    let code = host.key().expect("the host holds a seat").code.clone();
    let mut seats = vec![host];
    // One after another, so seats are taken in order.
    for seat in 1..bots.len() {
        let server = servers[seat % servers.len()];
        let mut guest = OnlineClient::start(server, Goal::Join { code: code.clone() }).unwrap();
        assert!(guest.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
        seats.push(guest);
    }
    let players: Vec<_> = seats
        .into_iter()
        .zip(bots)
        .enumerate()
        .map(|(i, (mut client, bot))| {
            let spec = bot.parse().unwrap();
            std::thread::spawn(move || {
                let mut errors = Vec::new();
                let result = play_to_end(&mut client, &spec, 7 + i as u64, |_, update| {
                    if let Update::Error(e) = update {
                        errors.push(e.clone());
                    }
                })
                .unwrap();
                assert!(errors.is_empty(), "seat {i} was told: {errors:?}");
                let game = client.game().unwrap();
                assert_eq!(game.state.your_seat, Some(i));
                End {
                    result,
                    position: game.game.position_string(),
                    moves: game.state.moves.clone(),
                }
            })
        })
        .collect();
    let ends: Vec<End> = players.into_iter().map(|p| p.join().unwrap()).collect();
    for end in &ends[1..] {
        assert_eq!(end, &ends[0], "every seat saw the same game");
    }
    // Someone who comes to watch afterwards gets the same game from the store.
    let server = servers[servers.len() - 1];
    let mut watcher = OnlineClient::start(server, Goal::Watch { code }).unwrap();
    assert!(watcher.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    let watched = watcher.game().unwrap();
    assert_eq!(watched.state.your_seat, None);
    assert_eq!(watched.state.moves, ends[0].moves);
    assert_eq!(watched.result().as_deref(), Some(ends[0].result.as_str()));
    assert!(watched.is_over());
    ends.into_iter().next().unwrap()
}

/// One game of each of the four, random against random, through the server at
/// `server`; each ends as the rules end it when its moves are replayed here.
pub fn play_every_game(server: &str) {
    let cases: [(&str, &[(&str, &str)]); 4] = [
        ("adamas", &[]),
        ("absorption", &[("turn_cap", "60")]),
        ("adaptoid", &[]),
        ("adomoc", &[("ply_cap", "150")]),
    ];
    for (game, settings) in cases {
        let end = play_game(&[server], game, settings, &["random", "random"]);
        assert!(!end.moves.is_empty(), "{game}: {end:?}");
        // The result line is the rules' own, as `apply` and `play` print it.
        let local = {
            let kind = tabula_session::GameKind::parse(game).unwrap();
            let settings: Vec<(String, String)> = settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let mut replay = tabula_session::new_match(kind, &settings).unwrap();
            for mv in &end.moves {
                replay.play_notation(mv).unwrap();
            }
            replay
        };
        assert_eq!(end.result, local.status_text(), "{game}");
        assert_eq!(end.position, local.position_string(), "{game}");
    }
}

/// A live game of `game` hosted at seat 0 on the server at `address` and joined: the host's
/// client and the guest's, each holding the game.
pub fn host_and_guest(
    address: &str,
    game: &str,
    settings: &[(&str, &str)],
) -> (OnlineClient, OnlineClient) {
    let mut host = OnlineClient::start(
        address,
        Goal::Create {
            game: game.into(),
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
        },
    )
    .unwrap();
    assert!(host.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    let code = host.key().unwrap().code.clone();
    let mut guest = OnlineClient::start(address, Goal::Join { code }).unwrap();
    assert!(guest.poll_until(PATIENCE, |_| {}, |c| c.game().is_some()));
    (host, guest)
}

/// A game between two random bots on a server of its own with its games at `database`,
/// killed with SIGKILL after 40 moves and started again on the same port: every move a
/// watcher was told of is still there, and the game goes on to its end.
pub fn kill_mid_game_and_restart(database: &str) {
    let server = ServerProcess::start_at(database, "127.0.0.1:0");
    let address = server.address.clone();
    let (host, guest) = host_and_guest(&address, "adomoc", &[("ply_cap", "600")]);
    let code = host.key().unwrap().code.clone();
    let watcher = raw(&address);
    watcher.send(&ClientMsg::Watch { code: code.clone() });
    let ServerMsg::State(watched) = next_message(&watcher, |m| matches!(m, ServerMsg::State(_)))
    else {
        unreachable!()
    };
    // Every move the watcher is told of was stored before it was told.
    let mut acknowledged = watched.moves;

    let players: Vec<_> = [host, guest]
        .into_iter()
        .enumerate()
        .map(|(seat, mut client)| {
            std::thread::spawn(move || {
                let mut reconnected = false;
                let result = play_to_end(
                    &mut client,
                    &"random".parse().unwrap(),
                    seat as u64,
                    |_, u| {
                        reconnected |= matches!(u, Update::Connected);
                    },
                )
                .unwrap();
                assert!(reconnected, "seat {seat} came back after the restart");
                (result, client.game().unwrap().state.moves.clone())
            })
        })
        .collect();

    let end = Instant::now() + PATIENCE;
    while acknowledged.len() < 40 && Instant::now() < end {
        if let Some(Event::Message(ServerMsg::Moved { ply, text, .. })) =
            watcher.next_timeout(Duration::from_millis(50))
        {
            assert_eq!(ply, acknowledged.len());
            acknowledged.push(text);
        }
    }
    server.kill();
    while let Some(event) = watcher.next_timeout(Duration::from_millis(200)) {
        if let Event::Message(ServerMsg::Moved { ply, text, .. }) = event {
            assert_eq!(ply, acknowledged.len());
            acknowledged.push(text);
        }
    }
    assert!(
        acknowledged.len() >= 40,
        "the game was under way when killed"
    );

    let listen = address.strip_prefix("http://").unwrap();
    let _again = ServerProcess::start_at(database, listen);
    let ends: Vec<(String, Vec<String>)> = players.into_iter().map(|p| p.join().unwrap()).collect();
    assert_eq!(ends[0], ends[1], "both seats saw the same game");
    let moves = &ends[0].1;
    assert!(
        moves.starts_with(&acknowledged),
        "{} acknowledged moves, {} at the end",
        acknowledged.len(),
        moves.len()
    );
    assert!(
        moves.len() > acknowledged.len(),
        "the game went on after the restart"
    );
    assert!(
        ends[0].0.contains("cap") || ends[0].0.contains("wins"),
        "{}",
        ends[0].0
    );
}

/// A PostgreSQL database of one test's own, dropped afterwards, on the server that
/// `TABULA_TEST_POSTGRES` names (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`, a user
/// who may create databases). PostgreSQL tests run where PostgreSQL is: `.ci/run` starts
/// one and sets the variable.
pub struct TestDatabase {
    pub url: String,
    admin: String,
    name: String,
}

impl TestDatabase {
    /// A fresh database named after `label`, or `None` where no PostgreSQL is given.
    pub fn new(label: &str) -> Option<TestDatabase> {
        let Ok(admin) = std::env::var("TABULA_TEST_POSTGRES") else {
            eprintln!("not run on PostgreSQL: TABULA_TEST_POSTGRES is not set (.ci/run sets it)");
            return None;
        };
        let name = format!("tabula_test_{label}_{}", std::process::id());
        admin_sql(
            &admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
        admin_sql(&admin, &format!("CREATE DATABASE {name}"));
        let base = admin.split('?').next().unwrap_or(&admin);
        let slash = base.rfind('/').expect("a database URL ends in /DATABASE");
        Some(TestDatabase {
            url: format!("{}/{name}", &base[..slash]),
            admin,
            name,
        })
    }

    /// Runs `sql` on this database.
    pub fn sql(&self, sql: &str) {
        admin_sql(&self.url, sql);
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        // FORCE ends the connections of servers that are still going.
        admin_sql(
            &self.admin,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

fn admin_sql(url: &str, sql: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|e| panic!("PostgreSQL at {url}: {e}"));
        tokio::spawn(connection);
        client
            .batch_execute(sql)
            .await
            // The server's own words: the error's display alone says only "db error".
            .unwrap_or_else(|e| panic!("{sql}: {e:?}"));
    });
}

/// The password the tests' accounts have.
pub const PASSWORD: &str = "correct horse";

/// The answer to `msg`: the first message that is not news of a game or of the lobby.
pub fn ask(connection: &Connection, msg: ClientMsg) -> ServerMsg {
    connection.send(&msg);
    next_message(connection, |m| {
        !matches!(
            m,
            ServerMsg::State(_)
                | ServerMsg::Hello { .. }
                | ServerMsg::Moved { .. }
                | ServerMsg::ChallengeAdded(_)
                | ServerMsg::ChallengeGone { .. }
                | ServerMsg::ChallengeAccepted { .. }
        )
    })
}

/// The text of `reply`, which is an error.
pub fn error_of(reply: ServerMsg) -> String {
    match reply {
        ServerMsg::Error { message, .. } => message,
        other => panic!("an error, not {other:?}"),
    }
}

/// Logs `connection` in as `name` (or registers it, if `register`): the session and when
/// it expires.
pub fn logged_in(
    connection: &Connection,
    name: &str,
    password: &str,
    register: bool,
) -> (String, u64) {
    let (name, password) = (name.to_string(), password.to_string());
    let msg = if register {
        ClientMsg::Register { name, password }
    } else {
        ClientMsg::LogIn { name, password }
    };
    match ask(connection, msg) {
        ServerMsg::LoggedIn {
            session,
            expires_ms,
            ..
        } => (session, expires_ms),
        other => panic!("logged in, not {other:?}"),
    }
}

/// A new connection to `address` logged in as `name` with [`PASSWORD`] (registered first,
/// if `register`), and its session.
pub fn connect_as(address: &str, name: &str, register: bool) -> (Connection, String) {
    let connection = raw(address);
    let (session, _) = logged_in(&connection, name, PASSWORD, register);
    (connection, session)
}
