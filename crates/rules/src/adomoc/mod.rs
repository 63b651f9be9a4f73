//! Adomoc, as read in `shared/rules/adomoc.md`.
//!
//! Suns, moons and feet (each with a prime) move along the cycles, columns and spirals of a
//! round board. Landing on a piece consumes it (a prime on a like non-prime of the enemy)
//! or sends it back to an origin space the mover picks; suns hold enemy feet still. A
//! player wins by bringing the prime sun to the centre in a state of primes.

mod apply;
mod check;
mod generate;
pub mod geometry;
mod notation;
mod options;
mod position;
#[cfg(test)]
mod tests;

pub use geometry::{CENTRE, SPACES, SpiralMode};
pub use options::AdomocOptions;

use crate::hash::feature_key;
use crate::step_set::{StepMoves, StepSetBuilder};
use crate::{
    Count, Game, IllegalMove, NotationError, OptionInfo, OptionsError, Player, PositionError,
    Status,
};
use rand::Rng;
use serde::{Deserialize, Serialize};

pub const LIGHT: Player = Player(0);
pub const DARK: Player = Player(1);
pub const PLAYER_NAMES: [&str; 2] = ["Light", "Dark"];
/// Pieces per breed.
pub const PIECES_EACH: usize = 15;
/// How far a prime may travel.
pub const PRIME_REACH: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    Foot,
    Moon,
    Sun,
}

impl Kind {
    pub fn letter(self) -> char {
        match self {
            Kind::Foot => 'F',
            Kind::Moon => 'M',
            Kind::Sun => 'S',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Foot => "foot",
            Kind::Moon => "moon",
            Kind::Sun => "sun",
        }
    }

    /// The cycle of this kind's origin spaces (§2).
    pub fn origin_cycle(self) -> u8 {
        match self {
            Kind::Sun => 1,
            Kind::Moon => 2,
            Kind::Foot => 3,
        }
    }
}

/// A piece as a front end sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub owner: Player,
    pub kind: Kind,
    pub prime: bool,
}

/// What a landing does (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Effect {
    /// The move ends on an empty space.
    None,
    /// A prime removes the enemy non-prime of its kind from the game.
    Consume,
    /// The piece landed on goes to this empty origin space of its breed.
    Originate(u8),
}

/// A move, identified by where it starts and ends and what it does there (§9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AdomocMove {
    pub from: u8,
    pub to: u8,
    pub effect: Effect,
}

/// "No immediate reverse origination" (§4): on ply `ply`, the piece `originated` may not
/// originate the piece `originator`. Pieces are named by their stable ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ban {
    pub originated: u8,
    pub originator: u8,
    pub ply: u32,
}

const EMPTY: u8 = u8::MAX;

#[derive(Clone, Debug)]
pub struct Adomoc {
    options: AdomocOptions,
    /// The id of the piece on each space, or `EMPTY`.
    at: [u8; SPACES],
    /// Every piece by id; ids are stable for the game (the bans name them).
    pieces: Vec<Piece>,
    /// The spaces of each breed's pieces, of each breed's pieces by kind, and of primes.
    occupied: [u128; 2],
    by_kind: [[u128; 3]; 2],
    primes: u128,
    mover: u8,
    ply: u32,
    status: Status,
    /// Bans still to come (at most two: one made on each of the last two plies).
    bans: Vec<Ban>,
    board_hash: u64,
    /// Hashes of the positions since the last consumption (none before it can recur).
    history: crate::history::History,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdomocEvent {
    /// `piece` travelled from `from` to `to` (through the spaces between, along one line).
    Moved {
        piece: Piece,
        from: u8,
        to: u8,
    },
    /// The piece on `at` left the game.
    Consumed {
        at: u8,
        piece: Piece,
    },
    /// The piece that stood on `from` was sent to the origin space `to`.
    Originated {
        from: u8,
        to: u8,
        piece: Piece,
    },
    TurnEnded {
        next: Player,
    },
    GameOver {
        status: Status,
    },
}

fn piece_key(space: u8, piece: Piece) -> u64 {
    let code = piece.owner.0 as u64 * 8 + piece.kind as u64 * 2 + piece.prime as u64;
    feature_key(20, space as u64, code)
}

impl Adomoc {
    pub fn piece_at(&self, space: u8) -> Option<Piece> {
        let id = *self.at.get(space as usize)?;
        (id != EMPTY).then(|| self.pieces[id as usize])
    }

    /// The spaces a piece on `from` passes over to reach `to` in one move, `to` last:
    /// along the first of its lines that gets there within its reach, with nothing in the
    /// way before. `None` when no line does (not a move of the piece there).
    pub fn line_path(&self, from: u8, to: u8) -> Option<Vec<u8>> {
        generate::line_path(self, from, to)
    }

    /// Pieces a player has left on the board.
    pub fn pieces_of(&self, player: Player) -> u32 {
        self.occupied[player.index()].count_ones()
    }

