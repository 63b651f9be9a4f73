use crate::{Count, IllegalMove, NotationError, OptionsError, Player, PositionError, Status};
use rand::Rng;
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;
use std::hash::Hash;

/// One game's rules. The bots, the terminal front end and the app are generic over it.
///
/// A position is a value: `Clone` is the cheap copy used instead of undo.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// Rule options (board size, variants). `Default` is the designers' default game.
    type Options: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    type Move: Clone + Debug + Eq + Hash + Send + Sync;
    /// What a move changed, in order, so a front end can animate without diffing boards.
    type Event: Clone + Debug + PartialEq + Send + Sync;
    /// Builds a move step by step, offering only legal next steps.
    type Builder: MoveBuilder<Self>;
    /// The legal moves, generated lazily (some games have millions).
    type Moves<'a>: Iterator<Item = Self::Move>
    where
        Self: 'a;

    /// The lowercase name used on the command line and in records.
    const NAME: &'static str;
    /// How moves are written, with examples, for a player at a terminal.
    const NOTATION_HELP: &'static str;

    /// The start position for these options.
    fn new(options: Self::Options) -> Result<Self, OptionsError>;
    /// Every option `set_option` takes, described for people, in the order the options'
    /// fields are declared.
    const OPTIONS: &'static [crate::OptionInfo];
    /// Sets one option from `key=value` text (the CLI's `--option`).
    fn set_option(options: &mut Self::Options, key: &str, value: &str) -> Result<(), OptionsError>;
    fn options(&self) -> &Self::Options;

    fn num_players(&self) -> usize;
    /// How the rules texts name a player (Adamas: O, X, Y).
    fn player_name(&self, player: Player) -> String;
    /// The player whose turn it is (meaningless once the game is over).
    fn to_move(&self) -> Player;
    fn status(&self) -> Status;
    /// How many plies have been played to reach this position.
    fn ply(&self) -> u32;

    fn legal_moves(&self) -> Self::Moves<'_>;
    /// The number of legal moves, computed without enumerating where the game allows.
    fn count_moves(&self) -> Count;
    /// The number of legal moves, or `None` when counting would take more than about
    /// `work` steps. Only Adamas under progressive capture says `None`: its splits whose
    /// captures depend on the order of the parts are checked one by one.
    fn count_moves_within(&self, work: u64) -> Option<Count> {
        let _ = work;
        Some(self.count_moves())
    }
    /// Whether the position has at most `limit` legal moves, answered quickly: a position
    /// whose count would take long work has many.
    fn has_at_most_moves(&self, limit: u64) -> bool {
        self.count_moves_within(QUICK_COUNT_WORK)
            .and_then(|count| count.to_u64())
            .is_some_and(|count| count <= limit)
    }
    /// A uniformly random legal move, or `None` when the game is over.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move>;
    /// Whether `mv` is legal here, and if not, why.
    fn check_move(&self, mv: &Self::Move) -> Result<(), IllegalMove>;
    /// Plays a move known to be legal, handing each event to `emit` in order.
    fn play_with(&mut self, mv: &Self::Move, emit: &mut impl FnMut(Self::Event));
    /// Checks and plays `mv`, returning its events in order.
    fn apply(&mut self, mv: &Self::Move) -> Result<Vec<Self::Event>, IllegalMove> {
        self.check_move(mv)?;
        let mut events = Vec::new();
        self.play_with(mv, &mut |event| events.push(event));
        Ok(events)
    }
    /// Plays a move known to be legal (from `legal_moves` or `random_move`) without
    /// checking it or recording events: the fast path for search and playouts.
    fn play_unchecked(&mut self, mv: &Self::Move) {
        self.play_with(mv, &mut |_| {});
    }

    /// The position hash (board, player to move and rights), kept incrementally.
    fn hash(&self) -> u64;
    /// The same hash computed from scratch, for checking the incremental one.
    fn recompute_hash(&self) -> u64;
    /// Checks internal consistency (piece conservation, cached values). For tests and
    /// the `random` verb.
    fn check_invariants(&self) -> Result<(), String>;

    fn format_move(&self, mv: &Self::Move) -> String;
    /// One event in words, with cells in notation.
    fn describe_event(&self, event: &Self::Event) -> String;
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;
    /// Splits a record or an input line into the text of each move: by default at
    /// whitespace and `;` (Absorption writes the phases of a turn with `;` between).
    fn split_moves(text: &str) -> Vec<String> {
        text.split(|c: char| c.is_whitespace() || c == ';')
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect()
    }
    /// Writes moves as a list that [`Game::split_moves`] reads back: one move a line.
    fn join_moves(moves: &[String]) -> String {
        moves.iter().map(|text| format!("{text}\n")).collect()
    }
    fn position_string(&self) -> String;
    fn from_position(options: Self::Options, text: &str) -> Result<Self, PositionError>;

    /// The status in words, with this game's player names.
    fn describe_status(&self, status: Status) -> String {
        default_status_text(self, status)
    }

    /// A builder for a move by the player to move.
    fn builder(&self) -> Self::Builder;
    /// The board as text for a terminal.
    fn ascii(&self) -> String;
}

