//! One client's WebSocket: reads its messages (within the limits), does what they ask
//! of the game it follows, and passes on what that game tells its followers.

use crate::accounts::SignedIn;
use crate::limits::RateLimit;
use crate::lobby::{Accepted, Fit, LobbyChange, LobbyNews};
use crate::rating_pages;
use crate::room::{NewGame, Outgoing, Room};
use crate::rooms::Rooms;
use crate::store::{ANSWERED_ELSE, AccountId, MailOp, Reply, StoredAddress};
use crate::turns::{TurnFollow, waiting_games};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::SinkExt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tabula_protocol::{
    ChallengeTerms, ClientMsg, DELETED_PLAYER, GameState, GameSummary, MAX_LISTED_GAMES,
    PING_SECONDS, PROTOCOL_VERSION, SILENT_SECONDS, SeatKey, ServerMsg,
};
use tabula_session::GameKind;
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

/// From now on the connection hears of `account`'s challenges taken (once: a second ask
/// would hear each twice).
fn listen_for_accepts(
    rooms: &Rooms,
    accepted: &mut Option<(AccountId, broadcast::Receiver<Accepted>)>,
    account: AccountId,
) {
    if accepted
        .as_ref()
        .is_none_or(|(listening, _)| *listening != account)
    {
        *accepted = Some((account, rooms.lobby.listen_for_accepts(account)));
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

async fn leave(following: &mut Option<Following>) {
    if let Some(Following {
        room,
        seat: Some(seat),
        ..
    }) = following.take()
    {
        room.set_online(seat, false).await;
    }
}

/// Starts following `room` (holding `seat`, if any); the game goes to this client.
async fn follow(
    following: &mut Option<Following>,
    room: Arc<Room>,
    seat: Option<usize>,
) -> ServerMsg {
    leave(following).await;
    if let Some(seat) = seat {
        room.set_online(seat, true).await;
    }
    // Listen and take the state under the room's lock, so what follows the state is
    // exactly what changed after it.
    let (updates, state) = {
        let state = room.state.lock().await;
        let updates = room.followers.subscribe();
        let view = GameState {
            your_seat: seat,
            ..state.view(&room.code)
        };
        (updates, view)
    };
    *following = Some(Following {
        room,
        seat,
        updates,
        through: None,
    });
    ServerMsg::State(Box::new(state))
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

/// Does what one message asks; the replies for this client alone.
async fn handle(text: &str, rooms: &Rooms, conn: &mut Conn, peer: IpAddr) -> Vec<ServerMsg> {
    let replies = match handle_message(text, rooms, conn, peer).await {
        Ok(replies) => replies,
        Err(Refusal::Said(message)) => vec![ServerMsg::error(message)],
        Err(Refusal::SessionEnded(message)) => vec![ServerMsg::session_ended(message)],
    };
    // Turns, and the word of challenges taken, are followed for the account logged in,
    // as long as it is.
    let account = conn.account.as_ref().map(|a| a.id);
    if conn
        .turns
        .as_ref()
        .is_some_and(|t| Some(t.account()) != account)
    {
        conn.turns = None;
    }
    match account {
        // Logged in while following the lobby: its own challenges' word comes too.
        Some(account) if conn.lobby.is_some() => {
            listen_for_accepts(rooms, &mut conn.accepted, account)
        }
        Some(account) if conn.accepted.as_ref().is_some_and(|(a, _)| *a == account) => {}
        _ => conn.accepted = None,
    }
    replies
}

/// Why a message was refused: in words, or a session that is not valid any more (which
/// the client is told apart, to forget it).
enum Refusal {
    Said(String),
    SessionEnded(String),
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal::Said(message)
    }
}

impl From<&str> for Refusal {
    fn from(message: &str) -> Refusal {
        Refusal::Said(message.to_string())
    }
}

const SESSION_ENDED: &str =
    "your session has ended (logged out elsewhere, or the password changed): log in again";

async fn handle_message(
    text: &str,
    rooms: &Rooms,
    conn: &mut Conn,
    peer: IpAddr,
) -> Result<Vec<ServerMsg>, Refusal> {
    let following = &mut conn.following;
    match ClientMsg::from_json(text)? {
        ClientMsg::Create {
            game,
            settings,
            seat,
            pace,
            move_seconds,
            rated,
        } => {
            let new = NewGame {
                kind: GameKind::parse(&game)?,
                settings: &settings,
                seat,
                pace,
                move_seconds,
                rated,
                account: signed_in(rooms, &mut conn.account)
                    .await?
                    .map(SignedIn::player),
            };
            rooms.creations.allow(peer)?;
            let created = rooms.create(&new).await;
            // Only a game made counts against the address.
            let (room, seat, token) = created.inspect_err(|_| rooms.creations.give_back(peer))?;
            Ok(seated(following, room, seat, token).await)
        }
        ClientMsg::Join { code } => {
            let account = signed_in(rooms, &mut conn.account).await?;
            let room = rooms.get(&code).await?;
            let (seat, token) = room
                .join(&rooms.store, account.map(SignedIn::player))
                .await?;
            Ok(seated(following, room, seat, token).await)
        }
        ClientMsg::Resume {
            code,
            token: Some(token),
        } => {
            let room = rooms.get(&code).await?;
            let seat = room
                .state
                .lock()
                .await
                .seat_of(&token)
                .ok_or_else(|| format!("that token holds no seat in game {}", room.code))?;
            Ok(vec![follow(following, room, Some(seat)).await])
        }
        ClientMsg::Resume { code, token: None } => {
            let account =
                logged_in(rooms, &mut conn.account, "resume a game without its token").await?;
            let room = rooms.get(&code).await?;
            let seats = room.state.lock().await.seats();
            // A seat the store names is one the game has: a damaged store is refused.
            let seat = *rooms
                .accounts
                .seats_in(&rooms.store, account.id, &room.code)
                .await?
                .iter()
                .find(|&&seat| seat < seats)
                .ok_or_else(|| format!("your account holds no seat in game {}", room.code))?;
            let state = follow(following, room, Some(seat)).await;
            if let Some(following) = following {
                following.through = Some(account);
            }
            Ok(vec![state])
        }
        ClientMsg::Watch { code } => {
            let room = rooms.get(&code).await?;
            Ok(vec![follow(following, room, None).await])
        }
        ClientMsg::MyGames { seats } => {
            let account = signed_in(rooms, &mut conn.account).await?.map(|a| a.id);
            Ok(vec![my_games(rooms, seats, account).await?])
        }
        ClientMsg::FollowTurns => {
            let account = logged_in(rooms, &mut conn.account, "follow your turns").await?;
            // Listening before looking: what changes meanwhile is taken in after the list.
            let mut turns = rooms.turns.follow(account.id);
            turns.games = waiting_games(rooms, account.id)
                .await
                .map_err(|e| e.to_string())?;
            turns.take_news();
            let games = turns.games.clone();
            conn.turns = Some(turns);
            Ok(vec![ServerMsg::Waiting { games }])
        }
        ClientMsg::EmailAddress => {
            let account = logged_in(rooms, &mut conn.account, "see your e-mail address").await?;
            let found = match rooms
                .store
                .mail(MailOp::Address {
                    account: account.id,
                })
                .await
            {
                Ok(Reply::Address(found)) => found,
                Ok(_) => return Err(ANSWERED_ELSE.into()),
                Err(e) => return Err(e.to_string().into()),
            };
            Ok(vec![email_address(found)])
        }
        ClientMsg::SetEmailAddress { address } => {
            let account = logged_in(rooms, &mut conn.account, "give an e-mail address").await?;
            // Forgetting one needs no mail (nor a server that still sends it).
            if address.trim().is_empty() {
                let op = MailOp::Remove {
                    account: account.id,
                };
                rooms.store.mail(op).await.map_err(|e| e.to_string())?;
                return Ok(vec![email_address(None)]);
            }
            let Some(mailer) = rooms.turns.mailer() else {
                return Err("this server sends no e-mail (it was started without --smtp)".into());
            };
            let kept = mailer
                .ask_to_confirm(account.id, &account.name, &address)
                .await?;
            Ok(vec![email_address(Some(kept))])
        }
        ClientMsg::Register { name, password } => {
            let (account, logged_in) = rooms
                .accounts
                .register(&rooms.store, &name, password, peer)
                .await?;
            conn.account = Some(account);
            Ok(vec![logged_in])
        }
        ClientMsg::LogIn { name, password } => {
            let (account, logged_in) = rooms
                .accounts
                .log_in(&rooms.store, &name, password, peer)
                .await?;
            conn.account = Some(account);
            Ok(vec![logged_in])
        }
        ClientMsg::Authenticate { session } => {
            conn.account = None;
            let (account, logged_in) = rooms
                .accounts
                .authenticate(&rooms.store, &session)
                .await?
                .ok_or(Refusal::SessionEnded(
                "that session is not valid (it ended, expired or was never given): \
                     log in again"
                    .into(),
            ))?;
            conn.account = Some(account);
            Ok(vec![logged_in])
        }
        ClientMsg::LogOut => {
            if let Some(account) = conn.account.take() {
                rooms.accounts.log_out(&rooms.store, &account).await?;
            }
            Ok(vec![ServerMsg::LoggedOut])
        }
        ClientMsg::LogOutEverywhere => {
            let account = logged_in(rooms, &mut conn.account, "log out everywhere").await?;
            rooms
                .accounts
                .log_out_everywhere(&rooms.store, &account)
                .await?;
            conn.account = None;
            Ok(vec![ServerMsg::LoggedOut])
        }
        ClientMsg::ChangePassword { old, new } => {
            let account = logged_in(rooms, &mut conn.account, "change a password").await?;
            rooms
                .accounts
                .change_password(&rooms.store, &account, old, new, peer)
                .await?;
            // This connection's session goes on (a seat taken through it, or the same
            // session on another connection, finds so at its next move).
            if let Some(signed_in) = &mut conn.account {
                rooms.accounts.renew(signed_in);
            }
            Ok(vec![ServerMsg::PasswordChanged])
        }
        ClientMsg::DeleteAccount { password } => {
            let account = logged_in(rooms, &mut conn.account, "delete an account").await?;
            rooms
                .accounts
                .delete(&rooms.store, &account, password, peer)
                .await?;
            rooms.rename_player(account.id, DELETED_PLAYER).await;
            rooms.lobby.forget_account(account.id).await;
            conn.account = None;
            Ok(vec![ServerMsg::AccountDeleted, ServerMsg::LoggedOut])
        }
        ClientMsg::ClaimSeat { code, token } => {
            let account = logged_in(rooms, &mut conn.account, "claim a seat").await?;
            let room = rooms.get(&code).await?;
            let seat = room
                .adopt(&rooms.store, &rooms.accounts, account.player(), &token)
                .await?;
            Ok(vec![ServerMsg::SeatClaimed {
                code: room.code.clone(),
                seat,
            }])
        }
        ClientMsg::Leaderboard { pool } => Ok(vec![rating_pages::leaderboard(rooms, pool).await?]),
        ClientMsg::Player { name } => Ok(vec![rating_pages::player_page(rooms, name).await?]),
        ClientMsg::FollowLobby => {
            let account = signed_in(rooms, &mut conn.account).await?.map(|a| a.id);
            // Listening before the list is taken: a challenge taken between the two is
            // heard of.
            if let Some(account) = account {
                listen_for_accepts(rooms, &mut conn.accepted, account);
            }
            let (challenges, news) = rooms.lobby.follow(rooms, account).await?;
            conn.lobby = Some(news);
            Ok(vec![ServerMsg::Lobby {
                challenges,
                house: house_bots(rooms),
            }])
        }
        ClientMsg::PostChallenge { terms, to } => {
            let account = logged_in(rooms, &mut conn.account, "post a challenge").await?;
            // Listening before the challenge is out: a taker may come at once.
            let id = account.id;
            listen_for_accepts(rooms, &mut conn.accepted, id);
            let id = rooms.lobby.post(rooms, account.player(), terms, to).await?;
            Ok(vec![ServerMsg::ChallengePosted { id }])
        }
        ClientMsg::CancelChallenge { id } => {
            let account = logged_in(rooms, &mut conn.account, "cancel a challenge").await?;
            rooms.lobby.cancel(rooms, account.id, &id).await?;
            Ok(vec![ServerMsg::ChallengeGone { id }])
        }
        ClientMsg::AcceptChallenge { id } => {
            let account = logged_in(rooms, &mut conn.account, "accept a challenge").await?;
            // A game made counts against the address, as a created one.
            rooms.creations.allow(peer)?;
            let accepted = rooms.lobby.accept(rooms, account.player(), &id).await;
            let (room, seat, token) = accepted.inspect_err(|_| rooms.creations.give_back(peer))?;
            Ok(seated(following, room, seat, token).await)
        }
        ClientMsg::PlayNow { game, pace, rated } => {
            let account = logged_in(rooms, &mut conn.account, "play now").await?;
            let id = account.id;
            listen_for_accepts(rooms, &mut conn.accepted, id);
            let fit = rooms
                .lobby
                .best_fit(rooms, account.player(), &game, pace, rated)
                .await?;
            let posted = |id| Ok(vec![ServerMsg::ChallengePosted { id }]);
            match fit {
                Fit::Take(id) => {
                    rooms.creations.allow(peer)?;
                    match rooms.lobby.accept(rooms, account.player(), &id).await {
                        Ok((room, seat, token)) => Ok(seated(following, room, seat, token).await),
                        // Taken meanwhile: posted instead (never two games for one ask).
                        Err(_) => {
                            rooms.creations.give_back(peer);
                            let terms = ChallengeTerms {
                                game,
                                settings: Vec::new(),
                                pace,
                                move_seconds: None,
                                rated,
                                seat: None,
                            };
                            posted(
                                rooms
                                    .lobby
                                    .post(rooms, account.player(), terms, None)
                                    .await?,
                            )
                        }
                    }
                }
                Fit::Posted(id) => posted(id),
                Fit::Post(terms) => posted(
                    rooms
                        .lobby
                        .post(rooms, account.player(), terms, None)
                        .await?,
                ),
            }
        }
        ClientMsg::Move { ply, text } => act(rooms, following, Action::Move { ply, text }).await,
        ClientMsg::Resign => act(rooms, following, Action::Resign).await,
        ClientMsg::OfferDraw => act(rooms, following, Action::OfferDraw).await,
        ClientMsg::DeclineDraw => act(rooms, following, Action::DeclineDraw).await,
        ClientMsg::RequestUndo => act(rooms, following, Action::RequestUndo).await,
        ClientMsg::AnswerUndo { accept } => act(rooms, following, Action::AnswerUndo(accept)).await,
    }
}

/// What only a player may do, for the seat the connection holds.
enum Action {
    Move { ply: usize, text: String },
    Resign,
    OfferDraw,
    DeclineDraw,
    RequestUndo,
    AnswerUndo(bool),
}

/// A seat taken (created or joined): the key to it, for this client alone, then the game.
async fn seated(
    following: &mut Option<Following>,
    room: Arc<Room>,
    seat: usize,
    token: String,
) -> Vec<ServerMsg> {
    let seated = ServerMsg::Seated {
        code: room.code.clone(),
        seat,
        token,
    };
    vec![seated, follow(following, room, Some(seat)).await]
}

/// The account logged in on this connection, if its session still holds; a session
/// ended meanwhile (logged out elsewhere, a new password, the account deleted) logs the
/// connection out and says so.
async fn signed_in<'a>(
    rooms: &Rooms,
    account: &'a mut Option<SignedIn>,
) -> Result<Option<&'a SignedIn>, Refusal> {
    let Some(current) = account else {
        return Ok(None);
    };
    if rooms.accounts.still_valid(&rooms.store, current).await? {
        return Ok(account.as_ref());
    }
    *account = None;
    Err(Refusal::SessionEnded(SESSION_ENDED.into()))
}

