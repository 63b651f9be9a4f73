//! Targets over the online protocol: what a client sends the server, and what a server
//! (or something posing as one) sends a client.

use crate::{check_error, text};
use tabula_online::protocol::{ClientMsg, ServerMsg, UndoRequest};
use tabula_online::sessions::KeptSessions;
use tabula_online::{Change, Followed};
use tabula_session::rules::text::shows_as_is;

/// The sessions a player keeps (`online-sessions.ron`): a file that reads writes back to
/// the same sessions, and a server looked up in it never panics.
pub fn sessions_file(data: &[u8]) {
    match KeptSessions::parse(&text(data)) {
        Ok(kept) => {
            let again = KeptSessions::parse(&kept.to_text()).unwrap_or_else(|e| {
                panic!("a sessions file written from sessions does not read: {e}")
            });
            assert_eq!(again, kept, "a sessions file reads back differently");
            for session in &kept.sessions {
                let _ = kept.get(&session.server);
            }
        }
        Err(e) => check_error("sessions file", &e),
    }
}

/// A client's message that reads writes back to the same message.
pub fn client_message(data: &[u8]) {
    match ClientMsg::from_json(&text(data)) {
        Ok(msg) => {
            let again = ClientMsg::from_json(&msg.to_json())
                .unwrap_or_else(|e| panic!("a message written from a message does not read: {e}"));
            assert_eq!(again, msg, "a client message reads back differently");
        }
        Err(e) => check_error("client message", &e),
    }
}

/// Lines of server messages, as a followed game takes them in: each that reads writes back
/// to itself; a state sets up the game; a message refused leaves the game followed as it
/// was (the client keeps it); and whatever comes, the game followed holds as many moves as
/// the state it keeps, and all it would show is safe to show.
pub fn server_messages(data: &[u8]) {
    let text = text(data);
    let mut followed: Option<Followed> = None;
    for line in text.lines().take(64) {
        let msg = match ServerMsg::from_json(line) {
            Ok(msg) => msg,
            Err(e) => {
                check_error("server message", &e);
                continue;
            }
        };
        let again = ServerMsg::from_json(&msg.to_json())
            .unwrap_or_else(|e| panic!("a message written from a message does not read: {e}"));
        assert_eq!(again, msg, "a server message reads back differently");
        let result = match (&mut followed, &msg) {
            (None, ServerMsg::State(state)) => {
                Followed::from_state((**state).clone()).map(|f| followed = Some(f))
            }
            (Some(game), msg) => {
                let before = (game.state.clone(), game.game.record().to_vec());
                let change = game.apply(msg);
                match &change {
                    Ok(Change::Moved { seat, text, .. }) => {
                        assert!(*seat < game.game.num_players(), "a move from seat {seat}");
                        assert!(shows_as_is(text), "a move shown as {text:?}");
                    }
                    Ok(_) => {}
                    Err(_) => assert!(
                        before == (game.state.clone(), game.game.record().to_vec()),
                        "a refused message changed the game followed"
                    ),
                }
                change.map(|_| ())
            }
            (None, _) => Ok(()),
        };
        if let Err(e) = result {
            check_error("server message", &e);
        }
        if let Some(game) = &followed {
            // The same moves, though a server may write one another way (an Adamas
            // merge's sources in another order).
            assert_eq!(
                game.game.record().len(),
                game.state.moves.len(),
                "moves held"
            );
            let _ = (game.to_move(), game.is_my_turn(), game.result());
            check_followed(game);
        }
    }
}

/// What a client shows of a followed game is safe to show: every seat the state names is
/// one of the game's, and every text from the server prints as it is.
fn check_followed(followed: &Followed) {
    let state = &followed.state;
    let players = followed.game.num_players();
    let seats = state
        .ending
        .and_then(|ending| ending.seat())
        .into_iter()
        .chain(state.your_seat)
        .chain(state.draw_offers.iter().copied())
        .chain(state.undo_request.iter().flat_map(UndoRequest::seats));
    for seat in seats {
        assert!(seat < players, "seat {seat} of {players} kept");
    }
    assert_eq!(state.seats.len(), players, "seats kept");
    assert!(
        state.ending.is_none() || state.result.is_some(),
        "an ending kept without its result"
    );
    let texts = [&state.code]
        .into_iter()
        .chain(&state.result)
        .chain(state.seats.iter().map(|s| &s.name));
    for text in texts {
        assert!(shows_as_is(text), "{text:?} kept to show");
    }
}
