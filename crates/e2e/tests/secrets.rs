//! What must stay secret through the real server and client: a password is never sent
//! back, printed or kept as it is; a session or seat token reaches no other client; an
//! expired session is refused with a message that says so.

mod common;

use common::{PATIENCE, ServerProcess, create, in_process, raw};
use std::time::{Duration, Instant};
use tabula_online::protocol::{ChallengeTerms, ClientMsg, Pace, ServerMsg};
use tabula_online::{Connection, Event};

/// One client and everything the server has sent it, as text.
struct Client {
    connection: Connection,
    heard: Vec<String>,
}

impl Client {
    fn open(address: &str) -> Client {
        Client {
            connection: raw(address),
            heard: Vec::new(),
        }
    }

    /// Sends `msg` and waits for the first message for which `wanted` holds, keeping
    /// every message that came (that one too).
    fn ask(&mut self, msg: ClientMsg, wanted: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        self.connection.send(&msg);
        let end = Instant::now() + PATIENCE;
        while Instant::now() < end {
            if let Some(event) = self.connection.next_timeout(Duration::from_millis(100)) {
                self.heard.push(format!("{event:?}"));
                if let Event::Message(msg) = event
                    && wanted(&msg)
                {
                    return msg;
                }
            }
        }
        panic!("no such message came after {msg:?}: {:?}", self.heard);
    }

    /// Logs in (or registers): the session.
    fn log_in(&mut self, name: &str, password: &str, register: bool) -> String {
        let (name, password) = (name.to_string(), password.to_string());
        let msg = match register {
            true => ClientMsg::Register { name, password },
            false => ClientMsg::LogIn { name, password },
        };
        match self.ask(msg, |m| matches!(m, ServerMsg::LoggedIn { .. })) {
            ServerMsg::LoggedIn { session, .. } => session,
            _ => unreachable!(),
        }
    }

    /// Keeps whatever else comes within half a second.
    fn drain(&mut self) {
        while let Some(event) = self.connection.next_timeout(Duration::from_millis(500)) {
            self.heard.push(format!("{event:?}"));
        }
    }

    /// The first secret of `secrets` found in what this client heard.
    fn heard_any<'a>(&self, secrets: &[&'a str]) -> Option<&'a str> {
        secrets
            .iter()
            .find(|secret| self.heard.iter().any(|text| text.contains(**secret)))
            .copied()
    }
}

fn is_error(msg: &ServerMsg) -> bool {
    matches!(msg, ServerMsg::Error { .. })
}

