//! The lobby's open challenges in the app: one connection follows the server's lobby while
//! the online screen is up (logged in, so challenges named to the player show too), posts
//! and cancels the player's challenges, and opens the game when someone takes one of them.
//! Taking a challenge is a game request ([`Goal::Accept`]), as joining is.

use super::{AccountChanged, Accounts, GoOnline, OnlineWake};
use crate::screens::Screen;
use bevy::prelude::*;
use tabula_online::protocol::house::HouseBots;
use tabula_online::protocol::{Challenge, ChallengeTerms, ClientMsg, ServerMsg};
use tabula_online::{Connection, Event, Goal, secrets_allowed, socket_url};
use tabula_session::rules::text::shown_line;

/// The lobby of one server, as last told.
#[derive(Resource, Default)]
pub struct ChallengeFeed {
    pub server: String,
    connection: Option<Connection>,
    /// The session the lobby is followed with, where one may go.
    session: Option<String>,
    /// The player's requests, sent once the connection is up.
    outbox: Vec<ClientMsg>,
    pub challenges: Vec<Challenge>,
    /// The server's own bots, if it runs them.
    pub house: Option<HouseBots>,
    /// What happened last, for the lobby; `true` if it is a failure.
    pub status: Option<(String, bool)>,
}

/// What the player does in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeAsk {
    /// Follow `server`'s lobby (again: after logging in or out, or another server).
    Follow,
    Post {
        terms: ChallengeTerms,
        to: Option<String>,
    },
    Cancel {
        id: String,
    },
    /// Takes the best-fitting challenge of this game, pace and kind, or posts one.
    PlayNow {
        game: String,
        pace: tabula_online::protocol::Pace,
        rated: bool,
    },
}

#[derive(Message, Clone, Debug)]
pub struct AskChallenges {
    pub server: String,
    pub ask: ChallengeAsk,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<ChallengeFeed>()
        .add_message::<AskChallenges>()
        .add_systems(OnExit(Screen::Online), hang_up)
        .add_systems(
            Update,
            (follow_as_the_account, ask, listen)
                .chain()
                .run_if(in_state(Screen::Online)),
        );
}

/// Logged in or out: the lobby is followed again, as who the player is now.
fn follow_as_the_account(
    mut changed: MessageReader<AccountChanged>,
    mut ask: MessageWriter<AskChallenges>,
) {
    if let Some(change) = changed.read().last() {
        ask.write(AskChallenges {
            server: change.server.clone(),
            ask: ChallengeAsk::Follow,
        });
    }
}

fn ask(
    mut requests: MessageReader<AskChallenges>,
    mut feed: ResMut<ChallengeFeed>,
    accounts: Res<Accounts>,
    wake: Option<Res<OnlineWake>>,
) {
    for request in requests.read() {
        let msg = match &request.ask {
            ChallengeAsk::Follow => None,
            ChallengeAsk::Post { terms, to } => Some(ClientMsg::PostChallenge {
                terms: terms.clone(),
                to: to.clone(),
            }),
            ChallengeAsk::Cancel { id } => Some(ClientMsg::CancelChallenge { id: id.clone() }),
            ChallengeAsk::PlayNow { game, pace, rated } => Some(ClientMsg::PlayNow {
                game: game.clone(),
                pace: *pace,
                rated: *rated,
            }),
        };
        let same_server = feed.server == request.server && feed.connection.is_some();
        if let (true, Some(msg), Some(connection)) = (same_server, &msg, &feed.connection) {
            connection.send(msg);
            continue;
        }
        // A new connection: logged in first where a session may go, then the lobby, then
        // what was asked.
        let session = accounts
            .on(&request.server)
            .map(|kept| kept.session.clone())
            .filter(|_| {
                socket_url(&request.server)
                    .and_then(|url| secrets_allowed(&url))
                    .is_ok()
            });
        feed.server = request.server.clone();
        feed.challenges.clear();
        feed.house = None;
        feed.session = session;
        feed.outbox = msg.into_iter().collect();
        match Connection::open(&request.server, wake.as_ref().map(|w| w.0.clone())) {
            Ok(connection) => {
                feed.connection = Some(connection);
                feed.status = None;
            }
            Err(e) => {
                feed.connection = None;
                feed.status = Some((e, true));
            }
        }
    }
}

fn listen(mut feed: ResMut<ChallengeFeed>, mut go: MessageWriter<GoOnline>) {
    let feed = &mut *feed;
    let Some(connection) = &feed.connection else {
        return;
    };
    for event in connection.drain() {
        match event {
            Event::Connected => {
                if let Some(connection) = &feed.connection {
                    // Each time it comes back: logged in, the lobby again; what the player
                    // asked, once.
                    if let Some(session) = &feed.session {
                        connection.send(&ClientMsg::Authenticate {
                            session: session.clone(),
                        });
                    }
                    connection.send(&ClientMsg::FollowLobby);
                    for msg in std::mem::take(&mut feed.outbox) {
                        connection.send(&msg);
                    }
                }
            }
            Event::Disconnected(why) => {
                feed.status = Some((format!("Lobby: trying again ({})", shown_line(&why)), true));
            }
            Event::Message(msg) => take(feed, msg, &mut go),
        }
    }
}

/// What one message from the lobby changes.
fn take(feed: &mut ChallengeFeed, msg: ServerMsg, go: &mut MessageWriter<GoOnline>) {
    match msg {
        ServerMsg::Lobby { challenges, house } => {
            feed.challenges = challenges;
            feed.house = house;
            if feed.status.as_ref().is_some_and(|(_, failed)| *failed) {
                feed.status = None;
            }
        }
        ServerMsg::ChallengeAdded(challenge)
            if !feed.challenges.iter().any(|c| c.id == challenge.id) =>
        {
            feed.challenges.push(*challenge);
        }
        ServerMsg::ChallengeGone { id } => feed.challenges.retain(|c| c.id != id),
        ServerMsg::ChallengePosted { .. } => {
            feed.status = Some(("Challenge posted: it waits here for a taker.".into(), false));
        }
        // Play now took a challenge: to the game (its seat is the account's).
        ServerMsg::Seated { code, .. } => {
            go.write(GoOnline {
                server: feed.server.clone(),
                goal: Goal::ResumeMine { code },
            });
        }
        // Someone took the player's challenge: to the game.
        ServerMsg::ChallengeAccepted { code, .. } => {
            feed.status = Some((
                format!("Your challenge was taken: game {}.", shown_line(&code)),
                false,
            ));
            go.write(GoOnline {
                server: feed.server.clone(),
                goal: Goal::ResumeMine { code },
            });
        }
        ServerMsg::Error { message, .. } => feed.status = Some((shown_line(&message), true)),
        _ => {}
    }
}

fn hang_up(mut feed: ResMut<ChallengeFeed>) {
    feed.connection = None;
    feed.outbox.clear();
}
