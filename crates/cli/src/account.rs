//! `online register|login|logout|password|delete-account|claim|games|account|email`: an account
//! on a tabula-server. Its session is kept in `online-sessions.ron` in the data directory
//! (see [`kept`]); `online host|join|resume|watch` then play as the account. A password is
//! read from standard input (without echo at a terminal) and never printed or kept.

mod kept;
mod password;
mod ratings;

use crate::args::Args;
use crate::online::DEFAULT_SERVER;
use std::time::{Duration, Instant};
use tabula_online::protocol::{ClientMsg, ServerMsg};
use tabula_online::sessions::KeptSession;
use tabula_online::{Connection, Event};
use tabula_rules::text::{quoted, shown_line};

pub use kept::kept_session;

/// How long a request waits for the server.
const PATIENCE: Duration = Duration::from_secs(20);

pub const VERBS: &[&str] = &[
    "register",
    "login",
    "logout",
    "password",
    "delete-account",
    "claim",
    "games",
    "account",
    "leaderboard",
    "player",
    "email",
];

/// `online MODE WORDS...` for an account's verbs.
pub fn account(mode: &str, words: &[String]) -> Result<(), String> {
    let everywhere = words.iter().any(|w| w == "--everywhere");
    if everywhere && mode != "logout" {
        return Err(format!(
            "--everywhere is for online logout, not online {mode}"
        ));
    }
    let remove = words.iter().any(|w| w == "--remove");
    if remove && mode != "email" {
        return Err(format!("--remove is for online email, not online {mode}"));
    }
    let words: Vec<String> = words
        .iter()
        .filter(|w| *w != "--everywhere" && *w != "--remove")
        .cloned()
        .collect();
    let given = words.iter().take_while(|w| !w.starts_with("--")).count();
    let (positional, flags) = words.split_at(given);
    let args = Args::parse(flags).map_err(|e| e.0)?;
    if let Some(extra) = args.rest.first() {
        return Err(format!("unexpected argument {}", quoted(extra)));
    }
    let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
    let wanted = match mode {
        "register" | "login" | "leaderboard" | "player" => 1,
        "claim" => 2,
        "email" if !remove => positional.len().min(1),
        _ => 0,
    };
    if positional.len() != wanted {
        return Err(format!("online {mode} takes {}", usage(mode)));
    }
    match mode {
        "register" | "login" => log_in(mode, &positional[0], server),
        "logout" => log_out(server, everywhere),
        "password" => change_password(server),
        "delete-account" => delete_account(server),
        "claim" => claim(server, &positional[0], &positional[1]),
        "games" => games(server),
        "leaderboard" => ratings::leaderboard(server, &positional[0]),
        "player" => ratings::player(server, &positional[0]),
        "email" => email(server, positional.first().map(String::as_str), remove),
        _ => {
            match kept_session(server)? {
                Some(kept) => println!("logged in as {} on {server}", shown_line(&kept.name)),
                None => println!("not logged in on {server}"),
            }
            Ok(())
        }
    }
}

fn usage(mode: &str) -> &'static str {
    match mode {
        "register" | "login" | "player" => "NAME [--server URL]",
        "leaderboard" => "POOL (a game, or adamas-3) [--server URL]",
        "claim" => "CODE TOKEN [--server URL]",
        "logout" => "[--everywhere] [--server URL]",
        "email" => "[ADDRESS | --remove] [--server URL]",
        _ => "[--server URL]",
    }
}

