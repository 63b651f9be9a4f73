//! A move: checked by the rules, stored, then told; and the clock of the move after it.

use super::{Room, now_ms};
use crate::store::{Change, Step, Store, StoreError, StoredMove};
use std::sync::Arc;
use std::time::Duration;
use tabula_protocol::Ending;

impl Room {
    /// Checks a move with the rules, stores it, then tells everyone.
    pub async fn play(
        self: &Arc<Room>,
        store: &Store,
        seat: usize,
        ply: usize,
        text: &str,
    ) -> Result<(), String> {
        let mut state = self.state.lock().await;
        if let Some(result) = state.result() {
            return Err(format!("the game is over: {result}"));
        }
        let held = state.game.record().len();
        if ply != held {
            return Err(if ply < held {
                format!(
                    "move {} was played already (the game has {held} moves)",
                    ply + 1
                )
            } else {
                // A client's ply may be any number, up to usize::MAX.
                format!(
                    "move {} cannot come yet: the game has {held} moves",
                    ply.saturating_add(1)
                )
            });
        }
        // A move that comes after the clock ran out loses, even if its timer has not fired.
        if state
            .deadline_ms()
            .is_some_and(|deadline| now_ms() >= deadline)
        {
            let seat = state.game.to_move();
            self.end(store, &mut state, Ending::OutOfTime { seat })
                .await?;
            return Err("too late: the time for this move ran out".into());
        }
        let to_move = state.game.to_move();
        if to_move != seat {
            return Err(format!(
                "it is {}'s turn, not yours",
                state.game.player_name(to_move)
            ));
        }
        state
            .game
            .play_notation(text)
            .map_err(|e| format!("{}: {e}", tabula_session::rules::text::quoted(text)))?;
        let text = state.game.record()[ply].clone();
        let rated_end = state.rated_end(None);
        let rated = rated_end.is_some();
        let waiting_seat = state.waiting_seat();
        // Checked: now back to before it until it is stored (the line keeps it, to go on
        // to), so that whatever happens to the store, this state never holds a move that
        // was not kept.
        state.game.go_to(ply)?;
        let at_ms = now_ms();
        let offers = state.offers.after_move(seat);
        let step = Step::AddMove {
            ply,
            mv: StoredMove {
                text: text.clone(),
                seat,
                at_ms,
            },
        };
        let change = Change {
            rated_end,
            ..self.change(&state, step, offers, Some(at_ms), waiting_seat)
        };
        let stored = self.commit_change(store, &mut state, change).await;
        if let Err(e) = stored {
            // Not kept: forgotten (after a conflict the game was loaded again as stored,
            // and there is nothing to forget).
            state.game.discard_later_moves();
            return Err(match e {
                StoreError::Conflict(why) => why,
                e => format!("{text}: {e}"),
            });
        }
        if let Err(e) = state.game.go_to(ply + 1) {
            // Cannot happen (the rules are deterministic), but if it did the game as stored
            // is the truth.
            self.refresh(store, &mut state, true).await;
            return Err(format!("{text} was stored but cannot be played again: {e}"));
        }
        let deadline_ms = state.deadline_ms();
        self.tell_move(ply, seat, text, deadline_ms);
        self.came_to_wait(&state, None);
        if rated {
            // The move ended a rated game: the seats show the new ratings.
            Room::read_ratings(store, &mut state).await;
            self.tell_state(&state);
        }
        drop(state);
        self.arm_clock(store, ply + 1, deadline_ms);
        Ok(())
    }

    /// Starts the clock of the move after `moves` moves, if the game has one.
    pub fn arm_clock(self: &Arc<Room>, store: &Store, moves: usize, deadline_ms: Option<u64>) {
        let Some(deadline_ms) = deadline_ms else {
            return;
        };
        let room = self.clone();
        let store = store.clone();
        tokio::spawn(async move {
            // Sleep counts steady time, the deadline is wall-clock time: wake until it passed.
            loop {
                let wait = deadline_ms.saturating_sub(now_ms());
                if wait == 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
            let mut state = room.state.lock().await;
            // A move, an undo or an end since then stopped this clock.
            if state.game.record().len() != moves
                || state.is_over()
                || state.deadline_ms() != Some(deadline_ms)
            {
                return;
            }
            let seat = state.game.to_move();
            let _ = room
                .end(&store, &mut state, Ending::OutOfTime { seat })
                .await;
        });
    }
}
