//! Taking a seat, and giving a seat taken without an account to one.

use super::{Player, Room, now_ms, store_error};
use crate::accounts::Accounts;
use crate::codes::new_token;
use crate::store::{Step, Store};
use std::sync::Arc;

impl Room {
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
}
