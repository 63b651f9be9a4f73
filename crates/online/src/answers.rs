//! How the other players answered this client's draw offer or take-back request, read from
//! the game before and after each state the server sends (each one, not only the last of a
//! poll: a house bot answers at once, and the request and its answer can come together).

use crate::followed::Followed;

/// What this client's seat had asked for before a state came.
pub(crate) struct Asked {
    seat: usize,
    draw: bool,
    /// The take-back asked for: the moves there would be after it.
    undo: Option<usize>,
}

impl Asked {
    pub(crate) fn of(game: &Followed) -> Option<Asked> {
        let seat = game.state.your_seat?;
        Some(Asked {
            seat,
            draw: game.state.draw_offers.contains(&seat),
            undo: game
                .state
                .undo_request
                .as_ref()
                .filter(|request| request.by == seat)
                .map(|request| request.to_ply),
        })
    }

    /// The answers `now` shows, in words.
    pub(crate) fn answers(&self, now: &Followed) -> Vec<&'static str> {
        let mut said = Vec::new();
        if self.draw && !now.state.draw_offers.contains(&self.seat) && !now.is_over() {
            said.push("Your draw offer was declined.");
        }
        let still_asked = now
            .state
            .undo_request
            .as_ref()
            .is_some_and(|request| request.by == self.seat);
        if let Some(to_ply) = self.undo
            && !still_asked
        {
            said.push(if now.state.moves.len() == to_ply {
                "Your take-back was granted."
            } else {
                "Your take-back was declined."
            });
        }
        said
    }
}
