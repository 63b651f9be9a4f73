//! The lobby on a store other server processes share: what they tell of their changes
//! (posted, cancelled, taken, an account deleted), heard in the order told, and the whole
//! lobby read again when something may have been missed.

use super::checks::{check_terms, poster_rating};
use super::{Accepted, Lobby, Open, OpenGuard, OpenMap, store_error};
use crate::rooms::Rooms;
use crate::store::{ANSWERED_ELSE, AccountId, ChallengeOp, LobbyWord, RatingOp, Reply};
use std::collections::BTreeMap;
use tabula_protocol::ratings::rating_pool;

impl Lobby {
    /// Reads the lobby again into `open` (held), telling the followers what changed. With
    /// `removals`, what the store no longer holds is taken down (news was missed, or a
    /// change may have been kept unbeknown); without, it stays for its word, on its way, to
    /// take down in its order (a poster hears "taken" before "gone").
    pub(super) async fn read_again_held(
        &self,
        rooms: &Rooms,
        open: &mut Option<OpenMap>,
        removals: bool,
    ) -> Result<(), String> {
        let Some(map) = open.as_mut() else {
            *open = Some(read_lobby(rooms, &BTreeMap::new()).await?);
            return Ok(());
        };
        let read = read_lobby(rooms, map).await?;
        if removals {
            let gone: Vec<String> = map
                .keys()
                .filter(|id| !read.contains_key(*id))
                .cloned()
                .collect();
            for id in gone {
                self.take_down(map, &id);
            }
        }
        let mut new: Vec<Open> = read
            .into_values()
            .filter(|open| !map.contains_key(&open.kept.id))
            .collect();
        new.sort_by_key(|open| (open.kept.posted_ms, open.kept.id.clone()));
        for posted in new {
            self.put_up(map, posted);
        }
        Ok(())
    }

    async fn read_again<'a>(
        &'a self,
        rooms: &Rooms,
        removals: bool,
    ) -> Result<OpenGuard<'a>, String> {
        let mut open = self.open.lock().await;
        self.read_again_held(rooms, &mut open, removals).await?;
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
            || self.gone.contains(id)
        {
            return Ok(open);
        }
        drop(open);
        self.read_again(rooms, false).await
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
                    && let Err(e) = self.read_again(rooms, true).await
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::LobbyChange;
    use crate::store::StoredChallenge;
    use tabula_protocol::lobby::ChallengeTerms;

    fn posted(id: &str, account: AccountId) -> LobbyWord {
        LobbyWord::Posted(Box::new(StoredChallenge {
            id: id.into(),
            account,
            terms: ChallengeTerms {
                game: "adaptoid".into(),
                settings: Vec::new(),
                pace: tabula_protocol::Pace::Correspondence,
                move_seconds: None,
                rated: false,
                seat: None,
            },
            to: None,
            posted_ms: 1,
            by: format!("player{account}"),
            to_name: None,
        }))
    }

    /// The ids a visitor looking now sees.
    async fn shown(rooms: &Rooms) -> Vec<String> {
        let (list, _) = rooms.lobby.follow(rooms, None).await.unwrap();
        list.into_iter().map(|c| c.id).collect()
    }

    #[test]
    fn words_from_elsewhere_keep_the_lobby_and_a_late_word_puts_nothing_back() {
        crate::rooms::on_sqlite_rooms(|rooms| async move {
            let lobby = &rooms.lobby;
            let (first, mut news) = lobby.follow(&rooms, None).await.unwrap();
            assert!(first.is_empty());
            let mut poster = lobby.listen_for_accepts(7);
            let id = "aaaaaaaaaaaa";

            lobby.hear(&rooms, posted(id, 7)).await;
            assert!(matches!(
                news.try_recv().unwrap().change,
                LobbyChange::Posted(_)
            ));
            assert_eq!(shown(&rooms).await, [id]);

            // Taken through another process: the poster hears it, then the followers.
            let taken = LobbyWord::Taken {
                id: id.into(),
                code: "K7MQ2X".into(),
                poster: 7,
                seat: 1,
            };
            lobby.hear(&rooms, taken).await;
            let word = poster.try_recv().unwrap();
            assert_eq!((word.code.as_str(), word.seat), ("K7MQ2X", 1));
            assert!(matches!(
                news.try_recv().unwrap().change,
                LobbyChange::Gone { .. }
            ));

            // Its "posted" word again, late (as a process that took it before hearing it
            // would get it): nothing is put back.
            lobby.hear(&rooms, posted(id, 7)).await;
            assert!(news.try_recv().is_err());
            assert!(shown(&rooms).await.is_empty());

            // Being taken here (out of the lobby while its game is made): its word, late,
            // shows nothing meanwhile.
            lobby.taking.begin("cccccccccccc");
            lobby.hear(&rooms, posted("cccccccccccc", 7)).await;
            assert!(news.try_recv().is_err());
            lobby.taking.end("cccccccccccc");

            // An account deleted elsewhere: its challenges go.
            lobby.hear(&rooms, posted("bbbbbbbbbbbb", 9)).await;
            lobby.hear(&rooms, LobbyWord::Left { account: 9 }).await;
            assert!(matches!(
                news.try_recv().unwrap().change,
                LobbyChange::Posted(_)
            ));
            assert!(matches!(
                news.try_recv().unwrap().change,
                LobbyChange::Gone { .. }
            ));
            assert!(shown(&rooms).await.is_empty());
        });
    }
}
