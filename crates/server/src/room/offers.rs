//! What the players ask of each other (a draw, a move taken back) and resigning; and ending
//! a game outside the rules, which a draw agreed, a resignation or a clock does.

use super::{Room, RoomState, now_ms, store_error};
use crate::store::{Change, Offers, Step, Store};
use std::sync::Arc;
use tabula_protocol::{Ending, UndoRequest};

impl Room {
    /// Ends the game outside the rules, once stored.
    pub(super) async fn end(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        ending: Ending,
    ) -> Result<(), String> {
        let rated_end = state.rated_end(Some(ending));
        let rated = rated_end.is_some();
        let change = Change {
            rated_end,
            ..self.change(state, Step::End(ending), Offers::default(), None, None)
        };
        self.commit_change(store, state, change)
            .await
            .map_err(store_error)?;
        state.ending = Some(ending);
        if rated {
            Room::read_ratings(store, state).await;
        }
        self.tell_state(state);
        self.tell_turns(state);
        Ok(())
    }

    /// Stores new offers and tells everyone.
    async fn set_offers(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        offers: Offers,
    ) -> Result<(), String> {
        let waiting = state.waiting_seat();
        self.commit(store, state, Step::Offers, offers, None, waiting)
            .await
            .map_err(store_error)?;
        self.tell_state(state);
        Ok(())
    }

    pub async fn resign(self: &Arc<Room>, store: &Store, seat: usize) -> Result<(), String> {
        let mut state = self.state.lock().await;
        if let Some(result) = state.result() {
            return Err(format!("the game is over: {result}"));
        }
        self.end(store, &mut state, Ending::Resigned { seat }).await
    }

    /// An offer, or the last acceptance that makes the draw.
    pub async fn offer_draw(self: &Arc<Room>, store: &Store, seat: usize) -> Result<(), String> {
        let mut state = self.state.lock().await;
        if let Some(result) = state.result() {
            return Err(format!("the game is over: {result}"));
        }
        let mut offers = state.offers.clone();
        if !offers.draw.contains(&seat) {
            offers.draw.push(seat);
            offers.draw.sort_unstable();
        }
        if offers.draw.len() == state.tokens.len() {
            return self.end(store, &mut state, Ending::DrawAgreed).await;
        }
        self.set_offers(store, &mut state, offers).await
    }

    pub async fn decline_draw(self: &Arc<Room>, store: &Store, seat: usize) -> Result<(), String> {
        let mut state = self.state.lock().await;
        if state.offers.draw.iter().all(|&s| s == seat) {
            return Err("no draw is offered to you".into());
        }
        let offers = state.offers.without_draws();
        self.set_offers(store, &mut state, offers).await
    }

    /// Asks the others to let `seat` take back its last move and those after it.
    pub async fn request_undo(self: &Arc<Room>, store: &Store, seat: usize) -> Result<(), String> {
        let mut state = self.state.lock().await;
        if let Some(result) = state.result() {
            return Err(format!("the game is over: {result}"));
        }
        let moves = state.game.record().len();
        let Some(to_ply) = (0..moves)
            .rev()
            .find(|&ply| state.game.to_move_after(ply) == Some(seat))
        else {
            return Err("you have no move to take back".into());
        };
        let offers = state.offers.with_undo(Some(UndoRequest {
            by: seat,
            to_ply,
            accepted: vec![seat],
        }));
        self.set_offers(store, &mut state, offers).await
    }

    pub async fn answer_undo(
        self: &Arc<Room>,
        store: &Store,
        seat: usize,
        accept: bool,
    ) -> Result<(), String> {
        let mut state = self.state.lock().await;
        let Some(mut request) = state.offers.undo.clone().filter(|r| r.by != seat) else {
            return Err("nobody asks you to take a move back".into());
        };
        if !accept {
            let offers = state.offers.with_undo(None);
            return self.set_offers(store, &mut state, offers).await;
        }
        if !request.accepted.contains(&seat) {
            request.accepted.push(seat);
        }
        if request.accepted.len() < state.tokens.len() {
            let offers = state.offers.with_undo(Some(request));
            return self.set_offers(store, &mut state, offers).await;
        }
        let step = Step::TakeBack {
            ply: request.to_ply,
        };
        let waiting = state.waiting_after_take_back(request.to_ply);
        self.commit(
            store,
            &mut state,
            step,
            Offers::default(),
            Some(now_ms()),
            waiting,
        )
        .await
        .map_err(store_error)?;
        state.game.go_to(request.to_ply)?;
        state.game.discard_later_moves();
        self.tell_state(&state);
        self.came_to_wait(&state, None);
        let (moves, deadline) = (state.game.record().len(), state.deadline_ms());
        drop(state);
        self.arm_clock(store, moves, deadline);
        Ok(())
    }
}
