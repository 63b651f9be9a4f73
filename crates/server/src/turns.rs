//! "Your turn": the games waiting for an account's move. A connection logged in may follow
//! them (`follow_turns`); each game, as it changes, tells the connections of its players'
//! accounts whether it now waits for them, and each connection keeps its list and sends
//! it again when it changes.
//!
//! A game's news for one connection is kept as the latest word per game, so a connection
//! that is slow to read holds at most one entry for each of its games, never a backlog.

use crate::mail::Mailer;
use crate::room::RoomState;
use crate::rooms::Rooms;
use crate::store::{AccountId, Reply, Store, StoreError, TurnOp};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use tabula_protocol::{GameSummary, MAX_LISTED_GAMES, Pace};
use tokio::sync::Notify;

/// What changed for one account: each game's line if it waits for the account's move,
/// none if it does not (any more).
type Pending = HashMap<String, Option<GameSummary>>;

struct Ear {
    id: u64,
    pending: Arc<Mutex<Pending>>,
    /// Set when news may have been missed: the whole list is looked up again.
    stale: Arc<AtomicBool>,
    notify: Arc<Notify>,
}

/// The accounts whose turns are followed on this server process, and the mail for those
/// away.
#[derive(Default)]
pub struct Turns {
    ears: Mutex<HashMap<AccountId, Vec<Ear>>>,
    next_id: AtomicU64,
    /// Mail, if the server sends it (`--smtp`).
    mailer: OnceLock<Arc<Mailer>>,
}

/// One connection's following of its account's turns; it stops when dropped.
pub struct TurnFollow {
    turns: Arc<Turns>,
    account: AccountId,
    id: u64,
    pending: Arc<Mutex<Pending>>,
    stale: Arc<AtomicBool>,
    notify: Arc<Notify>,
    /// The games waiting for the account's move as last sent, the longest waiting first.
    pub games: Vec<GameSummary>,
}

impl Turns {
    /// Starts telling `account`'s turns to a new follower (with no games yet).
    pub fn follow(self: &Arc<Turns>, account: AccountId) -> TurnFollow {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let pending = Arc::new(Mutex::new(Pending::new()));
        let stale = Arc::new(AtomicBool::new(false));
        let notify = Arc::new(Notify::new());
        self.ears
            .lock()
            .expect("turns lock")
            .entry(account)
            .or_default()
            .push(Ear {
                id,
                pending: pending.clone(),
                stale: stale.clone(),
                notify: notify.clone(),
            });
        TurnFollow {
            turns: self.clone(),
            account,
            id,
            pending,
            stale,
            notify,
            games: Vec::new(),
        }
    }

    /// Sends "your move" by mail from now on.
    pub fn set_mailer(&self, mailer: Arc<Mailer>) {
        let _ = self.mailer.set(mailer);
    }

    pub fn mailer(&self) -> Option<&Arc<Mailer>> {
        self.mailer.get()
    }

    /// Game `code` (as `state` has it) has just come to wait for a player, through a change
    /// made here: in a correspondence game, its account is mailed unless it is at the game
    /// (a connection holds the seat, or is taking it: `arriving`) or follows its turns
    /// here. (Changes relayed from other processes were mailed there.)
    pub fn mail_if_away(&self, code: &str, state: &RoomState, arriving: Option<usize>) {
        let Some(mailer) = self.mailer.get() else {
            return;
        };
        let Some(seat) = state.waiting_seat() else {
            return;
        };
        let Some(account) = state.accounts()[seat] else {
            return;
        };
        let at_game = state.is_online(seat) || arriving == Some(seat);
        if state.pace() != Pace::Correspondence || at_game || self.any_of(&[account]) {
            return;
        }
        let (mailer, code) = (mailer.clone(), code.to_string());
        let (title, moves) = (state.title(), state.moves());
        tokio::spawn(async move { mailer.your_move(account, &code, title, moves).await });
    }

    /// Whether anyone follows their turns here.
    pub fn anyone(&self) -> bool {
        !self.ears.lock().expect("turns lock").is_empty()
    }

    /// Whether any of `accounts` follows their turns here.
    pub fn any_of(&self, accounts: &[AccountId]) -> bool {
        let ears = self.ears.lock().expect("turns lock");
        accounts.iter().any(|account| ears.contains_key(account))
    }

    /// Every follower looks its list up again (news of other processes may have been
    /// missed).
    pub fn look_again(&self) {
        for ear in self.ears.lock().expect("turns lock").values().flatten() {
            ear.stale.store(true, Ordering::Relaxed);
            ear.notify.notify_one();
        }
    }

