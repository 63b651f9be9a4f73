//! A game review: every position of a game judged by a bot's search, one position at a
//! time in slices (a frame's worth on the web), and each move marked by how far it lowered
//! its mover's chance of winning.
//!
//! A shallow search favours whoever is to move: the mover's best reply is searched, the
//! opponent's answers to it barely. So the move played is judged against the search's own
//! choice within the search of the position it was played in (it is searched on until it
//! has as many visits as the search's choice), where the bias is the same for both; and the
//! chance shown for a position is the mean of its own search's and the previous position's
//! view of it, which lean to opposite sides when the turn passes (and both to the same seat
//! when that seat moves again, as in Absorption's phases).
//!
//! A move after which the search proves its mover lost, where it had not proved the
//! position before it lost, is a blunder whatever the fall in chance.
//!
//! With `looks` above 1 in the settings, each position is first searched for a part of the
//! bot's time, and only a move whose fall is in doubt gets the rest: a bad move's fall
//! grows as its replies are searched better, so a short look alone names too few.

mod marks;
mod summary;

pub use marks::{Mark, ReviewSettings, require_search};
pub use summary::PlayerSummary;

use crate::{AnyMatch, Thinker};
use serde::{Deserialize, Serialize};
use tabula_bot::{BotSpec, Proof};

/// What the search found in one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Each seat's chance of winning (draws shared), from 0 to 1, after the search's move.
    pub chances: Vec<f64>,
    /// The move the search would play, in notation; none once the game is over.
    pub best: Option<String>,
    /// The result, when the search proved it.
    pub proof: Option<Proof>,
    /// Each seat's chance after the move played here, as this search sees it; none at the
    /// last position, or when the search could not take the move (its tree was full): the
    /// move is then not judged.
    pub played: Option<Vec<f64>>,
    /// The parts of the bot's time the position was searched for: more than one when its
    /// move was in doubt (`ReviewSettings::looks`).
    #[serde(default = "marks::one_look")]
    pub looks: u32,
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// The move's number in the game, from 1.
    pub ply: usize,
    pub mover: usize,
    pub notation: String,
    /// The mover's chance after the search's move and after the move played, as the search
    /// of the position before it sees them.
    pub before: f64,
    pub after: f64,
    pub mark: Option<Mark>,
    /// The search's move, when the move played earned a mark.
    pub preferred: Option<String>,
}

impl MoveReview {
    /// How far the move lowered its mover's chance (never below nothing).
    pub fn loss(&self) -> f64 {
        (self.before - self.after).max(0.0)
    }
}

/// Where the review of the position being judged is.
enum Phase {
    /// Between positions.
    Idle,
    /// The search of the position runs its budget.
    Searching,
    /// The move played is searched on, to be compared with the search's own.
    Studying { visits: u32, found: Evaluation },
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
    /// The search of each position's first look: the bot, on a part of its time when the
    /// settings give it more than one look, and on one thread when it searches for time.
    spec: BotSpec,
    /// The threads each move played is studied on.
    study_threads: usize,
    seed: u64,
    settings: ReviewSettings,
    evaluations: Vec<Evaluation>,
    /// Whether the search's move in each position is the move played there.
    played_best: Vec<bool>,
    /// The search of the position being judged, or of the last one, kept for its tree.
    thinker: Option<Box<dyn Thinker>>,
    phase: Phase,
    /// The parts of the bot's time the position being judged has been searched for.
    parts_searched: u32,
    failed: Option<String>,
}