fn log_in(mode: &str, name: &str, server: &str) -> Result<(), String> {
    let msg = if mode == "register" {
        ClientMsg::Register {
            name: name.to_string(),
            password: password::read_new("password")?,
        }
    } else {
        ClientMsg::LogIn {
            name: name.to_string(),
            password: password::read("password")?,
        }
    };
    match ask(server, None, &msg)? {
        ServerMsg::LoggedIn {
            name,
            session,
            expires_ms,
        } => {
            kept::keep(server, &name, &session, expires_ms)?;
            // A server's words, shown as a terminal may print them.
            println!("logged in as {} on {server}", shown_line(&name));
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

fn log_out(server: &str, everywhere: bool) -> Result<(), String> {
    let Some(kept) = kept_session(server)? else {
        return Err(format!("not logged in on {server}"));
    };
    let msg = if everywhere {
        ClientMsg::LogOutEverywhere
    } else {
        ClientMsg::LogOut
    };
    // A session the server no longer takes is forgotten here all the same.
    let said = ask(server, Some(&kept.session), &msg);
    kept::forget(server)?;
    match said {
        Ok(ServerMsg::LoggedOut) => {
            let where_ = if everywhere { " everywhere" } else { "" };
            println!(
                "logged out of {} on {server}{where_}",
                shown_line(&kept.name)
            );
            Ok(())
        }
        Ok(other) => Err(unexpected(&other)),
        Err(e) => Err(format!("{e}; the session is forgotten here")),
    }
}

fn change_password(server: &str) -> Result<(), String> {
    let session = session_for(server)?;
    let old = password::read("current password")?;
    let new = password::read_new("new password")?;
    match ask(
        server,
        Some(&session),
        &ClientMsg::ChangePassword { old, new },
    )? {
        ServerMsg::PasswordChanged => {
            println!("password changed; every other session of the account has ended");
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

fn delete_account(server: &str) -> Result<(), String> {
    let session = session_for(server)?;
    let password = password::read("password (to delete the account)")?;
    match ask(
        server,
        Some(&session),
        &ClientMsg::DeleteAccount { password },
    )? {
        ServerMsg::AccountDeleted => {
            kept::forget(server)?;
            println!("account deleted; its games stay on the server");
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

fn claim(server: &str, code: &str, token: &str) -> Result<(), String> {
    let session = session_for(server)?;
    let msg = ClientMsg::ClaimSeat {
        code: code.to_string(),
        token: token.to_string(),
    };
    match ask(server, Some(&session), &msg)? {
        ServerMsg::SeatClaimed { code, seat } => {
            let code = shown_line(&code);
            println!(
                "seat {} of game {code} is your account's: online resume {code}",
                seat.saturating_add(1)
            );
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

fn games(server: &str) -> Result<(), String> {
    let session = session_for(server)?;
    match ask(
        server,
        Some(&session),
        &ClientMsg::MyGames { seats: vec![] },
    )? {
        ServerMsg::Games { games } => {
            if games.is_empty() {
                println!("no games");
            }
            for game in games {
                let state = match (&game.result, game.to_move) {
                    (Some(result), _) => result.clone(),
                    (None, Some(seat)) if seat == game.your_seat => "your turn".to_string(),
                    (None, Some(seat)) => format!("seat {} to move", seat.saturating_add(1)),
                    (None, None) => "over".to_string(),
                };
                println!(
                    "{} {} seat {} move {}: {}",
                    shown_line(&game.code),
                    shown_line(&game.game),
                    game.your_seat.saturating_add(1),
                    game.moves,
                    shown_line(&state)
                );
            }
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

/// `online email [ADDRESS | --remove]`: the account's address for "your move" in
/// correspondence games: shown, given (a link to confirm it is mailed), or removed.
fn email(server: &str, address: Option<&str>, remove: bool) -> Result<(), String> {
    let session = session_for(server)?;
    let msg = match (address, remove) {
        (Some(address), _) => ClientMsg::SetEmailAddress {
            address: address.to_string(),
        },
        (None, true) => ClientMsg::SetEmailAddress {
            address: String::new(),
        },
        (None, false) => ClientMsg::EmailAddress,
    };
    match ask(server, Some(&session), &msg)? {
        ServerMsg::EmailAddress { address, confirmed } => {
            // A server's words, shown as a terminal may print them.
            match (address, confirmed) {
                (None, _) => println!("no e-mail address: no mail is sent"),
                (Some(address), true) => println!(
                    "{}: confirmed; a correspondence game waiting for your move is mailed",
                    shown_line(&address)
                ),
                (Some(address), false) => println!(
                    "{}: a link to confirm it was mailed there; nothing else is mailed before",
                    shown_line(&address)
                ),
            }
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

/// The session kept for `server`, or why there is none.
pub(crate) fn session_for(server: &str) -> Result<String, String> {
    logged_in_on(server).map(|kept| kept.session)
}

/// The account kept for `server` (its name and session), or why there is none.
pub(crate) fn logged_in_on(server: &str) -> Result<KeptSession, String> {
    kept_session(server)?
        .ok_or_else(|| format!("not logged in on {server}: online login NAME first"))
}

pub(crate) fn unexpected(msg: &ServerMsg) -> String {
    let text = msg.to_json();
    let shown: String = text.chars().take(80).collect();
    format!("the server answered something else: {shown}")
}

/// Sends `msg` to `server` (logged in with `session` first, if given) and waits for the
/// answer; an error the server sends is this function's error.
pub(crate) fn ask(
    server: &str,
    session: Option<&str>,
    msg: &ClientMsg,
) -> Result<ServerMsg, String> {
    if session.is_some() || msg.carries_secret() {
        // Refused here, before connecting, where a password or a session may not go.
        tabula_online::secrets_allowed(&tabula_online::socket_url(server)?)?;
    }
    let connection = Connection::open(server, None)?;
    let end = Instant::now() + PATIENCE;
    // A one-off request is not retried: the first failure to connect is the answer.
    wait(&connection, end, |event| match event {
        Event::Connected => Some(Ok(())),
        Event::Disconnected(why) => Some(Err(why)),
        Event::Message(_) => None,
    })?
    .map_err(|why| format!("cannot reach {server}: {why}"))?;
    if let Some(session) = session {
        connection.send(&ClientMsg::Authenticate {
            session: session.to_string(),
        });
        let ended = wait(&connection, end, |event| match event {
            Event::Message(ServerMsg::Error {
                message,
                session_ended: true,
                ..
            }) => Some(Some(shown_line(&message))),
            Event::Message(ServerMsg::LoggedIn { .. } | ServerMsg::Error { .. })
            | Event::Disconnected(_) => Some(None),
            _ => None,
        })?;
        // A session the server says is not valid is no use kept: forgotten here.
        if let Some(why) = ended {
            kept::forget(server)?;
            return Err(format!("{why} (online login NAME again)"));
        }
    }
    connection.send(msg);
    answer(&connection, end)
}

/// The server's answer to what was sent last: not a game's news.
fn answer(connection: &Connection, end: Instant) -> Result<ServerMsg, String> {
    wait(connection, end, |event| match event {
        Event::Message(ServerMsg::Error { message, .. }) => Some(Err(shown_line(&message))),
        Event::Message(ServerMsg::Hello { .. } | ServerMsg::State(_) | ServerMsg::Moved { .. }) => {
            None
        }
        Event::Message(msg) => Some(Ok(msg)),
        Event::Disconnected(why) => Some(Err(format!("the connection was lost: {why}"))),
        Event::Connected => None,
    })?
}

/// The first event `take` makes something of, however long it takes.
pub(crate) fn wait_for<T>(
    connection: &Connection,
    take: impl Fn(Event) -> Option<T>,
) -> Result<T, String> {
    loop {
        if let Some(event) = connection.next_timeout(Duration::from_secs(1))
            && let Some(done) = take(event)
        {
            return Ok(done);
        }
    }
}

/// The first event `take` makes something of, before `end`; else the last reason the
/// connection gave for failing.
fn wait<T>(
    connection: &Connection,
    end: Instant,
    take: impl Fn(Event) -> Option<T>,
) -> Result<T, String> {
    let mut last = "no answer".to_string();
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        if let Some(event) = connection.next_timeout(left.min(Duration::from_millis(200))) {
            if let Event::Disconnected(why) = &event {
                last = why.clone();
            }
            if let Some(done) = take(event) {
                return Ok(done);
            }
        }
    }
    Err(last)
}
