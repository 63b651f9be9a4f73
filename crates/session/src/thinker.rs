//! A bot's search over whichever game is on the table, behind one object-safe trait so
//! the app can run it on a background task or in slices per frame: [`tabula_bot::Bot`],
//! the one bot driver the terminal uses too, with its moves in notation.

use tabula_bot::{Bot, BotSpec, Knowledge, Proof};

pub trait Thinker: Send + Sync + std::any::Any {
    /// Thinks for up to `iterations` more; false once the budget is spent or the
    /// position is decided, when `best_move` is final.
    fn think(&mut self, iterations: u64) -> bool;
    /// How far through its budget the search is, from 0 to 1.
    fn progress(&self) -> f64;
    /// The best move found, in notation: what a hint shows and a review compares with.
    fn best_move(&mut self) -> Option<String>;
    /// The move a bot in a seat plays, in notation: the best found, or with its search's
    /// temperature sometimes another.
    fn move_to_play(&mut self) -> Option<String> {
        self.best_move()
    }
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
    /// slice, on `threads` threads (`Search::study`): each seat's chance after it, and
    /// whether it has been searched enough. None when the thinker does not search, `text`
    /// is no move here, or the search cannot take it (the game is over, the tree is full).
    fn study_move(
        &mut self,
        _text: &str,
        _visits: u32,
        _iterations: u64,
        _threads: usize,
    ) -> Option<(Vec<f64>, bool)> {
        None
    }
    /// Another budget's worth of search of this position, on the tree it has grown; false
    /// when more would change nothing (a thinker that does not search, a decided position).
    fn look_again(&mut self) -> bool {
        false
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
        self.move_to_play()
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
    let resumed = kept
        .and_then(|kept| kept.into_any().downcast::<BotThinker<G>>().ok())
        .and_then(|kept| kept.bot.resumed(spec, game));
    Box::new(BotThinker {
        bot: resumed.unwrap_or_else(|| Bot::new(spec, game, seed)),
    })
}

/// [`Bot`], the one bot driver, with its moves in notation.
struct BotThinker<G: Knowledge> {
    bot: Bot<G>,
}

impl<G: Knowledge> Thinker for BotThinker<G> {
    fn think(&mut self, iterations: u64) -> bool {
        self.bot.think(iterations)
    }

    fn progress(&self) -> f64 {
        self.bot.progress()
    }

    fn best_move(&mut self) -> Option<String> {
        let mv = self.bot.best_move()?;
        Some(self.bot.position().format_move(&mv))
    }

    fn move_to_play(&mut self) -> Option<String> {
        let mv = self.bot.move_to_play()?;
        Some(self.bot.position().format_move(&mv))
    }

    fn value(&self) -> f64 {
        self.bot.value()
    }

    fn chances(&self) -> Vec<f64> {
        let players = self.bot.position().num_players();
        self.bot.chances()[..players].to_vec()
    }

    fn proof(&self) -> Option<Proof> {
        self.bot.proof()
    }

    fn look_again(&mut self) -> bool {
        self.bot.look_again()
    }

    fn chosen_visits(&self) -> u32 {
        self.bot.search().map_or(0, |search| search.chosen_visits())
    }

    fn study_move(
        &mut self,
        text: &str,
        visits: u32,
        iterations: u64,
        threads: usize,
    ) -> Option<(Vec<f64>, bool)> {
        let search = self.bot.search_mut()?;
        let mv = search.position().parse_move(text).ok()?;
        search.position().check_move(&mv).ok()?;
        let players = search.position().num_players();
        // The search's own threads again after: its budget may name fewer.
        let searching_on = search.threads();
        search.set_threads(threads);
        let studied = search.study(&mv, visits, iterations);
        search.set_threads(searching_on);
        let (chances, enough) = studied?;
        Some((chances[..players].to_vec(), enough))
    }

    fn best_line(&self, max: usize) -> Vec<String> {
        // A move seen a handful of times is noise, not a line.
        const MIN_VISITS: u32 = 8;
        let Some(search) = self.bot.search() else {
            return Vec::new();
        };
        let mut position = search.position().clone();
        let mut line = Vec::new();
        for mv in search.principal_line(max, MIN_VISITS) {
            line.push(position.format_move(&mv));
            position.play_unchecked(&mv);
        }
        line
    }

    fn advance(&mut self, text: &str) {
        if let Ok(mv) = self.bot.position().parse_move(text) {
            self.bot.advance(&mv);
        }
    }

    fn tree_size(&self) -> usize {
        self.bot.tree_size()
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

    /// A review studies each move played on every thread it has and searches each position
    /// for time on one: a study on the threads it is given reaches the visits asked and
    /// leaves the search on its own threads.
    #[test]
    fn a_study_on_more_threads_leaves_the_search_on_its_own() {
        let game = Adomoc::new(Default::default()).unwrap();
        let spec = "mcts:ms=60000".parse::<BotSpec>().unwrap().on_threads(1);
        let mut thinker = thinker_for(&game, &spec, 1, None);
        assert!(thinker.think(300));
        let best = thinker.best_move().unwrap();
        let other = game
            .legal_moves()
            .map(|mv| game.format_move(&mv))
            .find(|text| *text != best)
            .unwrap();
        let (chances, enough) = thinker.study_move(&other, 500, 100_000, 2).unwrap();
        assert!(enough, "the study stopped short of its visits");
        assert!(
            (chances.iter().sum::<f64>() - 1.0).abs() < 1e-6,
            "{chances:?}"
        );
        let thinker = thinker.into_any().downcast::<BotThinker<Adomoc>>().unwrap();
        assert_eq!(thinker.bot.search().unwrap().threads(), 1);
    }
}
