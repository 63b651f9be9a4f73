//! The games this process has open, each loaded from the store the first time someone
//! asks for it.

use crate::accounts::Accounts;
use crate::codes::{new_code, normalize_code};
use crate::house::House;
use crate::limits::CreationLimit;
use crate::lobby::Lobby;
use crate::room::{NewGame, Room, RoomState, new_game};
use crate::store::{AccountId, LobbyWord, News, Op, Reply, Store, StoreError, TurnOp};
use crate::turns::Turns;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The longest move time limit: a month, for correspondence.
pub const MAX_MOVE_SECONDS: u32 = 31 * 24 * 3600;
pub const MIN_MOVE_SECONDS: u32 = 5;

pub struct Rooms {
    pub store: Store,
    pub creations: CreationLimit,
    pub accounts: Accounts,
    pub lobby: Lobby,
    /// The house bots, when the server runs them (`--house-bots`).
    pub house: OnceLock<Arc<House>>,
    /// The accounts following their turns on this process.
    pub turns: Arc<Turns>,
    open: Mutex<OpenRooms>,
}

/// The games in memory, by code.
#[derive(Default)]
struct OpenRooms {
    by_code: HashMap<String, Arc<Room>>,
    /// Games kept at the last time those nobody holds were let go.
    kept_at_sweep: usize,
}

/// Games in memory before any is let go between the sweeps.
const ROOMS_BEFORE_SWEEP: usize = 1024;

impl OpenRooms {
    /// The game of `code`: the one here if there is one (one room per game), else `room`.
    /// Once the games here are twice as many as at the last sweep, those nobody holds are
    /// let go first: a lobby making 500 games a second, each resigned at once, held 30,000
    /// finished games between two sweeps a minute apart (docs/benchmarks.md).
    fn keep(&mut self, code: String, room: Arc<Room>) -> Arc<Room> {
        if self.by_code.len() >= 2 * self.kept_at_sweep.max(ROOMS_BEFORE_SWEEP) {
            self.forget_idle();
        }
        self.by_code.entry(code).or_insert(room).clone()
    }

    fn forget_idle(&mut self) -> usize {
        let before = self.by_code.len();
        self.by_code.retain(|_, room| Arc::strong_count(room) > 1);
        self.kept_at_sweep = self.by_code.len();
        before - self.by_code.len()
    }
}

impl Rooms {
    /// Games kept in `store`; each address may create `games_per_hour` (0: any number).
    pub fn new(store: Store, games_per_hour: u32) -> Rooms {
        Rooms::with_accounts(store, games_per_hour, Accounts::default())
    }

    /// [`Rooms::new`], with `accounts` (their limits).
    pub fn with_accounts(store: Store, games_per_hour: u32, accounts: Accounts) -> Rooms {
        Rooms {
            store,
            creations: CreationLimit::new(games_per_hour),
            accounts,
            lobby: Lobby::default(),
            house: OnceLock::new(),
            turns: Arc::default(),
            open: Mutex::new(OpenRooms::default()),
        }
    }

    /// Loads again each open game that another server process changes, for as long as
    /// the store tells of them.
    pub async fn follow_news(
        self: Arc<Rooms>,
        mut news: tokio::sync::mpsc::UnboundedReceiver<News>,
    ) {
        // The lobby's words are heard one after another, in the order told (a challenge
        // posted before it is taken), apart from the games' news.
        let (tell_lobby, lobby_words) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(self.clone().hear_lobby(lobby_words));
        while let Some(item) = news.recv().await {
            let store = self.store.clone();
            // One slow game does not hold up the news of the others.
            match item {
                News::Changed { code, version } => {
                    if let Some(room) = self.cached(&code) {
                        tokio::spawn(async move { room.catch_up(&store, version).await });
                    } else if self.turns.anyone() {
                        tokio::spawn(self.clone().tell_turns_of(code));
                    }
                }
                News::Moved {
                    code,
                    version,
                    ply,
                    mv,
                } => {
                    if let Some(room) = self.cached(&code) {
                        tokio::spawn(
                            async move { room.relay_move(&store, version, ply, mv).await },
                        );
                    } else if self.turns.anyone() {
                        tokio::spawn(self.clone().tell_turns_of(code));
                    }
                }
                News::Lobby(word) => {
                    let _ = tell_lobby.send(word);
                }
                News::Missed => {
                    let _ = tell_lobby.send(LobbyWord::Unknown);
                    // The games not open here changed unheard: each follower looks again.
                    self.turns.look_again();
                    for room in self.open_rooms() {
                        let store = store.clone();
                        tokio::spawn(async move { room.reload(&store).await });
                    }
                }
            }
        }
    }

