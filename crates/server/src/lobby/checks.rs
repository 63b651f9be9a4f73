//! What a challenge names, checked and looked up: its terms (a game the rules can make, for
//! two), the player it is for, and its poster's rating.

use super::store_error;
use crate::accounts::names::name_key;
use crate::room::Player;
use crate::rooms::{MAX_MOVE_SECONDS, MIN_MOVE_SECONDS, Rooms};
use crate::store::{ANSWERED_ELSE, AccountId, AccountOp, RatingOp, Reply, StoredChallenge};
use tabula_protocol::house::is_house_bot;
use tabula_protocol::lobby::ChallengeTerms;
use tabula_protocol::ratings::rating_pool;
use tabula_protocol::{MAX_NAME_CHARS, ShownRating};
use tabula_session::rules::text::quoted;
use tabula_session::{GameKind, new_match};

/// The terms as kept (the game's key and options as the rules write them), or why no game
/// could be made of them.
pub(super) fn check_terms(terms: &ChallengeTerms) -> Result<ChallengeTerms, String> {
    let kind = GameKind::parse(&terms.game)?;
    let game = new_match(kind, &terms.settings)?;
    if game.num_players() != 2 {
        return Err(format!(
            "the lobby is for two players; for {} create the game and send its code",
            game.num_players()
        ));
    }
    if let Some(seat) = terms.seat
        && seat >= 2
    {
        return Err(format!(
            "seat {} does not exist: this game has 2 seats",
            seat.saturating_add(1)
        ));
    }
    if let Some(seconds) = terms.move_seconds
        && !(MIN_MOVE_SECONDS..=MAX_MOVE_SECONDS).contains(&seconds)
    {
        return Err(format!(
            "a move time limit is {MIN_MOVE_SECONDS} to {MAX_MOVE_SECONDS} seconds, not {seconds}"
        ));
    }
    Ok(ChallengeTerms {
        game: kind.key().to_string(),
        settings: game.settings(),
        ..terms.clone()
    })
}

/// The account named `name`, not `player`'s own: its number and its name as written.
pub(super) async fn named_player(
    rooms: &Rooms,
    player: Player<'_>,
    name: &str,
) -> Result<(AccountId, String), String> {
    let unknown = || format!("there is no player named {}", quoted(name));
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(unknown());
    }
    let op = AccountOp::Find {
        name_key: name_key(name),
    };
    match rooms.store.account(op).await.map_err(store_error)? {
        Reply::Account(Some(found)) if found.id == player.id => {
            Err("a challenge to yourself: name another player".into())
        }
        // Another process on a shared store may run them.
        Reply::Account(Some(found))
            if is_house_bot(&found.name)
                && !rooms.store.is_shared()
                && !rooms.house.get().is_some_and(|h| h.is_resident(found.id)) =>
        {
            Err(format!(
                "{} is one of the server's bots, and they do not play here now",
                quoted(&found.name)
            ))
        }
        Reply::Account(Some(found)) => Ok((found.id, found.name)),
        Reply::Account(None) => Err(unknown()),
        _ => Err(ANSWERED_ELSE.into()),
    }
}

/// The poster's rating in the challenge's game's pool, if they have one.
pub(super) async fn poster_rating(rooms: &Rooms, kept: &StoredChallenge) -> Option<ShownRating> {
    let op = RatingOp::Of {
        pool: rating_pool(&kept.terms.game, 2),
        accounts: vec![kept.account],
    };
    match rooms.store.ratings(op).await {
        Ok(Reply::Ratings(found)) => found.first().map(|(_, rating)| rating.shown()),
        _ => None,
    }
}
