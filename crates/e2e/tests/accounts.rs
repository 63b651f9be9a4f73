//! Accounts through the real server and client: register, log in on two clients, a seat
//! that follows its account to another device, a seat played anonymously claimed, sessions
//! ended, a password changed, an account deleted, wrong passwords held back; on SQLite
//! and (where `TABULA_TEST_POSTGRES` names one) PostgreSQL.

mod common;

use common::{
    PASSWORD, TestDatabase, ask, create, error_of, in_process, in_process_at, join, logged_in,
    next_message, raw, state_where,
};
use tabula_online::Connection;
use tabula_online::protocol::{ClientMsg, DELETED_PLAYER, GameState, ServerMsg};

/// Logs `connection` in (or registers, if `register`): the session.
fn log_in(connection: &Connection, name: &str, password: &str, register: bool) -> String {
    let (session, expires_ms) = logged_in(connection, name, password, register);
    assert_eq!(session.len(), 32);
    assert!(expires_ms > 0);
    session
}

fn games(connection: &Connection) -> Vec<(String, usize, bool)> {
    match ask(connection, ClientMsg::MyGames { seats: vec![] }) {
        ServerMsg::Games { games } => games
            .into_iter()
            .map(|g| (g.code, g.your_seat, g.account))
            .collect(),
        other => panic!("games, not {other:?}"),
    }
}

/// The answer to a resume: the game, or an error.
fn resume(connection: &Connection, code: &str, token: Option<String>) -> ServerMsg {
    connection.send(&ClientMsg::Resume {
        code: code.into(),
        token,
    });
    next_message(connection, |m| {
        matches!(m, ServerMsg::State(_) | ServerMsg::Error { .. })
    })
}

fn resume_mine(connection: &Connection, code: &str) -> ServerMsg {
    resume(connection, code, None)
}

/// Who plays each seat, as the game shows it.
fn players(state: &GameState) -> Vec<Option<&str>> {
    state.seats.iter().map(|s| s.player.as_deref()).collect()
}

