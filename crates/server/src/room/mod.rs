//! One game on the server: the match, checked by the rules, and who holds and watches
//! each seat. Every change is stored before it is told to anyone.
//!
//! - [`state`]: the game as the rules and the store have it, and its views.
//! - [`commit`]: storing a change.
//! - [`relay`]: news of the game from other server processes.
//! - [`rated`]: what a rated game's end does to ratings.
//! - [`house_turn`]: what a house bot in a seat has to do.

mod commit;
mod house_turn;
mod rated;
mod relay;
mod state;

pub use house_turn::HouseTurn;
pub use state::{NewGame, Player, RoomState, new_game, now_ms};

use crate::accounts::Accounts;
use crate::codes::new_token;
use crate::store::{
    AccountId, Change, Offers, RatingOp, Reply, Step, Store, StoreError, StoredMove,
};
use crate::turns::Turns;
use std::sync::Arc;
use std::time::Duration;
use tabula_protocol::{Ending, GameState, ServerMsg, UndoRequest};
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

    /// Takes the first free seat, for `player`'s account if they have one.
    pub async fn join(
        self: &Arc<Room>,
        store: &Store,
        player: Option<Player<'_>>,
    ) -> Result<(usize, String), String> {
        let account = player.map(|player| player.id);
        let mut state = self.state.lock().await;
        if state.is_over() {
            return Err(format!("game {} is over: watch it instead", self.code));
        }
        if state.rated && account.is_none() {
            return Err(format!(
                "game {} is rated: log in to take a seat in it",
                self.code
            ));
        }
        if let Some(held) = account.and_then(|account| state.seat_of_account(account)) {
            return Err(format!(
                "your account holds seat {} of game {} already: resume it",
                held + 1,
                self.code
            ));
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
            account,
        };
        let waiting = state.waiting_once_seated(seat);
        self.commit(store, &mut state, step, offers, Some(now_ms()), waiting)
            .await
            .map_err(store_error)?;
        state.tokens[seat] = Some(token.clone());
        state.accounts[seat] = account;
        state.players[seat] = player.map(|player| player.name.to_string());
        if account.is_some() {
            Room::read_ratings(store, &mut state).await;
        }
        self.came_to_wait(&state, Some(seat));
        let (moves, deadline) = (state.game.record().len(), state.deadline_ms());
        drop(state);
        self.arm_clock(store, moves, deadline);
        Ok((seat, token))
    }
    /// Gives the seat `token` holds to `player`'s account, if it holds no other seat here.
    pub async fn adopt(
        &self,
        store: &Store,
        accounts: &Accounts,
        player: Player<'_>,
        token: &str,
    ) -> Result<usize, String> {
        let account = player.id;
        let mut state = self.state.lock().await;
        let seat = state
            .seat_of(token)
            .ok_or_else(|| format!("that token holds no seat in game {}", self.code))?;
        match state.seat_of_account(account) {
            Some(held) if held == seat => return Ok(seat),
            Some(held) => {
                return Err(format!(
                    "your account holds seat {} of game {} already",
                    held + 1,
                    self.code
                ));
            }
            None => {}
        }
        accounts
            .adopt(store, account, &self.code, seat, token)
            .await?;
        state.accounts[seat] = Some(account);
        state.players[seat] = Some(player.name.to_string());
        state.version += 1;
        Room::read_ratings(store, &mut state).await;
        self.tell_state(&state);
        self.tell_turns(&state);
        Ok(seat)
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

    /// Ends the game outside the rules, once stored.
    async fn end(
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
