//! The player's accounts on servers, in the lobby: log in, register, log out. The session a
//! server gives is kept in `online-sessions.ron` with the saved games (the terminal keeps
//! its sessions in the same file, in the same data directory; in the browser, local
//! storage), and every game and "my games" question on that server logs in with it first.
//! A password goes no further than the request that carries it.
//!
//! - [`kept`]: the sessions kept, on disk or in local storage.
//! - [`answer`]: what the server's messages mean for a request.

mod answer;
mod kept;

pub use kept::Accounts;

use super::OnlineWake;
use crate::screens::Screen;
use crate::storage::Storage;
use answer::{Answer, Stage, answer};
use bevy::prelude::*;
use kept::{forget, read_accounts};
use tabula_online::protocol::ClientMsg;
use tabula_online::{Connection, Event, secrets_allowed};
use tabula_session::rules::text::shown_line;

/// What the player asks of their account on a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountAsk {
    LogIn {
        name: String,
        password: String,
    },
    Register {
        name: String,
        password: String,
    },
    LogOut,
    LogOutEverywhere,
    /// Makes a seat this device holds by its token the account's.
    Claim {
        code: String,
        token: String,
    },
    ChangePassword {
        old: String,
        new: String,
    },
    /// Deletes the account (its games stay).
    Delete {
        password: String,
    },
    /// The address mailed when a correspondence game waits for the player's move (none
    /// if empty).
    SetEmail {
        address: String,
    },
}

#[derive(Message, Clone, Debug)]
pub struct AskAccount {
    pub server: String,
    pub ask: AccountAsk,
}

/// Sent when an account request is answered, so "my games" is asked again as the account.
#[derive(Message, Clone, Debug)]
pub struct AccountChanged {
    pub server: String,
}

/// The account request under way: its connection and what it asks.
#[derive(Resource, Default)]
pub struct AccountDesk {
    server: String,
    connection: Option<Connection>,
    /// What is sent once the connection is up (the session first, but for a login).
    outbox: Vec<ClientMsg>,
    stage: Stage,
    /// What happened last, for the lobby; `true` if it is a failure.
    pub status: Option<(String, bool)>,
}

impl AccountDesk {
    pub fn is_busy(&self) -> bool {
        self.connection.is_some()
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Accounts>()
        .init_resource::<AccountDesk>()
        .add_message::<AskAccount>()
        .add_message::<AccountChanged>()
        .add_systems(Startup, read_accounts)
        .add_systems(OnExit(Screen::Online), hang_up)
        .add_systems(
            Update,
            (ask, listen).chain().run_if(in_state(Screen::Online)),
        );
}

fn ask(
    mut requests: MessageReader<AskAccount>,
    mut desk: ResMut<AccountDesk>,
    accounts: Res<Accounts>,
    wake: Option<Res<OnlineWake>>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    let session = accounts
        .on(&request.server)
        .map(|kept| kept.session.clone());
    let (outbox, stage) = match &request.ask {
        AccountAsk::LogIn { name, password } => (
            vec![ClientMsg::LogIn {
                name: name.clone(),
                password: password.clone(),
            }],
            Stage::LoggingIn,
        ),
        AccountAsk::Register { name, password } => (
            vec![ClientMsg::Register {
                name: name.clone(),
                password: password.clone(),
            }],
            Stage::LoggingIn,
        ),
        AccountAsk::LogOut
        | AccountAsk::LogOutEverywhere
        | AccountAsk::Claim { .. }
        | AccountAsk::ChangePassword { .. }
        | AccountAsk::Delete { .. }
        | AccountAsk::SetEmail { .. } => {
            let Some(session) = session else {
                desk.status = Some(("Not logged in on this server.".into(), true));
                return;
            };
            let (then, forget_anyway) = match &request.ask {
                AccountAsk::LogOut => (ClientMsg::LogOut, true),
                AccountAsk::Claim { code, token } => (
                    ClientMsg::ClaimSeat {
                        code: code.clone(),
                        token: token.clone(),
                    },
                    false,
                ),
                AccountAsk::ChangePassword { old, new } => (
                    ClientMsg::ChangePassword {
                        old: old.clone(),
                        new: new.clone(),
                    },
                    false,
                ),
                AccountAsk::Delete { password } => (
                    ClientMsg::DeleteAccount {
                        password: password.clone(),
                    },
                    false,
                ),
                AccountAsk::SetEmail { address } => (
                    ClientMsg::SetEmailAddress {
                        address: address.clone(),
                    },
                    false,
                ),
                _ => (ClientMsg::LogOutEverywhere, true),
            };
            (
                vec![ClientMsg::Authenticate { session }, then],
                Stage::Authenticating { forget_anyway },
            )
        }
    };
    // Every request here carries a password or a session: refused at once where it may
    // not go, rather than after connecting.
    if let Err(why) =
        tabula_online::socket_url(&request.server).and_then(|url| secrets_allowed(&url))
    {
        desk.connection = None;
        desk.status = Some((why, true));
        return;
    }
    desk.server = request.server.clone();
    desk.outbox = outbox;
    desk.stage = stage;
    match Connection::open(&request.server, wake.map(|w| w.0.clone())) {
        Ok(connection) => {
            desk.connection = Some(connection);
            desk.status = Some(("Asking the server…".into(), false));
        }
        Err(e) => desk.status = Some((e, true)),
    }
}

fn listen(
    mut desk: ResMut<AccountDesk>,
    mut accounts: ResMut<Accounts>,
    storage: Res<Storage>,
    mut changed: MessageWriter<AccountChanged>,
) {
    // One borrow, so the connection and the outbox can be used together.
    let desk = &mut *desk;
    let Some(connection) = &desk.connection else {
        return;
    };
    for event in connection.drain() {
        let Some(connection) = &desk.connection else {
            return;
        };
        let server = desk.server.clone();
        match event {
            Event::Connected => {
                for msg in std::mem::take(&mut desk.outbox) {
                    connection.send(&msg);
                }
            }
            // A request is not retried: the player asks again.
            Event::Disconnected(why) => {
                desk.connection = None;
                desk.status = Some((format!("Not reached: {}", shown_line(&why)), true));
            }
            Event::Message(msg) => match answer(desk.stage, msg) {
                Answer::Wait(next) => desk.stage = next.unwrap_or(desk.stage),
                Answer::Keep {
                    name,
                    session,
                    expires_ms,
                } => {
                    desk.connection = None;
                    let kept = accounts.kept.set(&server, &name, &session, expires_ms);
                    let saved = kept.and_then(|()| accounts.save(&storage));
                    desk.status = Some(match saved {
                        Ok(()) => (format!("Logged in as {}.", shown_line(&name)), false),
                        Err(e) => (format!("Logged in, but {e}"), true),
                    });
                    changed.write(AccountChanged { server });
                }
                Answer::Done {
                    said,
                    failed,
                    forget_here,
                    changed: list_changed,
                } => {
                    desk.connection = None;
                    desk.status = Some(match forget_here {
                        true => match forget(&mut accounts, &server, &storage) {
                            Ok(()) => (said, failed),
                            Err(e) => (format!("{said}; {e}"), true),
                        },
                        false => (said, failed),
                    });
                    if list_changed || forget_here {
                        changed.write(AccountChanged { server });
                    }
                }
            },
        }
    }
}

fn hang_up(mut desk: ResMut<AccountDesk>) {
    desk.connection = None;
    desk.outbox.clear();
}
