//! A bot's search over whichever game is on the table, behind one object-safe trait so
//! the app can run it on a background task or in slices per frame.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_bot::{BotSpec, Budget, Knowledge, Proof, Search};
use web_time::{Duration, Instant};

pub trait Thinker: Send + Sync + std::any::Any {
    /// Thinks for up to `iterations` more; false once the budget is spent or the
    /// position is decided, when `best_move` is final.
    fn think(&mut self, iterations: u64) -> bool;
    /// How far through its budget the search is, from 0 to 1.
    fn progress(&self) -> f64;
    /// The move to play, in notation.
    fn best_move(&mut self) -> Option<String>;
    /// The chance the seat to move wins, as the search sees it (draws half).
    fn value(&self) -> f64;
    /// Each seat's chance of winning, as the search sees it (draws shared).
    fn chances(&self) -> Vec<f64>;
    /// The result, once the search has proved it.
    fn proof(&self) -> Option<Proof> {
        None
    }
    /// The visits behind the chances of the move the search would play.
    fn chosen_visits(&self) -> u32 {
        0
    }
    /// Searches the move `text` until it has `visits` visits, `iterations` at most this
    /// slice (`Search::study`): each seat's chance after it, and whether it has been
    /// searched enough. None when the thinker does not search, `text` is no move here, or
    /// the search cannot take it (the game is over, the tree is full).
    fn study_move(
        &mut self,
        _text: &str,
        _visits: u32,
        _iterations: u64,
    ) -> Option<(Vec<f64>, bool)> {
        None
    }
    /// The line the search expects from here in notation, `max` moves at most (empty for
    /// a thinker that does not search).
    fn best_line(&self, _max: usize) -> Vec<String> {
        Vec::new()
    }
    /// Moves the root to after `text` (the move just played), keeping the tree under it.
    fn advance(&mut self, _text: &str) {}
    /// Thinks until the budget is spent, then the move to play (for a caller that can
    /// wait: a bot with nobody watching, a search that takes milliseconds).
    fn think_through(&mut self) -> Option<String> {
        while self.think(1_000) {}
        self.best_move()
    }
    /// The nodes the search holds (more than one when a kept tree is reused).
    fn tree_size(&self) -> usize {
        0
    }
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
}

/// A thinker for `spec` from `game`. A search kept from this seat's last move (for the
/// same game and spec) goes on from `game` with the subtree it reached, as the CLI's bots do.
pub fn thinker_for<G: Knowledge>(
    game: &G,
    spec: &BotSpec,
    seed: u64,
    kept: Option<Box<dyn Thinker>>,
) -> Box<dyn Thinker> {
    if let (BotSpec::Search { config, budget }, Some(kept)) = (spec, kept)
        && let Ok(mut thinker) = kept.into_any().downcast::<SearchThinker<G>>()
        && thinker.search.config() == config
    {
        thinker.search.set_position(game);
        thinker.budget = *budget;
        thinker.thought = Duration::ZERO;
        thinker.done = 0;
        thinker.finished = false;
        return thinker;
    }
    match spec {
        BotSpec::Random => Box::new(RandomThinker {
            game: game.clone(),
            rng: SmallRng::seed_from_u64(seed),
        }),
        BotSpec::Search { config, budget } => Box::new(SearchThinker {
            search: Search::new(game.clone(), config.clone(), seed),
            budget: *budget,
            thought: Duration::ZERO,
            done: 0,
            finished: false,
        }),
    }
}

struct SearchThinker<G: Knowledge> {
    search: Search<G>,
    budget: Budget,
    /// Time spent in `think`, which the budget counts: searching in slices of frames (the
    /// web) then takes longer but is as strong as searching straight through.
    thought: Duration,
    done: u64,
    finished: bool,
}

impl<G: Knowledge> Thinker for SearchThinker<G> {
    fn think(&mut self, iterations: u64) -> bool {
        let start = Instant::now();
        for _ in 0..iterations {
            if self.finished || self.budget.spent(self.done, self.thought + start.elapsed()) {
                self.finished = true;
                break;
            }
            if self.search.step(1) == 0 {
                // The position is decided: more thinking changes nothing.
                self.finished = true;
                break;
            }
            self.done += 1;
        }
        self.thought += start.elapsed();
        !self.finished
    }

    fn progress(&self) -> f64 {
        if self.finished {
            1.0
        } else {
            self.budget.progress(self.done, self.thought)
        }
    }

    fn best_move(&mut self) -> Option<String> {
        let mv = self.search.best_move()?;
        Some(self.search.position().format_move(&mv))
    }

    fn value(&self) -> f64 {
        self.search.root_value()
    }

    fn chances(&self) -> Vec<f64> {
        let players = self.search.position().num_players();
        self.search.root_chances()[..players].to_vec()
    }

    fn proof(&self) -> Option<Proof> {
        self.search.root_proof()
    }

    fn chosen_visits(&self) -> u32 {
        self.search.chosen_visits()
    }

    fn study_move(&mut self, text: &str, visits: u32, iterations: u64) -> Option<(Vec<f64>, bool)> {
        let mv = self.search.position().parse_move(text).ok()?;
        self.search.position().check_move(&mv).ok()?;
        let players = self.search.position().num_players();
        let (chances, enough) = self.search.study(&mv, visits, iterations)?;
        Some((chances[..players].to_vec(), enough))
    }

    fn best_line(&self, max: usize) -> Vec<String> {
        // A move seen a handful of times is noise, not a line.
        const MIN_VISITS: u32 = 8;
        let mut position = self.search.position().clone();
        let mut line = Vec::new();
        for mv in self.search.principal_line(max, MIN_VISITS) {
            line.push(position.format_move(&mv));
            position.play_unchecked(&mv);
        }
        line
    }

    fn advance(&mut self, text: &str) {
        if let Ok(mv) = self.search.position().parse_move(text) {
            self.search.advance(&mv);
        }
    }

    fn tree_size(&self) -> usize {
        self.search.tree_size()
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

struct RandomThinker<G: Knowledge> {
    game: G,
    rng: SmallRng,
}

impl<G: Knowledge> Thinker for RandomThinker<G> {
    fn think(&mut self, _iterations: u64) -> bool {
        false
    }

    fn progress(&self) -> f64 {
        1.0
    }

    fn best_move(&mut self) -> Option<String> {
        let mv = self.game.random_move(&mut self.rng)?;
        Some(self.game.format_move(&mv))
    }

    fn value(&self) -> f64 {
        0.5
    }

    fn chances(&self) -> Vec<f64> {
        let players = self.game.num_players();
        tabula_bot::even(players)[..players].to_vec()
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_rules::Game;
    use tabula_rules::adomoc::Adomoc;

    #[test]
    fn only_time_spent_thinking_counts_against_the_budget() {
        let game = Adomoc::new(Default::default()).unwrap();
        let spec: BotSpec = "mcts:ms=300".parse().unwrap();
        let mut thinker = thinker_for(&game, &spec, 1, None);
        assert!(thinker.think(1));
        // A wait longer than the whole budget, as between the frames of a sliced search.
        std::thread::sleep(std::time::Duration::from_millis(400));
        assert!(thinker.think(1), "the wait was counted as thinking");
        assert!(thinker.progress() < 1.0);
    }
}