/// The account logged in, for what only an account can do (`what`).
async fn logged_in(
    rooms: &Rooms,
    account: &mut Option<SignedIn>,
    what: &str,
) -> Result<SignedIn, Refusal> {
    signed_in(rooms, account)
        .await?
        .cloned()
        .ok_or_else(|| Refusal::Said(format!("log in to {what}")))
}

/// The games of the seats `keys` hold, and of `account`'s seats; a game gone or a token
/// that is not the seat's is left out.
async fn my_games(
    rooms: &Rooms,
    keys: Vec<SeatKey>,
    account: Option<AccountId>,
) -> Result<ServerMsg, Refusal> {
    if keys.len() > MAX_LISTED_GAMES {
        return Err(Refusal::Said(format!(
            "{} games asked about; at most {MAX_LISTED_GAMES} at once",
            keys.len()
        )));
    }
    // The account's seats as the store has them (another server process may have given
    // one to the account since this one loaded the game).
    let held = match account {
        Some(account) => {
            rooms
                .accounts
                .seats(&rooms.store, account, MAX_LISTED_GAMES)
                .await?
        }
        None => Vec::new(),
    };
    let is_held = |code: &str, seat: usize| held.iter().any(|(c, s)| c == code && *s == seat);
    let asked = keys
        .into_iter()
        .map(|key| (key.code, Some(key.token), None));
    let seats = asked.chain(
        held.iter()
            .map(|(code, seat)| (code.clone(), None, Some(*seat))),
    );
    let mut games: Vec<GameSummary> = Vec::new();
    for (code, token, held_seat) in seats {
        let Ok(room) = rooms.get(&code).await else {
            continue;
        };
        let state = room.state.lock().await;
        let seat = match &token {
            Some(token) => state.seat_of(token),
            None => held_seat,
        };
        let Some(seat) = seat else { continue };
        let mut summary = state.summary(&room.code, seat);
        summary.account = is_held(&room.code, seat);
        // A seat asked about by its token and held by the account is listed once.
        if !games
            .iter()
            .any(|g| g.code == summary.code && g.your_seat == seat)
        {
            games.push(summary);
        }
    }
    Ok(ServerMsg::Games { games })
}