/// The whole story on the server at `address`.
fn accounts_story(address: &str) {
    // Ada registers on her desktop and hosts a game.
    let desk = raw(address);
    let desk_session = log_in(&desk, "Ada", PASSWORD, true);
    let (code, _) = create(&desk, "adomoc");
    // A name taken, in any case or look-alike, and bad names and passwords.
    let other = raw(address);
    for (name, password, why) in [
        ("ada", PASSWORD, "is taken"),
        ("ADA", PASSWORD, "is taken"),
        ("Ad", PASSWORD, "3 to 20 characters"),
        ("Bea", "short", "at least 8"),
    ] {
        let reply = ask(
            &other,
            ClientMsg::Register {
                name: name.into(),
                password: password.into(),
            },
        );
        assert!(error_of(reply).contains(why), "{name}");
    }
    // On her phone the game is hers, and she takes her seat without its token.
    let phone = raw(address);
    let phone_session = log_in(&phone, "ADA", PASSWORD, false);
    assert_ne!(phone_session, desk_session);
    assert_eq!(games(&phone), vec![(code.clone(), 0, true)]);
    match resume_mine(&phone, &code) {
        ServerMsg::State(state) => assert_eq!(state.your_seat, Some(0)),
        other => panic!("the game, not {other:?}"),
    }
    // She cannot join her own game as its other player.
    let again = raw(address);
    log_in(&again, "Ada", PASSWORD, false);
    let reply = ask(&again, ClientMsg::Join { code: code.clone() });
    assert!(error_of(reply).contains("holds seat 1"));

    // A stranger joins without an account, registers later and claims the seat.
    let stranger = raw(address);
    let token = join(&stranger, &code);
    let reply = ask(
        &stranger,
        ClientMsg::ClaimSeat {
            code: code.clone(),
            token: token.clone(),
        },
    );
    assert!(error_of(reply).contains("log in to claim a seat"));
    log_in(&stranger, "Bea", PASSWORD, true);
    // Bea's account is not Ada's: no seat of Ada's for her without its token.
    assert_eq!(games(&stranger), vec![]);
    let claimed = ask(
        &stranger,
        ClientMsg::ClaimSeat {
            code: code.clone(),
            token: token.clone(),
        },
    );
    assert_eq!(
        claimed,
        ServerMsg::SeatClaimed {
            code: code.clone(),
            seat: 1
        }
    );
    assert_eq!(games(&stranger), vec![(code.clone(), 1, true)]);
    // The game shows who plays each seat.
    state_where(&desk, |s| players(s) == [Some("Ada"), Some("Bea")]);
    // Ada cannot take the seat over with a token she was never given (nor Bea's seat).
    let reply = ask(
        &phone,
        ClientMsg::ClaimSeat {
            code: code.clone(),
            token: "0".repeat(32),
        },
    );
    assert!(error_of(reply).contains("holds no seat"));

    // Wrong passwords: a few, then the name is held back, even for the right one.
    let guesser = raw(address);
    for _ in 0..5 {
        let reply = ask(
            &guesser,
            ClientMsg::LogIn {
                name: "Bea".into(),
                password: "wrong password".into(),
            },
        );
        assert_eq!(error_of(reply), "no account has that name and password");
    }
    let reply = ask(
        &guesser,
        ClientMsg::LogIn {
            name: "bea".into(),
            password: PASSWORD.into(),
        },
    );
    assert!(error_of(reply).contains("too many wrong passwords"));
    // A name nobody has gets the same answer as a wrong password.
    let reply = ask(
        &other,
        ClientMsg::LogIn {
            name: "Nobody7".into(),
            password: PASSWORD.into(),
        },
    );
    assert_eq!(error_of(reply), "no account has that name and password");

    // A session logs a new connection in; a made-up one does not.
    let later = raw(address);
    let reply = ask(
        &later,
        ClientMsg::Authenticate {
            session: desk_session.clone(),
        },
    );
    assert!(matches!(reply, ServerMsg::LoggedIn { ref name, .. } if name == "Ada"));
    let reply = ask(
        &other,
        ClientMsg::Authenticate {
            session: "f".repeat(32),
        },
    );
    assert!(error_of(reply).contains("not valid"));

    // A new password ends her other sessions, not this one.
    let reply = ask(
        &phone,
        ClientMsg::ChangePassword {
            old: "not it at all".into(),
            new: "battery staple".into(),
        },
    );
    assert!(error_of(reply).contains("not this account's password"));
    let reply = ask(
        &phone,
        ClientMsg::ChangePassword {
            old: PASSWORD.into(),
            new: "battery staple".into(),
        },
    );
    assert_eq!(reply, ServerMsg::PasswordChanged);
    assert_eq!(games(&phone).len(), 1);
    // The phone keeps the seat it took through the account: its session goes on.
    phone.send(&ClientMsg::Move {
        ply: 0,
        text: "Fa3a5".into(),
    });
    next_message(&phone, |m| matches!(m, ServerMsg::Moved { ply: 0, .. }));
    let reply = ask(&desk, ClientMsg::MyGames { seats: vec![] });
    assert!(error_of(reply).contains("session has ended"));
    let reply = ask(
        &other,
        ClientMsg::Authenticate {
            session: desk_session,
        },
    );
    assert!(error_of(reply).contains("not valid"));
    let reply = ask(
        &other,
        ClientMsg::LogIn {
            name: "Ada".into(),
            password: PASSWORD.into(),
        },
    );
    assert!(error_of(reply).contains("no account has that name"));
    let desk_session = log_in(&desk, "Ada", "battery staple", false);

    // Logging out everywhere ends every session, this one too.
    assert_eq!(
        ask(&desk, ClientMsg::LogOutEverywhere),
        ServerMsg::LoggedOut
    );
    // The phone's seat, taken through the account, is let go at its next move.
    let reply = ask(
        &phone,
        ClientMsg::Move {
            ply: 1,
            text: "Ff3f5".into(),
        },
    );
    assert!(error_of(reply).contains("session has ended"));
    let reply = ask(&phone, ClientMsg::Resign);
    assert!(error_of(reply).contains("holds no seat"));
    let reply = ask(&phone, ClientMsg::MyGames { seats: vec![] });
    assert!(error_of(reply).contains("session has ended"));
    let reply = resume_mine(&raw(address), &code);
    assert!(error_of(reply).contains("log in to resume"));
    let reply = ask(
        &other,
        ClientMsg::Authenticate {
            session: desk_session,
        },
    );
    assert!(error_of(reply).contains("not valid"));

    // Bea deletes her account: her name stays taken, her game stays.
    let reply = ask(
        &stranger,
        ClientMsg::DeleteAccount {
            password: "wrong password".into(),
        },
    );
    assert!(error_of(reply).contains("not this account's password"));
    assert_eq!(
        ask(
            &stranger,
            ClientMsg::DeleteAccount {
                password: PASSWORD.into()
            }
        ),
        ServerMsg::AccountDeleted
    );
    let reply = ask(
        &other,
        ClientMsg::Register {
            name: "BEA".into(),
            password: PASSWORD.into(),
        },
    );
    assert!(error_of(reply).contains("is taken"));
    let reply = resume(&other, &code, Some(token));
    assert!(matches!(reply, ServerMsg::State(state) if state.your_seat == Some(1)));
    // Her seat shows that its account was deleted, to everyone following the game.
    state_where(&desk, |s| players(s) == [Some("Ada"), Some(DELETED_PLAYER)]);
}