impl Review {
    /// A review of `game`'s whole main line (a player looking back at an earlier move or
    /// exploring a variation wants the whole game judged), by `spec`, with `settings`'
    /// thresholds. `game` is not changed.
    pub fn new(
        game: &dyn AnyMatch,
        spec: BotSpec,
        settings: &ReviewSettings,
        seed: u64,
    ) -> Result<Review, String> {
        let spec = require_search(spec)?;
        let game_key = game.kind().key();
        let budget = spec.search_for(game_key).map(|(_, budget)| budget);
        // The bot's threads study the moves played: a count of visits, which more threads
        // reach sooner and judge alike.
        let study_threads =
            tabula_bot::usable_threads(budget.map_or(1, |budget| budget.thread_count()));
        let for_time_alone =
            budget.is_some_and(|budget| budget.millis.is_some() && budget.iterations.is_none());
        let mut settings = settings.clone();
        let spec = if for_time_alone {
            // On one thread: on more, a search for time searches more, which the studies
            // then match, judging no sooner (docs/benchmarks.md, "Reviews on every core").
            spec.in_parts(game_key, settings.looks).on_threads(1)
        } else {
            // Only a search for time alone is looked at in parts: one capped by iterations
            // (the levels below the top, even those with a time limit too) is quick whole,
            // and a part of its iterations would judge by too few visits.
            settings.looks = 1;
            spec
        };
        let moves = game.main_line();
        let mut copy = game.boxed_clone();
        let end = copy.tree().main_line_end();
        copy.go_to_node(end)?;
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
            study_threads,
            seed,
            settings,
            evaluations: Vec::new(),
            played_best: Vec::new(),
            thinker: None,
            phase: Phase::Idle,
            parts_searched: 0,
            failed: None,
        })
    }

    /// The threads each move played is studied on: the bot's (a search for time searches
    /// each position on one).
    pub fn study_threads(&self) -> usize {
        self.study_threads
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
        let current = match (&self.thinker, &self.phase) {
            (Some(thinker), Phase::Searching) if self.in_first_look() => thinker.progress(),
            (_, Phase::Searching) => 1.0,
            (_, Phase::Studying { .. }) => 1.0,
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
        if matches!(self.phase, Phase::Idle) {
            // The last position's search goes on in this one with the subtree it reached.
            let kept = self.thinker.take();
            let seed = self.seed.wrapping_add(at as u64);
            self.thinker = Some(self.game.thinker_from(&self.spec, seed, kept));
            self.phase = Phase::Searching;
            self.parts_searched = 1;
        }
        let parts_owed = self.parts_owed();
        let thinker = self.thinker.as_mut().expect("a search was started");
        match std::mem::replace(&mut self.phase, Phase::Idle) {
            Phase::Idle => unreachable!("a search was started"),
            Phase::Searching => {
                if thinker.think(iterations) {
                    self.phase = Phase::Searching;
                } else if parts_owed && thinker.look_again() {
                    self.parts_searched += 1;
                    self.phase = Phase::Searching;
                } else {
                    self.searched(at);
                }
            }
            Phase::Studying { visits, mut found } => {
                match thinker.study_move(&self.moves[at], visits, iterations, self.study_threads) {
                    Some((chances, false)) => {
                        found.played = Some(chances);
                        self.phase = Phase::Studying { visits, found };
                    }
                    Some((chances, true)) => {
                        found.played = Some(chances);
                        self.studied(at, found);
                    }
                    None => self.finish_position(at, found),
                }
            }
        }
        !self.is_done()
    }

    /// The search of position `at` has spent its budget: what it found, and the move
    /// played searched on unless it is the search's own.
    fn searched(&mut self, at: usize) {
        let thinker = self.thinker.as_mut().expect("a position was being judged");
        let over = self.game.status().is_over();
        let best = if over { None } else { thinker.best_move() };
        let mut found = Evaluation {
            chances: thinker.chances(),
            best: best.clone(),
            proof: thinker.proof(),
            played: None,
            looks: self.parts_searched,
        };
        if at == self.moves.len() {
            self.finish_position(at, found);
            return;
        }
        let played_best = best.is_some_and(|best| self.has_effect_of_move(at, &best));
        self.played_best.push(played_best);
        if played_best {
            found.played = Some(found.chances.clone());
            self.finish_position(at, found);
            return;
        }
        // As many visits as the search's own move: a move's mean falls as the replies to it
        // are searched better, so only equal visits compare fairly. (Small budgets judge
        // noisily: 300 visits give a mean within about 0.03.)
        let chosen = self.thinker.as_ref().map_or(1, |t| t.chosen_visits());
        self.phase = Phase::Studying {
            visits: chosen.max(1),
            found,
        };
    }

    /// The move played at `at` has been searched as far as the search's own: a move in
    /// doubt after the first look gets the rest of the bot's time at once (one more study
    /// of it, not one a part), else it is judged.
    fn studied(&mut self, at: usize, found: Evaluation) {
        let mover = self.movers[at];
        let loss = found
            .played
            .as_ref()
            .map_or(0.0, |played| found.chances[mover] - played[mover]);
        let first_look = self.in_first_look();
        let thinker = self.thinker.as_mut().expect("a position was being judged");
        if first_look && self.settings.in_doubt(loss) && thinker.look_again() {
            self.parts_searched += 1;
            // Whether the search's move is the move played is asked again after the look.
            self.played_best.pop();
            self.phase = Phase::Searching;
            return;
        }
        self.finish_position(at, found);
    }

    /// Whether the position being judged is in its first look: one part of the bot's time.
    fn in_first_look(&self) -> bool {
        self.parts_searched == 1
    }

    /// Whether the position being judged, looked at again, is to be searched for another
    /// part of the bot's time before its move is judged again (the rest comes at once).
    fn parts_owed(&self) -> bool {
        self.parts_searched > 1 && self.parts_searched < self.settings.looks
    }

    /// Keeps what was found at position `at` and moves on to the next.
    fn finish_position(&mut self, at: usize, found: Evaluation) {
        self.evaluations.push(found);
        self.phase = Phase::Idle;
        if at < self.moves.len()
            && let Err(e) = self.game.redo()
        {
            self.failed = Some(format!("move {} ({}): {e}", at + 1, self.moves[at]));
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

    /// Each seat's chance at position `at` (after `at` moves), for a graph: the mean of
    /// that position's search and the previous one's view of the move played, whose leans
    /// to the seat to move cancel out; a proved result as it is.
    pub fn chances_at(&self, at: usize) -> Option<Vec<f64>> {
        let here = self.evaluations.get(at)?;
        let before = at
            .checked_sub(1)
            .and_then(|previous| self.evaluations[previous].played.as_ref());
        Some(match (here.proof, before) {
            (None, Some(before)) => here
                .chances
                .iter()
                .zip(before)
                .map(|(a, b)| (a + b) / 2.0)
                .collect(),
            _ => here.chances.clone(),
        })
    }

    /// Every move whose position has been judged.
    pub fn move_reviews(&self) -> Vec<MoveReview> {
        (0..self.judged_moves()).map(|at| self.judged(at)).collect()
    }

    /// How many moves have been judged: a move is judged once the positions before and
    /// after it are (the one after may prove it lost).
    pub fn judged_moves(&self) -> usize {
        self.evaluations
            .len()
            .saturating_sub(1)
            .min(self.moves.len())
    }

    /// Move `at` (counted from 0) judged, once it has been.
    pub fn move_review(&self, at: usize) -> Option<MoveReview> {
        (at < self.judged_moves()).then(|| self.judged(at))
    }

    fn judged(&self, at: usize) -> MoveReview {
        let mover = self.movers[at];
        let evaluation = &self.evaluations[at];
        let before = evaluation.chances[mover];
        let after = evaluation
            .played
            .as_ref()
            .map_or(before, |played| played[mover]);
        let mut review = MoveReview {
            ply: at + 1,
            mover,
            notation: self.moves[at].clone(),
            before,
            after,
            mark: None,
            preferred: None,
        };
        if !self.played_best[at] {
            review.mark = self.settings.mark(review.loss());
            if self.proved_lost_by(at) {
                review.mark = Some(Mark::Blunder);
            }
            if review.mark.is_some() {
                review.preferred = evaluation.best.clone();
            }
        }
        review
    }

    /// Whether move `at` turned a position not proved lost for its mover into one proved
    /// lost: a blunder however little chance it threw away, since a side already behind
    /// has little left to drop (as "mate is now unavoidable" is, in chess reviews).
    fn proved_lost_by(&self, at: usize) -> bool {
        let mover = self.movers[at];
        let lost = |evaluation: Option<&Evaluation>| {
            evaluation.is_some_and(
                |e| matches!(e.proof, Some(Proof::Win(winner)) if winner.index() != mover),
            )
        };
        !lost(self.evaluations.get(at)) && lost(self.evaluations.get(at + 1))
    }

    /// Each seat's marks and average loss over the moves judged so far.
    pub fn summary(&self) -> Vec<PlayerSummary> {
        PlayerSummary::of(&self.move_reviews(), self.num_players())
    }
}

#[cfg(test)]
mod tests;
