//! The lobby on a store other server processes share: what they tell of their changes
//! (posted, cancelled, taken, an account deleted), heard in the order told, and the whole
//! lobby read again when something may have been missed.

use super::{
    Accepted, Lobby, LobbyNews, Open, OpenGuard, OpenMap, check_terms, poster_rating, store_error,
};
use crate::rooms::Rooms;
use crate::store::{ANSWERED_ELSE, AccountId, ChallengeOp, LobbyWord, RatingOp, Reply};
use std::collections::BTreeMap;
use tabula_protocol::ratings::rating_pool;

impl Lobby {
    /// The challenges open, read again from a shared store (news was missed, or someone
    /// names a challenge this process has not heard of); the followers are told what
    /// changed.
    async fn read_again<'a>(&'a self, rooms: &Rooms) -> Result<OpenGuard<'a>, String> {
        let mut open = self.open.lock().await;
        let Some(known) = open.as_ref() else {
            drop(open);
            return self.open(rooms).await;
        };
        let read = read_lobby(rooms, known).await?;
        for (id, gone) in known.iter().filter(|(id, _)| !read.contains_key(*id)) {
            let _ = self.news.send(LobbyNews::gone(id, gone.open_to()));
        }
        for (_, posted) in read.iter().filter(|(id, _)| !known.contains_key(*id)) {
            let _ = self
                .news
                .send(LobbyNews::posted(posted.shown(), posted.open_to()));
        }
        *open = Some(read);
        Ok(open)
    }

    /// The challenges open, read again first if `id` is not among those this process knows
    /// and another process may have posted it (its word may not have come yet).
    pub(super) async fn holding<'a>(
        &'a self,
        rooms: &Rooms,
        id: &str,
    ) -> Result<OpenGuard<'a>, String> {
        let open = self.open(rooms).await?;
        // Only an id as this server makes them is looked for (an id made up would read the
        // whole lobby each time).
        let could_be = id.len() == 12 && id.bytes().all(|b| b.is_ascii_hexdigit());
        if open.as_ref().is_some_and(|map| map.contains_key(id))
            || !rooms.store.is_shared()
            || !could_be
        {
            return Ok(open);
        }
        drop(open);
        self.read_again(rooms).await
    }

    /// What another server process sharing the store told of the lobby, in the order told.
    pub async fn hear(&self, rooms: &Rooms, word: LobbyWord) {
        match word {
            LobbyWord::Posted(kept) => {
                if let Err(e) = check_terms(&kept.terms) {
                    eprintln!("challenge {}: {e}; left out of the lobby", kept.id);
                    return;
                }
                let rating = poster_rating(rooms, &kept).await;
                // Not read yet: the first look reads it with the rest.
                if let Some(map) = self.open.lock().await.as_mut() {
                    self.put_up(
                        map,
                        Open {
                            kept: *kept,
                            rating,
                        },
                    );
                }
            }
            LobbyWord::Unknown => {
                if self.open.lock().await.is_some()
                    && let Err(e) = self.read_again(rooms).await
                {
                    eprintln!("the lobby could not be read again: {e}");
                }
            }
            LobbyWord::Gone { id } => {
                if let Some(map) = self.open.lock().await.as_mut() {
                    self.take_down(map, &id);
                }
            }
            LobbyWord::Taken {
                id,
                code,
                poster,
                seat,
            } => {
                // The poster hears it was taken before that it is gone.
                self.accepted.tell(
                    poster,
                    Accepted {
                        id: id.clone(),
                        code,
                        seat,
                    },
                );
                if let Some(map) = self.open.lock().await.as_mut() {
                    self.take_down(map, &id);
                }
            }
            LobbyWord::Left { account } => self.forget_account(account).await,
        }
    }
}

/// The challenges open in the store; a rating is read for each poster not in `known`.
pub(super) async fn read_lobby(rooms: &Rooms, known: &OpenMap) -> Result<OpenMap, String> {
    let Reply::Challenges(kept) = rooms
        .store
        .challenge(ChallengeOp::All)
        .await
        .map_err(store_error)?
    else {
        return Err(ANSWERED_ELSE.into());
    };
    let mut read = BTreeMap::new();
    let mut unrated: BTreeMap<String, Vec<AccountId>> = BTreeMap::new();
    for kept in kept {
        // Terms a damaged row holds are left out, not carried into a game.
        if let Err(e) = check_terms(&kept.terms) {
            eprintln!("challenge {}: {e}; left out of the lobby", kept.id);
            continue;
        }
        // A poster's rating is read once, when their challenge is first seen.
        let rating = match known.get(&kept.id) {
            Some(seen) => seen.rating,
            None => {
                unrated
                    .entry(rating_pool(&kept.terms.game, 2))
                    .or_default()
                    .push(kept.account);
                None
            }
        };
        read.insert(kept.id.clone(), Open { kept, rating });
    }
    // One question a pool for the posters first seen.
    for (pool, accounts) in unrated {
        let op = RatingOp::Of {
            pool: pool.clone(),
            accounts,
        };
        if let Ok(Reply::Ratings(found)) = rooms.store.ratings(op).await {
            for open in read.values_mut() {
                if open.rating.is_none()
                    && rating_pool(&open.kept.terms.game, 2) == pool
                    && let Some((_, rating)) = found.iter().find(|(id, _)| *id == open.kept.account)
                {
                    open.rating = Some(rating.shown());
                }
            }
        }
    }
    Ok(read)
}
