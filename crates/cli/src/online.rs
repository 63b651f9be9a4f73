//! `online host|join|resume|watch`: a game through a `tabula-server`, played here by a
//! person at the terminal or by a bot.

use crate::args::Args;
use crate::setup;
use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;
use tabula_bot::BotSpec;
use tabula_online::protocol::house::shown_player;
use tabula_online::protocol::{ChallengeTerms, ClientMsg, Pace, SeatKey};
use tabula_online::unattended::play_to_end;
use tabula_online::{Followed, Goal, OnlineClient, Update};
use tabula_rules::text::quoted;
use tabula_session::{GameKind, Seat};

pub const DEFAULT_SERVER: &str = "http://127.0.0.1:8080";

const COMMANDS: &str = "Type a move when it is your turn. Commands: board, moves, resign, \
draw (offer or accept one), nodraw (decline), undo (ask to take back your last move), \
yes / no (answer a request to take back), leave (the game stays on the server), help.";

/// `online MODE ...`; `words` are the arguments after `online`.
pub fn online(words: &[String]) -> Result<(), String> {
    let mode = words
        .first()
        .ok_or("online needs host, join, resume, watch, lobby, challenge, accept, next, or an account's verb (login, …)")?;
    if crate::account::VERBS.contains(&mode.as_str()) {
        return crate::account::account(mode, &words[1..]);
    }
    if crate::lobby::usage(mode).is_some() {
        return crate::lobby::lobby_verb(mode, &words[1..]);
    }
    let target = words
        .get(1)
        .ok_or_else(|| format!("online {mode} needs {}", what_follows(mode)))?;
    let args = crate::args::Args::parse(&words[2..]).map_err(|e| e.0)?;
    if let Some(extra) = args.rest.first() {
        return Err(format!(
            "unexpected argument {extra_q}",
            extra_q = quoted(extra)
        ));
    }
    let goal = match mode.as_str() {
        "host" => host_goal(target, &args)?,
        "join" => Goal::Join {
            code: target.clone(),
        },
        "resume" => {
            let Some(token) = words.get(2).filter(|w| !w.starts_with("--")) else {
                // No token: the seat the account logged in holds.
                let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
                if crate::account::kept_session(server)?.is_none() {
                    return Err(format!(
                        "online resume needs CODE TOKEN (or, logged in on {server}, CODE)"
                    ));
                }
                return run(
                    Goal::ResumeMine {
                        code: target.clone(),
                    },
                    &args,
                );
            };
            let args = crate::args::Args::parse(&words[3..]).map_err(|e| e.0)?;
            return run(
                Goal::Resume(SeatKey {
                    code: target.clone(),
                    token: token.clone(),
                }),
                &args,
            );
        }
        "watch" => Goal::Watch {
            code: target.clone(),
        },
        _ => return Err(format!("online {mode}: use host, join, resume or watch")),
    };
    run(goal, &args)
}

fn what_follows(mode: &str) -> &'static str {
    match mode {
        "host" => "a game (adamas, absorption, adaptoid, adomoc)",
        "resume" => "CODE TOKEN (or CODE, logged in)",
        _ => "a game code",
    }
}

fn host_goal(game: &str, args: &Args) -> Result<Goal, String> {
    let terms = host_terms(game, args)?;
    Ok(Goal::Create {
        game: terms.game,
        settings: terms.settings,
        seat: terms.seat.unwrap_or(0),
        pace: terms.pace,
        move_seconds: terms.move_seconds,
        rated: terms.rated,
    })
}

/// The game `host` or `challenge` asks for: the game, `--option`s, `--take`, `--pace`,
/// `--move-seconds` and `--rated` (no `--take`: the first seat to host, either to
/// challenge).
pub fn host_terms(game: &str, args: &Args) -> Result<ChallengeTerms, String> {
    let kind = GameKind::parse(game)?;
    let settings = setup::settings(args)?;
    let pace = match args.pace.as_deref() {
        None | Some("live") => Pace::Live,
        Some("correspondence") => Pace::Correspondence,
        Some(other) => {
            return Err(format!(
                "--pace is live or correspondence, not {other_q}",
                other_q = quoted(other)
            ));
        }
    };
    let seat = match args.take {
        None => None,
        Some(0) => return Err("--take counts seats from 1".into()),
        Some(n) => Some(n - 1),
    };
    Ok(ChallengeTerms {
        game: kind.key().to_string(),
        settings,
        seat,
        pace,
        move_seconds: args.move_seconds,
        rated: args.rated,
    })
}

