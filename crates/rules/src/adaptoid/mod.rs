//! Adaptoid (Néstor Romeral Andrés, 2007), as read in `shared/rules/adaptoid.md`.
//!
//! Each turn the mover may move one adaptoid (up to one step per leg, through empty cells,
//! attacking on the last step), must grow (create an adaptoid, add a leg or a pincer), and
//! then every enemy adaptoid with more parts than empty neighbours starves. Five captures,
//! or an opponent with no adaptoids, wins. The board is a graph, so Super-Adaptoid boards
//! are other instances of it.

mod apply;
pub mod board;
mod check;
mod generate;
mod moves;
mod notation;
mod options;
mod pieces;
mod position;
mod preview;
#[cfg(test)]
mod tests;

pub use board::{Board, BoardError, STANDARD_BOARD};
pub use moves::{AdaptoidMove, Colour, Growth};
pub use options::AdaptoidOptions;
pub use pieces::{FightResult, MAX_PARTS, SUPPLY};
pub use preview::TurnPreview;

use crate::hash::feature_key;
use crate::step_set::{StepMoves, StepSetBuilder};
use crate::{
    Count, Game, IllegalMove, NotationError, OptionInfo, OptionsError, Player, PositionError,
    Status,
};
use pieces::Pieces;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Captures that win (adaptoid.md §4).
pub const CAPTURES_TO_WIN: u8 = 5;

/// Where the game stands: the pie start's two moves, then turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Pie start: the first player places one adaptoid of each colour.
    PiePlace,
    /// Pie start: the second player picks a colour.
    PieChoose,
    Play,
}

/// One adaptoid as a front end sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Creature {
    pub owner: Player,
    pub colour: Colour,
    pub legs: u8,
    pub pincers: u8,
}

#[derive(Clone, Debug)]
pub struct Adaptoid {
    options: AdaptoidOptions,
    board: Arc<Board>,
    pieces: Pieces,
    /// Captures per colour.
    captures: [u8; 2],
    mover: Colour,
    stage: Stage,
    /// The seat playing White (1 only after a pie start's second player took White).
    white_seat: u8,
    ply: u32,
    status: Status,
    /// Hashes of the positions since the last growth or capture (earlier ones cannot recur).
    history: crate::history::History,
}

/// Why an adaptoid left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RemovalCause {
    Fight,
    Starved,
}

/// What a move changed, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdaptoidEvent {
    /// Pie start: a bare adaptoid of `colour` was placed.
    Placed {
        cell: u8,
        colour: Colour,
    },
    /// Pie start: `player` took `colour`; the other seat has the other.
    ColourChosen {
        player: Player,
        colour: Colour,
    },
    /// The adaptoid on `from` walked to the empty cell `to`.
    Moved {
        from: u8,
        to: u8,
    },
    /// The adaptoid on `from` attacked the one on `at`.
    Attacked {
        from: u8,
        at: u8,
        attacker_pincers: u8,
        defender_pincers: u8,
        result: FightResult,
    },
    /// An adaptoid left the board (from `cell`, where a fight happens), giving `scorer`
    /// a capture. Its body and parts went back to its owner's supply.
    Removed {
        cell: u8,
        owner: Player,
        legs: u8,
        pincers: u8,
        cause: RemovalCause,
        scorer: Player,
    },
    Grew {
        player: Player,
        growth: Growth,
    },
    /// The mover could not grow (adaptoid.md §3, D5).
    GrowthSkipped {
        player: Player,
    },
    TurnEnded {
        next: Player,
    },
    GameOver {
        status: Status,
    },
}

