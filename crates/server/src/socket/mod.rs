//! One client's WebSocket: reads its messages (within the limits), does what they ask
//! (`messages`, then `games`, `account` or `lobby`), and passes on what the game it
//! follows, the lobby and the account's turns tell it.

mod account;
mod games;
mod lobby;
mod messages;

use crate::accounts::SignedIn;
use crate::limits::RateLimit;
use crate::lobby::{Accepted, LobbyChange, LobbyNews};
use crate::room::{Outgoing, Room};
use crate::rooms::Rooms;
use crate::store::AccountId;
use crate::turns::{TurnFollow, waiting_games};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::SinkExt;
use games::leave;
use lobby::house_bots;
use messages::{SESSION_ENDED, handle};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tabula_protocol::{ClientMsg, PING_SECONDS, PROTOCOL_VERSION, SILENT_SECONDS, ServerMsg};
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::{Instant, interval_at};

/// The most a move message takes, with room to spare: a refused message longer than this
/// is not read to find the move it holds.
const MOVE_BYTES: usize = 4 * 1024;
/// The lobby's news sent in one write at most.
const LOBBY_NEWS_AT_ONCE: usize = 256;
/// After a write of the lobby's news, what comes next waits this long and goes out with
/// whatever else comes meanwhile: a busy lobby is written ten times a second to each
/// follower, not once for each change (with a thousand followers and a thousand changes a
/// second, a write each held accepts to 207 a second, docs/benchmarks.md). A quiet lobby's
/// change goes out at once.
const LOBBY_QUIET: Duration = Duration::from_millis(100);

/// What one connection holds: the game it follows, the account logged in on it, and the
/// lobby's news if it follows the lobby.
#[derive(Default)]
struct Conn {
    following: Option<Following>,
    account: Option<SignedIn>,
    lobby: Option<broadcast::Receiver<LobbyNews>>,
    /// The lobby's news is not read before then (see [`LOBBY_QUIET`]).
    lobby_quiet_until: Option<Instant>,
    /// Word of the account's challenges taken, once it follows the lobby or posts one.
    accepted: Option<(AccountId, broadcast::Receiver<Accepted>)>,
    /// The account's turns, if the connection follows them.
    turns: Option<TurnFollow>,
}

/// The game a connection follows, and the seat it holds there.
struct Following {
    room: Arc<Room>,
    seat: Option<usize>,
    updates: broadcast::Receiver<Outgoing>,
    /// The account the seat was taken through (a resume without a token): the seat is
    /// let go once the account's sessions end.
    through: Option<SignedIn>,
}

