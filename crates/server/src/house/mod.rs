//! The house bots (`tabula-server --house-bots`): five accounts, from the weakest level of
//! each game's ladder to its strongest bounded one, that take the challenges nobody else
//! takes within a set time (and at once a challenge to one of them by name), then play
//! those games to their end. They search on a pool of threads of their own ([`pool`]), and
//! take no more games at once than the server allows them.
//!
//! - [`levels`]: the five, and what each plays in each game.
//! - [`pool`]: the threads they search on.
//! - [`seat`]: one bot playing one game.

pub mod levels;
pub mod pool;
mod seat;

use crate::accounts::names::name_key;
use crate::lobby::{LobbyChange, LobbyNews, OpenTo};
use crate::room::{Player, now_ms};
use crate::rooms::Rooms;
use crate::store::{AccountId, AccountOp, RatingOp, Reply, StoreError};
use levels::{HOUSE_BOTS, seed_rating};
use pool::SearchPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_protocol::house::{HouseBot, HouseBots};
use tabula_protocol::ratings::rating_pool;
use tabula_session::GameKind;
use tokio::sync::broadcast::error::RecvError;

/// How the house bots play on a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseSettings {
    /// How long a challenge to anyone waits for a person before a bot takes it.
    pub wait: Duration,
    /// The threads the bots search on.
    pub threads: usize,
    /// The games under way the bots play at once, at most (past it, challenges wait): a
    /// game counts while it changed within [`ACTIVE`].
    pub games: usize,
}

impl Default for HouseSettings {
    fn default() -> HouseSettings {
        HouseSettings {
            wait: Duration::from_secs(30),
            threads: 1,
            games: 20,
        }
    }
}

/// One house bot's account.
#[derive(Clone, Debug)]
struct Resident {
    id: AccountId,
    name: String,
    /// 1 (the weakest) to 5.
    level: u8,
    about: &'static str,
}

pub struct House {
    residents: Vec<Resident>,
    settings: HouseSettings,
    pool: SearchPool,
    /// The games the bots are playing in this process, by code, with when each last
    /// changed since this process has played it.
    playing: Mutex<HashMap<String, Option<Instant>>>,
}

/// A game counts against [`HouseSettings::games`] while it changed (a move, an offer, a
/// player coming or going) this recently: one its opponent left (a correspondence game may rest for weeks) does not
/// keep the bots from others.
pub const ACTIVE: Duration = Duration::from_secs(10 * 60);

/// How long after its wait a live challenge to anyone may still be taken by a bot: past
/// it, its poster has likely left, and a bot would play a game nobody watches.
const LIVE_WINDOW: Duration = Duration::from_secs(10 * 60);

/// How often the lobby is looked at for challenges that waited long enough.
const LOOK_EVERY: Duration = Duration::from_secs(1);
/// How many of each bot's latest games a restart looks through for games to go on with.
const RESUME_GAMES: usize = 500;
/// A house bot's password hash: no password's hash, so nobody logs in as one (nor could:
/// their names are refused at login).
const NO_PASSWORD: &str = "!house-bot";

impl House {
    /// Makes (or finds) the bots' accounts and their first ratings, goes on with the games
    /// they were playing, and starts taking challenges.
    pub async fn start(rooms: Arc<Rooms>, settings: HouseSettings) -> Result<(), String> {
        let mut residents = Vec::new();
        for (n, &(name, about)) in HOUSE_BOTS.iter().enumerate() {
            let level = n as u8 + 1;
            let id = account(&rooms, name).await?;
            for kind in GameKind::ALL {
                let op = RatingOp::Seed {
                    pool: rating_pool(kind.key(), 2),
                    account: id,
                    rating: seed_rating(kind, level),
                };
                rooms.store.ratings(op).await.map_err(|e| e.to_string())?;
            }
            residents.push(Resident {
                id,
                name: name.to_string(),
                level,
                about,
            });
        }
        let house = Arc::new(House {
            residents,
            settings,
            pool: SearchPool::new(settings.threads)?,
            playing: Mutex::new(HashMap::new()),
        });
        if rooms.house.set(house.clone()).is_err() {
            return Err("the house bots were started twice".into());
        }
        tokio::spawn(house.clone().resume(rooms.clone()));
        tokio::spawn(house.take_challenges(rooms));
        Ok(())
    }

    /// The bots as the lobby shows them.
    pub fn shown(&self) -> HouseBots {
        HouseBots {
            bots: self
                .residents
                .iter()
                .map(|r| HouseBot {
                    name: r.name.clone(),
                    level: r.level,
                    about: r.about.to_string(),
                })
                .collect(),
            wait_seconds: self.settings.wait.as_secs().try_into().unwrap_or(u32::MAX),
        }
    }

    /// Whether `account` is one of the bots.
    pub fn is_resident(&self, account: AccountId) -> bool {
        self.residents.iter().any(|r| r.id == account)
    }

    /// How many of the bots' games here are under way (changed within [`ACTIVE`]).
    fn games_under_way(&self) -> usize {
        self.playing
            .lock()
            .expect("house lock")
            .values()
            .filter(|at| at.is_some_and(|at| at.elapsed() < ACTIVE))
            .count()
    }

    /// Game `code` changed now.
    fn moved(&self, code: &str) {
        if let Some(at) = self.playing.lock().expect("house lock").get_mut(code) {
            *at = Some(Instant::now());
        }
    }