pub fn run(goal: Goal, args: &Args) -> Result<(), String> {
    let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
    let watching = matches!(goal, Goal::Watch { .. });
    let seat = Seat::parse(args.seat.as_deref().unwrap_or("human"))?;
    let mut client = OnlineClient::start(server, goal)?;
    if let Some(kept) = crate::account::kept_session(server)? {
        eprintln!(
            "playing as {} (logged in on {server})",
            tabula_rules::text::shown_line(&kept.name)
        );
        client.use_session(kept.session);
    }
    let mut shown = Shown::default();
    let result = match seat.spec() {
        Some(spec) if !watching => play_as_bot(&mut client, &spec, args, &mut shown)?,
        _ => match play_as_person(&mut client, &mut shown, watching)? {
            Some(result) => result,
            None => return Ok(()),
        },
    };
    let game = client.game().ok_or("the game never arrived")?;
    println!("{result}");
    println!("{}", game.game.position_string());
    Ok(())
}

/// What the terminal has printed, so each thing is said once.
#[derive(Default)]
struct Shown {
    code: bool,
    board_at: Option<usize>,
    connected: bool,
    /// That the server could not be reached was said, since the last connection.
    unreachable_said: bool,
    /// Which seats were taken when last shown.
    taken: Vec<bool>,
    /// A prompt is on the last line, waiting for input.
    prompt_open: bool,
}

/// Prints an update as the terminal shows it; whether anything was printed. What comes
/// while a prompt waits for input goes on a line of its own.
fn show(client: &OnlineClient, update: &Update, shown: &mut Shown) -> bool {
    let text = describe(client, update, shown);
    if text.is_empty() {
        return false;
    }
    if shown.prompt_open {
        println!();
        shown.prompt_open = false;
    }
    print!("{text}");
    let _ = std::io::stdout().flush();
    true
}

/// What the terminal says of an update: lines, or nothing.
fn describe(client: &OnlineClient, update: &Update, shown: &mut Shown) -> String {
    let mut out = String::new();
    match update {
        Update::Seated(key) => {
            if !shown.code {
                shown.code = true;
                out += &format!(
                    "code: {}\nTo come back to this seat: tabula-cli online resume {} {}\n",
                    key.code, key.code, key.token
                );
            }
        }
        Update::Connected => {
            if shown.connected || shown.unreachable_said {
                out += "Connected again.\n";
            }
            shown.connected = true;
            shown.unreachable_said = false;
        }
        Update::Disconnected(why) => {
            if shown.connected {
                out += &format!("Connection lost ({why}); trying again...\n");
                // The tries after it fail too until the server is back: said once is enough.
                shown.unreachable_said = true;
            } else if !shown.unreachable_said {
                // Said once, not at every try: the client keeps trying until stopped.
                out += &format!("No connection ({why}); trying again (Ctrl-C stops)...\n");
                shown.unreachable_said = true;
            }
            shown.connected = false;
        }
        Update::Error(message) => out += &format!("server: {message}\n"),
        Update::Answered(answer) => out += &format!("{answer}\n"),
        Update::Moved {
            seat, text, events, ..
        } => {
            if let Some(game) = client.game() {
                out += &format!("{} plays {text}\n", game.game.player_name(*seat));
                for event in events {
                    out += &format!("  {event}\n");
                }
                // The board when this player is to move (a watcher sees every move's).
                if game.is_my_turn() || game.state.your_seat.is_none() {
                    out += &board(game);
                    shown.board_at = Some(game.state.moves.len());
                }
            }
        }
        Update::State => {
            let Some(game) = client.game() else {
                return out;
            };
            if !shown.code && game.state.your_seat.is_none() {
                shown.code = true;
                out += &format!("code: {}\n", game.state.code);
            }
            let taken: Vec<bool> = game.state.seats.iter().map(|s| s.taken).collect();
            if shown.board_at != Some(game.state.moves.len()) {
                out += &board(game);
                shown.board_at = Some(game.state.moves.len());
            } else {
                for (seat, now) in taken.iter().enumerate() {
                    if *now && shown.taken.get(seat) == Some(&false) {
                        out += &format!("{} joined.\n", seat_title(game, seat));
                    }
                }
            }
            shown.taken = taken;
            out += &requests(game);
        }
    }
    out
}

/// A seat as the rules name it, with the account playing it and its rating, if any.
fn seat_title(game: &Followed, seat: usize) -> String {
    let name = game.game.player_name(seat);
    let state = game.state.seats.get(seat);
    match (
        state.and_then(|s| s.player.as_deref()),
        state.and_then(|s| s.rating),
    ) {
        // A server's words, shown as a terminal may print them.
        (Some(player), Some(rating)) => format!("{name} ({} {rating})", shown_player(player)),
        (Some(player), None) => format!("{name} ({})", shown_player(player)),
        _ => name,
    }
}