    /// Tells the followers of each account seated in game `code` whether it waits for
    /// their move now. Called with the game's state as it is after each change.
    pub fn tell(&self, code: &str, state: &RoomState) {
        let seated: Vec<AccountId> = state.accounts().iter().flatten().copied().collect();
        if !self.any_of(&seated) {
            return;
        }
        // The lines are made before the lock is taken: it is every game's.
        let waiting = state.waiting_seat();
        let lines: Vec<(AccountId, Option<GameSummary>)> = (state.accounts().iter())
            .enumerate()
            .filter_map(|(seat, account)| {
                let line = (waiting == Some(seat)).then(|| GameSummary {
                    account: true,
                    ..state.summary(code, seat)
                });
                account.map(|account| (account, line))
            })
            .collect();
        let ears = self.ears.lock().expect("turns lock");
        for (account, line) in lines {
            let Some(listening) = ears.get(&account) else {
                continue;
            };
            for ear in listening {
                ear.pending
                    .lock()
                    .expect("turn news lock")
                    .insert(code.to_string(), line.clone());
                ear.notify.notify_one();
            }
        }
    }
}

impl TurnFollow {
    pub fn account(&self) -> AccountId {
        self.account
    }

    /// Waits until a game of the account's tells of a change.
    pub async fn changed(&self) {
        self.notify.notified().await;
    }

    /// Whether news may have been missed since the list was looked up (and so it is to
    /// be looked up again); asking clears it.
    pub fn take_stale(&self) -> bool {
        self.stale.swap(false, Ordering::Relaxed)
    }

    /// Marks the list to be looked up again at the next news (a lookup that failed).
    pub fn mark_stale(&self) {
        self.stale.store(true, Ordering::Relaxed);
    }

    /// Takes in what the games told since the last time; whether the list changed. A game
    /// that waits already keeps its place; one that comes to wait goes last.
    pub fn take_news(&mut self) -> bool {
        let news = std::mem::take(&mut *self.pending.lock().expect("turn news lock"));
        let mut changed = false;
        for (code, line) in news {
            let at = self.games.iter().position(|game| game.code == code);
            match (at, line) {
                (Some(at), Some(line)) => {
                    changed |= self.games[at] != line;
                    self.games[at] = line;
                }
                (None, Some(line)) if self.games.len() < MAX_LISTED_GAMES => {
                    self.games.push(line);
                    changed = true;
                }
                (Some(at), None) => {
                    self.games.remove(at);
                    changed = true;
                }
                _ => {}
            }
        }
        changed
    }
}

impl Drop for TurnFollow {
    fn drop(&mut self) {
        let mut ears = self.turns.ears.lock().expect("turns lock");
        if let Some(listening) = ears.get_mut(&self.account) {
            listening.retain(|ear| ear.id != self.id);
            if listening.is_empty() {
                ears.remove(&self.account);
            }
        }
    }
}

/// The games waiting for `account`'s move, the longest waiting first.
pub async fn waiting_games(
    rooms: &Rooms,
    account: AccountId,
) -> Result<Vec<GameSummary>, StoreError> {
    let op = TurnOp::Waiting {
        account,
        limit: MAX_LISTED_GAMES,
    };
    let Reply::Seats(seats) = rooms.store.turns(op).await? else {
        return Err(StoreError::Failed(crate::store::ANSWERED_ELSE.into()));
    };
    let mut games = Vec::new();
    for (code, seat) in seats {
        // A game that cannot be loaded (gone, or damaged) waits for nobody.
        let Ok(room) = rooms.get(&code).await else {
            continue;
        };
        let state = room.state.lock().await;
        if state.waiting_seat() == Some(seat) {
            let line = GameSummary {
                account: true,
                ..state.summary(&code, seat)
            };
            games.push((state.last_change_ms(), line));
        }
    }
    games.sort_by_key(|(since, _)| *since);
    Ok(games.into_iter().map(|(_, line)| line).collect())
}

/// Works out, once, whose turn it is in the games stored before the store kept it: one
/// pass through them beside the server. A game that replays to no legal position waits for
/// nobody; one the store cannot read now is left as not known (the next start tries
/// again), and so is every game after a failure to ask.
pub async fn learn_unknown_turns(store: Store) {
    const BATCH: usize = 100;
    let mut after = String::new();
    loop {
        let op = TurnOp::Unknown {
            after: after.clone(),
            limit: BATCH,
        };
        let codes = match store.turns(op).await {
            Ok(Reply::Codes(codes)) if !codes.is_empty() => codes,
            Ok(_) => return,
            Err(e) => {
                eprintln!("tabula-server: cannot look for games whose turn is not known: {e}");
                return;
            }
        };
        for code in codes {
            after.clone_from(&code);
            let waiting_seat = match store.load(&code).await {
                Ok(Some(stored)) => RoomState::from_stored(&stored)
                    .ok()
                    .and_then(|state| state.waiting_seat()),
                Ok(None) => None,
                Err(e) => {
                    eprintln!("tabula-server: cannot load game {code} to learn its turn: {e}");
                    continue;
                }
            };
            if let Err(e) = store.turns(TurnOp::Learn { code, waiting_seat }).await {
                eprintln!("tabula-server: cannot keep whose turn it is: {e}");
                return;
            }
        }
    }
}
