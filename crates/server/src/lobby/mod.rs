//! The lobby: the open challenges, kept in the store and in memory, and the news of them
//! for every connection that follows the lobby. Posting, cancelling and accepting need an
//! account; a challenge accepted becomes a game with both seats the players' accounts'.
//! Which challenge to take, for Play now and for the house bots: [`choose`]; what other
//! server processes on the same store tell of theirs: [`shared`].

mod accepted;
mod checks;
mod choose;
mod gone;
mod news;
mod posting;
mod shared;
mod taking;

pub use accepted::Accepted;
use checks::{check_terms, named_player, poster_rating};
pub use choose::{Due, Fit};
pub use news::{LobbyChange, LobbyNews, OpenTo};
use shared::read_lobby;

use crate::codes::{new_code, new_token};
use crate::room::{NewGame, Player, Room, RoomState, new_game, now_ms};
use crate::rooms::Rooms;
use crate::store::{AccountId, ChallengeOp, StoreError, StoredChallenge, challenge_gone};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tabula_protocol::ShownRating;
use tabula_protocol::lobby::{Challenge, ChallengeTerms};
use tabula_session::GameKind;
use tabula_session::rules::text::quoted;
use tokio::sync::{Mutex, broadcast};

/// A challenge open here: as kept, and as shown.
#[derive(Clone, Debug)]
struct Open {
    kept: StoredChallenge,
    rating: Option<ShownRating>,
}

impl Open {
    fn shown(&self) -> Challenge {
        Challenge {
            id: self.kept.id.clone(),
            by: self.kept.by.clone(),
            rating: self.rating,
            terms: self.kept.terms.clone(),
            to: self.kept.to_name.clone(),
            posted_ms: self.kept.posted_ms,
        }
    }

    fn open_to(&self) -> OpenTo {
        match self.kept.to {
            None => OpenTo::Everyone,
            Some(named) => OpenTo::Only {
                poster: self.kept.account,
                named,
            },
        }
    }
}

pub struct Lobby {
    /// The open challenges by id, read from the store the first time the lobby is used.
    open: Mutex<Option<BTreeMap<String, Open>>>,
    news: broadcast::Sender<LobbyNews>,
    /// Word to each poster of its own challenges taken.
    accepted: accepted::AcceptedNews,
    /// Posts being stored, counted against the caps.
    posting: posting::PostsUnderWay,
    /// Challenges taken or cancelled lately, which late news must not put back.
    gone: gone::RecentlyGone,
    /// Challenges being taken here, and those put back to wait for another's word.
    taking: taking::Taking,
    /// A change may have been stored without this process knowing (the store did not say):
    /// the next look reads the lobby again.
    unsure: AtomicBool,
}

impl Default for Lobby {
    fn default() -> Lobby {
        let (news, _) = broadcast::channel(1024);
        Lobby {
            open: Mutex::new(None),
            news,
            accepted: Default::default(),
            posting: Default::default(),
            gone: Default::default(),
            taking: Default::default(),
            unsure: AtomicBool::new(false),
        }
    }
}

/// The store's answer, as the lobby needs it.
fn store_error(e: StoreError) -> String {
    e.to_string()
}

impl Lobby {
    /// The store's answer; one that may have been kept unbeknown makes the next look read
    /// the lobby again.
    fn store_error(&self, e: StoreError) -> String {
        if matches!(e, StoreError::Unknown(_)) {
            self.unsure.store(true, Ordering::Relaxed);
        }
        e.to_string()
    }
}

