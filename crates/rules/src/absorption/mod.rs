//! Absorption (2010), as read in `shared/rules/absorption.md`.
//!
//! Each turn the mover must split or merge, may move one other stack, then absorbs every
//! enemy stack that their orthogonal neighbours outweigh and can hold. A turn is a
//! sequence of atomic actions (one `Move` each); the same player acts until it is over.

mod apply;
mod builder;
mod check;
mod describe;
mod generate;
mod moves;
mod notation;
mod options;
mod position;
pub mod squares;
#[cfg(test)]
mod tests;

pub use builder::{AbsorptionBuilder, AbsorptionStep};
pub use moves::{AbsorptionMove, Allotment, SquareList};
pub use options::AbsorptionOptions;

use crate::hash::{feature_key, mix64};
use crate::{
    Count, Game, IllegalMove, NotationError, OptionInfo, OptionsError, Player, PositionError,
    Status,
};
use rand::Rng;
use serde::{Deserialize, Serialize};
use squares::SQUARES;

pub const LIGHT: Player = Player(0);
pub const DARK: Player = Player(1);
pub const PIECES_EACH: u8 = 18;
/// A player controlling this many pieces or fewer has lost.
pub const LOSING_PIECES: u8 = 3;

/// Where the turn stands (absorption.md §6, "TurnPhase").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Phase A: split or merge.
    SplitOrMerge,
    /// Phases A′ and B: `follow` holds the split Smalls that may still make their
    /// follow-up move (never onto `origin`); any stack not in `involved` may move once;
    /// a pass ends both.
    Move {
        involved: u64,
        follow: u64,
        origin: Option<u8>,
    },
    /// Phase C: `absorber` chooses the next absorption (several are possible).
    Absorb { absorber: Player },
}

#[derive(Clone, Debug)]
pub struct Absorption {
    options: AbsorptionOptions,
    heights: [u8; SQUARES],
    occupied: [u64; 2],
    pieces: [u8; 2],
    /// Whose turn it is (phases A and B, and the first absorptions).
    mover: u8,
    phase: Phase,
    /// Full turns begun, from 1.
    turn: u32,
    ply: u32,
    status: Status,
    board_hash: u64,
    /// Hashes of the positions at the start of each turn, the current turn's last.
    history: crate::history::History,
}

/// What one action changed, in order. Forced steps that followed it (a lone absorption,
/// the end of the turn) come after it in the same list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AbsorptionEvent {
    /// The stack of `height` on `from` was replaced by the stacks in `parts`.
    Split {
        from: u8,
        height: u8,
        parts: Allotment,
    },
    /// The stacks on `others` joined the one on `dest`, now `height` high.
    Merged {
        dest: u8,
        others: SquareList,
        height: u8,
    },
    /// A stack moved; `follow_up` marks a split Small's immediate move.
    Moved {
        from: u8,
        to: u8,
        follow_up: bool,
    },
    /// The mover moved nothing more this turn.
    Passed,
    /// `absorber` absorbed `owner`'s stack of `height` on `target`; its pieces were
    /// turned over and added as `gifts` says.
    Absorbed {
        absorber: Player,
        target: u8,
        owner: Player,
        height: u8,
        gifts: Allotment,
    },
    /// The turn passed to `next`.
    TurnEnded {
        next: Player,
    },
    GameOver {
        status: Status,
    },
}

impl Absorption {
    /// The stack on a square: `(owner, height)`.
    pub fn stack(&self, square: u8) -> Option<(Player, u8)> {
        let height = self.heights[square as usize];
        (height != 0).then(|| (Player(self.owner(square)), height))
    }

