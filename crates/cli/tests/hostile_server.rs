//! A server that lies: a socket on 127.0.0.1 speaking the protocol's shapes with seats a
//! game does not have and texts that would drive a terminal. The client refuses what makes
//! no sense, shows the rest escaped, and neither panics nor lets the server write to the
//! terminal.

use std::cell::Cell;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tabula_online::protocol::{
    ClientMsg, Ending, GameState, PROTOCOL_VERSION, Pace, SeatState, ServerMsg, UndoRequest,
};
use tabula_online::{Goal, OnlineClient, Update};
use tungstenite::Message;
use tungstenite::protocol::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;

/// A watched Adomoc game as an honest server would send it.
fn honest_state() -> GameState {
    let seat = |name: &str| SeatState {
        name: name.into(),
        taken: true,
        online: true,
        player: None,
        rating: None,
    };
    GameState {
        code: "ABC234".into(),
        game: "adomoc".into(),
        settings: vec![],
        pace: Pace::Live,
        move_seconds: None,
        rated: false,
        seats: vec![seat("Black"), seat("White")],
        moves: vec![],
        ending: None,
        result: None,
        draw_offers: vec![],
        undo_request: None,
        deadline_ms: None,
        your_seat: None,
    }
}

/// A server on a free port that, once a client asks for something, sends `script` and
/// then closes with `close_reason`; its address and its thread.
fn lying_server(script: Vec<ServerMsg>, close_reason: &'static str) -> (String, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let thread = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut socket = tungstenite::accept(stream).unwrap();
        let asked = socket.read().unwrap();
        let asked = ClientMsg::from_json(asked.to_text().unwrap()).unwrap();
        assert!(matches!(asked, ClientMsg::Watch { .. }), "{asked:?}");
        for msg in script {
            socket.send(Message::text(msg.to_json())).unwrap();
        }
        let _ = socket.close(Some(CloseFrame {
            code: CloseCode::Normal,
            reason: close_reason.into(),
        }));
        // The client's answer to the close, or its going away.
        while socket.read().is_ok() {}
    });
    (address, thread)
}

const ESCAPES: &str = "\u{1b}[2J\u{1b}]0;owned\u{7}";
const FORGED: &str = "\nerror: forged line";

fn lies() -> Vec<ServerMsg> {
    let mut lies = vec![
        ServerMsg::Hello {
            version: PROTOCOL_VERSION,
        },
        ServerMsg::error(format!("{ESCAPES}{FORGED}")),
        ServerMsg::Seated {
            code: "ABC234".into(),
            seat: 0,
            token: format!("t{ESCAPES}"),
        },
    ];
    let seat_8 = [
        GameState {
            draw_offers: vec![7],
            ..honest_state()
        },
        GameState {
            your_seat: Some(7),
            ..honest_state()
        },
        GameState {
            ending: Some(Ending::Resigned { seat: 7 }),
            result: Some("someone resigned".into()),
            ..honest_state()
        },
        GameState {
            undo_request: Some(UndoRequest {
                by: 7,
                to_ply: 0,
                accepted: vec![],
            }),
            ..honest_state()
        },
        GameState {
            seats: vec![],
            ..honest_state()
        },
    ];
    let unprintable = [
        GameState {
            result: Some(format!("White wins{FORGED}")),
            ending: Some(Ending::DrawAgreed),
            ..honest_state()
        },
        GameState {
            code: "ABC 234; rm".into(),
            ..honest_state()
        },
    ];
    lies.extend(
        seat_8
            .into_iter()
            .chain(unprintable)
            .map(|state| ServerMsg::State(Box::new(state))),
    );
    lies
}

#[test]
fn the_terminal_refuses_a_lying_server_and_shows_none_of_its_escapes() {
    // The lies, then an honest end so that the watcher stops.
    let mut script = lies();
    script.push(ServerMsg::State(Box::new(GameState {
        ending: Some(Ending::Resigned { seat: 0 }),
        result: Some("Black resigned: White wins".into()),
        ..honest_state()
    })));
    let (address, server) = lying_server(script, "bye");
    let mut watcher = Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
        .args(["online", "watch", "ABC234", "--server", &address])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while watcher.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            watcher.kill().unwrap();
            panic!("the watcher did not stop at the honest end");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = watcher.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let all = format!("{stdout}{stderr}");
    assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all}");
    assert!(
        !all.lines().any(|line| line.starts_with("error: forged")),
        "{all}"
    );
    for refusal in [
        "server: \\u{1b}[2J",
        "the server gave a seat this client cannot keep",
        "names a drawing seat 8 of a 2-player game",
        "names your seat 8",
        "names the ending's seat 8",
        "names the take-back's seat 8",
        "has 0 seats for a 2-player game",
        "the server's result \"White wins\\nerror: forged line\" does not print",
        "the server's game code \"ABC 234; rm\" is not one",
    ] {
        assert!(all.contains(refusal), "{refusal:?} in:\n{all}");
    }
    assert!(stdout.contains("Black resigned: White wins"), "{stdout}");
    server.join().unwrap();
}

#[test]
fn a_client_keeps_nothing_a_lying_server_sends_and_shows_its_close_escaped() {
    let (address, server) = lying_server(lies(), "going\u{1b}[2J\naway");
    let mut client = OnlineClient::start(
        &address,
        Goal::Watch {
            code: "ABC234".into(),
        },
    )
    .unwrap();
    let mut updates = Vec::new();
    let close_seen = Cell::new(false);
    let closed = client.poll_until(
        Duration::from_secs(30),
        |update| {
            if matches!(update, Update::Disconnected(why) if why.contains("going")) {
                close_seen.set(true);
            }
            updates.push(update.clone());
        },
        |_| close_seen.get(),
    );
    assert!(closed, "{updates:?}");
    assert!(client.game().is_none(), "a lying state was kept");
    assert!(client.key().is_none(), "a lying seat was kept");
    let errors = updates
        .iter()
        .filter(|u| matches!(u, Update::Error(_)))
        .count();
    assert_eq!(errors, lies().len() - 1, "every lie refused: {updates:?}");
    for update in &updates {
        let text = match update {
            Update::Error(text) | Update::Disconnected(text) => text,
            _ => continue,
        };
        assert!(!text.chars().any(char::is_control), "{update:?}");
    }
    server.join().unwrap();
}