/// Serves one client's socket; `peer` is where it connects from.
pub async fn serve(mut socket: WebSocket, rooms: Arc<Rooms>, peer: IpAddr) {
    let mut conn = Conn::default();
    let mut limit = RateLimit::new();
    let ping_every = Duration::from_secs(PING_SECONDS);
    let mut heartbeat = interval_at(Instant::now() + ping_every, ping_every);
    let mut last_heard = Instant::now();
    if !send(
        &mut socket,
        &ServerMsg::Hello {
            version: PROTOCOL_VERSION,
        },
    )
    .await
    {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let frame = match incoming {
                    None | Some(Ok(Message::Close(_))) => break,
                    Some(Err(e)) => {
                        if let Some((code, reason)) = close_for(e) {
                            let _ = close(&mut socket, code, &reason).await;
                        }
                        break;
                    }
                    Some(Ok(frame)) => frame,
                };
                last_heard = Instant::now();
                // Every frame counts against the limit, whatever it holds.
                if let Err(over) = limit.take() {
                    if over.close {
                        let _ = close(&mut socket, close_code::POLICY, &over.message).await;
                        break;
                    }
                    // A move refused says so, so its client can send it again rather
                    // than wait for it for ever. (A move is small: nothing larger is read.)
                    let refused_move = match &frame {
                        Message::Text(text) if text.len() <= MOVE_BYTES => match ClientMsg::from_json(text) {
                            Ok(ClientMsg::Move { ply, .. }) => Some(ply),
                            _ => None,
                        },
                        _ => None,
                    };
                    let error = ServerMsg::Error {
                        message: over.message,
                        refused_move,
                        session_ended: false,
                    };
                    if !send(&mut socket, &error).await { break; }
                    continue;
                }
                let text = match frame {
                    Message::Text(text) => text,
                    Message::Binary(_) => {
                        let error = ServerMsg::error("messages are JSON text, not binary frames");
                        if !send(&mut socket, &error).await { break; }
                        continue;
                    }
                    _ => continue,
                };
                let replies = handle(&text, &rooms, &mut conn, peer).await;
                // Nothing was read while the database was busy with that: not the client's
                // silence.
                last_heard = Instant::now();
                let mut sent = true;
                for reply in &replies {
                    sent = sent && send(&mut socket, reply).await;
                }
                if !sent { break; }
            }
            _ = heartbeat.tick() => {
                // A client that answers nothing (not even the pings, which every WebSocket
                // answers by itself) is gone without saying so: free its seat and socket.
                if last_heard.elapsed() > Duration::from_secs(SILENT_SECONDS) {
                    let _ = close(&mut socket, close_code::AWAY, "nothing heard for a minute").await;
                    break;
                }
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            news = next_lobby_news(&mut conn.lobby, conn.lobby_quiet_until) => {
                // An account whose session ended meanwhile hears only what anyone does; one
                // whose account merely changed here (another session ended) is looked up
                // once, then heard as before.
                let account = match conn.account.as_mut() {
                    Some(a) => matches!(rooms.accounts.still_holds(&rooms.store, a).await, Ok(true))
                        .then_some(a.id),
                    None => None,
                };
                // What came and what waits behind it go out together, flushed once: with a
                // thousand followers, a write each for each change was the lobby's bound.
                let mut came = Vec::new();
                let mut lagged = matches!(news, Err(RecvError::Lagged(_)));
                let closed = matches!(news, Err(RecvError::Closed));
                if let Ok(news) = news {
                    came.push(news);
                    while came.len() < LOBBY_NEWS_AT_ONCE
                        && let Some(waiting) = conn.lobby.as_mut()
                    {
                        match waiting.try_recv() {
                            Ok(news) => came.push(news),
                            Err(broadcast::error::TryRecvError::Lagged(_)) => {
                                lagged = true;
                                break;
                            }
                            Err(_) => break,
                        }
                    }
                }
                let (mut sent, mut fed) = (true, false);
                for news in came.into_iter().filter(|n| n.open_to.shows_to(account)) {
                    // The poster hears its challenge was taken before that it is gone: the
                    // word is told before the news is sent, but comes by another channel.
                    if matches!(news.change, LobbyChange::Gone { .. }) {
                        while let Some((listening, word)) = conn.accepted.as_mut()
                            && account == Some(*listening)
                            && let Ok(Accepted { id, code, seat }) = word.try_recv()
                        {
                            let msg = ServerMsg::ChallengeAccepted { id, code, seat };
                            sent = sent && socket.feed(Message::Text(msg.to_json().into())).await.is_ok();
                        }
                    }
                    sent = sent && socket.feed(Message::Text(news.text)).await.is_ok();
                    fed = true;
                }
                // Fell behind: the whole lobby again.
                if lagged {
                    let msg = match rooms.lobby.follow(&rooms, account).await {
                        Ok((challenges, news)) => {
                            conn.lobby = Some(news);
                            ServerMsg::Lobby {
                                challenges,
                                house: house_bots(&rooms),
                            }
                        }
                        Err(e) => ServerMsg::error(e),
                    };
                    sent = sent && socket.feed(Message::Text(msg.to_json().into())).await.is_ok();
                    fed = true;
                }
                if closed {
                    conn.lobby = None;
                }
                if !fed { continue; }
                if !sent || socket.flush().await.is_err() { break; }
                conn.lobby_quiet_until = Some(Instant::now() + LOBBY_QUIET);
            }
            accepted = next_accept(&mut conn.accepted) => {
                let Accepted { id, code, seat } = match accepted {
                    Ok(word) => word,
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => {
                        conn.accepted = None;
                        continue;
                    }
                };
                // A store that does not answer is not an ended session: the poster's own
                // game's code goes to the connection it was posted from.
                let ended = match conn.account.as_mut() {
                    Some(a) => matches!(rooms.accounts.still_holds(&rooms.store, a).await, Ok(false)),
                    None => true,
                };
                if ended {
                    conn.accepted = None;
                    continue;
                }
                let msg = ServerMsg::ChallengeAccepted { id, code, seat };
                if !send(&mut socket, &msg).await { break; }
            }
            () = next_turn_news(&conn.turns) => {
                let Some(turns) = conn.turns.as_mut() else { continue };
                let current = match conn.account.as_mut() {
                    Some(a) => match rooms.accounts.still_holds(&rooms.store, a).await {
                        Ok(holds) => holds,
                        // The store did not answer: asked again at the next news (what
                        // came is kept till then).
                        Err(_) => continue,
                    },
                    None => false,
                };
                let mut looked_again = false;
                if current && turns.take_stale() {
                    match waiting_games(&rooms, turns.account()).await {
                        Ok(games) => {
                            looked_again = games != turns.games;
                            turns.games = games;
                        }
                        Err(_) => turns.mark_stale(),
                    }
                }
                let msg = if !current {
                    conn.turns = None;
                    conn.account = None;
                    ServerMsg::session_ended(SESSION_ENDED)
                } else if turns.take_news() || looked_again {
                    ServerMsg::Waiting { games: turns.games.clone() }
                } else {
                    continue;
                };
                if !send(&mut socket, &msg).await { break; }
            }
            update = next_update(&mut conn.following) => {
                let msg = match update {
                    Ok(Outgoing::Text(text)) => Message::Text(Utf8Bytes::from(text.as_ref())),
                    Ok(Outgoing::State(state)) => {
                        let seat = conn.following.as_ref().and_then(|f| f.seat);
                        let mut state = (*state).clone();
                        state.your_seat = seat;
                        Message::Text(ServerMsg::State(Box::new(state)).to_json().into())
                    }
                    // Fell behind: the whole game instead of what was missed.
                    Err(RecvError::Lagged(_)) => {
                        let Some(f) = &mut conn.following else { continue };
                        // Drop what is queued: the state is newer than all of it.
                        f.updates = f.updates.resubscribe();
                        let state = f.room.view(f.seat).await;
                        Message::Text(ServerMsg::State(Box::new(state)).to_json().into())
                    }
                    Err(RecvError::Closed) => continue,
                };
                if socket.send(msg).await.is_err() { break; }
            }
        }
    }
    leave(&mut conn.following).await;
}

