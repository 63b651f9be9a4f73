//! One game on the server: the match, checked by the rules, and who holds and watches
//! each seat. Every change is stored before it is told to anyone.

use crate::codes::new_token;
use crate::store::{Change, Offers, Op, Step, Store, StoreError, StoredGame, StoredMove};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tabula_online::protocol::{
    Ending, GameState, GameSummary, Pace, SeatState, ServerMsg, UndoRequest,
};
use tabula_session::{AnyMatch, GameKind, new_match};
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
}

pub struct RoomState {
    game: Box<dyn AnyMatch>,
    settings: Vec<(String, String)>,
    pace: Pace,
    move_seconds: Option<u32>,
    tokens: Vec<Option<String>>,
    /// Connections holding each seat now.
    online: Vec<u32>,
    ending: Option<Ending>,
    offers: Offers,
    /// The stored game's version this state is.
    version: u64,
    /// When the last move (or the game) was made, for the move time limit.
    last_move_ms: u64,
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A game's seats as the rules name them.
fn seat_names(game: &dyn AnyMatch) -> Vec<String> {
    (0..game.num_players())
        .map(|s| game.player_name(s))
        .collect()
}

impl RoomState {
    /// A game as stored, its moves replayed through the rules.
    pub fn from_stored(stored: &StoredGame) -> Result<RoomState, String> {
        let kind = GameKind::parse(&stored.game)?;
        let mut game = new_match(kind, &stored.settings)?;
        for (ply, mv) in stored.moves.iter().enumerate() {
            game.play_notation(&mv.text).map_err(|e| {
                format!(
                    "stored move {} ({}) of {}: {e}",
                    ply + 1,
                    mv.text,
                    stored.code
                )
            })?;
        }
        let mut tokens = stored.tokens.clone();
        tokens.resize(game.num_players(), None);
        Ok(RoomState {
            online: vec![0; tokens.len()],
            tokens,
            settings: stored.settings.clone(),
            pace: stored.pace,
            move_seconds: stored.move_seconds,
            ending: stored.ending,
            offers: stored.offers.clone(),
            version: stored.version,
            last_move_ms: stored
                .clock_ms
                .or(stored.moves.last().map(|m| m.at_ms))
                .unwrap_or(stored.created_ms),
            game,
        })
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.game.status().is_over()
    }

    pub fn seat_of(&self, token: &str) -> Option<usize> {
        self.tokens.iter().position(|t| t.as_deref() == Some(token))
    }

    fn all_seated(&self) -> bool {
        self.tokens.iter().all(Option::is_some)
    }

    /// When the player to move runs out of time, if there is a limit and it runs.
    pub fn deadline_ms(&self) -> Option<u64> {
        let limit = self.move_seconds?;
        (!self.is_over() && self.all_seated()).then(|| self.last_move_ms + u64::from(limit) * 1000)
    }

    pub fn result(&self) -> Option<String> {
        let name = |seat: usize| self.game.player_name(seat);
        let others = |seat: usize| -> Vec<String> {
            (0..self.tokens.len())
                .filter(|&s| s != seat)
                .map(name)
                .collect()
        };
        match self.ending {
            Some(Ending::Resigned { seat }) => Some(match others(seat).as_slice() {
                [winner] => format!("{} resigned: {winner} wins", name(seat)),
                _ => format!("{} resigned: the game ends", name(seat)),
            }),
            Some(Ending::OutOfTime { seat }) => Some(match others(seat).as_slice() {
                [winner] => format!("{} ran out of time: {winner} wins", name(seat)),
                _ => format!("{} ran out of time: the game ends", name(seat)),
            }),
            Some(Ending::DrawAgreed) => Some("Draw agreed".to_string()),
            None => self
                .game
                .status()
                .is_over()
                .then(|| self.game.status_text()),
        }
    }

    pub fn view(&self, code: &str) -> GameState {
        GameState {
            code: code.to_string(),
            game: self.game.kind().key().to_string(),
            settings: self.settings.clone(),
            pace: self.pace,
            move_seconds: self.move_seconds,
            seats: seat_names(self.game.as_ref())
                .into_iter()
                .enumerate()
                .map(|(seat, name)| SeatState {
                    name,
                    taken: self.tokens[seat].is_some(),
                    online: self.online[seat] > 0,
                })
                .collect(),
            moves: self.game.record().to_vec(),
            ending: self.ending,
            result: self.result(),
            draw_offers: self.offers.draw.clone(),
            undo_request: self.offers.undo.clone(),
            deadline_ms: self.deadline_ms(),
            your_seat: None,
        }
    }