fn email_address(kept: Option<StoredAddress>) -> ServerMsg {
    ServerMsg::EmailAddress {
        confirmed: kept.as_ref().is_some_and(|kept| kept.confirmed),
        address: kept.map(|kept| kept.address),
    }
}

/// Does `action` for the seat this connection holds. The game's followers are told of what
/// changed; the only reply for this client alone is a refused move's error.
async fn act(
    rooms: &Rooms,
    following: &mut Option<Following>,
    action: Action,
) -> Result<Vec<ServerMsg>, Refusal> {
    // A seat held through an account is let go once its session ends. A change to the
    // account here (a session ended, a new password) marks it in memory; then the
    // session is looked up once, and the seat goes on if it still holds.
    let stale = match following {
        Some(Following {
            through: Some(account),
            ..
        }) if !rooms.accounts.is_current(account) => Some(account.clone()),
        _ => None,
    };
    if let Some(mut account) = stale {
        if !rooms.accounts.still_valid(&rooms.store, &account).await? {
            leave(following).await;
            return Err(Refusal::SessionEnded(SESSION_ENDED.into()));
        }
        rooms.accounts.renew(&mut account);
        if let Some(following) = following {
            following.through = Some(account);
        }
    }
    let (room, seat) = player(following)?;
    let store = &rooms.store;
    match action {
        Action::Move { ply, text } => {
            // Said to be about this move, so the client knows which move was refused.
            if let Err(message) = room.play(store, seat, ply, &text).await {
                return Ok(vec![ServerMsg::Error {
                    message,
                    refused_move: Some(ply),
                    session_ended: false,
                }]);
            }
        }
        Action::Resign => room.resign(store, seat).await?,
        Action::OfferDraw => room.offer_draw(store, seat).await?,
        Action::DeclineDraw => room.decline_draw(store, seat).await?,
        Action::RequestUndo => room.request_undo(store, seat).await?,
        Action::AnswerUndo(accept) => room.answer_undo(store, seat, accept).await?,
    }
    Ok(vec![])
}

/// The game and seat this connection plays, for the messages only a player may send.
fn player(following: &Option<Following>) -> Result<(Arc<Room>, usize), String> {
    match following {
        Some(Following {
            room,
            seat: Some(seat),
            ..
        }) => Ok((room.clone(), *seat)),
        Some(_) => Err("you watch this game: only its players can do that".into()),
        None => Err("this connection holds no seat: create, join or resume a game first".into()),
    }
}

/// The house bots as the lobby shows them, if the server runs them.
fn house_bots(rooms: &Rooms) -> Option<tabula_protocol::house::HouseBots> {
    rooms.house.get().map(|house| house.shown())
}