    /// The feet that cannot move because an enemy sun is next to them (§3).
    pub fn attracted(&self) -> u128 {
        generate::attracted(self)
    }

    /// Whether `player` is in a state of primes (§6).
    pub fn state_of_primes(&self, player: Player) -> bool {
        generate::state_of_primes(self, player.0)
    }

    pub fn bans(&self) -> &[Ban] {
        &self.bans
    }

    fn geometry(&self) -> &'static geometry::Geometry {
        geometry::geometry(self.options.spirals)
    }

    fn empty(options: AdomocOptions) -> Adomoc {
        Adomoc {
            options,
            at: [EMPTY; SPACES],
            pieces: Vec::new(),
            occupied: [0; 2],
            by_kind: [[0; 3]; 2],
            primes: 0,
            mover: 0,
            ply: 0,
            status: Status::Ongoing,
            bans: Vec::new(),
            board_hash: 0,
            history: crate::history::History::default(),
        }
    }

    /// Adds a new piece on an empty space, giving it the next id.
    fn add(&mut self, space: u8, piece: Piece) {
        let id = self.pieces.len() as u8;
        self.pieces.push(piece);
        self.put(space, id);
    }

    fn put(&mut self, space: u8, id: u8) {
        let piece = self.pieces[id as usize];
        self.at[space as usize] = id;
        self.occupied[piece.owner.index()] |= 1 << space;
        self.by_kind[piece.owner.index()][piece.kind as usize] |= 1 << space;
        self.primes |= (piece.prime as u128) << space;
        self.board_hash ^= piece_key(space, piece);
    }

    /// Empties a space, returning the id that stood there.
    fn lift(&mut self, space: u8) -> u8 {
        let id = self.at[space as usize];
        let piece = self.pieces[id as usize];
        self.at[space as usize] = EMPTY;
        self.occupied[piece.owner.index()] &= !(1 << space);
        self.by_kind[piece.owner.index()][piece.kind as usize] &= !(1 << space);
        self.primes &= !(1 << space);
        self.board_hash ^= piece_key(space, piece);
        id
    }

    fn compute_board_hash(&self) -> u64 {
        (0..SPACES as u8)
            .filter_map(|s| self.piece_at(s).map(|p| piece_key(s, p)))
            .fold(0, |acc, key| acc ^ key)
    }

    /// The part of the hash that is not the board: the mover and the bans to come. Bans
    /// are kept by piece id but hashed by where the pieces stand and how many plies remain,
    /// as the position string writes them, so equal positions hash alike.
    fn state_key(&self) -> u64 {
        let mut key = feature_key(21, self.mover as u64, 0);
        for ban in &self.bans {
            let (originated, originator) =
                (self.space_of(ban.originated), self.space_of(ban.originator));
            key ^= feature_key(
                22,
                (originated as u64) << 8 | originator as u64,
                ban.ply.saturating_sub(self.ply) as u64,
            );
        }
        key
    }

    /// Where a piece stands (`EMPTY` once consumed).
    fn space_of(&self, id: u8) -> u8 {
        let owner = self.pieces[id as usize].owner.index();
        spaces(self.occupied[owner])
            .find(|&s| self.at[s as usize] == id)
            .unwrap_or(EMPTY)
    }
}

/// The spaces of a set, lowest first.
pub use crate::bits::members as spaces;

impl Game for Adomoc {
    type Options = AdomocOptions;
    type Move = AdomocMove;
    type Event = AdomocEvent;
    type Builder = StepSetBuilder<Adomoc>;
    type Moves<'a> = std::vec::IntoIter<AdomocMove>;

    const NAME: &'static str = "adomoc";
    const NOTATION_HELP: &'static str =
        "Adomoc moves (adomoc.org notation): piece letter F, M or S, ^ for a prime,
  the start and end spaces, then o and the origin space for an origination or x for a
  consumption: Fa3a6   Mc7a5oa3   F^c3c5x   S^a8o9 (the centre is o9; a win may end in *).";

    fn new(options: AdomocOptions) -> Result<Self, OptionsError> {
        let mut game = Adomoc::empty(options);
        for (owner, first_column) in [(LIGHT, 0u8), (DARK, 5)] {
            for (cycle, kind) in [(1, Kind::Sun), (2, Kind::Moon), (3, Kind::Foot)] {
                for offset in 0..5 {
                    let piece = Piece {
                        owner,
                        kind,
                        prime: offset == 2,
                    };
                    game.add(geometry::space_at(first_column + offset, cycle), piece);
                }
            }
        }
        apply::judge_turn_start(&mut game);
        Ok(game)
    }

    const OPTIONS: &'static [OptionInfo] = &options::OPTION_INFO;

    fn set_option(options: &mut AdomocOptions, key: &str, value: &str) -> Result<(), OptionsError> {
        options::set_option(options, key, value)
    }