    async fn hear_lobby(
        self: Arc<Rooms>,
        mut words: tokio::sync::mpsc::UnboundedReceiver<LobbyWord>,
    ) {
        while let Some(word) = words.recv().await {
            self.lobby.hear(&self, word).await;
        }
    }

    /// Another process changed game `code`, which is not open here: if one of its players
    /// follows their turns here, the game is opened to tell them.
    async fn tell_turns_of(self: Arc<Rooms>, code: String) {
        let players = match self
            .store
            .turns(TurnOp::Players { code: code.clone() })
            .await
        {
            Ok(Reply::Accounts(players)) => players,
            _ => return,
        };
        if !self.turns.any_of(&players) {
            return;
        }
        // Opened now, it is the game as stored, with this change.
        if let Ok(room) = self.get(&code).await {
            room.tell_turns_now().await;
        }
    }

    /// Forgets the games nobody follows and nothing waits on (no connection, no move
    /// clock, no change under way hold them), so memory follows the games being played, not
    /// every game ever opened. A game forgotten is loaded again when someone asks; its
    /// version guards against an old copy that a clock still holds.
    pub fn forget_idle(&self) -> usize {
        self.open.lock().expect("rooms lock").forget_idle()
    }

    /// Shows `account`'s seats in the games open here as `name` (an account deleted); the
    /// games loaded later read it from the store.
    pub async fn rename_player(&self, account: AccountId, name: &str) {
        for room in self.open_rooms() {
            room.rename_player(account, name).await;
        }
    }

    /// The games in memory now (taken out of the lock, to be awaited on one by one).
    fn open_rooms(&self) -> Vec<Arc<Room>> {
        self.open
            .lock()
            .expect("rooms lock")
            .by_code
            .values()
            .cloned()
            .collect()
    }

    /// How many games are in memory.
    pub fn open_games(&self) -> usize {
        self.open.lock().expect("rooms lock").by_code.len()
    }

    /// The game with this code, if it is in memory.
    pub fn cached(&self, code: &str) -> Option<Arc<Room>> {
        self.open
            .lock()
            .expect("rooms lock")
            .by_code
            .get(code)
            .cloned()
    }

    /// The game with this code, from memory or from the store.
    pub async fn get(&self, code: &str) -> Result<Arc<Room>, String> {
        let code = normalize_code(code)?;
        if let Some(room) = self.cached(&code) {
            return Ok(room);
        }
        let stored = self
            .store
            .load(&code)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no game has the code {code}"))?;
        let mut state = RoomState::from_stored(&stored)?;
        Room::read_ratings(&self.store, &mut state).await;
        let deadline = state.deadline_ms();
        let moves = stored.moves.len();
        let room = {
            let mut open = self.open.lock().expect("rooms lock");
            // Another connection may have loaded it meanwhile: one room per game.
            if let Some(room) = open.by_code.get(&code) {
                return Ok(room.clone());
            }
            let room = Room::new(code.clone(), state, self.turns.clone());
            open.keep(code, room)
        };
        room.arm_clock(&self.store, moves, deadline);
        if self.store.is_shared() {
            // News of a change another process made while this one was loading the game
            // found no room to reload: look once more now that the room is there.
            room.reload(&self.store).await;
        }
        Ok(room)
    }

    /// A game just stored, with its players' ratings, opened here for the player taking
    /// `arriving` (at the game now).
    pub async fn open_new(&self, code: String, mut state: RoomState, arriving: usize) -> Arc<Room> {
        Room::read_ratings(&self.store, &mut state).await;
        let (moves, deadline) = (state.moves(), state.deadline_ms());
        let made = Room::new(code.clone(), state, self.turns.clone());
        // A connection that guessed the new code a moment ago may have loaded it (with its
        // clock): one room per game.
        let room = self
            .open
            .lock()
            .expect("rooms lock")
            .keep(code, made.clone());
        if Arc::ptr_eq(&room, &made) {
            room.arm_clock(&self.store, moves, deadline);
        }
        // Made with every seat taken: it waits for its first player now.
        room.came_to_wait_now(arriving).await;
        room
    }

