//! "Your turn" in the app: while the player is logged in on the server they used last, one
//! connection follows the games waiting for their move. Their count shows in the window's
//! title (the browser tab's too), on the title screen and in an online game's panel, where
//! **Next game** opens the one waiting longest. In the browser, a game that comes to wait
//! while another is on screen (or the page is hidden) brings a notice, once the player
//! allowed them (`crate::web_notices`).

use super::{Accounts, GoOnline, KeptSeats, OnlineWake, default_server};
use crate::screens::Screen;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use tabula_online::protocol::{ClientMsg, GameSummary, ServerMsg};
use tabula_online::{Connection, Event, Goal, secrets_allowed, socket_url};

/// The games waiting for the player's move on the server they used last.
#[derive(Resource, Default)]
pub struct YourTurns {
    /// The server and session followed.
    followed: Option<(String, String)>,
    connection: Option<Connection>,
    /// The server the games are on.
    pub server: String,
    /// The one waiting longest first.
    pub games: Vec<GameSummary>,
}

impl YourTurns {
    /// The games waiting besides `current` (the game on screen), the longest waiting first.
    pub fn others<'a>(
        &'a self,
        current: Option<&'a str>,
    ) -> impl Iterator<Item = &'a GameSummary> + 'a {
        self.games
            .iter()
            .filter(move |game| Some(game.code.as_str()) != current)
    }
}

/// Opens the game waiting longest (besides the one on screen, `besides`).
#[derive(Message, Clone, Debug)]
pub struct NextGame {
    pub besides: Option<String>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<YourTurns>()
        .add_message::<NextGame>()
        .add_systems(
            Update,
            (follow_the_account, listen, title, next_game).chain(),
        );
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, (say_what_is_on_screen, open_the_game_clicked));
}

/// Tells the browser's notices which game is on screen (it has no notice).
#[cfg(target_arch = "wasm32")]
fn say_what_is_on_screen(online: Option<Res<super::OnlineGame>>) {
    let code = online
        .as_ref()
        .and_then(|online| online.client.game())
        .map(|game| game.state.code.as_str());
    crate::web_notices::set_on_screen(code);
}

/// A notice clicked: its game opens.
#[cfg(target_arch = "wasm32")]
fn open_the_game_clicked(
    turns: Res<YourTurns>,
    mut go: MessageWriter<GoOnline>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(code) = crate::web_notices::take_opened() {
        go.write(GoOnline {
            server: turns.server.clone(),
            goal: Goal::ResumeMine { code },
        });
        next.set(Screen::Online);
    }
}

/// Follows the turns of the account kept for the server used last, once a session may go
/// there; another account or server is followed afresh.
fn follow_the_account(
    mut turns: ResMut<YourTurns>,
    kept: Res<KeptSeats>,
    accounts: Res<Accounts>,
    wake: Option<Res<OnlineWake>>,
) {
    if !kept.is_changed() && !accounts.is_changed() {
        return;
    }
    let server = default_server(&kept);
    let wanted = accounts
        .on(&server)
        .filter(|_| {
            socket_url(&server)
                .and_then(|url| secrets_allowed(&url))
                .is_ok()
        })
        .map(|account| (server.clone(), account.session.clone()));
    if wanted == turns.followed {
        return;
    }
    turns.games.clear();
    turns.connection = None;
    turns.followed = wanted.clone();
    if let Some((server, _)) = wanted {
        turns.server = server.clone();
        // A server that cannot be reached now is tried again by the connection itself.
        turns.connection = Connection::open(&server, wake.as_ref().map(|w| w.0.clone())).ok();
        // In the browser the socket greets the server itself each time it opens: a hidden
        // tab, which runs no frames, then still follows its turns after a reconnect.
        #[cfg(target_arch = "wasm32")]
        if let (Some(connection), Some((_, session))) = (&turns.connection, &turns.followed) {
            connection.greet_with(&greeting(session));
            crate::web_notices::watch_turns(connection);
        }
    }
}

fn listen(mut turns: ResMut<YourTurns>) {
    let turns = &mut *turns;
    let Some(connection) = &turns.connection else {
        return;
    };
    let mut ended = false;
    for event in connection.drain() {
        match event {
            // Each time it comes back: logged in, then the turns again (in the browser, the
            // socket sent them already).
            Event::Connected =>
            {
                #[cfg(not(target_arch = "wasm32"))]
                if let Some((_, session)) = &turns.followed {
                    for msg in greeting(session) {
                        connection.send(&msg);
                    }
                }
            }
            Event::Message(ServerMsg::Waiting { games }) => turns.games = games,
            // The session ended: nothing to follow until the player logs in again.
            Event::Message(ServerMsg::Error {
                session_ended: true,
                ..
            }) => ended = true,
            _ => {}
        }
    }
    if ended {
        turns.connection = None;
        turns.games.clear();
    }
}

/// What a connection says first, each time it opens: who it is, and that it follows the
/// turns.
fn greeting(session: &str) -> [ClientMsg; 2] {
    [
        ClientMsg::Authenticate {
            session: session.to_string(),
        },
        ClientMsg::FollowTurns,
    ]
}

/// The window's title carries the count; in the browser, the tab's title.
fn title(turns: Res<YourTurns>, mut window: Query<&mut Window, With<PrimaryWindow>>) {
    if !turns.is_changed() {
        return;
    }
    let Ok(mut window) = window.single_mut() else {
        return;
    };
    let wanted = window_title(turns.games.len());
    if window.title != wanted {
        window.title = wanted;
    }
    #[cfg(target_arch = "wasm32")]
    crate::web_notices::set_page_title(turns.games.len());
}

pub fn window_title(waiting: usize) -> String {
    match waiting {
        0 => "Tabula".to_string(),
        n => format!("Tabula ({n}) · your move"),
    }
}

/// Opens the game waiting longest through the online screen, which starts it.
fn next_game(
    mut asked: MessageReader<NextGame>,
    turns: Res<YourTurns>,
    mut go: MessageWriter<GoOnline>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(ask) = asked.read().last() else {
        return;
    };
    let Some(game) = turns.others(ask.besides.as_deref()).next() else {
        return;
    };
    go.write(GoOnline {
        server: turns.server.clone(),
        goal: Goal::ResumeMine {
            code: game.code.clone(),
        },
    });
    next.set(Screen::Online);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(code: &str) -> GameSummary {
        GameSummary {
            code: code.into(),
            game: "adomoc".into(),
            your_seat: 0,
            moves: 2,
            to_move: Some(0),
            result: None,
            open_seats: 0,
            account: true,
        }
    }

    #[test]
    fn the_next_game_is_the_one_waiting_longest_besides_the_one_on_screen() {
        let turns = YourTurns {
            games: vec![line("AAAAAA"), line("BBBBBB")],
            ..default()
        };
        let next = |besides| turns.others(besides).next().map(|g| g.code.as_str());
        assert_eq!(next(None), Some("AAAAAA"));
        assert_eq!(next(Some("AAAAAA")), Some("BBBBBB"));
        assert_eq!(next(Some("CCCCCC")), Some("AAAAAA"));
        assert_eq!(window_title(0), "Tabula");
        assert_eq!(window_title(2), "Tabula (2) · your move");
    }
}
