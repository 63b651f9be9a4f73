//! "My games" in the lobby: one connection to the server asks after the seats kept for it
//! and lists each game with whose turn it is.

use super::{AccountChanged, Accounts, KeptSeats, OnlineWake};
use crate::screens::Screen;
use crate::storage::Storage;
use bevy::prelude::*;
use tabula_online::protocol::{ClientMsg, GameSummary};
use tabula_online::{Connection, Event};
use tabula_session::rules::text::shown_line;

/// The games of the seats kept for `server`, as the server last told them.
#[derive(Resource, Default)]
pub struct MyGames {
    pub server: String,
    connection: Option<Connection>,
    pub games: Option<Vec<GameSummary>>,
    /// Why there is no list (yet).
    pub status: Option<String>,
    /// What the server refused on the way (a session it no longer takes), shown with the
    /// list.
    pub notice: Option<String>,
}

/// Ask `server` about the kept seats.
#[derive(Message, Clone, Debug)]
pub struct AskMyGames {
    pub server: String,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<MyGames>()
        .add_message::<AskMyGames>()
        .add_systems(OnExit(Screen::Online), hang_up)
        .add_systems(
            Update,
            (ask_again_as_the_account, ask, listen)
                .chain()
                .run_if(in_state(Screen::Online)),
        );
}

/// Logged in or out: the list is asked again, as who the player is now.
fn ask_again_as_the_account(
    mut changed: MessageReader<AccountChanged>,
    mut ask: MessageWriter<AskMyGames>,
) {
    if let Some(change) = changed.read().last() {
        ask.write(AskMyGames {
            server: change.server.clone(),
        });
    }
}

fn ask(
    mut requests: MessageReader<AskMyGames>,
    mut mine: ResMut<MyGames>,
    kept: Res<KeptSeats>,
    accounts: Res<Accounts>,
    wake: Option<Res<OnlineWake>>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    mine.server = request.server.clone();
    mine.games = None;
    mine.notice = None;
    mine.connection = None;
    if kept.on(&request.server).next().is_none() && accounts.on(&request.server).is_none() {
        mine.status = Some("No games on this server yet.".into());
        return;
    }
    match Connection::open(&request.server, wake.map(|w| w.0.clone())) {
        Ok(connection) => {
            mine.connection = Some(connection);
            mine.status = Some("Asking the server…".into());
        }
        Err(e) => mine.status = Some(e),
    }
}

fn listen(
    mut mine: ResMut<MyGames>,
    kept: Res<KeptSeats>,
    mut accounts: ResMut<Accounts>,
    storage: Res<Storage>,
) {
    let Some(connection) = &mine.connection else {
        return;
    };
    for event in connection.drain() {
        match event {
            Event::Connected => {
                let seats = kept.on(&mine.server).map(|s| s.key()).collect();
                if let Some(connection) = &mine.connection {
                    // Logged in first, so the account's games come too.
                    if let Some(account) = accounts.on(&mine.server) {
                        connection.send(&ClientMsg::Authenticate {
                            session: account.session.clone(),
                        });
                    }
                    connection.send(&ClientMsg::MyGames { seats });
                }
            }
            Event::Disconnected(why) => {
                if mine.games.is_none() {
                    mine.status = Some(format!("Trying again: {}", shown_line(&why)));
                }
            }
            Event::Message(tabula_online::protocol::ServerMsg::Games { games }) => {
                mine.status = None;
                mine.games = Some(games);
                // One answer is all the lobby needs; "Refresh" asks again.
                mine.connection = None;
            }
            Event::Message(tabula_online::protocol::ServerMsg::Error {
                message,
                session_ended,
                ..
            }) => {
                // A server's words, shown escaped and cut as everywhere.
                mine.notice = Some(shown_line(&message));
                // A session the server says is not valid is no use kept.
                if session_ended && let Err(e) = accounts.forget(&mine.server, &storage) {
                    warn!("{e}");
                }
            }
            Event::Message(_) => {}
        }
    }
}

fn hang_up(mut mine: ResMut<MyGames>) {
    mine.connection = None;
}
