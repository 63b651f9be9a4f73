//! A game followed from a server: its last state as the server sent it, and the match it
//! describes, replayed here with the rules so a client shows and checks it as a local game.

use crate::protocol::{GameState, ServerMsg, is_key_text};
use tabula_session::rules::text::{quoted, shows_as_is};
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
        check_state(&state, game.num_players())?;
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
                check_state(state, self.game.num_players())?;
                // Keep what is common and replay the rest, so a long game is not replayed
                // from the start at every offer or seat change.
                let common = self
                    .state
                    .moves
                    .iter()
                    .zip(&state.moves)
                    .take_while(|(a, b)| a == b)
                    .count();
                // Replayed on a copy: a state refused part-way leaves the last good one whole.
                let mut game = self.game.boxed_clone();
                game.go_to(common)?;
                game.discard_later_moves();
                for (ply, text) in state.moves.iter().enumerate().skip(common) {
                    game.play_notation(text).map_err(|e| {
                        format!("the server's move {} ({}): {e}", ply + 1, quoted(text))
                    })?;
                }
                self.game = game;
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
                        ply.saturating_add(1)
                    ));
                }
                // The server takes a move only from the seat to move.
                let to_move = self.game.to_move();
                if self.game.status().is_over() || *seat != to_move {
                    return Err(format!(
                        "the server's move {} came from seat {}, not the seat to move",
                        ply + 1,
                        seat.saturating_add(1)
                    ));
                }
                let events = self.game.play_notation(text)?;
                // Kept and shown as the rules write it, not as sent: the parsers pass over
                // spaces and line breaks a server could hide in the text.
                let text = self.game.record()[*ply].clone();
                self.state.moves.push(text.clone());
                self.state.deadline_ms = *deadline_ms;
                // A move answers the offers and requests made to its player.
                self.state.draw_offers.retain(|s| s == seat);
                self.state.undo_request = None;
                Ok(Change::Moved {
                    ply: *ply,
                    seat: *seat,
                    text,
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

/// What a client shows of a state must make sense for its game: every seat it names is one
/// the game has, and every text prints as it is, so a wrong or hostile server can neither
/// crash the client nor write to its terminal.
fn check_state(state: &GameState, players: usize) -> Result<(), String> {
    let unknown = |what: &str, seat: usize| {
        format!(
            "the server's state names {what} seat {} of a {players}-player game",
            seat.saturating_add(1)
        )
    };
    if state.seats.len() != players {
        return Err(format!(
            "the server's state has {} seats for a {players}-player game",
            state.seats.len()
        ));
    }
    let ending_seat = state.ending.and_then(|ending| ending.seat());
    let named = [("your", state.your_seat), ("the ending's", ending_seat)]
        .into_iter()
        .filter_map(|(what, seat)| Some((what, seat?)))
        .chain(state.draw_offers.iter().map(|&seat| ("a drawing", seat)));
    let undo = state.undo_request.iter().flat_map(|request| {
        // The asker comes first, so an out-of-range asker is named as such.
        let says = |seat| {
            if seat == request.by {
                "the take-back's"
            } else {
                "an accepting"
            }
        };
        request.seats().map(move |seat| (says(seat), seat))
    });
    if let Some((what, seat)) = named.chain(undo).find(|&(_, seat)| seat >= players) {
        return Err(unknown(what, seat));
    }
    // A client waits for the result to say the game is over.
    if state.ending.is_some() && state.result.is_none() {
        return Err("the server's state ends the game without a result".into());
    }
    if let Some(request) = &state.undo_request
        && request.to_ply > state.moves.len()
    {
        return Err(format!(
            "the server's take-back goes to move {} of {}",
            request.to_ply,
            state.moves.len()
        ));
    }
    if !is_key_text(&state.code) {
        return Err(format!(
            "the server's game code {} is not one",
            quoted(&state.code)
        ));
    }
    let texts = state
        .result
        .iter()
        .map(|result| ("result", result))
        .chain(state.seats.iter().map(|seat| ("seat name", &seat.name)));
    for (what, text) in texts {
        if !shows_as_is(text) {
            return Err(format!(
                "the server's {what} {} does not print",
                quoted(text)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Ending, Pace, SeatState};

    fn adomoc_state() -> GameState {
        let seat = |name: &str| SeatState {
            name: name.into(),
            taken: true,
            online: true,
            player: None,
            rating: None,
        };
        GameState {
            code: "ABC234".into(),
            game: "adomoc".into(),
            settings: vec![],
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
            seats: vec![seat("Black"), seat("White")],
            moves: vec![],
            ending: None,
            result: None,
            draw_offers: vec![],
            undo_request: None,
            deadline_ms: None,
            your_seat: Some(1),
        }
    }

    #[test]
    fn a_move_comes_from_the_seat_to_move() {
        let mut followed = Followed::from_state(adomoc_state()).unwrap();
        let first = followed.game.legal_moves(1).0.remove(0);
        let moved = |seat| ServerMsg::Moved {
            ply: 0,
            seat,
            text: first.clone(),
            deadline_ms: None,
        };
        for seat in [1, 7, usize::MAX] {
            let err = followed.apply(&moved(seat)).unwrap_err();
            assert!(err.contains("not the seat to move"), "{err}");
            assert!(followed.state.moves.is_empty());
        }
        let far = ServerMsg::Moved {
            ply: usize::MAX,
            seat: 0,
            text: first.clone(),
            deadline_ms: None,
        };
        let err = followed.apply(&far).unwrap_err();
        assert!(err.contains("came with 0 moves held"), "{err}");
        // Shown as the rules write it, whatever the server wrapped it in.
        let padded = ServerMsg::Moved {
            ply: 0,
            seat: 0,
            text: format!("{first}\u{b}\u{c}   "),
            deadline_ms: None,
        };
        assert!(matches!(
            followed.apply(&padded),
            Ok(Change::Moved { seat: 0, text: shown, .. }) if shown == first
        ));
        assert_eq!(followed.state.moves, [first]);
    }

    #[test]
    fn a_state_whose_moves_do_not_replay_leaves_the_last_good_one_whole() {
        let mut followed = Followed::from_state(adomoc_state()).unwrap();
        let first = followed.game.legal_moves(1).0.remove(0);
        let good = GameState {
            moves: vec![first.clone()],
            ..adomoc_state()
        };
        followed
            .apply(&ServerMsg::State(Box::new(good.clone())))
            .unwrap();
        let bad = GameState {
            moves: vec![first, "zz99".into()],
            ..adomoc_state()
        };
        let err = followed
            .apply(&ServerMsg::State(Box::new(bad)))
            .unwrap_err();
        assert!(err.contains("the server's move 2"), "{err}");
        assert_eq!(followed.state, good);
        assert_eq!(followed.game.record(), good.moves.as_slice());
        // The game goes on from there: the seat to move is White's.
        let second = followed.game.legal_moves(1).0.remove(0);
        let next = ServerMsg::Moved {
            ply: 1,
            seat: 1,
            text: second,
            deadline_ms: None,
        };
        assert!(matches!(followed.apply(&next), Ok(Change::Moved { .. })));
    }

    #[test]
    fn a_seat_the_game_lacks_is_named_by_number() {
        let followed = Followed::from_state(adomoc_state()).unwrap();
        assert_eq!(followed.game.player_name(7), "seat 8");
        assert_eq!(
            followed.game.player_name(usize::MAX),
            format!("seat {}", usize::MAX)
        );
    }

    #[test]
    fn a_state_naming_a_seat_the_game_lacks_is_refused_whole() {
        let mut followed = Followed::from_state(adomoc_state()).unwrap();
        let lies = [
            GameState {
                draw_offers: vec![0, 2],
                ..adomoc_state()
            },
            GameState {
                your_seat: Some(usize::MAX),
                ..adomoc_state()
            },
            GameState {
                ending: Some(Ending::OutOfTime { seat: 2 }),
                result: Some("someone ran out of time".into()),
                ..adomoc_state()
            },
        ];
        for lie in lies {
            let err = Followed::from_state(lie.clone()).err().unwrap();
            assert!(err.contains("of a 2-player game"), "{err}");
            let msg = ServerMsg::State(Box::new(lie));
            assert!(followed.apply(&msg).is_err());
            // The last good state is kept.
            assert_eq!(followed.state, adomoc_state());
        }
    }
}
