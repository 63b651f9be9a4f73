//! A game followed from a server: its last state as the server sent it, and the match it
//! describes, replayed here with the rules so a client shows and checks it as a local game.

use crate::protocol::{GameState, ServerMsg};
use tabula_session::rules::text::quoted;
use tabula_session::{AnyMatch, GameKind, new_match};

pub struct Followed {
    pub state: GameState,
    pub game: Box<dyn AnyMatch>,
}

/// What one server message changed.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A move was played: its text, its seat and its events in words.
    Moved {
        ply: usize,
        seat: usize,
        text: String,
        events: Vec<String>,
    },
    /// Anything else: seats, offers, the end, or moves taken back.
    State,
    /// Nothing (a move this game already holds).
    None,
}

impl Followed {
    /// The game `state` describes, with its moves replayed.
    pub fn from_state(state: GameState) -> Result<Followed, String> {
        let kind = GameKind::parse(&state.game)?;
        let mut game = new_match(kind, &state.settings)?;
        for (ply, text) in state.moves.iter().enumerate() {
            game.play_notation(text)
                .map_err(|e| format!("the server's move {} ({}): {e}", ply + 1, quoted(text)))?;
        }
        Ok(Followed { state, game })
    }

    /// Takes in a state or a move. A move that does not follow on from the moves held is
    /// an error, and the client asks for the whole state again.
    pub fn apply(&mut self, msg: &ServerMsg) -> Result<Change, String> {
        match msg {
            ServerMsg::State(state) => {
                if state.game != self.state.game || state.settings != self.state.settings {
                    *self = Followed::from_state((**state).clone())?;
                    return Ok(Change::State);
                }
                // Keep what is common and replay the rest, so a long game is not replayed
                // from the start at every offer or seat change.
                let common = self
                    .state
                    .moves
                    .iter()
                    .zip(&state.moves)
                    .take_while(|(a, b)| a == b)
                    .count();
                self.game.go_to(common)?;
                self.game.discard_later_moves();
                for (ply, text) in state.moves.iter().enumerate().skip(common) {
                    self.game.play_notation(text).map_err(|e| {
                        format!("the server's move {} ({}): {e}", ply + 1, quoted(text))
                    })?;
                }
                self.state = (**state).clone();
                Ok(Change::State)
            }
            ServerMsg::Moved {
                ply,
                seat,
                text,
                deadline_ms,
            } => {
                let held = self.state.moves.len();
                if *ply < held && self.state.moves[*ply] == *text {
                    return Ok(Change::None);
                }
                if *ply != held {
                    return Err(format!(
                        "the server's move {} came with {held} moves held",
                        ply + 1
                    ));
                }
                let events = self.game.play_notation(text)?;
                self.state.moves.push(text.clone());
                self.state.deadline_ms = *deadline_ms;
                // A move answers the offers and requests made to its player.
                self.state.draw_offers.retain(|s| s == seat);
                self.state.undo_request = None;
                Ok(Change::Moved {
                    ply: *ply,
                    seat: *seat,
                    text: text.clone(),
                    events,
                })
            }
            _ => Ok(Change::None),
        }
    }

    pub fn is_over(&self) -> bool {
        self.state.ending.is_some() || self.game.status().is_over()
    }

    /// The seat to move while the game goes on.
    pub fn to_move(&self) -> Option<usize> {
        (!self.is_over()).then(|| self.game.to_move())
    }

    pub fn is_my_turn(&self) -> bool {
        self.state.your_seat.is_some() && self.to_move() == self.state.your_seat
    }

    /// The result in words: the server's when it ended the game, else the rules'.
    pub fn result(&self) -> Option<String> {
        if let Some(result) = &self.state.result {
            return Some(result.clone());
        }
        self.game
            .status()
            .is_over()
            .then(|| self.game.status_text())
    }
}
