//! Ratings in the lobby: a leaderboard or a player's page, asked of the server on a
//! connection of their own (anyone may ask; no session is sent).

use super::OnlineWake;
use crate::screens::Screen;
use bevy::prelude::*;
use tabula_online::protocol::ratings::PlayerPage;
use tabula_online::protocol::{ClientMsg, RankedPlayer, ServerMsg};
use tabula_online::{Connection, Event};
use tabula_session::rules::text::shown_line;

/// What the player asks to see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandingsAsk {
    Leaderboard { pool: String },
    Player { name: String },
}

#[derive(Message, Clone, Debug)]
pub struct AskStandings {
    pub server: String,
    pub ask: StandingsAsk,
}

/// What the server said last: the leaderboard or the page on show.
#[derive(Resource, Default)]
pub struct Standings {
    connection: Option<Connection>,
    asked: Option<ClientMsg>,
    pub leaderboard: Option<(String, Vec<RankedPlayer>)>,
    pub page: Option<PlayerPage>,
    /// Why nothing is shown (yet).
    pub status: Option<String>,
}

impl Standings {
    pub fn is_busy(&self) -> bool {
        self.connection.is_some()
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Standings>()
        .add_message::<AskStandings>()
        .add_systems(OnExit(Screen::Online), hang_up)
        .add_systems(
            Update,
            (ask, listen).chain().run_if(in_state(Screen::Online)),
        );
}

fn ask(
    mut requests: MessageReader<AskStandings>,
    mut standings: ResMut<Standings>,
    wake: Option<Res<OnlineWake>>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    standings.asked = Some(match &request.ask {
        StandingsAsk::Leaderboard { pool } => ClientMsg::Leaderboard { pool: pool.clone() },
        StandingsAsk::Player { name } => ClientMsg::Player { name: name.clone() },
    });
    match Connection::open(&request.server, wake.map(|w| w.0.clone())) {
        Ok(connection) => {
            standings.connection = Some(connection);
            standings.status = Some("Asking the server…".into());
        }
        Err(e) => {
            standings.connection = None;
            standings.status = Some(e);
        }
    }
}

fn listen(mut standings: ResMut<Standings>) {
    let Some(connection) = &standings.connection else {
        return;
    };
    for event in connection.drain() {
        match event {
            Event::Connected => {
                if let (Some(connection), Some(msg)) = (&standings.connection, &standings.asked) {
                    connection.send(msg);
                }
            }
            // Not retried: the player asks again.
            Event::Disconnected(why) => {
                standings.connection = None;
                standings.status = Some(format!("Not reached: {}", shown_line(&why)));
            }
            Event::Message(ServerMsg::Leaderboard { pool, players }) => {
                standings.connection = None;
                standings.status = None;
                standings.leaderboard = Some((pool, players));
                standings.page = None;
            }
            Event::Message(ServerMsg::Player(page)) => {
                standings.connection = None;
                standings.status = None;
                standings.page = Some(*page);
            }
            Event::Message(ServerMsg::Error { message, .. }) => {
                standings.connection = None;
                standings.status = Some(shown_line(&message));
            }
            Event::Message(_) => {}
        }
    }
}

fn hang_up(mut standings: ResMut<Standings>) {
    standings.connection = None;
}
