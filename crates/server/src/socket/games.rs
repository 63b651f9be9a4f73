//! The messages about games: create, join, resume or watch one (the connection then
//! follows it), list the player's games and follow their turns, and what only a player
//! may do in the game followed.

use super::messages::{Refusal, SESSION_ENDED, logged_in, signed_in};
use super::{Conn, Following};
use crate::accounts::SignedIn;
use crate::room::{NewGame, Room};
use crate::rooms::Rooms;
use crate::store::AccountId;
use crate::turns::waiting_games;
use std::net::IpAddr;
use std::sync::Arc;
use tabula_protocol::{GameState, GameSummary, MAX_LISTED_GAMES, SeatKey, ServerMsg};

pub(super) async fn create(
    rooms: &Rooms,
    following: &mut Option<Following>,
    new: &NewGame<'_>,
    peer: IpAddr,
) -> Result<Vec<ServerMsg>, Refusal> {
    rooms.creations.allow(peer)?;
    let created = rooms.create(new).await;
    // Only a game made counts against the address.
    let (room, seat, token) = created.inspect_err(|_| rooms.creations.give_back(peer))?;
    Ok(seated(following, room, seat, token).await)
}

pub(super) async fn join(
    rooms: &Rooms,
    conn: &mut Conn,
    code: &str,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = signed_in(rooms, &mut conn.account).await?;
    let room = rooms.get(code).await?;
    let (seat, token) = room
        .join(&rooms.store, account.map(SignedIn::player))
        .await?;
    Ok(seated(&mut conn.following, room, seat, token).await)
}

/// Takes up again the seat `token` holds in game `code`.
pub(super) async fn resume_by_token(
    rooms: &Rooms,
    following: &mut Option<Following>,
    code: &str,
    token: &str,
) -> Result<Vec<ServerMsg>, Refusal> {
    let room = rooms.get(code).await?;
    let seat = room
        .state
        .lock()
        .await
        .seat_of(token)
        .ok_or_else(|| format!("that token holds no seat in game {}", room.code))?;
    Ok(vec![follow(following, room, Some(seat)).await])
}

/// Takes up again the seat the account logged in holds in game `code`.
pub(super) async fn resume_by_account(
    rooms: &Rooms,
    conn: &mut Conn,
    code: &str,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "resume a game without its token").await?;
    let room = rooms.get(code).await?;
    let seats = room.state.lock().await.seats();
    // A seat the store names is one the game has: a damaged store is refused.
    let seat = *rooms
        .accounts
        .seats_in(&rooms.store, account.id, &room.code)
        .await?
        .iter()
        .find(|&&seat| seat < seats)
        .ok_or_else(|| format!("your account holds no seat in game {}", room.code))?;
    let state = follow(&mut conn.following, room, Some(seat)).await;
    if let Some(following) = &mut conn.following {
        following.through = Some(account);
    }
    Ok(vec![state])
}

pub(super) async fn watch(
    rooms: &Rooms,
    following: &mut Option<Following>,
    code: &str,
) -> Result<Vec<ServerMsg>, Refusal> {
    let room = rooms.get(code).await?;
    Ok(vec![follow(following, room, None).await])
}

pub(super) async fn my_games(
    rooms: &Rooms,
    conn: &mut Conn,
    seats: Vec<SeatKey>,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = signed_in(rooms, &mut conn.account).await?.map(|a| a.id);
    Ok(vec![games_held(rooms, seats, account).await?])
}

/// From now on the connection hears which of the account's games wait for its move.
pub(super) async fn follow_turns(
    rooms: &Rooms,
    conn: &mut Conn,
) -> Result<Vec<ServerMsg>, Refusal> {
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

/// Lets go of the game followed (its seat shown offline).
pub(super) async fn leave(following: &mut Option<Following>) {
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

/// What only a player may do, for the seat the connection holds.
pub(super) enum Action {
    Move { ply: usize, text: String },
    Resign,
    OfferDraw,
    DeclineDraw,
    RequestUndo,
    AnswerUndo(bool),
}

/// A seat taken (created or joined): the key to it, for this client alone, then the game.
pub(super) async fn seated(
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

/// The games of the seats `keys` hold, and of `account`'s seats; a game gone or a token
/// that is not the seat's is left out.
async fn games_held(
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

/// Does `action` for the seat this connection holds. The game's followers are told of what
/// changed; the only reply for this client alone is a refused move's error.
pub(super) async fn act(
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
