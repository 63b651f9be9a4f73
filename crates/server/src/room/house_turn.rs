//! What a house bot holding a seat has to do in its game now.

use super::Room;
use tabula_session::AnyMatch;

pub enum HouseTurn {
    /// The game is over: nothing more, ever.
    Over,
    /// Nothing until the game changes.
    Wait,
    /// Another seat asks to take a move back: house bots take nothing back.
    RefuseUndo,
    /// Another seat offers a draw: house bots play every game to its end.
    DeclineDraw,
    /// The bot's move: the `ply`-th, in `game` as it stands.
    Move {
        ply: usize,
        game: Box<dyn AnyMatch>,
        deadline_ms: Option<u64>,
    },
}

impl Room {
    /// What the bot in `seat` has to do now.
    pub async fn house_turn(&self, seat: usize) -> HouseTurn {
        let state = self.state.lock().await;
        if state.is_over() {
            return HouseTurn::Over;
        }
        if state
            .offers
            .undo
            .as_ref()
            .is_some_and(|undo| undo.by != seat && !undo.accepted.contains(&seat))
        {
            return HouseTurn::RefuseUndo;
        }
        if !state.offers.draw.is_empty() && !state.offers.draw.contains(&seat) {
            return HouseTurn::DeclineDraw;
        }
        let seated = state.tokens.iter().all(Option::is_some);
        if !seated || state.game.to_move() != seat {
            return HouseTurn::Wait;
        }
        HouseTurn::Move {
            ply: state.moves(),
            game: state.game.boxed_clone(),
            deadline_ms: state.deadline_ms(),
        }
    }
}
