//! Online games in the app: a game kept by a server, followed through `tabula-online`'s
//! client. The server's line is the game's: moves it stored enter the turn as
//! [`PlayerInput::ServerMove`](crate::turn::PlayerInput::ServerMove), the person's moves go
//! to it once played here, and anything else it decided (a take-back granted, a move it
//! refused) puts the board back in step with it. Nothing here decides a rule.

mod account;
mod challenges;
mod follow;
mod invite;
mod kept;
mod lobby;
mod standings;
mod turns;

pub use account::{AccountAsk, AccountChanged, AccountDesk, Accounts, AskAccount};
pub use challenges::{AskChallenges, ChallengeAsk, ChallengeFeed};
pub use follow::match_for;
pub use kept::{KeptSeat, KeptSeats, SEATS_FILE};
pub use lobby::{AskMyGames, MyGames};
pub use standings::{AskStandings, Standings, StandingsAsk};
pub use turns::{NextGame, YourTurns};

use crate::AppSystems;
use crate::config::ConfigProblems;
use crate::current_game::CurrentGame;
use crate::screens::{InGame, Screen};
use crate::storage::Storage;
use crate::turn::Travel;
use bevy::prelude::*;
use tabula_online::protocol::ClientMsg;
use tabula_online::{Goal, OnlineClient, Wake};

/// The online game this app follows: from the moment it asks the server until it leaves
/// the game.
#[derive(Resource)]
pub struct OnlineGame {
    pub client: OnlineClient,
    pub server: String,
    /// The match that shows the game, once the game arrived.
    pub match_id: Option<u64>,
    pub connected: bool,
    /// How many times the connection came up.
    pub connections: u32,
    /// Whether the request is asked only once (a create or a join, not a resume or watch).
    pub asks_once: bool,
    /// The person's move last sent (its ply and text), so it is sent once.
    pub sent: Option<(usize, String)>,
    /// What the server refused last, or why the connection is down, for the screen.
    pub notice: Option<String>,
    /// How the others answered the player's draw offer or take-back request, until the
    /// next move.
    pub answer: Option<String>,
}

/// Wakes the app when something arrives from a server: the app draws only on input, and
/// an opponent's move is not input here.
#[derive(Resource, Clone)]
pub struct OnlineWake(pub Wake);

/// Connect to a server for a game: create one, join one, come back to a seat, or watch.
#[derive(Message, Clone, Debug)]
pub struct GoOnline {
    pub server: String,
    pub goal: Goal,
}

/// What the player asks of the server during an online game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnlineAction {
    Resign,
    /// Offers a draw, or accepts the one offered.
    OfferDraw,
    DeclineDraw,
    RequestUndo,
    AnswerUndo(bool),
}

/// Why the last attempt to go online ended before its game arrived, for the lobby.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct OnlineProblem(pub Option<String>);

/// The server address to offer first: the one used last, else the page's own server in
/// the browser and a server on this machine on the desktop.
pub fn default_server(kept: &KeptSeats) -> String {
    kept.server.clone().unwrap_or_else(platform_server)
}

#[cfg(not(target_arch = "wasm32"))]
fn platform_server() -> String {
    "http://127.0.0.1:8080".to_string()
}

#[cfg(target_arch = "wasm32")]
fn platform_server() -> String {
    crate::web_page::origin().unwrap_or_else(|| "http://127.0.0.1:8080".to_string())
}

pub fn plugin(app: &mut App) {
    app.add_message::<GoOnline>()
        .add_message::<OnlineAction>()
        .init_resource::<KeptSeats>()
        .init_resource::<OnlineProblem>()
        .add_systems(Startup, read_kept_seats)
        .add_systems(OnEnter(Screen::Title), leave)
        .add_systems(OnEnter(Screen::NewGame), leave)
        .add_systems(Update, go_online)
        .add_systems(
            Update,
            (
                follow::take_news,
                follow::keep_seat,
                follow::start_match.run_if(in_state(Screen::Online)),
                follow::follow_server.run_if(in_state(InGame)),
            )
                .chain()
                .after(go_online)
                .in_set(AppSystems::Think)
                .distributive_run_if(resource_exists::<OnlineGame>),
        )
        .add_systems(
            Update,
            (follow::send_moves, act)
                .chain()
                .in_set(AppSystems::Keep)
                .distributive_run_if(resource_exists::<OnlineGame>)
                .run_if(in_state(InGame)),
        )
        .add_plugins((
            lobby::plugin,
            invite::plugin,
            account::plugin,
            standings::plugin,
            challenges::plugin,
            turns::plugin,
        ));
}

fn read_kept_seats(
    storage: Res<Storage>,
    mut kept: ResMut<KeptSeats>,
    mut problems: ResMut<ConfigProblems>,
) {
    let (seats, problem) = KeptSeats::read(&storage);
    *kept = seats;
    problems.0.extend(problem);
}

/// Starts following a game; a game followed before is left.
fn go_online(
    mut commands: Commands,
    mut requests: MessageReader<GoOnline>,
    wake: Option<Res<OnlineWake>>,
    mut problem: ResMut<OnlineProblem>,
    mut kept: ResMut<KeptSeats>,
    storage: Res<Storage>,
    accounts: Res<Accounts>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    let wake = wake.map(|wake| wake.0.clone());
    match OnlineClient::start_waking(&request.server, request.goal.clone(), wake) {
        Ok(mut client) => {
            // Logged in, the game is the account's.
            if let Some(account) = accounts.on(&request.server) {
                client.use_session(account.session.clone());
            }
            problem.0 = None;
            if kept.server.as_deref() != Some(request.server.as_str()) {
                kept.server = Some(request.server.clone());
                // The address is a convenience; a game is not held up for it.
                if let Err(e) = kept.save(&storage) {
                    warn!("{e}");
                }
            }
            commands.insert_resource(OnlineGame {
                client,
                server: request.server.clone(),
                match_id: None,
                connected: false,
                connections: 0,
                asks_once: matches!(
                    request.goal,
                    Goal::Create { .. } | Goal::Join { .. } | Goal::Accept { .. }
                ),
                sent: None,
                notice: None,
                answer: None,
            });
        }
        Err(e) => {
            problem.0 = Some(e);
            commands.remove_resource::<OnlineGame>();
        }
    }
}

/// Leaving for the title or a new game closes the connection; the server keeps the game.
fn leave(mut commands: Commands) {
    commands.remove_resource::<OnlineGame>();
}

/// Sends the player's requests; an undo (the button or Ctrl+Z) asks the opponent.
fn act(
    mut actions: MessageReader<OnlineAction>,
    mut travel: MessageReader<Travel>,
    mut online: ResMut<OnlineGame>,
    game: Res<CurrentGame>,
) {
    // Once the game is over, its line is the player's to look through.
    let undo = (travel.read().any(|request| *request == Travel::Undo) && !game.is_over())
        .then_some(OnlineAction::RequestUndo);
    for action in actions.read().copied().chain(undo) {
        let msg = match action {
            OnlineAction::Resign => ClientMsg::Resign,
            OnlineAction::OfferDraw => ClientMsg::OfferDraw,
            OnlineAction::DeclineDraw => ClientMsg::DeclineDraw,
            OnlineAction::RequestUndo => ClientMsg::RequestUndo,
            OnlineAction::AnswerUndo(accept) => ClientMsg::AnswerUndo { accept },
        };
        if !online.connected {
            online.notice = Some("Not connected: try again once the server is back.".into());
            continue;
        }
        online.client.send(&msg);
    }
}