    /// Goes on with the games a restart interrupted.
    async fn resume(self: Arc<House>, rooms: Arc<Rooms>) {
        for resident in &self.residents {
            let op = AccountOp::Seats {
                account: resident.id,
                limit: RESUME_GAMES,
            };
            let seats = match rooms.store.account(op).await {
                Ok(Reply::Seats(seats)) => seats,
                Ok(_) => continue,
                Err(e) => {
                    eprintln!("house bots: {}'s games: {e}", resident.name);
                    continue;
                }
            };
            for (code, seat) in seats {
                match rooms.get(&code).await {
                    Ok(room) if !room.state.lock().await.is_over() => {
                        self.play(&rooms, room, seat, resident.level, None);
                    }
                    Ok(_) => {}
                    Err(e) => eprintln!("house bots: game {code}: {e}"),
                }
            }
        }
    }

    /// Takes, as they come due, the challenges to a bot by name and those nobody took in
    /// time; for ever.
    async fn take_challenges(self: Arc<House>, rooms: Arc<Rooms>) {
        let mut news = rooms.lobby.subscribe();
        let mut every = tokio::time::interval(LOOK_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {}
                // A challenge to a bot is taken now rather than at the next look.
                heard = news.recv() => match heard {
                    Ok(LobbyNews {
                        change: LobbyChange::Posted(_),
                        open_to: OpenTo::Only { named, .. },
                        ..
                    }) if self.is_resident(named) => {}
                    Err(RecvError::Closed) => return,
                    _ => continue,
                },
            }
            self.take_due(&rooms).await;
        }
    }

    /// Takes the challenges due now, while the bots have room for another game.
    async fn take_due(self: &Arc<House>, rooms: &Arc<Rooms>) {
        let bots: Vec<AccountId> = self.residents.iter().map(|r| r.id).collect();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let posted_by = now_ms().saturating_sub(ms(self.settings.wait));
        let live_since = posted_by.saturating_sub(ms(LIVE_WINDOW));
        let due = match rooms
            .lobby
            .due_for_house(rooms, posted_by, live_since, &bots)
            .await
        {
            Ok(due) => due,
            Err(e) => {
                eprintln!("house bots: the lobby: {e}");
                return;
            }
        };
        for challenge in due {
            if self.games_under_way() >= self.settings.games {
                return;
            }
            let resident = match challenge.named {
                Some(named) => self.residents.iter().find(|r| r.id == named),
                None => self.nearest(rooms, &challenge.pool, challenge.rating).await,
            };
            let Some(resident) = resident.cloned() else {
                continue;
            };
            let player = Player {
                id: resident.id,
                name: &resident.name,
            };
            match rooms.lobby.accept(rooms, player, &challenge.id).await {
                Ok((room, seat, _token)) => {
                    self.play(rooms, room, seat, resident.level, Some(Instant::now()))
                }
                // Taken or cancelled meanwhile, or the store failed: the next look tries
                // again if it is still there.
                Err(e) => eprintln!("house bots: challenge {}: {e}", challenge.id),
            }
        }
    }

    /// The bot whose rating in `pool` is nearest `rating` (a newcomer's when the poster has
    /// none yet).
    async fn nearest(&self, rooms: &Rooms, pool: &str, rating: Option<i32>) -> Option<&Resident> {
        let theirs = f64::from(rating.unwrap_or(1500));
        let op = RatingOp::Of {
            pool: pool.to_string(),
            accounts: self.residents.iter().map(|r| r.id).collect(),
        };
        let found = match rooms.store.ratings(op).await {
            Ok(Reply::Ratings(found)) => found,
            _ => Vec::new(),
        };
        self.residents.iter().min_by(|a, b| {
            let off = |r: &Resident| {
                found
                    .iter()
                    .find(|(id, _)| *id == r.id)
                    .map_or(f64::INFINITY, |(_, rating)| {
                        (rating.glicko.rating - theirs).abs()
                    })
            };
            off(a).total_cmp(&off(b))
        })
    }

    /// Plays `seat` of `room` as house bot `level` until the game ends (once per game);
    /// `active` says when it last had a move, if it is under way.
    fn play(
        self: &Arc<House>,
        rooms: &Arc<Rooms>,
        room: Arc<crate::room::Room>,
        seat: usize,
        level: u8,
        active: Option<Instant>,
    ) {
        {
            let mut playing = self.playing.lock().expect("house lock");
            if playing.contains_key(&room.code) {
                return;
            }
            playing.insert(room.code.clone(), active);
        }
        let (house, rooms) = (self.clone(), rooms.clone());
        tokio::spawn(async move {
            let code = room.code.clone();
            seat::play_seat(&house, &rooms, room, seat, level).await;
            house.playing.lock().expect("house lock").remove(&code);
        });
    }
}

/// The account of the bot `name`: found, or made.
async fn account(rooms: &Rooms, name: &str) -> Result<AccountId, String> {
    let key = name_key(name);
    let find = || AccountOp::Find {
        name_key: key.clone(),
    };
    if let Ok(Reply::Account(Some(found))) = rooms.store.account(find()).await {
        return Ok(found.id);
    }
    let register = AccountOp::Register {
        name: name.to_string(),
        name_key: key.clone(),
        password: NO_PASSWORD.to_string(),
        now_ms: now_ms(),
    };
    match rooms.store.account(register).await {
        Ok(Reply::Registered(id)) => Ok(id),
        // Made meanwhile by another server process on the same database.
        Err(StoreError::Conflict(_)) => match rooms.store.account(find()).await {
            Ok(Reply::Account(Some(found))) => Ok(found.id),
            _ => Err(format!("the house bot {name}'s account cannot be found")),
        },
        Ok(_) => Err(crate::store::ANSWERED_ELSE.into()),
        Err(e) => Err(format!("the house bot {name}'s account: {e}")),
    }
}
