//! Targets over the texts around a game: records, pasted move lists, bot specs and seats,
//! and the terminal's arguments.

use crate::{check_error, text};
use tabula_bot::BotSpec;
use tabula_cli::args::Args;
use tabula_cli::setup::start_match_with;
use tabula_session::options::read_file_values;
use tabula_session::rules::Game;
use tabula_session::{GameKind, Record, Seat, with_game};

/// A record that reads writes back to the same record; one that loads is saved again as a
/// record that loads to the same game, line and seats.
pub fn record(data: &[u8]) {
    let record = match Record::parse(&text(data)) {
        Ok(record) => record,
        Err(e) => return check_error("record", &e),
    };
    let written = record.to_ron();
    let again = Record::parse(&written)
        .unwrap_or_else(|e| panic!("a record written from a record does not read: {e}"));
    assert_eq!(again, record, "a record reads back differently");
    check_load(&record);
}

fn check_load(record: &Record) {
    let loaded = match record.load() {
        Ok(loaded) => loaded,
        Err(e) => return check_error("record", &e),
    };
    let saved = Record::of(loaded.game.as_ref(), &loaded.seats);
    let reloaded = Record::parse(&saved.to_ron())
        .and_then(|r| r.load())
        .unwrap_or_else(|e| panic!("a loaded record, saved again, does not load: {e}"));
    let (before, after) = (loaded.game.as_ref(), reloaded.game.as_ref());
    assert_eq!(after.position_string(), before.position_string());
    assert_eq!(after.line(), before.line());
    assert_eq!(after.record(), before.record());
    assert_eq!(after.status(), before.status());
    assert_eq!(reloaded.seats, loaded.seats);
}

/// Text pasted into the load window, as moves or as a position, for the game the first
/// byte names: what it makes loads as a record.
pub fn pasted(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let kind = GameKind::ALL[usize::from(selector) % GameKind::ALL.len()];
    let as_position = selector & 4 != 0;
    match Record::pasted(kind, &text(rest), as_position) {
        Ok(record) => check_load(&record),
        Err(e) => check_error("pasted text", &e),
    }
}

/// A bot spec that reads writes back to the same spec; a seat reads back from its name.
pub fn bot_spec(data: &[u8]) {
    let text = text(data);
    match text.parse::<BotSpec>() {
        Ok(spec) => {
            let written = spec.to_string();
            let again: BotSpec = written
                .parse()
                .unwrap_or_else(|e| panic!("{written:?}, written from a spec, does not read: {e}"));
            assert_eq!(again, spec, "{written:?} reads as another spec");
        }
        Err(e) => check_error("bot spec", &e),
    }
    match Seat::parse(&text) {
        Ok(seat) => assert_eq!(Seat::parse(&seat.name()), Ok(seat), "a seat reads back"),
        Err(e) => check_error("seat", &e),
    }
    for players in 2..=3 {
        match Seat::parse_list(&text, players) {
            Ok(seats) => assert_eq!(seats.len(), players),
            Err(e) => check_error("seats", &e),
        }
    }
}

/// The terminal's arguments, separated by NUL bytes (which no argument can hold): a verb,
/// a game and flags. Flags that read set up the game they name as the verbs do, with no
/// file read for an `@FILE` value; bots, seats and a server's address read or say why not.
pub fn cli_args(data: &[u8]) {
    let text = text(data);
    let words: Vec<String> = text.split('\0').map(str::to_string).collect();
    if words.len() < 2 {
        return;
    }
    let args = match Args::parse(&words[2..]) {
        Ok(args) => args,
        Err(e) => return check_error("arguments", &e.0),
    };
    let kind = match GameKind::parse(&words[1]) {
        Ok(kind) => kind,
        Err(e) => return check_error("game", &e),
    };
    let settings = match read_file_values(&args.options, |_| Err("no files here".into())) {
        Ok(settings) => settings,
        Err(e) => return check_error("option files", &e),
    };
    with_game!(kind, G => check_setup::<G>(&settings, &args));
    for spec in [&args.bot, &args.bots, &args.seat].into_iter().flatten() {
        bot_spec(spec.as_bytes());
    }
    if let Some(server) = &args.server {
        match tabula_online::socket_url(server) {
            Ok(url) => assert!(
                url.starts_with("ws://") || url.starts_with("wss://"),
                "{url}"
            ),
            Err(e) => check_error("server address", &e),
        }
    }
}

fn check_setup<G: Game>(settings: &[(String, String)], args: &Args) {
    let game = match start_match_with::<G>(settings, args) {
        Ok(game) => game,
        Err(e) => return check_error("setup", &e),
    };
    game.game()
        .check_invariants()
        .unwrap_or_else(|e| panic!("a game set up from arguments breaks an invariant: {e}"));
    if let Some(seats) = &args.seats {
        match Seat::parse_list(seats, game.game().num_players()) {
            Ok(seats) => assert_eq!(seats.len(), game.game().num_players()),
            Err(e) => check_error("seats", &e),
        }
    }
}
