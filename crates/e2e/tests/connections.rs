//! What a black-box probe of the server's connections on 127.0.0.1 found, each kept as a
//! test: requests that never finish, WebSocket protocol errors and their close codes, and
//! a setting given twice.

mod common;

use common::{PATIENCE, RawSocket, in_process, next_error, raw};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;
use tabula_online::protocol::{ClientMsg, Pace, ServerMsg};

/// Whether the server closed `stream` (after whatever it answered), rather than keep it
/// open for as long as the test waits.
fn closed_by_server(mut stream: TcpStream) -> Result<(), String> {
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut answered = Vec::new();
    match stream.read_to_end(&mut answered) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => Ok(()),
        Err(e) => Err(format!(
            "still open after {PATIENCE:?} ({e}), having answered {:?}",
            String::from_utf8_lossy(&answered)
        )),
    }
}

/// The probe's sockets were all still open after 300 s: half a request's head, nothing at
/// all, a head sent a byte at a time (slowloris), and a socket left idle after a request
/// that never upgraded. Each holds a file descriptor; each is now closed.
#[test]
fn a_request_that_never_finishes_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("slow.sqlite3"));
    let host = server.address.trim_start_matches("http://").to_string();
    let connect = || TcpStream::connect(&host).unwrap();
    let mut probes: Vec<(&str, std::thread::JoinHandle<Result<(), String>>)> = Vec::new();
    let mut half = connect();
    half.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    probes.push((
        "half a head",
        std::thread::spawn(move || closed_by_server(half)),
    ));
    let silent = connect();
    probes.push((
        "nothing sent",
        std::thread::spawn(move || closed_by_server(silent)),
    ));
    let mut idle = connect();
    idle.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    probes.push((
        "idle after a request",
        std::thread::spawn(move || closed_by_server(idle)),
    ));
    let slow = connect();
    let reader = slow.try_clone().unwrap();
    let slowloris = std::thread::spawn(move || {
        let mut slow = slow;
        let head = format!(
            "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n\r\n",
            "a".repeat(200)
        );
        // A byte every quarter second: the head would take a minute to come whole.
        for byte in head.bytes() {
            if slow.write_all(&[byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    });
    probes.push((
        "a byte at a time",
        std::thread::spawn(move || closed_by_server(reader)),
    ));
    for (probe, outcome) in probes {
        assert_eq!(outcome.join().unwrap(), Ok(()), "{probe}");
    }
    slowloris.join().unwrap();
    // The server goes on for everyone else.
    let mut socket = RawSocket::open(&server.address);
    socket.send_text(
        &ClientMsg::Watch {
            code: "ZZZZZZ".into(),
        }
        .to_json(),
    );
    let (first, reply) = socket.next_frame().unwrap();
    assert_eq!(first, 0x81);
    assert!(
        String::from_utf8_lossy(&reply).contains("no game"),
        "{reply:?}"
    );
}

/// Every protocol error closed with 1009 "message too big"; each now closes with the code
/// that names it (RFC 6455, 7.4.1).
#[test]
fn a_protocol_error_closes_with_the_code_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("codes.sqlite3"));
    let cases: [(&str, u8, &[u8], bool, u16); 4] = [
        (
            "text that is not UTF-8",
            0x81,
            &[0xff, 0xfe, 0x41],
            true,
            1007,
        ),
        ("an unmasked frame", 0x81, b"{}", false, 1002),
        ("a reserved bit set", 0xc1, b"{}", true, 1002),
        ("an unknown opcode", 0x83, b"{}", true, 1002),
    ];
    for (case, first, payload, masked, expected) in cases {
        let mut socket = RawSocket::open(&server.address);
        socket.send_frame(first, payload, masked);
        let (code, _) = socket.until_closed();
        assert_eq!(code, Some(expected), "{case}");
    }
    // A frame that says it is a gigabyte long is too big, and says so, unread.
    let mut socket = RawSocket::open(&server.address);
    let mut head = vec![0x82, 0x80 | 127];
    head.extend((1u64 << 30).to_be_bytes());
    head.extend([1, 2, 3, 4]);
    socket.send_bytes(&head);
    assert_eq!(
        socket.until_closed().0,
        Some(1009),
        "a frame far over the limit"
    );
}

/// `create` with `players=3` and then `players=2` was taken, the last one winning.
#[test]
fn a_setting_given_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("twice.sqlite3"));
    let client = raw(&server.address);
    let setting = |value: &str| ("players".to_string(), value.to_string());
    client.send(&ClientMsg::Create {
        game: "adamas".into(),
        settings: vec![setting("3"), setting("2")],
        seat: 0,
        pace: Pace::Live,
        move_seconds: None,
        rated: false,
    });
    let error = next_error(&client);
    assert!(
        error.contains(r#"option "players" is set twice"#),
        "{error}"
    );
}

/// A move refused for the rate says which move it was, so its client stops waiting for it:
/// the stall of issue 37 was a seat waiting for ever for a move the server had dropped.
#[test]
fn a_move_refused_for_the_rate_names_its_ply() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("ply.sqlite3"));
    let mut socket = RawSocket::open(&server.address);
    let create = ClientMsg::Create {
        game: "adamas".into(),
        settings: vec![],
        seat: 0,
        pace: Pace::Live,
        move_seconds: None,
        rated: false,
    };
    socket.send_text(&create.to_json());
    // Faster than any client paces itself: the burst passes (each move refused as
    // unreadable), then the rate refuses the rest.
    let move_text = ClientMsg::Move {
        ply: 0,
        text: "not a move".into(),
    }
    .to_json();
    for _ in 0..60 {
        socket.send_text(&move_text);
    }
    let mut over_rate = Vec::new();
    while over_rate.len() < 5 {
        let (_, payload) = socket.next_frame().expect("the connection stays open");
        let Ok(ServerMsg::Error {
            message,
            refused_move,
            ..
        }) = ServerMsg::from_json(&String::from_utf8_lossy(&payload))
        else {
            continue;
        };
        if message.contains("too many messages") {
            over_rate.push(refused_move);
        }
    }
    assert!(over_rate.iter().all(|ply| *ply == Some(0)), "{over_rate:?}");
}
