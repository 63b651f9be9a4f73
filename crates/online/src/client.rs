//! One seat (or a watcher) in one online game: the connection, what to ask the server
//! each time it connects, the game as followed, and a move waiting for the server.

use crate::answers::Asked;
use crate::connection::{Connection, Event, Wake};
use crate::followed::{Change, Followed};
use crate::protocol::{ClientMsg, PROTOCOL_VERSION, Pace, SeatKey, ServerMsg, is_key_text};
use tabula_session::rules::text::{quoted, shown_line};
use web_time::{Duration, Instant};

/// What the client wants from the server when it first connects.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    Create {
        game: String,
        settings: Vec<(String, String)>,
        seat: usize,
        pace: Pace,
        move_seconds: Option<u32>,
        /// Rated: the creator and whoever joins must be logged in.
        rated: bool,
    },
    Join {
        code: String,
    },
    /// Takes the lobby's challenge `id` (logged in: see [`OnlineClient::use_session`]).
    Accept {
        id: String,
    },
    Resume(SeatKey),
    /// The seat the account logged in holds in game `code` (see [`OnlineClient::use_session`]).
    ResumeMine {
        code: String,
    },
    Watch {
        code: String,
    },
}

/// What happened, for the front end to show.
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    Connected,
    Disconnected(String),
    /// The server gave this client a seat: keep the key to come back to it.
    Seated(SeatKey),
    /// The game changed in some way other than a move (or was first received).
    State,
    Moved {
        ply: usize,
        seat: usize,
        text: String,
        events: Vec<String>,
    },
    /// The server refused something, or said something this client cannot follow.
    Error(String),
    /// Another player answered this client's draw offer or take-back request, in words.
    Answered(String),
}

pub struct OnlineClient {
    connection: Connection,
    goal: Goal,
    key: Option<SeatKey>,
    followed: Option<Followed>,
    /// A move sent and not yet seen stored: its ply and text, sent again after a reconnect.
    pending: Option<(usize, String)>,
    /// Whether the goal was asked (a create or join is asked once).
    asked: bool,
    /// Whether the connection came back since the last state: a pending move may be lost.
    reconnected: bool,
    /// The account's session, sent first on every connection.
    session: Option<String>,
}

impl OnlineClient {
    pub fn start(server: &str, goal: Goal) -> Result<OnlineClient, String> {
        OnlineClient::start_waking(server, goal, None)
    }

    /// [`OnlineClient::start`], calling `wake` whenever something arrives.
    pub fn start_waking(
        server: &str,
        goal: Goal,
        wake: Option<Wake>,
    ) -> Result<OnlineClient, String> {
        let key = match &goal {
            Goal::Resume(key) => Some(key.clone()),
            _ => None,
        };
        Ok(OnlineClient {
            connection: Connection::open(server, wake)?,
            goal,
            key,
            followed: None,
            pending: None,
            asked: false,
            reconnected: false,
            session: None,
        })
    }

    /// Logs in with `session` on every connection, before anything else is asked: call it
    /// before the first [`OnlineClient::poll`], so a game created or joined is the account's.
    pub fn use_session(&mut self, session: String) {
        self.session = Some(session);
    }

    pub fn key(&self) -> Option<&SeatKey> {
        self.key.as_ref()
    }

    pub fn game(&self) -> Option<&Followed> {
        self.followed.as_ref()
    }

    /// Whether a move of this client's waits for the server.
    pub fn is_waiting(&self) -> bool {
        self.pending.is_some()
    }

    /// Takes in what arrived, waiting up to `wait` for the first of it.
    pub fn poll(&mut self, wait: Duration) -> Vec<Update> {
        let mut updates = Vec::new();
        let mut next = self.connection.next_timeout(wait);
        while let Some(event) = next {
            self.take(event, &mut updates);
            next = self.connection.try_next();
        }
        updates
    }

    /// Polls until `done` holds or `limit` passes; false if it never held.
    pub fn poll_until(
        &mut self,
        limit: Duration,
        mut seen: impl FnMut(&Update),
        mut done: impl FnMut(&OnlineClient) -> bool,
    ) -> bool {
        let end = Instant::now() + limit;
        while !done(self) {
            let now = Instant::now();
            if now >= end {
                return false;
            }
            for update in self.poll((end - now).min(Duration::from_millis(100))) {
                seen(&update);
            }
        }
        true
    }

