//! The player's accounts on servers, in the lobby: log in, register, log out. The session a
//! server gives is kept in `online-sessions.ron` with the saved games (the terminal keeps
//! its sessions in the same file, in the same data directory; in the browser, local
//! storage), and every game and "my games" question on that server logs in with it first.
//! A password goes no further than the request that carries it.

use super::OnlineWake;
use crate::config::ConfigProblems;
use crate::screens::Screen;
use crate::storage::Storage;
use bevy::prelude::*;
use tabula_online::protocol::{ClientMsg, ServerMsg};
use tabula_online::sessions::{KeptSession, KeptSessions, SESSIONS_FILE};
use tabula_online::{Connection, Event, secrets_allowed};
use tabula_session::rules::text::shown_line;

/// The sessions kept, one per server.
#[derive(Resource, Default)]
pub struct Accounts {
    kept: KeptSessions,
    /// Why the file could not be read: it is then never written over.
    unreadable: Option<String>,
}

impl Accounts {
    /// The session kept for `server`, if any.
    pub fn on(&self, server: &str) -> Option<&KeptSession> {
        self.kept.get(server)
    }

    /// Forgets the session kept for `server`, on disk too.
    pub fn forget(&mut self, server: &str, storage: &Storage) -> Result<(), String> {
        forget(self, server, storage)
    }

    fn read(storage: &Storage) -> (Accounts, Option<String>) {
        let text = match storage.read(SESSIONS_FILE) {
            Ok(Some(text)) => text,
            Ok(None) => return (Accounts::default(), None),
            Err(e) => {
                let problem = format!("Your online accounts could not be read: {e}");
                let accounts = Accounts {
                    unreadable: Some(problem.clone()),
                    ..Accounts::default()
                };
                return (accounts, Some(problem));
            }
        };
        match KeptSessions::parse(&text) {
            Ok(kept) => (
                Accounts {
                    kept,
                    unreadable: None,
                },
                None,
            ),
            Err(e) => {
                let kept = storage
                    .set_aside(SESSIONS_FILE, "unreadable")
                    .map_or_else(|e| e, |path| format!("kept as {}", path.display()));
                let problem = format!("Your online accounts are damaged ({e}); {kept}.");
                (Accounts::default(), Some(problem))
            }
        }
    }

    fn save(&self, storage: &Storage) -> Result<(), String> {
        if storage.dir.is_none() {
            return Ok(());
        }
        if let Some(why) = &self.unreadable {
            return Err(format!("{why}; it is left as it is"));
        }
        write(storage, &self.kept.to_text())
            .map_err(|e| format!("Your online account could not be kept: {e}"))
    }
}

/// A session is as good as a password while it lasts: on disk, the file (and its backup)
/// are their owner's alone, as the terminal writes them.
#[cfg(not(target_arch = "wasm32"))]
fn write(storage: &Storage, text: &str) -> Result<(), String> {
    let path = storage
        .path(SESSIONS_FILE)
        .ok_or("there is no data directory to save in")?;
    tabula_online::sessions::write_private(&path, text)
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(target_arch = "wasm32")]
fn write(storage: &Storage, text: &str) -> Result<(), String> {
    storage.write(SESSIONS_FILE, text).map(drop)
}

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

/// Where a request is: which answer from the server is the one it waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    /// A login or registration: `logged_in` is the answer.
    #[default]
    LoggingIn,
    /// The kept session was sent first: `logged_in` says it still holds (an error, that it
    /// does not: it is forgotten here). Then the request's own answer.
    Authenticating { forget_anyway: bool },
    /// `forget_anyway`: the session is forgotten here whatever the server answers (a
    /// log-out: the player asked to be out).
    Asked { forget_anyway: bool },
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