/// The board, and who is still awaited.
fn board(game: &Followed) -> String {
    let mut out = format!("\n{}\n", game.game.ascii());
    let open = game.state.seats.iter().filter(|s| !s.taken).count();
    if open > 0 {
        out += &format!(
            "Waiting for {open} more player(s): they join with tabula-cli online join {}\n",
            game.state.code
        );
    }
    out
}

/// What the others ask of this player.
fn requests(game: &Followed) -> String {
    let mine = game.state.your_seat;
    let names = |seats: &[usize]| -> String {
        seats
            .iter()
            .map(|&s| game.game.player_name(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let offers: Vec<usize> = game
        .state
        .draw_offers
        .iter()
        .copied()
        .filter(|&s| Some(s) != mine)
        .collect();
    let mut out = String::new();
    if !offers.is_empty() && !game.is_over() {
        out += &format!(
            "{} offer(s) a draw: type draw to accept, nodraw to decline.\n",
            names(&offers)
        );
    }
    if let Some(request) = &game.state.undo_request
        && Some(request.by) != mine
    {
        out += &format!(
            "{} asks to take back their last move (back to move {}): yes or no?\n",
            game.game.player_name(request.by),
            request.to_ply
        );
    }
    out
}

fn play_as_bot(
    client: &mut OnlineClient,
    spec: &BotSpec,
    args: &Args,
    shown: &mut Shown,
) -> Result<String, String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    play_to_end(client, spec, seed, |client, update| {
        show(client, update, shown);
    })
}

/// A person at the terminal; `None` if they left before the end.
fn play_as_person(
    client: &mut OnlineClient,
    shown: &mut Shown,
    watching: bool,
) -> Result<Option<String>, String> {
    let lines = read_lines();
    let mut typed: Vec<String> = Vec::new();
    let mut prompted_at = None;
    loop {
        for update in client.poll(Duration::from_millis(50)) {
            // The prompt is shown again only below something new, never twice in a row.
            if show(client, &update, shown) {
                prompted_at = None;
            }
        }
        let Some(game) = client.game() else { continue };
        if let Some(result) = game.result().filter(|_| game.is_over()) {
            return Ok(Some(result));
        }
        let my_turn = game.is_my_turn() && !client.is_waiting();
        if my_turn && !typed.is_empty() {
            let text = typed.remove(0);
            if let Err(e) = client.play(&text) {
                println!("{e}");
            }
            // Asked again if the server refuses it.
            prompted_at = None;
            continue;
        }
        if my_turn && prompted_at != Some(game.state.moves.len()) {
            prompted_at = Some(game.state.moves.len());
            let name = game.game.player_name(game.game.to_move());
            print!("{name} to move> ");
            let _ = std::io::stdout().flush();
            shown.prompt_open = true;
        }
        let line = match lines.try_recv() {
            Ok(line) => line,
            Err(TryRecvError::Empty) => continue,
            Err(TryRecvError::Disconnected) => {
                if watching || !typed.is_empty() || client.is_waiting() {
                    // Watching needs no input, and moves typed ahead are still played.
                    continue;
                }
                leave_note(client);
                return Ok(None);
            }
        };
        // Whatever was typed, the prompt comes again below it when it is this player's turn.
        prompted_at = None;
        shown.prompt_open = false;
        match line.trim() {
            "" => {}
            "help" => println!("{COMMANDS}"),
            "leave" | "quit" | "exit" => {
                leave_note(client);
                return Ok(None);
            }
            "board" => print!("{}", board(game)),
            "moves" => {
                let (listed, count) = game.game.legal_moves(60);
                println!("{}\n{count} legal moves", listed.join("  "));
            }
            "resign" => client.send(&ClientMsg::Resign),
            "draw" => client.send(&ClientMsg::OfferDraw),
            "nodraw" => client.send(&ClientMsg::DeclineDraw),
            "undo" => client.send(&ClientMsg::RequestUndo),
            "yes" => client.send(&ClientMsg::AnswerUndo { accept: true }),
            "no" => client.send(&ClientMsg::AnswerUndo { accept: false }),
            text if watching => println!("{text:?}: you are watching; type leave to stop"),
            text => {
                typed.extend(game.game.split_moves(text));
                if !game.is_my_turn() {
                    println!("It is not your turn: your move waits until it is.");
                }
            }
        }
    }
}

fn leave_note(client: &OnlineClient) {
    match client.key() {
        Some(key) => println!(
            "You left; the game goes on at the server. Come back with: \
             tabula-cli online resume {} {}",
            key.code, key.token
        ),
        None => println!("You left."),
    }
}

/// The terminal's lines, read on a thread so the game goes on while nobody types.
fn read_lines() -> Receiver<String> {
    let (sender, lines) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}
