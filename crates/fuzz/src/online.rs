//! Targets over the online protocol: what a client sends the server, and what a server
//! (or something posing as one) sends a client.

use crate::{check_error, text};
use tabula_online::Followed;
use tabula_online::protocol::{ClientMsg, ServerMsg};

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
/// to itself; a state sets up the game; and whatever comes after, the game followed holds
/// as many moves as the state it keeps.
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
            (Some(game), msg) => game.apply(msg).map(|_| ()),
            (None, _) => Ok(()),
        };
        match result {
            Ok(()) => {
                if let Some(game) = &followed {
                    // The same moves, though a server may write one another way (an
                    // Adamas merge's sources in another order).
                    assert_eq!(
                        game.game.record().len(),
                        game.state.moves.len(),
                        "moves held"
                    );
                    let _ = (game.to_move(), game.is_my_turn(), game.result());
                }
            }
            // The client asks for the whole state again after an error.
            Err(e) => {
                check_error("server message", &e);
                followed = None;
            }
        }
    }
}
