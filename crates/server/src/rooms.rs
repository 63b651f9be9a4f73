//! The games this process has open, each loaded from the store the first time someone
//! asks for it.

use crate::codes::{new_code, normalize_code};
use crate::room::{Room, RoomState, new_game};
use crate::store::{Op, Store, StoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tabula_online::protocol::Pace;
use tabula_session::GameKind;

/// The longest move time limit: a month, for correspondence.
pub const MAX_MOVE_SECONDS: u32 = 31 * 24 * 3600;
pub const MIN_MOVE_SECONDS: u32 = 5;

pub struct Rooms {
    pub store: Store,
    open: Mutex<HashMap<String, Arc<Room>>>,
}

impl Rooms {
    pub fn new(store: Store) -> Rooms {
        Rooms {
            store,
            open: Mutex::new(HashMap::new()),
        }
    }

    fn cached(&self, code: &str) -> Option<Arc<Room>> {
        self.open.lock().expect("rooms lock").get(code).cloned()
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
        let state = RoomState::from_stored(&stored)?;
        let deadline = state.deadline_ms();
        let moves = stored.moves.len();
        let room = {
            let mut open = self.open.lock().expect("rooms lock");
            // Another connection may have loaded it meanwhile: one room per game.
            if let Some(room) = open.get(&code) {
                return Ok(room.clone());
            }
            let room = Room::new(code.clone(), state);
            open.insert(code, room.clone());
            room
        };
        room.arm_clock(&self.store, moves, deadline);
        Ok(room)
    }

    /// A new game; returns it, the seat taken and that seat's token.
    pub async fn create(
        &self,
        game: &str,
        settings: &[(String, String)],
        seat: usize,
        pace: Pace,
        move_seconds: Option<u32>,
    ) -> Result<(Arc<Room>, usize, String), String> {
        let kind = GameKind::parse(game)?;
        if let Some(seconds) = move_seconds
            && !(MIN_MOVE_SECONDS..=MAX_MOVE_SECONDS).contains(&seconds)
        {
            return Err(format!(
                "a move time limit is {MIN_MOVE_SECONDS} to {MAX_MOVE_SECONDS} seconds, not {seconds}"
            ));
        }
        for _ in 0..8 {
            let code = new_code();
            let (stored, token) = new_game(&code, kind, settings, seat, pace, move_seconds)?;
            let state = RoomState::from_stored(&stored)?;
            match self.store.run(Op::Create(Box::new(stored))).await {
                Ok(_) => {
                    let room = Room::new(code.clone(), state);
                    // A connection that guessed the new code a moment ago may have loaded it:
                    // one room per game.
                    let room = self
                        .open
                        .lock()
                        .expect("rooms lock")
                        .entry(code)
                        .or_insert(room)
                        .clone();
                    return Ok((room, seat, token));
                }
                Err(StoreError::Conflict(_)) => continue,
                Err(e) => return Err(e.to_string()),
            }
        }
        Err("no free game code was found; try again".into())
    }
}