impl Adaptoid {
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The cells an adaptoid on `from` walks over to reach `to`, `to` last: a shortest way
    /// through empty cells (any of them; the rules need only that one exists).
    pub fn walk_path(&self, from: u8, to: u8) -> Option<Vec<u8>> {
        self.pieces.walk(&self.board, from, to)
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The adaptoid on `cell`, if any.
    pub fn creature(&self, cell: u8) -> Option<Creature> {
        if cell as usize >= self.board.len() {
            return None;
        }
        let colour = self.pieces.colour_at(cell)?;
        Some(Creature {
            owner: self.seat_of(colour),
            colour,
            legs: self.pieces.legs[cell as usize],
            pincers: self.pieces.pincers[cell as usize],
        })
    }

    pub fn captures_of(&self, player: Player) -> u8 {
        self.captures[self.colour_of(player).index()]
    }

    /// What `player` has left to grow with: bodies, legs, pincers.
    pub fn supply_of(&self, player: Player) -> [u8; 3] {
        self.pieces.supply(self.colour_of(player))
    }

    pub fn colour_of(&self, player: Player) -> Colour {
        Colour::from_index(player.index() ^ self.white_seat as usize)
    }

    pub fn seat_of(&self, colour: Colour) -> Player {
        Player((colour.index() ^ self.white_seat as usize) as u8)
    }

    /// The cells the adaptoid on `cell` may move or attack to.
    pub fn destinations(&self, cell: u8) -> u64 {
        if self.stage != Stage::Play || cell as usize >= self.board.len() {
            return 0;
        }
        match self.pieces.colour_at(cell) {
            Some(colour) if colour == self.mover => {
                self.pieces
                    .destinations(&self.board, cell, self.options.forbid_losing_attacks)
            }
            _ => 0,
        }
    }

    /// Adaptoids of `player` that would starve if the other player's turn ended now.
    pub fn starving(&self, player: Player) -> u64 {
        self.pieces.starving(&self.board, self.colour_of(player))
    }

    /// Adaptoids of the player waiting for the turn that starve if the turn ends as the
    /// position stands.
    pub fn starving_when_turn_ends(&self) -> u64 {
        self.starving(Player(1 - self.to_move().0))
    }

    fn empty(options: AdaptoidOptions, board: Arc<Board>) -> Adaptoid {
        Adaptoid {
            options,
            board,
            pieces: Pieces::empty(),
            captures: [0; 2],
            mover: Colour::White,
            stage: Stage::Play,
            white_seat: 0,
            ply: 0,
            status: Status::Ongoing,
            history: crate::history::History::default(),
        }
    }

    /// Starts the repetition history at this position (only kept when it can draw).
    fn record_for_repetition(&mut self) {
        if self.options.repetition_draw {
            self.history.record(self.hash());
        }
    }

    /// The part of the hash that is not the board.
    fn state_key(&self) -> u64 {
        let stage = match self.stage {
            Stage::PiePlace => 0,
            Stage::PieChoose => 1,
            Stage::Play => 2,
        };
        feature_key(
            11,
            self.mover.index() as u64,
            stage * 2 + self.white_seat as u64,
        ) ^ feature_key(12, self.captures[0] as u64, self.captures[1] as u64)
    }

    fn compute_board_hash(&self) -> u64 {
        let mut rebuilt = Pieces::empty();
        for cell in board::cells(self.pieces.occupied[0] | self.pieces.occupied[1]) {
            let colour = self.pieces.colour_at(cell).expect("occupied");
            rebuilt.put(
                cell,
                colour,
                self.pieces.legs[cell as usize],
                self.pieces.pincers[cell as usize],
            );
        }
        rebuilt.hash
    }
}

/// Builds the board named by the options.
fn board_of(options: &AdaptoidOptions) -> Result<Arc<Board>, OptionsError> {
    match &options.board {
        None => Ok(Board::standard()),
        Some(text) => Board::parse(text)
            .map(Arc::new)
            .map_err(|e| OptionsError::new(format!("board: {e}"))),
    }
}

impl Game for Adaptoid {
    type Options = AdaptoidOptions;
    type Move = AdaptoidMove;
    type Event = AdaptoidEvent;
    type Builder = StepSetBuilder<Adaptoid>;
    type Moves<'a> = std::vec::IntoIter<AdaptoidMove>;

    const NAME: &'static str = "adaptoid";
    const NOTATION_HELP: &'static str = "Adaptoid turns: an optional move, then the growth:
  move d2-d4 or attack d2xd4 (cells as in the label map), then create +d3,
  add a leg d4+L or a pincer d4+P; for example d2-d4 +d3, or just d2+P.
  pass only when no growth is possible. Pie start: W:d2 B:d6, then white or black.";

    fn new(options: AdaptoidOptions) -> Result<Self, OptionsError> {
        let board = board_of(&options)?;
        let mut game = Adaptoid::empty(options, board);
        if game.options.pie_start {
            game.stage = Stage::PiePlace;
        } else {
            let (white, black) = if *game.board == *Board::standard() {
                let cell = |label| game.board.parse_label(label).expect("a standard cell");
                (cell("d2"), cell("d6"))
            } else {
                // A Super-Adaptoid board starts from the first and the last disc; other
                // starts are set with a position string.
                (0, game.board.len() as u8 - 1)
            };
            game.pieces.put(white, Colour::White, 0, 0);
            game.pieces.put(black, Colour::Black, 0, 0);
        }
        game.record_for_repetition();
        Ok(game)
    }

    const OPTIONS: &'static [OptionInfo] = &options::OPTION_INFO;

    fn set_option(
        options: &mut AdaptoidOptions,
        key: &str,
        value: &str,
    ) -> Result<(), OptionsError> {
        options::set_option(options, key, value)
    }

    fn options(&self) -> &AdaptoidOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, player: Player) -> String {
        // Under a pie start the colours are only settled by the second player's choice.
        match self.stage {
            Stage::Play => self.colour_of(player).name().to_string(),
            _ => ["First player", "Second player"][player.index()].to_string(),
        }
    }

    fn to_move(&self) -> Player {
        match self.stage {
            Stage::PiePlace => Player(0),
            Stage::PieChoose => Player(1),
            Stage::Play => self.seat_of(self.mover),
        }
    }

