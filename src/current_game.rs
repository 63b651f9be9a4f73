//! [`CurrentGame`]: the game on the table from its start until the next one, as a resource.
//! The rules and the line are the session's [`Match`](tabula_session::Match) inside its
//! [`Table`]; this adds the seats and what the app alone knows about the game.

use crate::table::Table;
use bevy::prelude::*;
pub use tabula_session::Seat;

/// The game on the table: the session's match (through [`Table`]), who sits in each seat,
/// and what the app keeps beside it (an ending from the server, the analysis board).
#[derive(Resource)]
pub struct CurrentGame {
    pub table: Box<dyn Table>,
    pub seats: Vec<Seat>,
    /// Tells one game from the next (a resource replaced in place is not "added" again).
    pub id: u64,
    /// How the game ended outside the rules (a resignation, a draw agreed, a clock run
    /// out), in words; such ends come from the server of an online game.
    pub ending: Option<String>,
    /// On the analysis board: the seats of the game, kept while people play every seat.
    analysis_seats: Option<Vec<Seat>>,
    /// The analysis board was opened while the game went on: it is not rated.
    analysed_while_going_on: bool,
    /// The main line's length when the game came to the table: a game is rated only when
    /// it ends after a move played here, not by replaying a finished game loaded.
    main_line_at_start: usize,
    /// A lesson's or a puzzle's board: its end is the lesson's or puzzle's to tell (no
    /// result screen), and it is no game to continue (not autosaved).
    pub practice: bool,
}

impl CurrentGame {
    pub fn new(table: Box<dyn Table>, seats: Vec<Seat>) -> CurrentGame {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        CurrentGame {
            main_line_at_start: table.as_match().main_line().len(),
            table,
            seats,
            id,
            ending: None,
            analysis_seats: None,
            analysed_while_going_on: false,
            practice: false,
        }
    }

    /// The same, as a lesson's or a puzzle's board.
    pub fn practice(table: Box<dyn Table>) -> CurrentGame {
        let seats = vec![Seat::Human; table.as_match().num_players()];
        CurrentGame {
            practice: true,
            ..CurrentGame::new(table, seats)
        }
    }

    /// Whether the analysis board was opened before the game ended.
    pub fn helped_by_analysis(&self) -> bool {
        self.analysed_while_going_on
    }

    /// Whether moves were played here past the main line the game came with.
    pub fn played_on_here(&self) -> bool {
        self.table.as_match().main_line().len() > self.main_line_at_start
    }

    /// Whether the game is on the analysis board: moves for either side, made into
    /// variations, and no bot plays.
    pub fn is_analysing(&self) -> bool {
        self.analysis_seats.is_some()
    }

    /// The game's own seats, also while people play every seat on the analysis board.
    pub fn game_seats(&self) -> &[Seat] {
        self.analysis_seats.as_deref().unwrap_or(&self.seats)
    }

    /// Opens or closes the analysis board. Closing it goes back to the main line, at the
    /// position where the variation shown left it.
    pub fn set_analysing(&mut self, on: bool) -> Result<(), String> {
        if on == self.is_analysing() {
            return Ok(());
        }
        if on {
            if self.is_online() {
                return Err(
                    "an online game is the server's: save it and load the record to analyse it"
                        .to_string(),
                );
            }
            self.analysed_while_going_on |= !self.is_over();
            let people = vec![Seat::Human; self.seats.len()];
            self.analysis_seats = Some(std::mem::replace(&mut self.seats, people));
        } else if let Some(seats) = self.analysis_seats.take() {
            self.seats = seats;
        }
        self.table.change_match(&mut |game| {
            if !on {
                let ply = game.main_line_ply();
                let node = match ply {
                    0 => tabula_session::MoveTree::START,
                    _ => game.tree().main_line()[ply - 1],
                };
                game.go_to_node(node)?;
            }
            game.set_exploring(on);
            Ok(())
        })
    }

    /// Whether the game is over, by the rules or otherwise.
    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.table.as_match().status().is_over()
    }

    /// Where the game stands, in words: its result once it is over.
    pub fn status_text(&self) -> String {
        self.ending
            .clone()
            .unwrap_or_else(|| self.table.as_match().status_text())
    }

    /// Whether someone elsewhere plays in this game: an online game, whose line the
    /// server keeps.
    pub fn is_online(&self) -> bool {
        self.game_seats().contains(&Seat::Remote)
    }

    /// Whether a player elsewhere has the turn in a game that goes on.
    pub fn remote_to_move(&self) -> bool {
        !self.is_over() && self.seats.get(self.table.as_match().to_move()) == Some(&Seat::Remote)
    }

    /// Which game and which position of it: changes with every move, undo or jump.
    pub fn position(&self) -> (u64, u64) {
        (self.id, self.table.as_match().revision())
    }

    /// Whether a bot has the turn in a game that goes on.
    pub fn bot_to_move(&self) -> bool {
        !self.is_over()
            && self
                .seats
                .get(self.table.as_match().to_move())
                .is_some_and(Seat::is_bot)
    }
}