    /// The pieces a player controls (the total height of their stacks).
    pub fn pieces_of(&self, player: Player) -> u8 {
        self.pieces[player.index()]
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player whose turn it is (the chooser of an absorption may be the other one
    /// under `symmetric_absorption`; see `to_move`).
    pub fn turn_player(&self) -> Player {
        Player(self.mover)
    }

    /// Full turns begun, from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The enemy stacks the absorbing player must absorb now (empty outside phase C).
    pub fn absorbable(&self) -> u64 {
        match self.phase {
            Phase::Absorb { absorber } => generate::absorbable(self, absorber.0),
            _ => 0,
        }
    }

    /// The enemy stacks the player whose turn it is would absorb if the turn ended now.
    pub fn threatened(&self) -> u64 {
        generate::absorbable(self, self.mover)
    }

    pub fn label(square: u8) -> String {
        squares::label(square)
    }

    fn owner(&self, square: u8) -> u8 {
        (self.occupied[1] >> square & 1) as u8
    }

    fn empty_squares(&self) -> u64 {
        !(self.occupied[0] | self.occupied[1])
    }

    /// Sets a square to `owner`'s stack of `height` (0 empties it), keeping counts and hash.
    fn set_square(&mut self, square: u8, owner: u8, height: u8) {
        let old = self.heights[square as usize];
        if old != 0 {
            let old_owner = self.owner(square);
            self.board_hash ^= stack_key(square, old_owner, old);
            self.pieces[old_owner as usize] -= old;
            self.occupied[old_owner as usize] &= !squares::bit(square);
        }
        self.heights[square as usize] = height;
        if height != 0 {
            self.board_hash ^= stack_key(square, owner, height);
            self.pieces[owner as usize] += height;
            self.occupied[owner as usize] |= squares::bit(square);
        }
    }

    fn compute_board_hash(&self) -> u64 {
        (0..SQUARES as u8)
            .filter_map(|sq| self.stack(sq).map(|(p, h)| stack_key(sq, p.0, h)))
            .fold(0, |acc, key| acc ^ key)
    }

    /// The part of the hash that is not the board: whose turn, and where the turn stands.
    fn phase_key(&self) -> u64 {
        let turn = feature_key(1, self.mover as u64, 0);
        turn ^ match self.phase {
            Phase::SplitOrMerge => feature_key(2, 0, 0),
            Phase::Move {
                involved,
                follow,
                origin,
            } => {
                feature_key(2, 1, origin.map_or(64, u64::from))
                    ^ mix64(involved ^ 0x5851_F42D_4C95_7F2D)
                    ^ mix64(follow ^ 0x1405_7B7E_F767_814F)
            }
            Phase::Absorb { absorber } => feature_key(2, 2, absorber.0 as u64),
        }
    }

    /// A board with no pieces, `mover` to start a turn.
    fn empty(options: AbsorptionOptions, mover: u8) -> Absorption {
        Absorption {
            options,
            heights: [0; SQUARES],
            occupied: [0; 2],
            pieces: [0; 2],
            mover,
            phase: Phase::SplitOrMerge,
            turn: 1,
            ply: 0,
            status: Status::Ongoing,
            board_hash: 0,
            history: crate::history::History::default(),
        }
    }
}

fn stack_key(square: u8, owner: u8, height: u8) -> u64 {
    feature_key(3, square as u64, (owner * 4 + height) as u64)
}

pub const PLAYER_NAMES: [&str; 2] = ["Light", "Dark"];

impl Game for Absorption {
    type Options = AbsorptionOptions;
    type Move = AbsorptionMove;
    type Event = AbsorptionEvent;
    type Builder = AbsorptionBuilder;
    type Moves<'a> = std::vec::IntoIter<AbsorptionMove>;

    const NAME: &'static str = "absorption";
    const NOTATION_HELP: &'static str = "Absorption actions, one at a time or several per line:
  split c1/b2:2,c2:1   merge b2+c2>c2   split Small's follow-up c2>c4
  move d3-d4   pass (no more moving this turn)   absorb xd4[c4:1,e4:1]";

    fn new(options: AbsorptionOptions) -> Result<Self, OptionsError> {
        let mut game = Absorption::empty(options, 0);
        game.mover = game.options.dark_first as u8;
        for x in [0u8, 1, 2, 5, 6, 7] {
            game.set_square(x, LIGHT.0, 3);
            game.set_square(x + 56, DARK.0, 3);
        }
        game.history.record(game.hash());
        Ok(game)
    }

    const OPTIONS: &'static [OptionInfo] = &options::OPTION_INFO;

    fn set_option(
        options: &mut AbsorptionOptions,
        key: &str,
        value: &str,
    ) -> Result<(), OptionsError> {
        options::set_option(options, key, value)
    }

    fn options(&self) -> &AbsorptionOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, player: Player) -> String {
        PLAYER_NAMES[player.index()].to_string()
    }

    fn to_move(&self) -> Player {
        match self.phase {
            Phase::Absorb { absorber } => absorber,
            _ => Player(self.mover),
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
        generate::for_each_move(self, &mut |mv| {
            moves.push(mv);
            true
        });
        moves.into_iter()
    }

    fn count_moves(&self) -> Count {
        Count::from(generate::count_moves(self) as u64)
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<AbsorptionMove> {
        generate::random_move(self, rng)
    }

    fn check_move(&self, mv: &AbsorptionMove) -> Result<(), IllegalMove> {
        check::check_move(self, mv)
    }

    fn play_with(&mut self, mv: &AbsorptionMove, emit: &mut impl FnMut(AbsorptionEvent)) {
        apply::play(self, mv, emit);
    }

    fn hash(&self) -> u64 {
        self.board_hash ^ self.phase_key()
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_board_hash() ^ self.phase_key()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut counted = [0u8; 2];
        for square in 0..SQUARES as u8 {
            let height = self.heights[square as usize];
            let light = self.occupied[0] >> square & 1 == 1;
            let dark = self.occupied[1] >> square & 1 == 1;
            match (height, light, dark) {
                (0, false, false) => {}
                (1..=3, true, false) => counted[0] += height,
                (1..=3, false, true) => counted[1] += height,
                _ => {
                    return Err(format!(
                        "{} holds a malformed stack",
                        squares::label(square)
                    ));
                }
            }
        }
        if counted != self.pieces {
            return Err(format!(
                "piece totals {counted:?} differ from the cached {:?}",
                self.pieces
            ));
        }
        if self.board_hash != self.compute_board_hash() {
            return Err("the incremental hash differs from a recomputation".into());
        }
        if let Phase::Move {
            involved,
            follow,
            origin,
        } = self.phase
        {
            if involved & !self.occupied[self.mover as usize] != 0 {
                return Err("an involved square holds no stack of the mover".into());
            }
            if follow & !involved != 0
                || squares::squares(follow).any(|s| self.heights[s as usize] != 1)
            {
                return Err("a follow-up square is not an involved Small".into());
            }
            if (follow != 0) != origin.is_some() {
                return Err("the split's origin is kept exactly while follow-ups remain".into());
            }
        }
        if self.status == Status::Ongoing {
            if self.phase == Phase::SplitOrMerge && !self.history.ends_with(self.hash()) {
                return Err("the repetition history does not end with this turn's start".into());
            }
            if self.phase != Phase::SplitOrMerge && generate::count_moves(self) < 2 {
                return Err("the turn waits on a phase with no real choice".into());
            }
        }
        Ok(())
    }

    fn format_move(&self, mv: &AbsorptionMove) -> String {
        notation::format_move(mv)
    }

    fn describe_event(&self, event: &AbsorptionEvent) -> String {
        describe::describe_event(self, event)
    }

    fn parse_move(&self, text: &str) -> Result<AbsorptionMove, NotationError> {
        notation::parse_move(text)
    }

    fn position_string(&self) -> String {
        position::format_position(self)
    }

    fn from_position(options: AbsorptionOptions, text: &str) -> Result<Self, PositionError> {
        position::parse_position(options, text)
    }

    fn describe_status(&self, status: Status) -> String {
        match status {
            // The rule is about splitting and merging: a player may still have a Pass.
            Status::Win {
                winner,
                reason: crate::WinReason::Forfeit,
            } => format!(
                "{} wins (the opponent cannot split or merge and forfeits)",
                self.player_name(winner)
            ),
            _ => crate::game::default_status_text(self, status),
        }
    }

    fn builder(&self) -> AbsorptionBuilder {
        AbsorptionBuilder::default()
    }

    fn ascii(&self) -> String {
        position::ascii(self)
    }
}
