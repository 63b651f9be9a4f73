//! One house bot playing one game: it looks at the game whenever it changes, and moves,
//! refuses a take-back or declines a draw as [`Room::house_turn`] says, until the game
//! ends.

use super::House;
use super::levels::spec;
use crate::room::{HouseTurn, Room};
use crate::rooms::Rooms;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// How long a bot waits before looking again after its answer was refused, the first time
/// and at most (doubling between): a store that fails is not asked in a busy loop.
const FIRST_RETRY: Duration = Duration::from_secs(1);
const LAST_RETRY: Duration = Duration::from_secs(30);

/// Plays `seat` of `room` as house bot `level` until the game ends, shown at its seat
/// meanwhile as a player is (not "away") while it plays.
pub(super) async fn play_seat(
    house: &House,
    rooms: &Rooms,
    room: Arc<Room>,
    seat: usize,
    level: u8,
) {
    room.set_online(seat, true).await;
    play_turns(house, rooms, &room, seat, level).await;
    room.set_online(seat, false).await;
}

async fn play_turns(house: &House, rooms: &Rooms, room: &Arc<Room>, seat: usize, level: u8) {
    // Subscribed before the first look, so no change falls between the two.
    let mut changes = room.followers.subscribe();
    let store = &rooms.store;
    let mut retry = FIRST_RETRY;
    loop {
        let acted = match room.house_turn(seat).await {
            HouseTurn::Over => return,
            HouseTurn::Wait => Ok(false),
            HouseTurn::RefuseUndo => room.answer_undo(store, seat, false).await.map(|_| true),
            HouseTurn::DeclineDraw => room.decline_draw(store, seat).await.map(|_| true),
            HouseTurn::Move {
                ply,
                game,
                deadline_ms,
            } => {
                let kind = game.kind();
                let seed = crate::room::now_ms() ^ (ply as u64).rotate_left(32);
                match house
                    .pool
                    .best_move(game, spec(kind, level), seed, deadline_ms)
                    .await
                {
                    Some(text) => room.play(store, seat, ply, &text).await.map(|_| true),
                    None => Err("the search found no move".to_string()),
                }
            }
        };
        match acted {
            // Acted: look again at once (the game may want more of it).
            Ok(true) => {
                retry = FIRST_RETRY;
                continue;
            }
            Ok(false) => {}
            Err(_) if room.state.lock().await.is_over() => return,
            Err(e) => {
                // The game changed meanwhile (a move through another server process),
                // which the next look sees; or the store failed, and nobody else will
                // change the game while the bot is to move.
                eprintln!("house bot in game {} seat {}: {e}", room.code, seat + 1);
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(LAST_RETRY);
                continue;
            }
        }
        match changes.recv().await {
            Ok(_) | Err(RecvError::Lagged(_)) => house.moved(&room.code),
            Err(RecvError::Closed) => return,
        }
    }
}