    fn status(&self) -> Status {
        self.status
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self) -> Self::Moves<'_> {
        let mut moves = Vec::new();
        generate::for_each_move(self, &mut |mv| moves.push(mv));
        moves.into_iter()
    }

    fn count_moves(&self) -> Count {
        Count::from(generate::count_moves(self))
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<AdaptoidMove> {
        generate::random_move(self, rng)
    }

    fn check_move(&self, mv: &AdaptoidMove) -> Result<(), IllegalMove> {
        check::check_move(self, mv)
    }

    fn play_with(&mut self, mv: &AdaptoidMove, emit: &mut impl FnMut(AdaptoidEvent)) {
        apply::play(self, mv, emit);
    }

    fn hash(&self) -> u64 {
        self.pieces.hash ^ self.state_key()
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_board_hash() ^ self.state_key()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pieces;
        if p.occupied[0] & p.occupied[1] != 0 {
            return Err("a cell holds adaptoids of both colours".into());
        }
        if (p.occupied[0] | p.occupied[1]) & !self.board.all() != 0 {
            return Err("an adaptoid stands off the board".into());
        }
        for colour in [Colour::White, Colour::Black] {
            let own = p.occupied[colour.index()];
            let legs: u32 = board::cells(own).map(|c| p.legs[c as usize] as u32).sum();
            let pincers: u32 = board::cells(own)
                .map(|c| p.pincers[c as usize] as u32)
                .sum();
            let c = colour.index();
            if legs != p.legs_used[c] as u32 || pincers != p.pincers_used[c] as u32 {
                return Err(format!(
                    "{}'s part totals differ from the cached ones",
                    colour.name()
                ));
            }
            // Bodies, legs and pincers on the board and in the supply add up to 12 each.
            if p.bodies(colour) > SUPPLY || legs > SUPPLY as u32 || pincers > SUPPLY as u32 {
                return Err(format!(
                    "{} uses more than {SUPPLY} of a kind of piece",
                    colour.name()
                ));
            }
            if board::cells(own).any(|c| p.parts(c) > MAX_PARTS) {
                return Err(format!(
                    "an adaptoid of {} has more than 6 parts",
                    colour.name()
                ));
            }
        }
        let empty_cells = !(p.occupied[0] | p.occupied[1]);
        if board::cells(empty_cells & self.board.all())
            .any(|c| p.legs[c as usize] != 0 || p.pincers[c as usize] != 0)
        {
            return Err("an empty cell keeps parts".into());
        }
        if p.hash != self.compute_board_hash() {
            return Err("the incremental hash differs from a recomputation".into());
        }
        if self.status == Status::Ongoing
            && self.options.repetition_draw
            && !self.history.ends_with(self.hash())
        {
            return Err("the repetition history does not end with this position".into());
        }
        Ok(())
    }

    fn format_move(&self, mv: &AdaptoidMove) -> String {
        notation::format_move(self, mv)
    }

    fn describe_event(&self, event: &AdaptoidEvent) -> String {
        notation::describe_event(self, event)
    }

    fn parse_move(&self, text: &str) -> Result<AdaptoidMove, NotationError> {
        notation::parse_move(self, text)
    }

    fn split_moves(text: &str) -> Vec<String> {
        notation::split_turns(text)
    }

    /// A `;` after each turn: a growth alone on the next line would otherwise join the
    /// move before it.
    fn join_moves(moves: &[String]) -> String {
        moves.iter().map(|text| format!("{text};\n")).collect()
    }

    fn position_string(&self) -> String {
        position::format_position(self)
    }

    fn from_position(options: AdaptoidOptions, text: &str) -> Result<Self, PositionError> {
        position::parse_position(options, text)
    }

    fn builder(&self) -> StepSetBuilder<Adaptoid> {
        StepSetBuilder::default()
    }

    fn ascii(&self) -> String {
        position::ascii(self)
    }
}

/// A step of building a move in a UI; each move is a set of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdaptoidStep {
    /// The adaptoid that moves.
    From(u8),
    /// Where it goes (or attacks).
    To(u8),
    /// No move this turn.
    Stay,
    Grow(Growth),
    /// No growth is possible.
    NoGrowth,
    PlaceWhite(u8),
    PlaceBlack(u8),
    Choose(Colour),
}

impl StepMoves for Adaptoid {
    type Step = AdaptoidStep;

    fn steps_of(mv: &AdaptoidMove) -> Vec<AdaptoidStep> {
        use AdaptoidStep::*;
        match *mv {
            AdaptoidMove::Turn { step, growth } => {
                let mut steps = match step {
                    Some((from, to)) => vec![From(from), To(to)],
                    None => vec![Stay],
                };
                steps.push(growth.map_or(NoGrowth, Grow));
                steps
            }
            AdaptoidMove::Place { white, black } => vec![PlaceWhite(white), PlaceBlack(black)],
            AdaptoidMove::Choose(colour) => vec![Choose(colour)],
        }
    }
}