    fn options(&self) -> &AdomocOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, player: Player) -> String {
        PLAYER_NAMES[player.index()].to_string()
    }

    fn to_move(&self) -> Player {
        Player(self.mover)
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
        let mut n = 0u64;
        generate::for_each_move(self, &mut |_| n += 1);
        Count::from(n)
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<AdomocMove> {
        let mut moves: smallvec::SmallVec<[AdomocMove; 256]> = smallvec::SmallVec::new();
        generate::for_each_move(self, &mut |mv| moves.push(mv));
        if moves.is_empty() {
            None
        } else {
            Some(moves[rng.random_range(0..moves.len())])
        }
    }

    fn check_move(&self, mv: &AdomocMove) -> Result<(), IllegalMove> {
        check::check_move(self, mv)
    }

    fn play_with(&mut self, mv: &AdomocMove, emit: &mut impl FnMut(AdomocEvent)) {
        apply::play(self, mv, emit);
    }

    fn hash(&self) -> u64 {
        self.board_hash ^ self.state_key()
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_board_hash() ^ self.state_key()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut seen = vec![false; self.pieces.len()];
        let mut occupied = [0u128; 2];
        for space in 0..SPACES as u8 {
            let id = self.at[space as usize];
            if id == EMPTY {
                continue;
            }
            let Some(piece) = self.pieces.get(id as usize) else {
                return Err(format!("{} holds an unknown piece", geometry::label(space)));
            };
            if std::mem::replace(&mut seen[id as usize], true) {
                return Err(format!("piece {id} stands on two spaces"));
            }
            occupied[piece.owner.index()] |= 1 << space;
        }
        if occupied != self.occupied {
            return Err("the occupancy sets differ from the board".into());
        }
        for (owner_set, kinds) in occupied.iter().zip(&self.by_kind) {
            for kind in [Kind::Foot, Kind::Moon, Kind::Sun] {
                let expected = spaces(*owner_set)
                    .filter(|&s| self.pieces[self.at[s as usize] as usize].kind == kind)
                    .fold(0u128, |set, s| set | 1 << s);
                if kinds[kind as usize] != expected {
                    return Err("the per-kind sets differ from the board".into());
                }
            }
        }
        let primes = spaces(occupied[0] | occupied[1])
            .filter(|&s| self.pieces[self.at[s as usize] as usize].prime)
            .fold(0u128, |set, s| set | 1 << s);
        if primes != self.primes {
            return Err("the prime set differs from the board".into());
        }
        for owner in [LIGHT, DARK] {
            if self.pieces_of(owner) as usize > PIECES_EACH {
                return Err(format!(
                    "{} has more than 15 pieces",
                    PLAYER_NAMES[owner.index()]
                ));
            }
        }
        if self.piece_at(CENTRE).is_some() && self.status == Status::Ongoing {
            return Err("a piece stands on the centre but the game goes on".into());
        }
        if self.board_hash != self.compute_board_hash() {
            return Err("the incremental hash differs from a recomputation".into());
        }
        if self.bans.iter().any(|b| b.ply < self.ply) {
            return Err("an expired ban is kept".into());
        }
        if self
            .bans
            .iter()
            .any(|b| self.space_of(b.originated) == EMPTY || self.space_of(b.originator) == EMPTY)
        {
            return Err("a ban names a consumed piece".into());
        }
        if self.status == Status::Ongoing
            && self.options.repetition_draw
            && !self.history.ends_with(self.hash())
        {
            return Err("the repetition history does not end with this position".into());
        }
        Ok(())
    }

    fn format_move(&self, mv: &AdomocMove) -> String {
        notation::format_move(self, mv)
    }

    fn describe_event(&self, event: &AdomocEvent) -> String {
        notation::describe_event(self, event)
    }

    fn parse_move(&self, text: &str) -> Result<AdomocMove, NotationError> {
        notation::parse_move(self, text)
    }

    fn position_string(&self) -> String {
        position::format_position(self)
    }

    fn from_position(options: AdomocOptions, text: &str) -> Result<Self, PositionError> {
        position::parse_position(options, text)
    }

    fn builder(&self) -> StepSetBuilder<Adomoc> {
        StepSetBuilder::default()
    }

    fn ascii(&self) -> String {
        position::ascii(self)
    }
}

/// A step of building a move in a UI; each move is a set of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdomocStep {
    /// The piece that moves.
    From(u8),
    /// Where it lands.
    To(u8),
    /// The origin space an originated piece is sent to.
    OriginTo(u8),
}

impl StepMoves for Adomoc {
    type Step = AdomocStep;

    fn steps_of(mv: &AdomocMove) -> Vec<AdomocStep> {
        let mut steps = vec![AdomocStep::From(mv.from), AdomocStep::To(mv.to)];
        if let Effect::Originate(origin) = mv.effect {
            steps.push(AdomocStep::OriginTo(origin));
        }
        steps
    }
}
