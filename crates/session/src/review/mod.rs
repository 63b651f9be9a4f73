//! A game review: every position of a game judged by a bot's search, one position at a
//! time in slices (a frame's worth on the web), and each move marked by how far it lowered
//! its mover's chance of winning.

mod marks;
mod summary;

pub use marks::{Mark, ReviewSettings, searching};
pub use summary::PlayerSummary;

use crate::{AnyMatch, Thinker};
use tabula_bot::{BotSpec, Proof};

/// What the search found in one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Each seat's chance of winning (draws shared), from 0 to 1.
    pub chances: Vec<f64>,
    /// The move the search would play, in notation; none once the game is over.
    pub best: Option<String>,
    /// The result, when the search proved it.
    pub proof: Option<Proof>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number in the game, from 1.
    pub ply: usize,
    pub mover: usize,
    pub notation: String,
    /// The mover's chance of winning before the move and after it.
    pub before: f64,
    pub after: f64,
    pub mark: Option<Mark>,
    /// The search's move, when the move played differs from it in effect.
    pub preferred: Option<String>,
}

impl MoveReview {
    /// How far the move lowered its mover's chance (never below nothing).
    pub fn loss(&self) -> f64 {
        (self.before - self.after).max(0.0)
    }
}

/// A review under way or done.
pub struct Review {
    /// A copy of the game, at the position being judged.
    game: Box<dyn AnyMatch>,
    moves: Vec<String>,
    movers: Vec<usize>,
    /// The position after each number of moves, to tell whether the search's move is the
    /// move played in effect (a split's parts in another order are the same move).
    positions: Vec<String>,
    spec: BotSpec,
    seed: u64,
    settings: ReviewSettings,
    evaluations: Vec<Evaluation>,
    /// Whether the search's move in each position is the move played there.
    played_best: Vec<bool>,
    /// The search of the position being judged, or of the last one, kept for its tree.
    thinker: Option<Box<dyn Thinker>>,
    thinking: bool,
    failed: Option<String>,
}

impl Review {
    /// A review of `game`'s whole line (a player looking back at an earlier move wants the
    /// whole game judged), by `spec`, with `settings`' thresholds. `game` is not changed.
    pub fn new(
        game: &dyn AnyMatch,
        spec: BotSpec,
        settings: &ReviewSettings,
        seed: u64,
    ) -> Result<Review, String> {
        let spec = searching(spec)?;
        let moves = game.line().to_vec();
        let mut copy = game.boxed_clone();
        copy.go_to(0)?;
        let mut movers = Vec::with_capacity(moves.len());
        let mut positions = Vec::with_capacity(moves.len() + 1);
        for _ in &moves {
            positions.push(copy.position_string());
            movers.push(copy.to_move());
            copy.redo()?;
        }
        positions.push(copy.position_string());
        copy.go_to(0)?;
        Ok(Review {
            game: copy,
            moves,
            movers,
            positions,
            spec,
            seed,
            settings: settings.clone(),
            evaluations: Vec::new(),
            played_best: Vec::new(),
            thinker: None,
            thinking: false,
            failed: None,
        })
    }

    /// The moves reviewed, in notation.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    pub fn num_players(&self) -> usize {
        self.game.num_players()
    }

    pub fn player_name(&self, seat: usize) -> String {
        self.game.player_name(seat)
    }

    /// How many positions the review judges: one before each move, and the last.
    pub fn positions(&self) -> usize {
        self.moves.len() + 1
    }

    /// The positions judged so far, from the start.
    pub fn evaluations(&self) -> &[Evaluation] {
        &self.evaluations
    }

    pub fn is_done(&self) -> bool {
        self.evaluations.len() == self.positions() || self.failed.is_some()
    }

    /// Why the review stopped early, if it did (a move of the line no longer replays).
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// How far through the review is, from 0 to 1.
    pub fn progress(&self) -> f64 {
        if self.is_done() {
            return 1.0;
        }
        let current = match (&self.thinker, self.thinking) {
            (Some(thinker), true) => thinker.progress(),
            _ => 0.0,
        };
        (self.evaluations.len() as f64 + current) / self.positions() as f64
    }

    /// Searches up to `iterations` more; false once every position is judged.
    pub fn step(&mut self, iterations: u64) -> bool {
        if self.is_done() {
            return false;
        }
        let at = self.evaluations.len();
        if !self.thinking {
            // The last position's search goes on in this one with the subtree it reached.
            let kept = self.thinker.take();
            let seed = self.seed.wrapping_add(at as u64);
            self.thinker = Some(self.game.thinker_from(&self.spec, seed, kept));
            self.thinking = true;
        }
        let thinker = self.thinker.as_mut().expect("a search was just started");
        if thinker.think(iterations) {
            return true;
        }
        self.finish_position(at);
        !self.is_done()
    }

    /// Keeps what the search found at position `at` and moves on to the next.
    fn finish_position(&mut self, at: usize) {
        let thinker = self.thinker.as_mut().expect("a position was being judged");
        let over = self.game.status().is_over();
        let best = if over { None } else { thinker.best_move() };
        self.evaluations.push(Evaluation {
            chances: thinker.chances(),
            best: best.clone(),
            proof: thinker.proof(),
        });
        self.thinking = false;
        if at < self.moves.len() {
            self.played_best
                .push(best.is_some_and(|best| self.has_effect_of_move(at, &best)));
            if let Err(e) = self.game.redo() {
                self.failed = Some(format!("move {} ({}): {e}", at + 1, self.moves[at]));
            }
        }
    }

    /// Whether `text`, played where the game is (before move `at`), gives the position
    /// the move played gave.
    fn has_effect_of_move(&self, at: usize, text: &str) -> bool {
        *text == self.moves[at]
            || self
                .game
                .position_after(text)
                .is_ok_and(|after| after == self.positions[at + 1])
    }

    /// Every move whose positions before and after have both been judged.
    pub fn move_reviews(&self) -> Vec<MoveReview> {
        (0..self.judged_moves()).map(|at| self.judged(at)).collect()
    }

    /// How many moves have been judged: those whose positions before and after have been.
    pub fn judged_moves(&self) -> usize {
        self.evaluations.len().saturating_sub(1)
    }

    /// Move `at` (counted from 0) judged, once it has been.
    pub fn move_review(&self, at: usize) -> Option<MoveReview> {
        (at < self.judged_moves()).then(|| self.judged(at))
    }

    fn judged(&self, at: usize) -> MoveReview {
        let mover = self.movers[at];
        let (before, after) = (&self.evaluations[at], &self.evaluations[at + 1]);
        let (before, after) = (before.chances[mover], after.chances[mover]);
        let played_best = self.played_best[at];
        let preferred = (!played_best)
            .then(|| self.evaluations[at].best.clone())
            .flatten();
        let mut review = MoveReview {
            ply: at + 1,
            mover,
            notation: self.moves[at].clone(),
            before,
            after,
            mark: None,
            preferred,
        };
        if !played_best {
            review.mark = self.settings.mark(review.loss());
        }
        review
    }

    /// Each seat's marks and average loss over the moves judged so far.
    pub fn summary(&self) -> Vec<PlayerSummary> {
        PlayerSummary::of(&self.move_reviews(), self.num_players())
    }
}
