//! `online lobby|challenge|play-now|accept|cancel`: the server's open challenges (and
//! `online next`, in [`crate::next`]).
//! `challenge` posts one and waits until someone takes it, then plays the game as `host`
//! would; `play-now` takes the best-fitting one at once, or posts one and waits; `accept`
//! takes one and plays it as `join` would. Posting, accepting and cancelling need the
//! session kept by `online login`.

use crate::account::{ask, kept_session, logged_in_on, session_for, unexpected, wait_for};
use crate::args::Args;
use crate::online::{DEFAULT_SERVER, host_terms, run};
use tabula_online::protocol::house::{HouseBots, shown_player};
use tabula_online::protocol::{ClientMsg, ServerMsg};
use tabula_online::{Connection, Event, Goal};
use tabula_rules::text::{quoted, shown_line};

/// The server's bots, and how to play one.
fn house_text(house: &HouseBots) -> String {
    let mut text = format!(
        "house bots: they take a challenge nobody takes within {} s, and one to them by \
         name (online challenge GAME --to NAME) at once\n",
        house.wait_seconds
    );
    for bot in &house.bots {
        text += &format!(
            "  {} level {}: {}\n",
            shown_line(&bot.name),
            bot.level,
            shown_line(&bot.about)
        );
    }
    text
}