#[test]
fn accounts_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("accounts.sqlite3"));
    accounts_story(&server.address);
}

#[test]
fn accounts_on_postgres() {
    let Some(database) = TestDatabase::new("accounts") else {
        return;
    };
    let server = in_process_at(&database.url);
    accounts_story(&server.address);
    // Another server process on the same database knows the same accounts and sessions.
    // (Registered through the second: the first has had its address's attempts.)
    let second = in_process_at(&database.url);
    let here = raw(&second.address);
    let session = log_in(&here, "Dora", PASSWORD, true);
    let dora_session = session.clone();
    let (code, _) = create(&here, "absorption");
    let there = raw(&server.address);
    let reply = ask(&there, ClientMsg::Authenticate { session });
    assert!(matches!(reply, ServerMsg::LoggedIn { ref name, .. } if name == "Dora"));
    assert_eq!(games(&there), vec![(code.clone(), 0, true)]);
    assert!(matches!(resume_mine(&there, &code), ServerMsg::State(s) if s.your_seat == Some(0)));
    // A seat claimed on one process, while another holds the game: the other lists it as
    // the account's and does not let the account take a second seat in it.
    let (game, token) = create(&raw(&server.address), "adaptoid");
    let watcher = raw(&second.address);
    watcher.send(&ClientMsg::Watch { code: game.clone() });
    state_where(&watcher, |s| s.code == game);
    let claimed = ask(
        &there,
        ClientMsg::ClaimSeat {
            code: game.clone(),
            token,
        },
    );
    assert!(matches!(claimed, ServerMsg::SeatClaimed { seat: 0, .. }));
    let dora = raw(&second.address);
    let reply = ask(
        &dora,
        ClientMsg::Authenticate {
            session: dora_session.clone(),
        },
    );
    assert!(matches!(reply, ServerMsg::LoggedIn { .. }));
    assert!(games(&dora).contains(&(game.clone(), 0, true)));
    let reply = ask(&dora, ClientMsg::Join { code: game.clone() });
    assert!(error_of(reply).contains("changed meanwhile"));

    // One name across processes (a third, whose address has its attempts left).
    let third = in_process_at(&database.url);
    let reply = ask(
        &raw(&third.address),
        ClientMsg::Register {
            name: "dora".into(),
            password: PASSWORD.into(),
        },
    );
    assert!(error_of(reply).contains("is taken"));
}