/// The close code and reason for a frame the socket could not read: the code names the
/// error (RFC 6455, 7.4.1). None when the connection itself is gone.
fn close_for(error: axum::Error) -> Option<(u16, String)> {
    use tokio_tungstenite::tungstenite::Error;
    use tokio_tungstenite::tungstenite::error::ProtocolError;
    let error = error.into_inner();
    let code = match error.downcast_ref::<Error>() {
        Some(Error::Capacity(_)) => close_code::SIZE,
        Some(Error::Utf8(_)) => close_code::INVALID,
        // The peer dropped the connection without a word: nobody to tell.
        Some(
            Error::Io(_)
            | Error::ConnectionClosed
            | Error::AlreadyClosed
            | Error::Protocol(ProtocolError::ResetWithoutClosingHandshake),
        ) => return None,
        Some(Error::Protocol(_) | Error::AttackAttempt) => close_code::PROTOCOL,
        _ => close_code::ERROR,
    };
    Some((code, error.to_string()))
}

/// The lobby's next news, not read before `quiet_until` (unread, it wakes nobody).
async fn next_lobby_news(
    lobby: &mut Option<broadcast::Receiver<LobbyNews>>,
    quiet_until: Option<Instant>,
) -> Result<LobbyNews, RecvError> {
    match lobby {
        Some(news) => {
            if let Some(until) = quiet_until {
                tokio::time::sleep_until(until).await;
            }
            news.recv().await
        }
        None => std::future::pending().await,
    }
}

async fn next_accept(
    accepted: &mut Option<(AccountId, broadcast::Receiver<Accepted>)>,
) -> Result<Accepted, RecvError> {
    match accepted {
        Some((_, word)) => word.recv().await,
        None => std::future::pending().await,
    }
}

async fn next_turn_news(turns: &Option<TurnFollow>) {
    match turns {
        Some(turns) => turns.changed().await,
        None => std::future::pending().await,
    }
}

async fn next_update(following: &mut Option<Following>) -> Result<Outgoing, RecvError> {
    match following {
        Some(f) => f.updates.recv().await,
        None => std::future::pending().await,
    }
}

async fn send(socket: &mut WebSocket, msg: &ServerMsg) -> bool {
    socket
        .send(Message::Text(msg.to_json().into()))
        .await
        .is_ok()
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) -> Result<(), axum::Error> {
    // A close reason is at most 123 bytes.
    let mut reason = reason.to_string();
    while reason.len() > 120 {
        reason.pop();
    }
    socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await
}

/// One client's side of the conversation without a socket: what the socket does with each
/// message it reads, for tests that play many clients' messages straight at the rooms
/// (the fuzz test of the server's message handling).
pub struct Client {
    conn: Conn,
    peer: IpAddr,
}

impl Client {
    pub fn new(peer: IpAddr) -> Client {
        Client {
            conn: Conn::default(),
            peer,
        }
    }

    /// The replies to one message, for this client alone.
    pub async fn handle(&mut self, text: &str, rooms: &Rooms) -> Vec<ServerMsg> {
        handle(text, rooms, &mut self.conn, self.peer).await
    }

    /// Leaves the game followed, as a closed connection does.
    pub async fn leave(&mut self) {
        leave(&mut self.conn.following).await;
    }
}