    pub fn summary(&self, code: &str, seat: usize) -> GameSummary {
        GameSummary {
            code: code.to_string(),
            game: self.game.kind().key().to_string(),
            your_seat: seat,
            moves: self.game.record().len(),
            to_move: (!self.is_over()).then(|| self.game.to_move()),
            result: self.result(),
            open_seats: self.tokens.iter().filter(|t| t.is_none()).count(),
        }
    }
}

/// A new game's state and what to store for it.
pub fn new_game(
    code: &str,
    kind: GameKind,
    settings: &[(String, String)],
    seat: usize,
    pace: Pace,
    move_seconds: Option<u32>,
) -> Result<(StoredGame, String), String> {
    let game = new_match(kind, settings)?;
    let players = game.num_players();
    if seat >= players {
        return Err(format!(
            "seat {} does not exist: this game has {players} seats",
            seat + 1
        ));
    }
    let token = new_token();
    let mut tokens = vec![None; players];
    tokens[seat] = Some(token.clone());
    let stored = StoredGame {
        code: code.to_string(),
        game: kind.key().to_string(),
        settings: game.settings(),
        pace,
        move_seconds,
        tokens,
        moves: Vec::new(),
        ending: None,
        created_ms: now_ms(),
        clock_ms: None,
        version: 0,
        offers: Offers::default(),
    };
    Ok((stored, token))
}

fn store_error(e: StoreError) -> String {
    e.to_string()
}

/// A move answers the draw offers of the others and any take-back request.
fn offers_after_move(offers: &Offers, mover: usize) -> Offers {
    Offers {
        draw: offers
            .draw
            .iter()
            .copied()
            .filter(|&s| s == mover)
            .collect(),
        undo: None,
    }
}

/// The seats someone holds.
fn taken(state: &RoomState) -> Vec<bool> {
    state.tokens.iter().map(Option::is_some).collect()
}

impl Room {
    pub fn new(code: String, state: RoomState) -> Arc<Room> {
        let (followers, _) = broadcast::channel(256);
        Arc::new(Room {
            code,
            state: Mutex::new(state),
            followers,
        })
    }

    fn tell_state(&self, state: &RoomState) {
        // Nobody following is not an error.
        let _ = self
            .followers
            .send(Outgoing::State(Arc::new(state.view(&self.code))));
    }

    /// Stores one change decided on `state`, and on success moves `state` to the new
    /// version with these offers and clock. If another server changed the game meanwhile,
    /// `state` becomes the stored game (its followers are told) and the change is refused.
    async fn commit(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        step: Step,
        offers: Offers,
        clock_ms: Option<u64>,
    ) -> Result<(), StoreError> {
        let change = Change {
            code: self.code.clone(),
            version: state.version,
            step,
            offers: offers.clone(),
            clock_ms,
        };
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
        state.offers = offers_after_move(&state.offers, mv.seat);
        let deadline_ms = state.deadline_ms();
        let moved = ServerMsg::Moved {
            ply,
            seat: mv.seat,
            text: state.game.record()[ply].clone(),
            deadline_ms,
        };
        let _ = self.followers.send(Outgoing::Text(moved.to_json().into()));
        drop(state);
        self.arm_clock(store, ply + 1, deadline_ms);
    }

    /// Makes `state` the stored game, if that is newer (or always, if `force`: after a
    /// refused change `state` may hold a move that was never stored), and tells the
    /// followers what changed: the new moves one by one when the game only went on,
    /// the whole game otherwise.
    /// Returns whether the store answered.
    async fn refresh(self: &Arc<Room>, store: &Store, state: &mut RoomState, force: bool) -> bool {
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
        let old = state.game.record();
        let new = fresh.game.record();
        let went_on = new.len() >= old.len() && new[..old.len()] == *old;
        let only_moves = went_on
            && fresh.ending == state.ending
            && fresh.offers == state.offers
            && taken(&fresh) == taken(state);
        if went_on {
            for ply in old.len()..new.len() {
                let moved = ServerMsg::Moved {
                    ply,
                    seat: stored.moves[ply].seat,
                    text: new[ply].clone(),
                    deadline_ms: (ply + 1 == new.len())
                        .then(|| fresh.deadline_ms())
                        .flatten(),
                };
                let _ = self.followers.send(Outgoing::Text(moved.to_json().into()));
            }
        }
        *state = fresh;
        if !only_moves {
            self.tell_state(state);
        }
        self.arm_clock(store, state.game.record().len(), state.deadline_ms());
        true
    }