impl Lobby {
    /// The challenges open, read from the store at the first look. Other server processes
    /// sharing the store tell theirs as they change ([`Lobby::hear`]): reading it again at
    /// each post and accept held the lobby for the whole read (43 accepts a second with
    /// 1,000 challenges open, docs/benchmarks.md).
    async fn open<'a>(&'a self, rooms: &Rooms) -> Result<OpenGuard<'a>, String> {
        let mut open = self.open.lock().await;
        if open.is_none() {
            *open = Some(read_lobby(rooms, &BTreeMap::new()).await?);
        } else if self.unsure.swap(false, Ordering::Relaxed)
            && let Err(e) = self.read_again_held(rooms, &mut open, true).await
        {
            self.unsure.store(true, Ordering::Relaxed);
            return Err(e);
        }
        // Put back after a lost accept, and no word that it was taken came.
        if let Some(map) = open.as_mut() {
            for id in self.taking.overdue() {
                self.take_down(map, &id);
            }
        }
        Ok(open)
    }

    /// Shows `posted` to the followers, unless it is shown already or gone already (its
    /// word came late).
    fn put_up(&self, map: &mut OpenMap, posted: Open) {
        let id = &posted.kept.id;
        if map.contains_key(id) || self.gone.contains(id) || self.taking.contains(id) {
            return;
        }
        // Nobody following is not an error.
        let _ = self
            .news
            .send(LobbyNews::posted(posted.shown(), posted.open_to()));
        map.insert(posted.kept.id.clone(), posted);
    }

    /// Takes challenge `id` out of the lobby and tells the followers, if it was there.
    fn take_down(&self, map: &mut OpenMap, id: &str) -> Option<Open> {
        self.gone.add(id);
        let gone = map.remove(id)?;
        let _ = self.news.send(LobbyNews::gone(id, gone.open_to()));
        Some(gone)
    }

    /// The challenges `account` (or a visitor) sees, the oldest first, and news of what
    /// comes after (taken under the lobby's lock: nothing falls between the two).
    pub async fn follow(
        &self,
        rooms: &Rooms,
        account: Option<AccountId>,
    ) -> Result<(Vec<Challenge>, broadcast::Receiver<LobbyNews>), String> {
        let open = self.open(rooms).await?;
        let news = self.news.subscribe();
        let mut shown: Vec<&Open> = open
            .iter()
            .flatten()
            .map(|(_, open)| open)
            .filter(|open| open.open_to().shows_to(account))
            .collect();
        shown.sort_by_key(|open| (open.kept.posted_ms, open.kept.id.clone()));
        Ok((shown.into_iter().map(Open::shown).collect(), news))
    }

    /// Posts `player`'s challenge (to the player named `to`, if any): its id.
    pub async fn post(
        &self,
        rooms: &Rooms,
        player: Player<'_>,
        terms: ChallengeTerms,
        to: Option<String>,
    ) -> Result<String, String> {
        let terms = check_terms(&terms)?;
        let named = match to {
            Some(name) => Some(named_player(rooms, player, &name).await?),
            None => None,
        };
        // Counted with the posts under way, whose store writes run without the lobby held.
        let posting = {
            let open = self.open(rooms).await?;
            let map = open.as_ref().expect("read above");
            let own = map.values().filter(|o| o.kept.account == player.id).count();
            self.posting.begin(player.id, map.len(), own)?
        };
        let kept = StoredChallenge {
            id: new_token()[..12].to_string(),
            account: player.id,
            terms,
            to: named.as_ref().map(|(id, _)| *id),
            posted_ms: now_ms(),
            by: player.name.to_string(),
            to_name: named.map(|(_, name)| name),
        };
        rooms
            .store
            .challenge(ChallengeOp::Post(Box::new(kept.clone())))
            .await
            .map_err(|e| self.store_error(e))?;
        let rating = poster_rating(rooms, &kept).await;
        let id = kept.id.clone();
        let mut open = self.open(rooms).await?;
        // Read again meanwhile, it may be shown already.
        self.put_up(open.as_mut().expect("read above"), Open { kept, rating });
        drop(posting);
        Ok(id)
    }

    /// Cancels `account`'s challenge `id`.
    pub async fn cancel(&self, rooms: &Rooms, account: AccountId, id: &str) -> Result<(), String> {
        let mut open = self.holding(rooms, id).await?;
        let map = open.as_mut().expect("read above");
        match map.get(id) {
            Some(open) if open.kept.account == account => {}
            Some(_) => return Err("that challenge is not yours to cancel".into()),
            None => return Err(challenge_gone(&shown_id(id)).to_string()),
        }
        let op = ChallengeOp::Cancel {
            id: id.to_string(),
            account,
        };
        let cancelled = rooms.store.challenge(op).await;
        match cancelled {
            // Gone from the store (taken through another server process): gone here too.
            Ok(_) | Err(StoreError::Conflict(_)) => {
                self.take_down(map, id);
                cancelled.map(|_| ()).map_err(store_error)
            }
            // Not known to be done: kept here as the store may still have it.
            Err(e) => Err(self.store_error(e)),
        }
    }

    /// `player` accepts challenge `id`: the game, the seat they hold and its token.
    pub async fn accept(
        &self,
        rooms: &Rooms,
        player: Player<'_>,
        id: &str,
    ) -> Result<(Arc<Room>, usize, String), String> {
        // Taken out of the lobby while the store makes the game, without the lobby held
        // (it held every other post and accept for a store write each); put back if the
        // store fails.
        let challenge = {
            let mut open = self.holding(rooms, id).await?;
            let map = open.as_mut().expect("read above");
            let Some(challenge) = map.get(id) else {
                return Err(challenge_gone(&shown_id(id)).to_string());
            };
            if challenge.kept.account == player.id {
                return Err("that is your own challenge: cancel it instead".into());
            }
            if challenge.kept.to.is_some_and(|named| named != player.id) {
                return Err("that challenge is for another player".into());
            }
            // Not shown again meanwhile by a read of the store or a late word.
            self.taking.begin(id);
            map.remove(id).expect("found above")
        };
        let made = self.make_game(rooms, player, id, &challenge).await;
        match &made {
            Ok(_) => {
                let mut open = self.open.lock().await;
                self.gone.add(id);
                if let Some(map) = open.as_mut() {
                    map.remove(id);
                }
                let _ = self.news.send(LobbyNews::gone(id, challenge.open_to()));
            }
            // Taken or cancelled through another process, whose word tells the poster and
            // then the followers. Heard already (while it was out of the lobby), the
            // followers are told here; not yet, it goes back for the word to take down in
            // its order (a poster here hears "taken" before "gone").
            Err(Unmade::Gone) => {
                let mut open = self.open.lock().await;
                if self.gone.contains(id) {
                    if let Some(map) = open.as_mut() {
                        map.remove(id);
                    }
                    let _ = self.news.send(LobbyNews::gone(id, challenge.open_to()));
                } else if let Some(map) = open.as_mut() {
                    map.entry(id.to_string()).or_insert(challenge);
                    self.taking.await_word(id);
                }
            }
            Err(Unmade::Else(_)) => {
                if let Some(map) = self.open.lock().await.as_mut() {
                    map.entry(id.to_string()).or_insert(challenge);
                }
            }
        }
        self.taking.end(id);
        made.map_err(|unmade| match unmade {
            Unmade::Gone => challenge_gone(&shown_id(id)).to_string(),
            Unmade::Else(e) => e,
        })
    }

    /// The game of `challenge`, taken by `player`, stored in place of the challenge.
    async fn make_game(
        &self,
        rooms: &Rooms,
        player: Player<'_>,
        id: &str,
        challenge: &Open,
    ) -> Result<(Arc<Room>, usize, String), Unmade> {
        let kept = &challenge.kept;
        let terms = &kept.terms;
        // Either seat: drawn now (a random token's first hex digit is odd or even alike).
        let poster_seat = terms
            .seat
            .unwrap_or_else(|| usize::from(new_token().as_bytes()[0] % 2));
        let seat = 1 - poster_seat;
        let kind = GameKind::parse(&terms.game).map_err(Unmade::Else)?;
        let poster = Player {
            id: kept.account,
            name: &kept.by,
        };
        for _ in 0..8 {
            let code = new_code();
            let new = NewGame {
                kind,
                settings: &terms.settings,
                seat: poster_seat,
                pace: terms.pace,
                move_seconds: terms.move_seconds,
                rated: terms.rated,
                account: Some(poster),
            };
            let (mut stored, _) = new_game(&code, &new).map_err(Unmade::Else)?;
            let token = new_token();
            stored.tokens[seat] = Some(token.clone());
            stored.accounts[seat] = Some(player.id);
            stored.players[seat] = Some(player.name.to_string());
            // Both seated: the move clock starts.
            stored.clock_ms = Some(now_ms());
            let state = RoomState::from_stored(&stored).map_err(Unmade::Else)?;
            stored.waiting_seat = state.waiting_seat();
            let op = ChallengeOp::Accept {
                id: id.to_string(),
                game: Box::new(stored),
                poster_seat,
            };
            match rooms.store.challenge(op).await {
                Ok(_) => {
                    // The poster hears it was taken before that it is gone.
                    self.accepted.tell(
                        kept.account,
                        Accepted {
                            id: id.to_string(),
                            code: code.clone(),
                            seat: poster_seat,
                        },
                    );
                    let room = rooms.open_new(code, state, seat).await;
                    return Ok((room, seat, token));
                }
                // Taken through another server process.
                Err(e) if e == challenge_gone(id) => return Err(Unmade::Gone),
                // The code was taken: another.
                Err(StoreError::Conflict(_)) => continue,
                Err(e) => return Err(Unmade::Else(self.store_error(e))),
            }
        }
        Err(Unmade::Else(
            "no free game code was found; try again".into(),
        ))
    }

    /// News of the lobby from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<LobbyNews> {
        self.news.subscribe()
    }

    /// Word of `account`'s challenges taken, from now on.
    pub fn listen_for_accepts(&self, account: AccountId) -> broadcast::Receiver<Accepted> {
        self.accepted.listen(account)
    }

    /// Takes `account`'s challenges down, and those naming it (a deleted account).
    pub async fn forget_account(&self, account: AccountId) {
        let mut open = self.open.lock().await;
        let Some(map) = open.as_mut() else {
            return;
        };
        let gone: Vec<String> = map
            .iter()
            .filter(|(_, open)| open.kept.account == account || open.kept.to == Some(account))
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            self.take_down(map, &id);
        }
    }
}

type OpenMap = BTreeMap<String, Open>;
type OpenGuard<'a> = tokio::sync::MutexGuard<'a, Option<OpenMap>>;

/// Why no game was made of a challenge.
enum Unmade {
    /// It was taken meanwhile (through another server process).
    Gone,
    /// Anything else: the challenge stays open.
    Else(String),
}

/// An id as an error may quote it: short, and quoted.
fn shown_id(id: &str) -> String {
    quoted(&id.chars().take(16).collect::<String>())
}