#[test]
fn passwords_and_tokens_reach_no_reply_no_output_no_file_and_no_other_client() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("games.sqlite3");
    let log = dir.path().join("server.log");
    let server = ServerProcess::start_logging(&database, &log);
    let address = server.address.clone();
    let (first, second, wrong, beas) = (
        "first pass 7f3a1c",
        "second pass 9b2e4d",
        "wrong guess 5c8d2f",
        "bea's own 1e9a7b",
    );

    // Ada registers, hosts a game without an account's seat, and logs in elsewhere too.
    let mut ada = Client::open(&address);
    let ada_session = ada.log_in("Ada", first, true);
    let (code, ada_token) = create(&ada.connection, "adomoc");
    let mut ada_phone = Client::open(&address);
    let phone_session = ada_phone.log_in("Ada", first, false);
    // A stranger guesses her password; she changes it, which ends the phone's session.
    let mut eve = Client::open(&address);
    let guessed = eve.ask(
        ClientMsg::LogIn {
            name: "Ada".into(),
            password: wrong.into(),
        },
        is_error,
    );
    assert!(
        format!("{guessed:?}").contains("no account has that name and password"),
        "{guessed:?}"
    );
    ada.ask(
        ClientMsg::ChangePassword {
            old: first.into(),
            new: second.into(),
        },
        |m| matches!(m, ServerMsg::PasswordChanged),
    );
    ada_phone.ask(ClientMsg::FollowTurns, is_error);
    // Eve watches the lobby and Ada's game; Bea registers, joins Ada's game and takes
    // Ada's challenge.
    eve.ask(ClientMsg::FollowLobby, |m| {
        matches!(m, ServerMsg::Lobby { .. })
    });
    eve.ask(ClientMsg::Watch { code: code.clone() }, |m| {
        matches!(m, ServerMsg::State(_))
    });
    let mut bea = Client::open(&address);
    let bea_session = bea.log_in("Bea", beas, true);
    let bea_token = match bea.ask(ClientMsg::Join { code: code.clone() }, |m| {
        matches!(m, ServerMsg::Seated { .. })
    }) {
        ServerMsg::Seated { token, .. } => token,
        _ => unreachable!(),
    };
    let terms = ChallengeTerms {
        game: "adaptoid".into(),
        settings: vec![],
        pace: Pace::Correspondence,
        move_seconds: None,
        rated: true,
        seat: Some(0),
    };
    let id = match ada.ask(ClientMsg::PostChallenge { terms, to: None }, |m| {
        matches!(m, ServerMsg::ChallengePosted { .. })
    }) {
        ServerMsg::ChallengePosted { id } => id,
        _ => unreachable!(),
    };
    let taken = match bea.ask(ClientMsg::AcceptChallenge { id }, |m| {
        matches!(m, ServerMsg::Seated { .. })
    }) {
        ServerMsg::Seated { token, .. } => token,
        _ => unreachable!(),
    };
    ada.ask(ClientMsg::Player { name: "Bea".into() }, |m| {
        matches!(m, ServerMsg::Player(_))
    });
    // Ada leaves for good; her last password goes with the deletion.
    ada.ask(
        ClientMsg::DeleteAccount {
            password: second.into(),
        },
        |m| matches!(m, ServerMsg::AccountDeleted),
    );
    for client in [&mut ada, &mut ada_phone, &mut eve, &mut bea] {
        client.drain();
    }
    // Each heard something (the phone its login and the end of its session).
    for client in [&ada, &ada_phone, &eve, &bea] {
        assert!(client.heard.len() >= 2, "{:?}", client.heard);
    }

    // No password came back to anyone, its owner included.
    let passwords = [first, second, wrong, beas];
    for client in [&ada, &ada_phone, &eve, &bea] {
        assert_eq!(client.heard_any(&passwords), None);
    }
    // Each client's sessions and seat tokens reached it alone.
    let adas = [
        ada_session.as_str(),
        phone_session.as_str(),
        ada_token.as_str(),
    ];
    let bea_secrets = [bea_session.as_str(), bea_token.as_str(), taken.as_str()];
    assert_eq!(bea.heard_any(&adas), None);
    assert_eq!(eve.heard_any(&adas), None);
    assert_eq!(eve.heard_any(&bea_secrets), None);
    assert_eq!(ada.heard_any(&bea_secrets), None);
    assert_eq!(ada_phone.heard_any(&bea_secrets), None);

    // Nor did the server print one (it prints only its troubles), nor keep a password or
    // a session as it is in its files.
    drop(server);
    let mut secrets = passwords.to_vec();
    secrets.extend(adas);
    secrets.extend([bea_session.as_str()]);
    for path in [log.clone(), log.with_extension("stdout")] {
        let printed = std::fs::read_to_string(&path).unwrap();
        let found = secrets.iter().find(|s| printed.contains(**s));
        assert_eq!(found, None, "{}: {printed}", path.display());
    }
    let mut kept_files = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("games.sqlite3") {
            continue;
        }
        kept_files += 1;
        let bytes = std::fs::read(&path).unwrap();
        for secret in passwords.iter().chain(&[
            ada_session.as_str(),
            phone_session.as_str(),
            bea_session.as_str(),
        ]) {
            let secret = secret.as_bytes();
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret),
                "{name} holds a secret as it is"
            );
        }
    }
    assert!(kept_files > 0, "the store's files were read");
}

#[test]
fn an_expired_session_is_refused_with_a_message_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("games.sqlite3");
    let password = "expiring 4d7e2a";
    let session = {
        let server = in_process(&database);
        let mut ada = Client::open(&server.address);
        ada.log_in("Ada", password, true)
    };
    // Thirty days pass without her: the store's sessions run out.
    let store = rusqlite::Connection::open(&database).unwrap();
    let changed = store
        .execute("UPDATE sessions SET expires_ms = 1", [])
        .unwrap();
    assert_eq!(changed, 1);
    drop(store);
    let server = in_process(&database);
    let mut ada = Client::open(&server.address);
    let refused = ada.ask(ClientMsg::Authenticate { session }, is_error);
    let message = format!("{refused:?}");
    assert!(
        message.contains("expired") && message.contains("log in again"),
        "{message}"
    );
    // Nothing she asks for as the account is answered; her password still logs her in.
    ada.ask(ClientMsg::FollowTurns, is_error);
    ada.log_in("Ada", password, false);
    ada.ask(ClientMsg::FollowTurns, |m| {
        matches!(m, ServerMsg::Waiting { .. })
    });
}
