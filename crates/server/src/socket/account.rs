//! The messages about accounts: register, log in (by password or a kept session), log
//! out, change the password, delete the account, claim an anonymous seat into it, and
//! the e-mail address its turns are sent to.

use super::Conn;
use super::messages::{Refusal, logged_in};
use crate::accounts::SignedIn;
use crate::rooms::Rooms;
use crate::store::{ANSWERED_ELSE, MailOp, Reply, StoredAddress};
use std::net::IpAddr;
use tabula_protocol::{DELETED_PLAYER, ServerMsg};

/// The connection logged in as the account that registering or logging in gave.
pub(super) fn logged_in_as(
    conn: &mut Conn,
    given: Result<(SignedIn, ServerMsg), String>,
) -> Result<Vec<ServerMsg>, Refusal> {
    let (account, logged_in) = given?;
    conn.account = Some(account);
    Ok(vec![logged_in])
}

/// Logs in with a session kept from an earlier login.
pub(super) async fn authenticate(
    rooms: &Rooms,
    conn: &mut Conn,
    session: &str,
) -> Result<Vec<ServerMsg>, Refusal> {
    conn.account = None;
    let (account, logged_in) = rooms
        .accounts
        .authenticate(&rooms.store, session)
        .await?
        .ok_or(Refusal::SessionEnded(
            "that session is not valid (it ended, expired or was never given): \
             log in again"
                .into(),
        ))?;
    conn.account = Some(account);
    Ok(vec![logged_in])
}

pub(super) async fn log_out(rooms: &Rooms, conn: &mut Conn) -> Result<Vec<ServerMsg>, Refusal> {
    if let Some(account) = conn.account.take() {
        rooms.accounts.log_out(&rooms.store, &account).await?;
    }
    Ok(vec![ServerMsg::LoggedOut])
}

pub(super) async fn log_out_everywhere(
    rooms: &Rooms,
    conn: &mut Conn,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "log out everywhere").await?;
    rooms
        .accounts
        .log_out_everywhere(&rooms.store, &account)
        .await?;
    conn.account = None;
    Ok(vec![ServerMsg::LoggedOut])
}

pub(super) async fn change_password(
    rooms: &Rooms,
    conn: &mut Conn,
    old: String,
    new: String,
    peer: IpAddr,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "change a password").await?;
    rooms
        .accounts
        .change_password(&rooms.store, &account, old, new, peer)
        .await?;
    // This connection's session goes on (a seat taken through it, or the same session on
    // another connection, finds so at its next move).
    if let Some(signed_in) = &mut conn.account {
        rooms.accounts.renew(signed_in);
    }
    Ok(vec![ServerMsg::PasswordChanged])
}

/// Deletes the account: its games stay, under a name that says so.
pub(super) async fn delete(
    rooms: &Rooms,
    conn: &mut Conn,
    password: String,
    peer: IpAddr,
) -> Result<Vec<ServerMsg>, Refusal> {
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

/// Makes the seat `token` holds in game `code` the account's.
pub(super) async fn claim_seat(
    rooms: &Rooms,
    conn: &mut Conn,
    code: &str,
    token: &str,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "claim a seat").await?;
    let room = rooms.get(code).await?;
    let seat = room
        .adopt(&rooms.store, &rooms.accounts, account.player(), token)
        .await?;
    Ok(vec![ServerMsg::SeatClaimed {
        code: room.code.clone(),
        seat,
    }])
}

pub(super) async fn email_address(
    rooms: &Rooms,
    conn: &mut Conn,
) -> Result<Vec<ServerMsg>, Refusal> {
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
    Ok(vec![address_shown(found)])
}

/// Keeps `address` for the account once confirmed (a mail asks), or forgets it if empty.
pub(super) async fn set_email_address(
    rooms: &Rooms,
    conn: &mut Conn,
    address: &str,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "give an e-mail address").await?;
    // Forgetting one needs no mail (nor a server that still sends it).
    if address.trim().is_empty() {
        let op = MailOp::Remove {
            account: account.id,
        };
        rooms.store.mail(op).await.map_err(|e| e.to_string())?;
        return Ok(vec![address_shown(None)]);
    }
    let Some(mailer) = rooms.turns.mailer() else {
        return Err("this server sends no e-mail (it was started without --smtp)".into());
    };
    let kept = mailer
        .ask_to_confirm(account.id, &account.name, address)
        .await?;
    Ok(vec![address_shown(Some(kept))])
}

/// The address kept for the account, as the client is told it.
fn address_shown(kept: Option<StoredAddress>) -> ServerMsg {
    ServerMsg::EmailAddress {
        confirmed: kept.as_ref().is_some_and(|kept| kept.confirmed),
        address: kept.map(|kept| kept.address),
    }
}