/// A restart keeps accounts and sessions; the database holds neither a password nor a
/// session as it was sent.
#[test]
fn a_restart_keeps_accounts_and_sessions_and_the_file_holds_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("restart.sqlite3");
    let (session, code, deleted) = {
        let server = in_process(&path);
        let client = raw(&server.address);
        let session = log_in(&client, "Cleo", PASSWORD, true);
        let (code, _) = create(&client, "adaptoid");
        let (deleted, _) = create(&raw(&server.address), "adomoc");
        let gone = raw(&server.address);
        log_in(&gone, "Dan", PASSWORD, true);
        join(&gone, &deleted);
        let reply = ask(
            &gone,
            ClientMsg::DeleteAccount {
                password: PASSWORD.into(),
            },
        );
        assert_eq!(reply, ServerMsg::AccountDeleted);
        (session, code, deleted)
    };
    let server = in_process(&path);
    let client = raw(&server.address);
    let reply = ask(
        &client,
        ClientMsg::Authenticate {
            session: session.clone(),
        },
    );
    assert!(matches!(reply, ServerMsg::LoggedIn { ref name, .. } if name == "Cleo"));
    assert_eq!(games(&client), vec![(code.clone(), 0, true)]);
    // Read back from the store: names, and a deleted account said to be one.
    client.send(&ClientMsg::Watch { code });
    state_where(&client, |s| players(s) == [Some("Cleo"), None]);
    client.send(&ClientMsg::Watch { code: deleted });
    state_where(&client, |s| players(s) == [None, Some(DELETED_PLAYER)]);
    drop(server);
    let mut bytes = std::fs::read(&path).unwrap();
    for wal in ["-wal", "-shm"] {
        let mut side = path.clone().into_os_string();
        side.push(wal);
        bytes.extend(std::fs::read(side).unwrap_or_default());
    }
    let holds = |secret: &str| bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
    assert!(holds("Cleo"), "the name is kept");
    assert!(!holds(PASSWORD), "a password is kept only as its hash");
    assert!(!holds(&session), "a session is kept only as its hash");
}

/// The reproducer: a new password asked on one connection let go of a seat that another
/// connection of the same session had taken through the account. Its session holds, so
/// its seat does; once every session ends, the seat goes, and the error says the session
/// ended (so a client forgets it).
#[test]
fn a_new_password_keeps_the_seats_its_own_session_holds_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("renew.sqlite3"));
    let address = &server.address;
    let host = raw(address);
    let session = log_in(&host, "Eve", PASSWORD, true);
    let (code, _) = create(&host, "adomoc");
    join(&raw(address), &code);
    let player = raw(address);
    let reply = ask(
        &player,
        ClientMsg::Authenticate {
            session: session.clone(),
        },
    );
    assert!(matches!(reply, ServerMsg::LoggedIn { .. }));
    assert!(matches!(resume_mine(&player, &code), ServerMsg::State(s) if s.your_seat == Some(0)));
    let settings = raw(address);
    ask(&settings, ClientMsg::Authenticate { session });
    let reply = ask(
        &settings,
        ClientMsg::ChangePassword {
            old: PASSWORD.into(),
            new: "battery staple".into(),
        },
    );
    assert_eq!(reply, ServerMsg::PasswordChanged);
    player.send(&ClientMsg::Move {
        ply: 0,
        text: "Fa3a5".into(),
    });
    next_message(&player, |m| matches!(m, ServerMsg::Moved { ply: 0, .. }));
    assert_eq!(
        ask(&settings, ClientMsg::LogOutEverywhere),
        ServerMsg::LoggedOut
    );
    let reply = ask(
        &player,
        ClientMsg::Move {
            ply: 1,
            text: "Ff3f5".into(),
        },
    );
    assert!(
        matches!(
            reply,
            ServerMsg::Error {
                session_ended: true,
                ..
            }
        ),
        "{reply:?}"
    );
}
