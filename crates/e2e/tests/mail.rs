//! "Your move" by e-mail, through the real server and a mail server this test runs on
//! 127.0.0.1: an address is confirmed by the link mailed to it, and nothing else is mailed
//! before (the link's page confirms with a button, not on opening); a correspondence game
//! that comes to wait for a player who is away mails them, once in a while per game; a
//! live game, an unconfirmed address, a player at the game and one following their turns
//! get none; a server without `--smtp` refuses an address.

mod common;

use common::{PATIENCE, ask, connect_as, error_of, in_process, next_message};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_online::Connection;
use tabula_online::protocol::{ClientMsg, Pace, ServerMsg};
use tabula_server::mail::MailSettings;
use tabula_server::{Background, Options};

/// One mail as the mail server took it: to whom, and its whole text.
#[derive(Clone, Debug)]
struct Mail {
    to: String,
    text: String,
}

/// A mail server that takes every mail and keeps it.
struct MailServer {
    address: String,
    mails: Arc<Mutex<Vec<Mail>>>,
}

impl MailServer {
    fn start() -> MailServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let mails: Arc<Mutex<Vec<Mail>>> = Arc::default();
        let kept = mails.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = kept.clone();
                std::thread::spawn(move || converse(stream, &kept));
            }
        });
        MailServer { address, mails }
    }

    /// The mails taken so far, once there are `count` (or the test's patience ran out).
    fn mails(&self, count: usize) -> Vec<Mail> {
        let end = Instant::now() + PATIENCE;
        while self.mails.lock().unwrap().len() < count && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(50));
        }
        self.mails.lock().unwrap().clone()
    }
}

/// One SMTP conversation (RFC 5321, as much as a client needs to hand over a mail).
fn converse(stream: TcpStream, mails: &Mutex<Vec<Mail>>) {
    let mut out = stream.try_clone().unwrap();
    let mut lines = BufReader::new(stream);
    let mut say = |text: &str| out.write_all(format!("{text}\r\n").as_bytes()).is_ok();
    say("220 mail.test ESMTP");
    let mut to = String::new();
    let mut line = String::new();
    while lines.read_line(&mut line).unwrap_or(0) > 0 {
        let command = line.trim_end().to_string();
        line.clear();
        let verb = command.split(' ').next().unwrap_or("").to_ascii_uppercase();
        let ok = match verb.as_str() {
            "EHLO" => say("250-mail.test") && say("250 8BITMIME"),
            "RCPT" => {
                to = command
                    .split(['<', '>'])
                    .nth(1)
                    .unwrap_or_default()
                    .to_string();
                say("250 OK")
            }
            "DATA" => {
                say("354 go on");
                let mut text = String::new();
                while lines.read_line(&mut line).unwrap_or(0) > 0 && line != ".\r\n" {
                    text += &line;
                    line.clear();
                }
                line.clear();
                mails.lock().unwrap().push(Mail {
                    to: to.clone(),
                    text,
                });
                say("250 OK kept")
            }
            "QUIT" => {
                say("221 bye");
                return;
            }
            _ => say("250 OK"),
        };
        if !ok {
            return;
        }
    }
}

fn mailing_server(database: &std::path::Path, mail: &MailServer) -> Background {
    let options = Options {
        mail: Some(MailSettings {
            smtp: format!("smtp://{}", mail.address),
            from: "Tabula <games@tabula.test>".into(),
            public_url: "https://tabula.test".into(),
            every: Duration::from_secs(12 * 3600),
        }),
        ..Options::default()
    };
    Background::start_with(&common::sqlite_url(database), "127.0.0.1:0", options).unwrap()
}

fn set_address(connection: &Connection, address: &str) -> ServerMsg {
    ask(
        connection,
        ClientMsg::SetEmailAddress {
            address: address.into(),
        },
    )
}

/// A correspondence (or live) game of Bea's that Ada joins (her connection at the game):
/// Ada moves first.
fn game_for_ada(ada: &Connection, bea: &Connection, pace: Pace) -> String {
    bea.send(&ClientMsg::Create {
        game: "adomoc".into(),
        settings: vec![],
        seat: 1,
        pace,
        move_seconds: None,
        rated: false,
    });
    let ServerMsg::Seated { code, .. } =
        next_message(bea, |m| matches!(m, ServerMsg::Seated { .. }))
    else {
        unreachable!()
    };
    ada.send(&ClientMsg::Join { code: code.clone() });
    next_message(ada, |m| matches!(m, ServerMsg::Seated { .. }));
    code
}

fn play(connection: &Connection, ply: usize, text: &str) {
    connection.send(&ClientMsg::Move {
        ply,
        text: text.into(),
    });
    next_message(
        connection,
        |m| matches!(m, ServerMsg::Moved { ply: p, .. } if *p == ply),
    );
}