/// Builds a multi-step move (a split to several cells, a merge from several stacks, an
/// absorption with its distribution) one step at a time, so a UI offers only legal steps.
pub trait MoveBuilder<G: Game>: Clone + Debug + Send + Sync {
    type Step: Clone + Debug + PartialEq + Eq + Send + Sync;

    /// Every step that may be taken next.
    fn legal_steps(&self, game: &G) -> Vec<Self::Step>;
    /// Takes a step, or says why it is not legal.
    fn push(&mut self, game: &G, step: Self::Step) -> Result<(), IllegalMove>;
    /// Takes back the last step; false if there was none.
    fn pop(&mut self) -> bool;
    /// The move built so far, if it is a complete legal move. Some moves may still be
    /// extended (a split can take more pieces), so complete does not mean finished.
    fn complete_move(&self, game: &G) -> Option<G::Move>;
}

/// The work `has_at_most_moves` allows itself: small enough for a bot to ask at every node.
pub const QUICK_COUNT_WORK: u64 = 4_096;

/// The work a count shown to a person may take (a few seconds at most).
pub const SHOWN_COUNT_WORK: u64 = 2_000_000;

/// A status in words: whose move, who won and why, or the draw.
pub(crate) fn default_status_text<G: Game>(game: &G, status: Status) -> String {
    match status {
        Status::Ongoing => format!("{} to move", game.player_name(game.to_move())),
        Status::Win { winner, reason } => {
            format!("{} wins ({})", game.player_name(winner), reason.describe())
        }
        Status::Draw { .. } => status.to_string(),
    }
}

/// The number of legal moves as a person is shown it: the count, or words saying it would
/// take too long (Adamas under progressive capture, in big positions).
pub fn shown_move_count<G: Game>(game: &G) -> String {
    match game.count_moves_within(SHOWN_COUNT_WORK) {
        Some(count) => count.to_string(),
        None => TOO_MANY_TO_COUNT.to_string(),
    }
}

/// What `shown_move_count` says in place of a count.
pub const TOO_MANY_TO_COUNT: &str = "too many to count quickly";

/// The number of move sequences of `depth` plies (leaf positions with repeats), counting
/// the last ply without playing it.
pub fn perft<G: Game>(game: &G, depth: u32) -> Count {
    perft_within(game, depth, u64::MAX).expect("no limit on the work")
}

/// `perft`, or `None` when counting one position's last ply would take more than about
/// `leaf_work` steps (see `Game::count_moves_within`).
pub fn perft_within<G: Game>(game: &G, depth: u32, leaf_work: u64) -> Option<Count> {
    if depth == 0 {
        return Some(Count::from(1u64));
    }
    if game.status() != Status::Ongoing {
        return Some(Count::ZERO);
    }
    if depth == 1 {
        return game.count_moves_within(leaf_work);
    }
    let mut total = Count::ZERO;
    for mv in game.legal_moves() {
        let mut next = game.clone();
        next.play_unchecked(&mv);
        total += perft_within(&next, depth - 1, leaf_work)?;
    }
    Some(total)
}
