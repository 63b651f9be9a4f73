//! The one bot driver: a spec made into a random mover or a search with its budget, which
//! thinks in steps (so the app can run it on a background task or in slices of frames) or
//! straight through ([`Bot::choose`], for the terminal), and keeps its tree from one move
//! of its seat to the next.

use crate::config::Budget;
use crate::knowledge::Knowledge;
use crate::mcts::Search;
use crate::outcome::{Proof, Rewards, even};
use crate::spec::BotSpec;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use web_time::{Duration, Instant};

pub struct Bot<G: Knowledge> {
    engine: Engine<G>,
    /// The iterations of this move's search so far.
    done: u64,
    /// Time spent in `think` for this move, which the budget counts: searching in slices
    /// of frames (the web) then takes longer but is as strong as searching straight through.
    thought: Duration,
    /// The budget is spent or the position decided: `best_move` is final.
    finished: bool,
}

enum Engine<G: Knowledge> {
    Random {
        position: G,
        rng: SmallRng,
    },
    // Boxed: a search is far bigger than a random mover.
    Search {
        search: Box<Search<G>>,
        budget: Budget,
    },
}

impl<G: Knowledge> Bot<G> {
    pub fn new(spec: &BotSpec, game: &G, seed: u64) -> Bot<G> {
        let engine = match spec.search_for(G::NAME) {
            None => Engine::Random {
                position: game.clone(),
                rng: SmallRng::seed_from_u64(seed),
            },
            Some((config, budget)) => {
                let mut search = Search::new(game.clone(), config, seed);
                search.set_threads(budget.thread_count());
                Engine::Search {
                    search: Box::new(search),
                    budget,
                }
            }
        };
        Bot {
            engine,
            done: 0,
            thought: Duration::ZERO,
            finished: false,
        }
    }

    /// This bot for a new move of its seat in `game`, going on with the tree it kept, if
    /// it searches with `spec`'s settings; otherwise `None` (a new bot is needed).
    pub fn resumed(mut self, spec: &BotSpec, game: &G) -> Option<Bot<G>> {
        let (config, budget) = spec.search_for(G::NAME)?;
        let Engine::Search {
            search,
            budget: kept,
        } = &mut self.engine
        else {
            return None;
        };
        if *search.config() != config {
            return None;
        }
        *kept = budget;
        search.set_threads(budget.thread_count());
        self.set_position(game);
        Some(self)
    }

    /// Starts a new move from `game`: the budget is whole again, and a search keeps what
    /// it learnt about the position `game` grew from.
    pub fn set_position(&mut self, game: &G) {
        match &mut self.engine {
            Engine::Random { position, .. } => *position = game.clone(),
            Engine::Search { search, .. } => search.set_position(game),
        }
        self.done = 0;
        self.thought = Duration::ZERO;
        self.finished = false;
    }

    /// Thinks for up to `iterations` more; false once the budget is spent or the position
    /// is decided, when [`Bot::best_move`] is final.
    pub fn think(&mut self, iterations: u64) -> bool {
        let Engine::Search { search, budget } = &mut self.engine else {
            self.finished = true;
            return false;
        };
        if self.finished {
            return false;
        }
        let start = Instant::now();
        let (done, thought) = (self.done, self.thought);
        let spent = |started: u64| budget.spent(done + started, thought + start.elapsed());
        self.done += search.run(None, &|started| started < iterations && !spent(started));
        // Spent, or the position decided: more thinking changes nothing.
        self.finished = spent(self.done - done) || search.root_proof().is_some();
        self.thought += start.elapsed();
        !self.finished
    }

    /// Gives the search of this position another budget's worth on the tree it has grown
    /// (a review's second look at a move in doubt); false when more would change nothing:
    /// a random mover, or the position decided.
    pub fn look_again(&mut self) -> bool {
        let Engine::Search { search, .. } = &self.engine else {
            return false;
        };
        if search.root_proof().is_some() {
            return false;
        }
        self.done = 0;
        self.thought = Duration::ZERO;
        self.finished = false;
        true
    }

    /// How far through its budget this move's search is, from 0 to 1.
    pub fn progress(&self) -> f64 {
        match &self.engine {
            Engine::Search { budget, .. } if !self.finished => {
                budget.progress(self.done, self.thought)
            }
            _ => 1.0,
        }
    }

    /// The best move found (a random one for the random mover), as hints and reviews
    /// judge; `None` only when the game is over.
    pub fn best_move(&mut self) -> Option<G::Move> {
        match &mut self.engine {
            Engine::Random { position, rng } => position.random_move(rng),
            Engine::Search { search, .. } => search.best_move(),
        }
    }

    /// The move this bot plays: the best found, or with its search's temperature
    /// sometimes another (`Search::move_to_play`); `None` only when the game is over.
    pub fn move_to_play(&mut self) -> Option<G::Move> {
        match &mut self.engine {
            Engine::Random { position, rng } => position.random_move(rng),
            Engine::Search { search, .. } => search.move_to_play(),
        }
    }

    /// The move to play in `game`, thought through at once; `None` only when the game is
    /// over. The search keeps what it learnt, its root moved past the move.
    pub fn choose(&mut self, game: &G) -> Option<G::Move> {
        self.set_position(game);
        while self.think(1_000) {}
        let mv = self.move_to_play()?;
        // The root follows the game, so after the reply the tree under it is kept.
        self.advance(&mv);
        Some(mv)
    }

    /// Moves the root to after `mv` (the move just played), keeping the tree under it.
    pub fn advance(&mut self, mv: &G::Move) {
        match &mut self.engine {
            Engine::Random { position, .. } => position.play_unchecked(mv),
            Engine::Search { search, .. } => search.advance(mv),
        }
    }

    /// The position the bot thinks about.
    pub fn position(&self) -> &G {
        match &self.engine {
            Engine::Random { position, .. } => position,
            Engine::Search { search, .. } => search.position(),
        }
    }

    /// The search, for a bot that searches.
    pub fn search(&self) -> Option<&Search<G>> {
        match &self.engine {
            Engine::Search { search, .. } => Some(search),
            Engine::Random { .. } => None,
        }
    }

    pub fn search_mut(&mut self) -> Option<&mut Search<G>> {
        match &mut self.engine {
            Engine::Search { search, .. } => Some(search),
            Engine::Random { .. } => None,
        }
    }

    /// The chance the seat to move wins, as the search sees it (draws half; even for a
    /// random mover).
    pub fn value(&self) -> f64 {
        self.search().map_or(0.5, Search::root_value)
    }

    /// Each seat's chance of winning, as the search sees it (draws shared).
    pub fn chances(&self) -> Rewards {
        match self.search() {
            Some(search) => search.root_chances(),
            None => even(self.position().num_players()),
        }
    }

    /// The result, once the search has proved it.
    pub fn proof(&self) -> Option<Proof> {
        self.search().and_then(Search::root_proof)
    }

    /// The nodes the search holds (more than one when a kept tree is reused).
    pub fn tree_size(&self) -> usize {
        self.search().map_or(0, Search::tree_size)
    }
}