/// `online lobby`: the open challenges.
pub fn lobby(args: &Args) -> Result<(), String> {
    let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
    // Logged in, the challenges named to this player show too.
    let session = kept_session(server)?.map(|kept| kept.session);
    match ask(server, session.as_deref(), &ClientMsg::FollowLobby)? {
        ServerMsg::Lobby { challenges, house } => {
            if let Some(house) = &house {
                print!("{}", house_text(house));
            }
            if challenges.is_empty() {
                println!("no open challenges on {server}: post one with online challenge GAME");
            }
            for c in challenges {
                let rating = c.rating.map_or(String::new(), |r| format!(" {r}"));
                let seconds = c
                    .terms
                    .move_seconds
                    .map_or(String::new(), |s| format!(", {s} s a move"));
                let to =
                    c.to.as_deref()
                        .map_or(String::new(), |to| format!(", for {}", shown_player(to)));
                let options: Vec<String> = c
                    .terms
                    .settings
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                // A server's words, shown as a terminal may print them.
                println!(
                    "{}  {}{} · {} {}{}{}{}{}",
                    shown_line(&c.id),
                    shown_player(&c.by),
                    rating,
                    shown_line(&c.terms.game),
                    if c.terms.rated { "rated" } else { "casual" },
                    match c.terms.pace {
                        tabula_online::protocol::Pace::Live => ", live",
                        tabula_online::protocol::Pace::Correspondence => ", correspondence",
                    },
                    seconds,
                    if options.is_empty() {
                        String::new()
                    } else {
                        format!(", {}", shown_line(&options.join(" ")))
                    },
                    to
                );
            }
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

/// `online cancel ID`.
pub fn cancel(id: &str, args: &Args) -> Result<(), String> {
    let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
    let session = session_for(server)?;
    let msg = ClientMsg::CancelChallenge { id: id.to_string() };
    match ask(server, Some(&session), &msg)? {
        ServerMsg::ChallengeGone { .. } => {
            println!("challenge {} cancelled", shown_line(id));
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

/// `online accept ID`: takes the challenge and plays it.
pub fn accept(id: &str, args: &Args) -> Result<(), String> {
    let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
    session_for(server)?;
    run(Goal::Accept { id: id.to_string() }, args)
}

/// `online challenge GAME` (or, `play_now`, `online play-now GAME`): posts it (or takes
/// the best-fitting challenge at once), waits for a taker, then plays the game.
pub fn challenge(game: &str, args: &Args, play_now: bool) -> Result<(), String> {
    let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
    let kept = logged_in_on(server)?;
    tabula_online::secrets_allowed(&tabula_online::socket_url(server)?)?;
    let terms = host_terms(game, args)?;
    if play_now && (!terms.settings.is_empty() || terms.move_seconds.is_some()) {
        return Err(
            "online play-now plays the game's own options and no move limit: post other \
             terms with online challenge"
                .into(),
        );
    }
    let post = if play_now {
        ClientMsg::PlayNow {
            game: terms.game.clone(),
            pace: terms.pace,
            rated: terms.rated,
        }
    } else {
        ClientMsg::PostChallenge {
            terms: terms.clone(),
            to: args.to.clone(),
        }
    };
    let connection = Connection::open(server, None)?;
    let mut id: Option<String> = None;
    // Sent, but not yet answered when the connection went: the lobby says whether it came.
    let mut sent = false;
    let mut connected_before = false;
    // Waits as long as it takes; on every (re)connection: logged in, the lobby followed
    // (to hear of the taker), and the challenge posted unless it is there already.
    let code = loop {
        match wait_for(&connection, Some)? {
            Event::Connected => {
                if connected_before {
                    eprintln!("connected to {server} again");
                }
                connected_before = true;
                connection.send(&ClientMsg::Authenticate {
                    session: kept.session.clone(),
                });
                connection.send(&ClientMsg::FollowLobby);
            }
            Event::Disconnected(why) => {
                eprintln!("lost {server} ({}): trying again", shown_line(&why));
            }
            Event::Message(ServerMsg::Lobby { challenges, .. }) => {
                let mine =
                    |c: &&tabula_online::protocol::Challenge| c.by == kept.name && c.terms == terms;
                match &id {
                    // Gone while this was away: taken (its game is the account's) or
                    // cancelled elsewhere.
                    Some(open) if !challenges.iter().any(|c| c.id == *open) => {
                        return Err(format!(
                            "challenge {} is no longer open: taken while the connection was                              down (online games lists its game), or cancelled",
                            shown_line(open)
                        ));
                    }
                    Some(_) => {}
                    None => match challenges.iter().find(mine).filter(|_| sent) {
                        // Posted before the connection went: that one, not a second.
                        Some(posted) => id = Some(posted.id.clone()),
                        None => {
                            connection.send(&post);
                            sent = true;
                        }
                    },
                }
            }
            Event::Message(ServerMsg::ChallengePosted { id: posted }) => {
                println!(
                    "challenge {} posted on {server}; waiting for someone to accept it \
                     (online cancel {} takes it down)",
                    shown_line(&posted),
                    shown_line(&posted)
                );
                id = Some(posted);
            }
            // Play now took a challenge: the game is here already.
            Event::Message(ServerMsg::Seated { code, seat, .. }) => {
                println!(
                    "took a challenge: game {}, you play seat {}",
                    shown_line(&code),
                    seat.saturating_add(1)
                );
                break code;
            }
            Event::Message(ServerMsg::ChallengeAccepted {
                id: taken,
                code,
                seat,
            }) if id.as_deref() == Some(taken.as_str()) => {
                println!(
                    "accepted: game {}, you play seat {}",
                    shown_line(&code),
                    seat.saturating_add(1)
                );
                break code;
            }
            Event::Message(ServerMsg::ChallengeGone { id: gone })
                if id.as_deref() == Some(gone.as_str()) =>
            {
                // Gone without a game for us: cancelled elsewhere (its acceptance comes
                // first when taken).
                return Err(format!("challenge {} was cancelled", shown_line(&gone)));
            }
            // Refused (the post, or the session: nothing would reach this client).
            Event::Message(ServerMsg::Error {
                message,
                session_ended,
                ..
            }) if id.is_none() || session_ended => {
                return Err(shown_line(&message));
            }
            _ => {}
        }
    };
    drop(connection);
    run(Goal::ResumeMine { code }, args)
}

/// What follows each lobby verb, for its usage line.
pub fn usage(mode: &str) -> Option<&'static str> {
    match mode {
        "lobby" => Some("[--server URL]"),
        "challenge" => Some(
            "GAME [--option k=v]... [--take N] [--pace live|correspondence] [--move-seconds S] \
             [--rated] [--to NAME] [--seat human|BOT] [--server URL]",
        ),
        "play-now" => {
            Some("GAME [--pace live|correspondence] [--rated] [--seat human|BOT] [--server URL]")
        }
        "accept" => Some("ID [--seat human|BOT] [--server URL]"),
        "cancel" => Some("ID [--server URL]"),
        "next" => Some("[--seat human|BOT] [--server URL]"),
        _ => None,
    }
}

/// Runs lobby verb `mode` with the words after it.
pub fn lobby_verb(mode: &str, words: &[String]) -> Result<(), String> {
    let needs_target = !matches!(mode, "lobby" | "next");
    let (target, flags) = match (needs_target, words.first()) {
        (true, Some(target)) if !target.starts_with("--") => (Some(target), &words[1..]),
        (true, _) => {
            return Err(format!(
                "online {mode} takes {}",
                usage(mode).unwrap_or_default()
            ));
        }
        (false, _) => (None, words),
    };
    let args = Args::parse(flags).map_err(|e| e.0)?;
    if let Some(extra) = args.rest.first() {
        return Err(format!("unexpected argument {}", quoted(extra)));
    }
    match (mode, target) {
        ("challenge", Some(game)) => challenge(game, &args, false),
        ("play-now", Some(game)) => challenge(game, &args, true),
        ("accept", Some(id)) => accept(id, &args),
        ("cancel", Some(id)) => cancel(id, &args),
        ("next", _) => crate::next::next(&args),
        _ => lobby(&args),
    }
}