    /// A new game; returns it, the seat taken and that seat's token.
    pub async fn create(&self, new: &NewGame<'_>) -> Result<(Arc<Room>, usize, String), String> {
        if let Some(seconds) = new.move_seconds
            && !(MIN_MOVE_SECONDS..=MAX_MOVE_SECONDS).contains(&seconds)
        {
            return Err(format!(
                "a move time limit is {MIN_MOVE_SECONDS} to {MAX_MOVE_SECONDS} seconds, not {seconds}"
            ));
        }
        for _ in 0..8 {
            let code = new_code();
            let (stored, token) = new_game(&code, new)?;
            let mut state = RoomState::from_stored(&stored)?;
            match self.store.run(Op::Create(Box::new(stored))).await {
                Ok(_) => {
                    Room::read_ratings(&self.store, &mut state).await;
                    let room = Room::new(code.clone(), state, self.turns.clone());
                    // A connection that guessed the new code a moment ago may have loaded it:
                    // one room per game.
                    let room = self.open.lock().expect("rooms lock").keep(code, room);
                    return Ok((room, new.seat, token));
                }
                Err(StoreError::Conflict(_)) => continue,
                Err(e) => return Err(e.to_string()),
            }
        }
        Err("no free game code was found; try again".into())
    }
}

/// Runs `test` on a fresh games' store in a SQLite file of its own, on one thread.
#[cfg(test)]
pub(crate) fn on_sqlite_rooms<F, Fut>(test: F)
where
    F: FnOnce(Rooms) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("rooms.sqlite3").display());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async { test(Rooms::new(Store::open(&url).await.unwrap(), 0)).await });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_protocol::Pace;
    use tabula_session::GameKind;

    /// A casual live game of Adomoc, its creator in the first seat.
    fn casual_adomoc() -> NewGame<'static> {
        NewGame {
            kind: GameKind::Adomoc,
            settings: &[],
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
            account: None,
        }
    }

    #[test]
    fn a_game_nobody_follows_is_let_go_and_comes_back_whole() {
        on_sqlite_rooms(|rooms| async move {
            let rooms = &rooms;
            let (room, _, _) = rooms.create(&casual_adomoc()).await.unwrap();
            let code = room.code.clone();
            assert_eq!(rooms.forget_idle(), 0, "someone holds it");
            room.play(&rooms.store, 0, 0, "Fa3a5").await.unwrap();
            drop(room);
            assert_eq!(rooms.forget_idle(), 1);
            assert_eq!(rooms.open_games(), 0);
            let again = rooms.get(&code).await.unwrap();
            assert_eq!(again.view(None).await.moves, ["Fa3a5"]);
            // The version came back with it: the next change is stored, not refused.
            again.play(&rooms.store, 1, 1, "Ff3f5").await.unwrap();
            assert_eq!(again.view(None).await.moves.len(), 2);
        });
    }

    #[test]
    fn finished_games_are_let_go_as_fast_as_they_are_made() {
        let (stored, _) = crate::room::new_game("AAAAAA", &casual_adomoc()).unwrap();
        let state = || RoomState::from_stored(&stored).unwrap();
        let turns: Arc<Turns> = Arc::default();
        let mut open = OpenRooms::default();
        let held: Vec<Arc<Room>> = (0..100)
            .map(|n| {
                let code = format!("H{n:05}");
                open.keep(code.clone(), Room::new(code, state(), turns.clone()))
            })
            .collect();
        let mut most = 0;
        for n in 0..10 * ROOMS_BEFORE_SWEEP {
            let code = format!("G{n:05}");
            // Played and left at once: nobody holds it after.
            drop(open.keep(code.clone(), Room::new(code, state(), turns.clone())));
            most = most.max(open.by_code.len());
        }
        assert!(most <= 2 * ROOMS_BEFORE_SWEEP, "{most} games in memory");
        // The games someone holds stay.
        assert!(
            held.iter()
                .all(|room| open.by_code.contains_key(&room.code))
        );
        // And one asked for again is the same room, not a second.
        let again = open.keep(
            held[0].code.clone(),
            Room::new(held[0].code.clone(), state(), turns.clone()),
        );
        assert!(Arc::ptr_eq(&again, &held[0]));
    }
}
