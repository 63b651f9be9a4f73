//! The messages about the lobby: follow its open challenges, post one, cancel it, accept
//! another's, or play now (the best fit taken, or one posted).

use super::Conn;
use super::games::seated;
use super::messages::{Refusal, logged_in, signed_in};
use crate::lobby::{Accepted, Fit};
use crate::rooms::Rooms;
use crate::store::AccountId;
use std::net::IpAddr;
use tabula_protocol::{ChallengeTerms, Pace, ServerMsg};
use tokio::sync::broadcast;

/// From now on the connection hears the lobby's news (and, logged in, of its own
/// challenges taken); the lobby as it is now.
pub(super) async fn follow(rooms: &Rooms, conn: &mut Conn) -> Result<Vec<ServerMsg>, Refusal> {
    let account = signed_in(rooms, &mut conn.account).await?.map(|a| a.id);
    // Listening before the list is taken: a challenge taken between the two is heard of.
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

/// Posts a challenge, to anyone or to the player named `to`.
pub(super) async fn post(
    rooms: &Rooms,
    conn: &mut Conn,
    terms: ChallengeTerms,
    to: Option<String>,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "post a challenge").await?;
    // Listening before the challenge is out: a taker may come at once.
    listen_for_accepts(rooms, &mut conn.accepted, account.id);
    let id = rooms.lobby.post(rooms, account.player(), terms, to).await?;
    Ok(vec![ServerMsg::ChallengePosted { id }])
}

pub(super) async fn cancel(
    rooms: &Rooms,
    conn: &mut Conn,
    id: String,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "cancel a challenge").await?;
    rooms.lobby.cancel(rooms, account.id, &id).await?;
    Ok(vec![ServerMsg::ChallengeGone { id }])
}

pub(super) async fn accept(
    rooms: &Rooms,
    conn: &mut Conn,
    id: &str,
    peer: IpAddr,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "accept a challenge").await?;
    // A game made counts against the address, as a created one.
    rooms.creations.allow(peer)?;
    let accepted = rooms.lobby.accept(rooms, account.player(), id).await;
    let (room, seat, token) = accepted.inspect_err(|_| rooms.creations.give_back(peer))?;
    Ok(seated(&mut conn.following, room, seat, token).await)
}

/// Takes the open challenge of `game` that fits the player best, or posts one.
pub(super) async fn play_now(
    rooms: &Rooms,
    conn: &mut Conn,
    game: String,
    pace: Pace,
    rated: bool,
    peer: IpAddr,
) -> Result<Vec<ServerMsg>, Refusal> {
    let account = logged_in(rooms, &mut conn.account, "play now").await?;
    listen_for_accepts(rooms, &mut conn.accepted, account.id);
    let fit = rooms
        .lobby
        .best_fit(rooms, account.player(), &game, pace, rated)
        .await?;
    let posted = |id| Ok(vec![ServerMsg::ChallengePosted { id }]);
    match fit {
        Fit::Take(id) => {
            rooms.creations.allow(peer)?;
            match rooms.lobby.accept(rooms, account.player(), &id).await {
                Ok((room, seat, token)) => Ok(seated(&mut conn.following, room, seat, token).await),
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

/// From now on the connection hears of `account`'s challenges taken (once: a second ask
/// would hear each twice).
pub(super) fn listen_for_accepts(
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

/// The house bots as the lobby shows them, if the server runs them.
pub(super) fn house_bots(rooms: &Rooms) -> Option<tabula_protocol::house::HouseBots> {
    rooms.house.get().map(|house| house.shown())
}