fn read_accounts(
    storage: Res<Storage>,
    mut accounts: ResMut<Accounts>,
    mut problems: ResMut<ConfigProblems>,
) {
    let (read, problem) = Accounts::read(&storage);
    *accounts = read;
    problems.0.extend(problem);
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
        | AccountAsk::Delete { .. } => {
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
    let mut events = Vec::new();
    while let Some(event) = connection.try_next() {
        events.push(event);
    }
    for event in events {
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

/// What a server's message means for the request under way.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// Not the answer yet: news, or the kept session taken (then the next stage).
    Wait(Option<Stage>),
    /// Logged in: keep this session.
    Keep {
        name: String,
        session: String,
        expires_ms: u64,
    },
    /// The answer: what to say (a failure or not), whether the session kept here is
    /// forgotten, and whether the games listed may have changed.
    Done {
        said: String,
        failed: bool,
        forget_here: bool,
        changed: bool,
    },
}

fn answer(stage: Stage, msg: ServerMsg) -> Answer {
    let done = |said: &str, forget_here: bool, changed: bool| Answer::Done {
        said: said.to_string(),
        failed: false,
        forget_here,
        changed,
    };
    match (stage, msg) {
        // The kept session holds: the request's own answer comes next.
        (Stage::Authenticating { forget_anyway }, ServerMsg::LoggedIn { .. }) => {
            Answer::Wait(Some(Stage::Asked { forget_anyway }))
        }
        (
            Stage::LoggingIn,
            ServerMsg::LoggedIn {
                name,
                session,
                expires_ms,
            },
        ) => Answer::Keep {
            name,
            session,
            expires_ms,
        },
        (_, ServerMsg::SeatClaimed { code, .. }) => done(
            &format!("Game {} is your account's now.", shown_line(&code)),
            false,
            true,
        ),
        (_, ServerMsg::PasswordChanged) => done(
            "Password changed; your other devices are logged out.",
            false,
            false,
        ),
        (_, ServerMsg::AccountDeleted) => {
            done("Account deleted; its games stay on the server.", true, true)
        }
        (_, ServerMsg::LoggedOut) => done("Logged out.", true, true),
        // A session the server says is not valid is no use here (a passing failure of
        // the server leaves it kept); out is what a player logging out asked for.
        (
            stage,
            ServerMsg::Error {
                message,
                session_ended,
                ..
            },
        ) => Answer::Done {
            said: shown_line(&message),
            failed: true,
            forget_here: session_ended
                || stage
                    == Stage::Asked {
                        forget_anyway: true,
                    },
            changed: session_ended,
        },
        _ => Answer::Wait(None),
    }
}

fn forget(accounts: &mut Accounts, server: &str, storage: &Storage) -> Result<(), String> {
    if accounts.kept.remove(server).is_some() {
        accounts.save(storage)?;
    }
    Ok(())
}

fn hang_up(mut desk: ResMut<AccountDesk>) {
    desk.connection = None;
    desk.outbox.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logged_in() -> ServerMsg {
        ServerMsg::LoggedIn {
            name: "Ada".into(),
            session: "0123456789abcdef".into(),
            expires_ms: 5,
        }
    }

    /// The reproducer: a request sent after the kept session (a new password) took the
    /// session's `logged_in` for its answer, and its own answer went unheard.
    #[test]
    fn a_request_after_the_session_waits_for_its_own_answer() {
        let stage = Stage::Authenticating {
            forget_anyway: false,
        };
        let next = Stage::Asked {
            forget_anyway: false,
        };
        assert_eq!(answer(stage, logged_in()), Answer::Wait(Some(next)));
        let Answer::Done {
            said,
            failed,
            forget_here,
            ..
        } = answer(next, ServerMsg::PasswordChanged)
        else {
            panic!("a new password is an answer")
        };
        assert!(said.contains("Password changed") && !failed && !forget_here);
        // A login's answer is the session itself.
        assert!(matches!(
            answer(Stage::LoggingIn, logged_in()),
            Answer::Keep { .. }
        ));
    }

    #[test]
    fn a_session_the_server_refuses_is_forgotten_and_a_log_out_always_is() {
        let forgets = |stage, error: ServerMsg| matches!(answer(stage, error), Answer::Done { forget_here, .. } if forget_here);
        let refused = || ServerMsg::session_ended("that session is not valid");
        let failed = || ServerMsg::error("the game store failed: disk full");
        let authenticating = Stage::Authenticating {
            forget_anyway: false,
        };
        assert!(forgets(authenticating, refused()));
        // A passing failure of the server keeps the session.
        assert!(!forgets(authenticating, failed()));
        assert!(forgets(
            Stage::Asked {
                forget_anyway: true
            },
            failed()
        ));
        assert!(!forgets(
            Stage::Asked {
                forget_anyway: false
            },
            failed()
        ));
        assert!(!forgets(Stage::LoggingIn, failed()));
        assert!(matches!(
            answer(
                Stage::Asked {
                    forget_anyway: true
                },
                ServerMsg::LoggedOut
            ),
            Answer::Done {
                forget_here: true,
                changed: true,
                ..
            }
        ));
        // News of a game is not an answer.
        assert_eq!(
            answer(Stage::LoggingIn, ServerMsg::Hello { version: 1 }),
            Answer::Wait(None)
        );
    }

    #[test]
    fn sessions_are_kept_for_the_owner_alone_and_a_damaged_file_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::at(dir.path());
        let (mut accounts, problem) = Accounts::read(&storage);
        assert_eq!(problem, None);
        accounts
            .kept
            .set("127.0.0.1:8080", "Ada", "0123456789abcdef", 5)
            .unwrap();
        accounts.save(&storage).unwrap();
        let (again, _) = Accounts::read(&storage);
        assert_eq!(again.on("http://127.0.0.1:8080").unwrap().name, "Ada");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            accounts.save(&storage).unwrap();
            for name in [SESSIONS_FILE.to_string(), format!("{SESSIONS_FILE}.bak")] {
                let path = dir.path().join(name);
                let mode = std::fs::metadata(path).unwrap().permissions().mode();
                assert_eq!(mode & 0o777, 0o600);
            }
        }
        std::fs::write(dir.path().join(SESSIONS_FILE), "(sessions: [oops").unwrap();
        let (damaged, problem) = Accounts::read(&storage);
        assert!(damaged.on("127.0.0.1:8080").is_none());
        let problem = problem.unwrap();
        assert!(problem.contains("damaged"), "{problem}");
        let aside = dir.path().join(format!("{SESSIONS_FILE}.unreadable"));
        assert_eq!(
            std::fs::read_to_string(aside).unwrap(),
            "(sessions: [oops",
            "the damaged file is kept as it was"
        );
    }
}
