//! A game that another server process changed: its news played here, or the game loaded
//! again from the store, and the followers told what changed.

use super::{Room, RoomState};
use crate::store::{Store, StoredMove};
use std::sync::Arc;

impl Room {
    /// Loads the game again after another server changed it; whether the store answered.
    pub async fn reload(self: &Arc<Room>, store: &Store) -> bool {
        let mut state = self.state.lock().await;
        self.refresh(store, &mut state, false).await
    }

    /// Loads the game again unless it is at `version` already.
    pub async fn catch_up(self: &Arc<Room>, store: &Store, version: u64) {
        let mut state = self.state.lock().await;
        if state.version < version {
            self.refresh(store, &mut state, false).await;
        }
    }

    /// Plays a move another server stored, which made the game `version`; if it does not
    /// follow from this state (news missed or out of order), loads the game instead.
    pub async fn relay_move(
        self: &Arc<Room>,
        store: &Store,
        version: u64,
        ply: usize,
        mv: StoredMove,
    ) {
        let mut state = self.state.lock().await;
        if state.version >= version {
            return;
        }
        let follows = state.version + 1 == version
            && state.ending.is_none()
            && state.game.record().len() == ply
            && state.game.to_move() == mv.seat;
        if !follows || state.game.play_notation(&mv.text).is_err() {
            self.refresh(store, &mut state, false).await;
            return;
        }
        state.version = version;
        state.last_move_ms = mv.at_ms;
        state.offers = state.offers.after_move(mv.seat);
        let deadline_ms = state.deadline_ms();
        self.tell_move(ply, mv.seat, state.game.record()[ply].clone(), deadline_ms);
        self.tell_turns(&state);
        if state.rated && state.is_over() {
            // The move ended a rated game there: the seats show the new ratings here too.
            Room::read_ratings(store, &mut state).await;
            self.tell_state(&state);
        }
        drop(state);
        self.arm_clock(store, ply + 1, deadline_ms);
    }

    /// Makes `state` the stored game, if that is newer (or always, if `force`: after a
    /// refused change `state` may hold a move that was never stored), and tells the
    /// followers what changed: the new moves one by one when the game only went on,
    /// the whole game otherwise.
    /// Returns whether the store answered.
    pub(super) async fn refresh(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        force: bool,
    ) -> bool {
        let stored = match store.load(&self.code).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return true,
            Err(_) => return false,
        };
        if stored.version < state.version || (stored.version == state.version && !force) {
            return true;
        }
        let Ok(mut fresh) = RoomState::from_stored(&stored) else {
            return true;
        };
        fresh.online = std::mem::take(&mut state.online);
        fresh.ratings = std::mem::take(&mut state.ratings);
        // Other players, or an end that moved ratings: read them again (and show them).
        let ended = fresh.is_over() != state.is_over();
        if fresh.accounts != state.accounts || ended {
            Room::read_ratings(store, &mut fresh).await;
        }
        let old = state.game.record();
        let new = fresh.game.record();
        let went_on = new.len() >= old.len() && new[..old.len()] == *old;
        let only_moves = went_on
            && !ended
            && fresh.ending == state.ending
            && fresh.offers == state.offers
            && fresh.taken() == state.taken();
        if went_on {
            for ply in old.len()..new.len() {
                let deadline_ms = (ply + 1 == new.len())
                    .then(|| fresh.deadline_ms())
                    .flatten();
                self.tell_move(ply, stored.moves[ply].seat, new[ply].clone(), deadline_ms);
            }
        }
        *state = fresh;
        if !only_moves {
            self.tell_state(state);
        }
        self.tell_turns(state);
        self.arm_clock(store, state.game.record().len(), state.deadline_ms());
        true
    }
}