    /// Sends a move for this client's seat (the server checks it and answers).
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        let game = self
            .followed
            .as_ref()
            .ok_or("the game has not arrived yet")?;
        if game.is_over() {
            return Err("the game is over".into());
        }
        if !game.is_my_turn() {
            return Err("it is not your turn".into());
        }
        if self.pending.is_some() {
            return Err("your last move is still on its way".into());
        }
        let ply = game.state.moves.len();
        self.pending = Some((ply, text.to_string()));
        self.connection.send(&ClientMsg::Move {
            ply,
            text: text.to_string(),
        });
        Ok(())
    }

    /// Sends anything else: a resignation, a draw offer, an undo request or answer.
    pub fn send(&self, msg: &ClientMsg) {
        self.connection.send(msg);
    }

    fn take(&mut self, event: Event, updates: &mut Vec<Update>) {
        match event {
            Event::Connected => {
                self.reconnected = true;
                self.ask();
                updates.push(Update::Connected);
            }
            Event::Disconnected(why) => updates.push(Update::Disconnected(shown_line(&why))),
            Event::Message(msg) => self.take_message(msg, updates),
        }
    }

    /// Asks for the seat or the game: the seat held if there is one, else the goal.
    fn ask(&mut self) {
        if let Some(session) = &self.session {
            self.connection.send(&ClientMsg::Authenticate {
                session: session.clone(),
            });
        }
        let msg = match (&self.key, &self.goal) {
            (Some(key), _) => ClientMsg::Resume {
                code: key.code.clone(),
                token: Some(key.token.clone()),
            },
            // A create or join lost with its connection is not asked twice: it may have
            // been done, and a second would start another game or take another seat.
            (None, Goal::Create { .. } | Goal::Join { .. } | Goal::Accept { .. }) if self.asked => {
                return;
            }
            (
                None,
                Goal::Create {
                    game,
                    settings,
                    seat,
                    pace,
                    move_seconds,
                    rated,
                },
            ) => ClientMsg::Create {
                game: game.clone(),
                settings: settings.clone(),
                seat: *seat,
                pace: *pace,
                move_seconds: *move_seconds,
                rated: *rated,
            },
            (None, Goal::Join { code }) => ClientMsg::Join { code: code.clone() },
            (None, Goal::Accept { id }) => ClientMsg::AcceptChallenge { id: id.clone() },
            (None, Goal::Resume(key)) => ClientMsg::Resume {
                code: key.code.clone(),
                token: Some(key.token.clone()),
            },
            (None, Goal::ResumeMine { code }) => ClientMsg::Resume {
                code: code.clone(),
                token: None,
            },
            (None, Goal::Watch { code }) => ClientMsg::Watch { code: code.clone() },
        };
        self.asked = true;
        self.connection.send(&msg);
    }

    fn take_message(&mut self, msg: ServerMsg, updates: &mut Vec<Update>) {
        match &msg {
            ServerMsg::Hello { version } => {
                if *version != PROTOCOL_VERSION {
                    updates.push(Update::Error(format!(
                        "the server speaks protocol version {version}, this client {PROTOCOL_VERSION}: \
                         update the one that is older"
                    )));
                }
            }
            // Answers to what a game's client does not ask (an account's own screens do).
            ServerMsg::Games { .. }
            | ServerMsg::Waiting { .. }
            | ServerMsg::EmailAddress { .. }
            | ServerMsg::LoggedIn { .. }
            | ServerMsg::LoggedOut
            | ServerMsg::PasswordChanged
            | ServerMsg::AccountDeleted
            | ServerMsg::SeatClaimed { .. }
            | ServerMsg::Leaderboard { .. }
            | ServerMsg::Player(_)
            | ServerMsg::Lobby { .. }
            | ServerMsg::ChallengeAdded(_)
            | ServerMsg::ChallengeGone { .. }
            | ServerMsg::ChallengePosted { .. }
            | ServerMsg::ChallengeAccepted { .. } => {}
            ServerMsg::Seated {
                code,
                seat: _,
                token,
            } => {
                if !is_key_text(code) || !is_key_text(token) {
                    updates.push(Update::Error(format!(
                        "the server gave a seat this client cannot keep: code {}, token {}",
                        quoted(code),
                        quoted(token)
                    )));
                    return;
                }
                let key = SeatKey {
                    code: code.clone(),
                    token: token.clone(),
                };
                self.key = Some(key.clone());
                updates.push(Update::Seated(key));
            }
            ServerMsg::Error {
                message,
                refused_move,
                ..
            } => {
                if let (Some(ply), Some((pending, _))) = (refused_move, &self.pending)
                    && ply == pending
                {
                    self.pending = None;
                }
                // Shown as a terminal may print it: a server's words are not trusted.
                updates.push(Update::Error(shown_line(message)));
            }
            ServerMsg::State(state) => {
                let asked = self.followed.as_ref().and_then(Asked::of);
                let result = match &mut self.followed {
                    Some(followed) => followed.apply(&msg).map(|_| ()),
                    None => Followed::from_state((**state).clone()).map(|f| {
                        self.followed = Some(f);
                    }),
                };
                match result {
                    Ok(()) => {
                        self.settle_pending();
                        self.reconnected = false;
                        updates.push(Update::State);
                        if let (Some(asked), Some(now)) = (asked, &self.followed) {
                            for answer in asked.answers(now) {
                                updates.push(Update::Answered(answer.to_string()));
                            }
                        }
                    }
                    Err(e) => updates.push(Update::Error(shown_line(&e))),
                }
            }
            ServerMsg::Moved { .. } => {
                let Some(followed) = &mut self.followed else {
                    return;
                };
                match followed.apply(&msg) {
                    Ok(Change::Moved {
                        ply,
                        seat,
                        text,
                        events,
                    }) => {
                        self.settle_pending();
                        updates.push(Update::Moved {
                            ply,
                            seat,
                            text,
                            events,
                        });
                    }
                    Ok(_) => {}
                    // Out of step: the whole game again puts it right.
                    Err(e) => {
                        updates.push(Update::Error(shown_line(&e)));
                        self.ask();
                    }
                }
            }
        }
    }

    /// After the game changed: forgets a move now stored (or overtaken), and sends again
    /// one that a lost connection swallowed.
    fn settle_pending(&mut self) {
        let (Some((ply, text)), Some(game)) = (&self.pending, &self.followed) else {
            return;
        };
        let held = game.state.moves.len();
        if held > *ply || game.is_over() {
            self.pending = None;
        } else if held == *ply && game.is_my_turn() {
            if !self.reconnected {
                return;
            }
            self.connection.send(&ClientMsg::Move {
                ply: *ply,
                text: text.clone(),
            });
        } else {
            self.pending = None;
        }
    }
}
