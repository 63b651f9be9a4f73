//! One game on the server: the match, checked by the rules, and who holds and watches
//! each seat. Every change is stored before it is told to anyone.
//!
//! - [`state`]: the game as the rules and the store have it, and its views.
//! - [`seats`]: taking a seat, and adopting one into an account.
//! - [`play`]: a move, and the clock of the move after it.
//! - [`offers`]: draw offers, take-back requests, resigning, and ending outside the rules.
//! - [`commit`]: storing a change.
//! - [`relay`]: news of the game from other server processes.
//! - [`rated`]: what a rated game's end does to ratings.
//! - [`house_turn`]: what a house bot in a seat has to do.

mod commit;
mod house_turn;
mod offers;
mod play;
mod rated;
mod relay;
mod seats;
mod state;

pub use house_turn::HouseTurn;
pub use state::{NewGame, Player, RoomState, new_game, now_ms};

use crate::store::{AccountId, RatingOp, Reply, Store, StoreError};
use crate::turns::Turns;
use std::sync::Arc;
use tabula_protocol::{GameState, ServerMsg};
use tokio::sync::{Mutex, broadcast};

/// What a game tells the connections that follow it.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A message for everyone, serialized once.
    Text(Arc<str>),
    /// The whole game; each connection adds which seat it holds.
    State(Arc<GameState>),
}

pub struct Room {
    pub code: String,
    pub state: Mutex<RoomState>,
    pub followers: broadcast::Sender<Outgoing>,
    /// Who is told when the game comes to wait for their move, or stops.
    turns: Arc<Turns>,
}

fn store_error(e: StoreError) -> String {
    e.to_string()
}

impl Room {
    pub fn new(code: String, state: RoomState, turns: Arc<Turns>) -> Arc<Room> {
        let (followers, _) = broadcast::channel(256);
        Arc::new(Room {
            code,
            state: Mutex::new(state),
            followers,
            turns,
        })
    }

    /// Tells the players' accounts whether the game, as `state` has it now, waits for them.
    fn tell_turns(&self, state: &RoomState) {
        self.turns.tell(&self.code, state);
    }

    /// The game came to wait for a player through a change made here: told, and mailed if
    /// they are away (not the player taking seat `arriving` now, who is at the game).
    fn came_to_wait(&self, state: &RoomState, arriving: Option<usize>) {
        self.turns.tell(&self.code, state);
        self.turns.mail_if_away(&self.code, state, arriving);
    }

    /// [`Room::tell_turns`] of the game as it is.
    pub async fn tell_turns_now(&self) {
        let state = self.state.lock().await;
        self.tell_turns(&state);
    }

    /// [`Room::came_to_wait`] of the game as it is (one made here with every seat taken,
    /// `arriving` taken by the player at it).
    pub async fn came_to_wait_now(&self, arriving: usize) {
        let state = self.state.lock().await;
        self.came_to_wait(&state, Some(arriving));
    }

    fn tell_state(&self, state: &RoomState) {
        // Nobody following is not an error.
        let _ = self
            .followers
            .send(Outgoing::State(Arc::new(state.view(&self.code))));
    }

    /// Tells the followers of a stored move.
    fn tell_move(&self, ply: usize, seat: usize, text: String, deadline_ms: Option<u64>) {
        let moved = ServerMsg::Moved {
            ply,
            seat,
            text,
            deadline_ms,
        };
        let _ = self.followers.send(Outgoing::Text(moved.to_json().into()));
    }

    /// Reads the ratings of `state`'s players in its pool. They only decorate the seats, so
    /// a store that does not answer leaves them as they were.
    pub async fn read_ratings(store: &Store, state: &mut RoomState) {
        let accounts: Vec<AccountId> = state.accounts.iter().flatten().copied().collect();
        if accounts.is_empty() {
            return;
        }
        let op = RatingOp::Of {
            pool: state.pool(),
            accounts,
        };
        if let Ok(Reply::Ratings(found)) = store.ratings(op).await {
            for seat in 0..state.accounts.len() {
                state.ratings[seat] = state.accounts[seat]
                    .and_then(|account| found.iter().find(|(id, _)| *id == account))
                    .map(|(_, rating)| rating.shown());
            }
        }
    }

    /// Shows `account`'s seats here as `name` (an account deleted), telling the followers.
    pub async fn rename_player(&self, account: AccountId, name: &str) {
        let mut state = self.state.lock().await;
        let mut renamed = false;
        for seat in 0..state.accounts.len() {
            if state.accounts[seat] == Some(account) {
                state.players[seat] = Some(name.to_string());
                renamed = true;
            }
        }
        if renamed {
            self.tell_state(&state);
        }
    }

    /// A connection starts (or stops) holding `seat`.
    pub async fn set_online(&self, seat: usize, arrived: bool) {
        let mut state = self.state.lock().await;
        let count = &mut state.online[seat];
        *count = if arrived {
            *count + 1
        } else {
            count.saturating_sub(1)
        };
        self.tell_state(&state);
    }

    pub async fn view(&self, seat: Option<usize>) -> GameState {
        let state = self.state.lock().await;
        GameState {
            your_seat: seat,
            ..state.view(&self.code)
        }
    }
}