    /// Takes the first free seat.
    pub async fn join(self: &Arc<Room>, store: &Store) -> Result<(usize, String), String> {
        let mut state = self.state.lock().await;
        if state.is_over() {
            return Err(format!("game {} is over: watch it instead", self.code));
        }
        let Some(seat) = state.tokens.iter().position(Option::is_none) else {
            return Err(format!(
                "game {} is full: every seat is taken; watch it instead",
                self.code
            ));
        };
        let token = new_token();
        // The clock runs from the last seat taken (it does not run before).
        let offers = state.offers.clone();
        let step = Step::Claim {
            seat,
            token: token.clone(),
        };
        self.commit(store, &mut state, step, offers, Some(now_ms()))
            .await
            .map_err(store_error)?;
        state.tokens[seat] = Some(token.clone());
        let (moves, deadline) = (state.game.record().len(), state.deadline_ms());
        drop(state);
        self.arm_clock(store, moves, deadline);
        Ok((seat, token))
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
                format!(
                    "move {} cannot come yet: the game has {held} moves",
                    ply + 1
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
            .map_err(|e| format!("{text}: {e}"))?;
        let text = state.game.record()[ply].clone();
        // Checked: now back to before it until it is stored, so that whatever happens to the
        // store, this state never holds a move that was not kept.
        state.game.go_to(ply)?;
        state.game.discard_later_moves();
        let at_ms = now_ms();
        let offers = offers_after_move(&state.offers, seat);
        let step = Step::AddMove {
            ply,
            mv: StoredMove {
                text: text.clone(),
                seat,
                at_ms,
            },
        };
        match self
            .commit(store, &mut state, step, offers, Some(at_ms))
            .await
        {
            Ok(()) => {}
            // The game was loaded again as stored.
            Err(StoreError::Conflict(why)) => return Err(why),
            Err(e) => return Err(format!("{text}: {e}")),
        }
        if let Err(e) = state.game.play_notation(&text) {
            // Cannot happen (the rules are deterministic), but if it did the game as stored
            // is the truth.
            self.refresh(store, &mut state, true).await;
            return Err(format!("{text} was stored but cannot be played again: {e}"));
        }
        let deadline_ms = state.deadline_ms();
        let moved = ServerMsg::Moved {
            ply,
            seat,
            text,
            deadline_ms,
        };
        let _ = self.followers.send(Outgoing::Text(moved.to_json().into()));
        drop(state);
        self.arm_clock(store, ply + 1, deadline_ms);
        Ok(())
    }

    /// Ends the game outside the rules, once stored.
    async fn end(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        ending: Ending,
    ) -> Result<(), String> {
        self.commit(store, state, Step::End(ending), Offers::default(), None)
            .await
            .map_err(store_error)?;
        state.ending = Some(ending);
        self.tell_state(state);
        Ok(())
    }

    /// Stores new offers and tells everyone.
    async fn set_offers(
        self: &Arc<Room>,
        store: &Store,
        state: &mut RoomState,
        offers: Offers,
    ) -> Result<(), String> {
        self.commit(store, state, Step::Offers, offers, None)
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
        let offers = Offers {
            draw: Vec::new(),
            undo: state.offers.undo.clone(),
        };
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
        let offers = Offers {
            draw: state.offers.draw.clone(),
            undo: Some(UndoRequest {
                by: seat,
                to_ply,
                accepted: vec![seat],
            }),
        };
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
            let offers = Offers {
                draw: state.offers.draw.clone(),
                undo: None,
            };
            return self.set_offers(store, &mut state, offers).await;
        }
        if !request.accepted.contains(&seat) {
            request.accepted.push(seat);
        }
        if request.accepted.len() < state.tokens.len() {
            let offers = Offers {
                draw: state.offers.draw.clone(),
                undo: Some(request),
            };
            return self.set_offers(store, &mut state, offers).await;
        }
        let step = Step::TakeBack {
            ply: request.to_ply,
        };
        self.commit(store, &mut state, step, Offers::default(), Some(now_ms()))
            .await
            .map_err(store_error)?;
        state.game.go_to(request.to_ply)?;
        state.game.discard_later_moves();
        self.tell_state(&state);
        let (moves, deadline) = (state.game.record().len(), state.deadline_ms());
        drop(state);
        self.arm_clock(store, moves, deadline);
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
