//! One message from a client: read, checked against the session it comes with, and done
//! (each kind by the module that does it); refusals become error replies.

use super::games::{self, Action};
use super::{Conn, account, lobby};
use crate::accounts::SignedIn;
use crate::rating_pages;
use crate::room::NewGame;
use crate::rooms::Rooms;
use std::net::IpAddr;
use tabula_protocol::{ClientMsg, ServerMsg};
use tabula_session::GameKind;

/// Does what one message asks; the replies for this client alone.
pub(super) async fn handle(
    text: &str,
    rooms: &Rooms,
    conn: &mut Conn,
    peer: IpAddr,
) -> Vec<ServerMsg> {
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
            lobby::listen_for_accepts(rooms, &mut conn.accepted, account)
        }
        Some(account) if conn.accepted.as_ref().is_some_and(|(a, _)| *a == account) => {}
        _ => conn.accepted = None,
    }
    replies
}

/// Why a message was refused: in words, or a session that is not valid any more (which
/// the client is told apart, to forget it).
pub(super) enum Refusal {
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

pub(super) const SESSION_ENDED: &str =
    "your session has ended (logged out elsewhere, or the password changed): log in again";

/// The replies to one message for this client alone, or why it was refused: each kind of
/// message goes to what does it (games, accounts, the lobby).
async fn handle_message(
    text: &str,
    rooms: &Rooms,
    conn: &mut Conn,
    peer: IpAddr,
) -> Result<Vec<ServerMsg>, Refusal> {
    match ClientMsg::from_json(text)? {
        ClientMsg::Create {
            game,
            settings,
            seat,
            pace,
            move_seconds,
            rated,
        } => {
            let kind = GameKind::parse(&game)?;
            let account = signed_in(rooms, &mut conn.account).await?;
            let new = NewGame {
                kind,
                settings: &settings,
                seat,
                pace,
                move_seconds,
                rated,
                account: account.map(SignedIn::player),
            };
            games::create(rooms, &mut conn.following, &new, peer).await
        }
        ClientMsg::Join { code } => games::join(rooms, conn, &code).await,
        ClientMsg::Resume {
            code,
            token: Some(token),
        } => games::resume_by_token(rooms, &mut conn.following, &code, &token).await,
        ClientMsg::Resume { code, token: None } => {
            games::resume_by_account(rooms, conn, &code).await
        }
        ClientMsg::Watch { code } => games::watch(rooms, &mut conn.following, &code).await,
        ClientMsg::MyGames { seats } => games::my_games(rooms, conn, seats).await,
        ClientMsg::FollowTurns => games::follow_turns(rooms, conn).await,
        ClientMsg::Move { ply, text } => {
            games::act(rooms, &mut conn.following, Action::Move { ply, text }).await
        }
        ClientMsg::Resign => games::act(rooms, &mut conn.following, Action::Resign).await,
        ClientMsg::OfferDraw => games::act(rooms, &mut conn.following, Action::OfferDraw).await,
        ClientMsg::DeclineDraw => games::act(rooms, &mut conn.following, Action::DeclineDraw).await,
        ClientMsg::RequestUndo => games::act(rooms, &mut conn.following, Action::RequestUndo).await,
        ClientMsg::AnswerUndo { accept } => {
            games::act(rooms, &mut conn.following, Action::AnswerUndo(accept)).await
        }
        ClientMsg::Register { name, password } => {
            let registered = rooms
                .accounts
                .register(&rooms.store, &name, password, peer)
                .await;
            account::logged_in_as(conn, registered)
        }
        ClientMsg::LogIn { name, password } => {
            let given = rooms
                .accounts
                .log_in(&rooms.store, &name, password, peer)
                .await;
            account::logged_in_as(conn, given)
        }
        ClientMsg::Authenticate { session } => account::authenticate(rooms, conn, &session).await,
        ClientMsg::LogOut => account::log_out(rooms, conn).await,
        ClientMsg::LogOutEverywhere => account::log_out_everywhere(rooms, conn).await,
        ClientMsg::ChangePassword { old, new } => {
            account::change_password(rooms, conn, old, new, peer).await
        }
        ClientMsg::DeleteAccount { password } => account::delete(rooms, conn, password, peer).await,
        ClientMsg::ClaimSeat { code, token } => {
            account::claim_seat(rooms, conn, &code, &token).await
        }
        ClientMsg::EmailAddress => account::email_address(rooms, conn).await,
        ClientMsg::SetEmailAddress { address } => {
            account::set_email_address(rooms, conn, &address).await
        }
        ClientMsg::Leaderboard { pool } => Ok(vec![rating_pages::leaderboard(rooms, pool).await?]),
        ClientMsg::Player { name } => Ok(vec![rating_pages::player_page(rooms, name).await?]),
        ClientMsg::FollowLobby => lobby::follow(rooms, conn).await,
        ClientMsg::PostChallenge { terms, to } => lobby::post(rooms, conn, terms, to).await,
        ClientMsg::CancelChallenge { id } => lobby::cancel(rooms, conn, id).await,
        ClientMsg::AcceptChallenge { id } => lobby::accept(rooms, conn, &id, peer).await,
        ClientMsg::PlayNow { game, pace, rated } => {
            lobby::play_now(rooms, conn, game, pace, rated, peer).await
        }
    }
}

/// The account logged in on this connection, if its session still holds; a session
/// ended meanwhile (logged out elsewhere, a new password, the account deleted) logs the
/// connection out and says so.
pub(super) async fn signed_in<'a>(
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
pub(super) async fn logged_in(
    rooms: &Rooms,
    account: &mut Option<SignedIn>,
    what: &str,
) -> Result<SignedIn, Refusal> {
    signed_in(rooms, account)
        .await?
        .cloned()
        .ok_or_else(|| Refusal::Said(format!("log in to {what}")))
}
