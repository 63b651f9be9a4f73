//! Storing a change: one [`Change`] at the version it was decided on, and the state moved
//! on with it, or brought back to the stored game when another server changed it meanwhile.

use super::{Room, RoomState};
use crate::store::{Change, Offers, Op, Step, Store, StoreError};
use std::sync::Arc;
use std::time::Duration;

impl Room {
    /// Stores one change decided on `state`, after which the game waits for
    /// `waiting_seat`, and on success moves `state` to the new version with these offers
    /// and clock. If another server changed the game meanwhile, `state` becomes the stored
    /// game (its followers are told) and the change is refused.
    pub(super) async fn commit(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        step: Step,
        offers: Offers,
        clock_ms: Option<u64>,
        waiting_seat: Option<usize>,
    ) -> Result<(), StoreError> {
        let change = self.change(state, step, offers, clock_ms, waiting_seat);
        self.commit_change(store, state, change).await
    }

    /// A change of the game at `state`'s version (ending no rated game).
    pub(super) fn change(
        &self,
        state: &RoomState,
        step: Step,
        offers: Offers,
        clock_ms: Option<u64>,
        waiting_seat: Option<usize>,
    ) -> Change {
        Change {
            code: self.code.clone(),
            version: state.version,
            step,
            offers,
            clock_ms,
            rated_end: None,
            waiting_seat,
        }
    }

    /// [`Room::commit`] of a change made (one that may end a rated game, moving ratings
    /// with it).
    pub(super) async fn commit_change(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        change: Change,
    ) -> Result<(), StoreError> {
        let (offers, clock_ms) = (change.offers.clone(), change.clock_ms);
        match store.run(Op::Change(Box::new(change))).await {
            Ok(_) => {
                state.version += 1;
                state.offers = offers;
                if let Some(at_ms) = clock_ms {
                    state.last_move_ms = at_ms;
                }
                Ok(())
            }
            Err(StoreError::Conflict(why)) => {
                self.refresh(store, state, true).await;
                Err(StoreError::Conflict(why))
            }
            Err(StoreError::Unknown(why)) => {
                // It may have been kept: look again until the database answers.
                let (room, store) = (self.clone(), store.clone());
                tokio::spawn(async move {
                    let mut wait = Duration::from_secs(1);
                    loop {
                        tokio::time::sleep(wait).await;
                        if room.reload(&store).await {
                            break;
                        }
                        wait = (wait * 2).min(Duration::from_secs(30));
                    }
                });
                Err(StoreError::Unknown(why))
            }
            Err(failed) => Err(failed),
        }
    }
}