/// The answer to a request of the server at `address` (`http://HOST:PORT`): its status
/// line, head and body.
fn request(address: &str, head: &str, body: &str) -> String {
    let host = address.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).unwrap();
    write!(
        stream,
        "{head}\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

fn get(address: &str, path: &str) -> String {
    request(address, &format!("GET {path} HTTP/1.1"), "")
}

fn post(address: &str, path: &str, form: &str) -> String {
    request(address, &format!("POST {path} HTTP/1.1"), form)
}

/// Closes `connection` and gives the server a moment to see its seat let go.
fn leave(connection: Connection) {
    drop(connection);
    std::thread::sleep(Duration::from_millis(300));
}

#[test]
fn a_correspondence_player_away_is_mailed_their_move_once_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let mail = MailServer::start();
    let server = mailing_server(&dir.path().join("mail.sqlite3"), &mail);
    let ada = connect_as(&server.address, "Ada", true).0;
    let bea = connect_as(&server.address, "Bea", true).0;
    // A link to an address that is not a mailbox on the internet is refused.
    for local in ["root@localhost", "x@[10.0.0.5]"] {
        let refused = error_of(set_address(&ada, local));
        assert!(refused.contains("not an e-mail address"), "{refused}");
    }

    // Ada's address: kept, not confirmed, and the link mailed to it.
    let answer = set_address(&ada, " ada@example.org ");
    assert_eq!(
        answer,
        ServerMsg::EmailAddress {
            address: Some("ada@example.org".into()),
            confirmed: false
        }
    );
    let first = mail.mails(1);
    assert_eq!(first[0].to, "ada@example.org");
    let token = first[0]
        .text
        .split("confirm-email?token=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the link")
        .to_string();
    assert!(
        first[0]
            .text
            .contains("https://tabula.test/confirm-email?token=")
    );
    // Bea's is never confirmed. A second link so soon is refused, for the account and,
    // whoever asks, for the address.
    set_address(&bea, "bea@example.org");
    let again = error_of(set_address(&ada, "ada@example.org"));
    assert!(again.contains("a short while ago"), "{again}");
    let cyd = connect_as(&server.address, "Cyd", true).0;
    let stranger = error_of(set_address(&cyd, "ada@example.org"));
    assert!(stranger.contains("a short while ago"), "{stranger}");
    let bad = error_of(set_address(&bea, "not an address"));
    assert!(bad.contains("is not an e-mail address"), "{bad}");

    // Before the link is followed, a game waiting for Ada mails nothing.
    let at_game = connect_as(&server.address, "Ada", false).0;
    let code = game_for_ada(&at_game, &bea, Pace::Correspondence);
    play(&at_game, 0, "Fa3a5");
    leave(at_game);
    let page = get(&server.address, &format!("/confirm-email?token={token}"));
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(
        page.contains("method=post"),
        "a GET only offers the button: {page}"
    );
    assert_eq!(
        ask(&ada, ClientMsg::EmailAddress),
        ServerMsg::EmailAddress {
            address: Some("ada@example.org".into()),
            confirmed: false
        }
    );
    let confirmed = post(&server.address, "/confirm-email", &format!("token={token}"));
    assert!(confirmed.starts_with("HTTP/1.1 200"), "{confirmed}");
    assert!(
        confirmed.contains("Your address is confirmed"),
        "{confirmed}"
    );
    let used = post(&server.address, "/confirm-email", &format!("token={token}"));
    assert!(
        used.starts_with("HTTP/1.1 404") && used.contains("used already"),
        "{used}"
    );
    assert_eq!(
        ask(&ada, ClientMsg::EmailAddress),
        ServerMsg::EmailAddress {
            address: Some("ada@example.org".into()),
            confirmed: true
        }
    );

    // Bea moves: the game waits for Ada, who is away: mailed.
    play(&bea, 1, "Ff3f5");
    let mails = mail.mails(3);
    let yours = &mails[2];
    assert_eq!(yours.to, "ada@example.org");
    assert!(
        yours
            .text
            .contains(&format!("Subject: Your move in Adomoc ({code})")),
        "{}",
        yours.text
    );
    assert!(yours.text.contains("move 3"), "{}", yours.text);
    // Once in a while per game: the next time it waits for her, no mail.
    let at_game = connect_as(&server.address, "Ada", false).0;
    at_game.send(&ClientMsg::Resume {
        code: code.clone(),
        token: None,
    });
    next_message(&at_game, |m| matches!(m, ServerMsg::State(_)));
    play(&at_game, 2, "Fa5a6");
    leave(at_game);
    play(&bea, 3, "Ff5f6");

    // At the game (her connection holds the seat), she is not mailed; following her
    // turns elsewhere, neither.
    let watched = connect_as(&server.address, "Bea", false).0;
    let at_game = connect_as(&server.address, "Ada", false).0;
    game_for_ada(&at_game, &watched, Pace::Correspondence);
    play(&at_game, 0, "Fa3a5");
    leave(at_game);
    let turns = connect_as(&server.address, "Ada", false).0;
    ask(&turns, ClientMsg::FollowTurns);
    play(&watched, 1, "Ff3f5");
    // A live game is not mailed, away or not.
    drop(turns);
    let at_game = connect_as(&server.address, "Ada", false).0;
    let live = connect_as(&server.address, "Bea", false).0;
    game_for_ada(&at_game, &live, Pace::Live);
    play(&at_game, 0, "Fa3a5");
    leave(at_game);
    play(&live, 1, "Ff3f5");
    std::thread::sleep(Duration::from_secs(1));
    let all = mail.mails(3);
    let to: Vec<&str> = all.iter().map(|m| m.to.as_str()).collect();
    assert_eq!(
        to,
        ["ada@example.org", "bea@example.org", "ada@example.org"],
        "{all:?}"
    );

    // Removed: none again.
    assert_eq!(
        set_address(&ada, ""),
        ServerMsg::EmailAddress {
            address: None,
            confirmed: false
        }
    );
}

#[test]
fn a_server_without_mail_refuses_an_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("nomail.sqlite3"));
    let ada = connect_as(&server.address, "Ada", true).0;
    let refused = error_of(set_address(&ada, "ada@example.org"));
    assert!(refused.contains("sends no e-mail"), "{refused}");
    let page = post(&server.address, "/confirm-email", "token=abc");
    assert!(page.starts_with("HTTP/1.1 404"), "{page}");
    // Forgetting an address needs no mail.
    assert_eq!(
        set_address(&ada, ""),
        ServerMsg::EmailAddress {
            address: None,
            confirmed: false
        }
    );
}
