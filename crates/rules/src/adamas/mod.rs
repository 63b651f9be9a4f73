//! Adamas (Cameron Browne, 2007), as read in `shared/rules/adamas.md`.
//!
//! Stacks split to cells in line of sight or merge into one; an enemy stack whose height
//! equals the number of differently coloured pieces it sees can be captured.

mod apply;
mod board;
mod builder;
mod generate;
mod moves;
mod notation;
mod options;
mod position;
mod progressive;
mod random;
#[cfg(test)]
mod tests;
mod turn;

pub use builder::{AdamasBuilder, AdamasStep};
pub use generate::AdamasMoves;
pub use moves::{AdamasMove, Part, Parts};
pub use options::AdamasOptions;

use crate::hexgrid::{HexGrid, hex_grid};
use crate::{
    CellSet, Count, Game, IllegalMove, NotationError, OptionInfo, OptionsError, Player,
    PositionError, Status,
};
use board::{Board, MAX_CELLS};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The letters of the seats in the pbmserv diagrams, in turn order.
pub const PLAYER_LETTERS: [char; 3] = ['O', 'X', 'Y'];
pub const MAX_PIECES: u16 = 99;

/// The start corners, as axial `(q, r)` multiples of the radius, in turn order.
fn start_corners(players: u8) -> &'static [(i32, i32)] {
    if players == 3 {
        // Left, top-right and bottom-right: alternate corners (adamas.md §2).
        &[(-1, 0), (1, -1), (0, 1)]
    } else {
        &[(-1, 0), (1, 0)]
    }
}

#[derive(Clone, Debug)]
pub struct Adamas {
    options: AdamasOptions,
    grid: &'static HexGrid,
    board: Board,
    /// Pieces on the board per player.
    pieces: [u16; 3],
    num_players: u8,
    active: [bool; 3],
    to_move: u8,
    ply: u32,
    plies_since_capture: u32,
    status: Status,
    hash: u64,
    /// Hashes of the positions since the last capture, the current one last.
    history: crate::history::History,
}

impl Adamas {
    pub fn grid(&self) -> &'static HexGrid {
        self.grid
    }

    /// The stack on a cell: `(owner, height)`.
    pub fn stack(&self, cell: usize) -> Option<(Player, u16)> {
        let stack = self.board[cell];
        (stack != 0).then(|| (Player(board::owner(stack)), board::height(stack)))
    }

    pub fn pieces_of(&self, player: Player) -> u16 {
        self.pieces[player.index()]
    }

    pub fn is_active(&self, player: Player) -> bool {
        self.active[player.index()]
    }

    pub fn plies_since_capture(&self) -> u32 {
        self.plies_since_capture
    }

    /// The enemy stacks the player to move may capture this turn (none on the opening move).
    pub fn threatened(&self) -> CellSet {
        if self.ply == 0 {
            CellSet::new()
        } else {
            board::threatened_enemies(self.grid, &self.board, self.to_move)
        }
    }

    /// Every stack, of any player, whose height equals its visible enemy count now.
    pub fn threatened_stacks(&self) -> CellSet {
        let mut set = CellSet::new();
        for cell in 0..self.grid.len() {
            if board::is_threatened(self.grid, &self.board, cell) {
                set.insert(cell);
            }
        }
        set
    }

    /// Whether the stack on `cell` stands as high as the enemy pieces it sees, so it can
    /// be captured.
    pub fn is_threatened(&self, cell: usize) -> bool {
        cell < self.grid.len() && board::is_threatened(self.grid, &self.board, cell)
    }

    pub fn visible_enemy_count(&self, cell: usize) -> Option<u32> {
        (self.board[cell] != 0).then(|| board::visible_enemy_count(self.grid, &self.board, cell))
    }

    /// The cells the stack on `from` may send pieces to this turn. Under progressive
    /// capture this includes every enemy stack in sight, whose capture depends on the
    /// order of the split's parts.
    pub fn valid_destinations(&self, from: usize) -> Vec<usize> {
        generate::valid_destinations(self, from)
    }

    pub fn label(&self, cell: usize) -> String {
        self.grid.label(cell)
    }

    fn set_cell(&mut self, cell: usize, stack: u16) {
        self.hash ^= stack_key(cell, self.board[cell]) ^ stack_key(cell, stack);
        self.board[cell] = stack;
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for cell in 0..self.grid.len() {
            hash ^= stack_key(cell, self.board[cell]);
        }
        hash ^ self.rights_key()
    }

    /// The part of the hash that is not the board: player to move, seats still in the
    /// game, and the opening-capture ban.
    fn rights_key(&self) -> u64 {
        let mut key = crate::hash::feature_key(1, self.to_move as u64, 0);
        for p in 0..self.num_players as usize {
            if self.active[p] {
                key ^= crate::hash::feature_key(2, p as u64, 0);
            }
        }
        if self.ply == 0 {
            key ^= crate::hash::feature_key(3, 0, 0);
        }
        key
    }
}

fn stack_key(cell: usize, stack: u16) -> u64 {
    if stack == 0 {
        0
    } else {
        crate::hash::feature_key(4, cell as u64, stack as u64)
    }
}

impl Game for Adamas {
    type Options = AdamasOptions;
    type Move = AdamasMove;
    type Event = AdamasEvent;
    type Builder = AdamasBuilder;
    type Moves<'a> = AdamasMoves<'a>;

    const NAME: &'static str = "adamas";
    const NOTATION_HELP: &'static str =
        "Adamas moves: split c1-c3, 3xc1-c3, c1-2xc2,e1; merge 2xc1,b2-c3 (docs/notation.md).";

    fn new(options: AdamasOptions) -> Result<Self, OptionsError> {
        options.validate()?;
        let grid = hex_grid(options.board_size());
        let radius = grid.radius();
        let mut game = Adamas::empty(options, grid);
        for (player, &(q, r)) in start_corners(game.num_players).iter().enumerate() {
            let cell = grid
                .at(q * radius, r * radius)
                .expect("corners are on the board");
            let pieces = game.options.pieces_each();
            game.board[cell] = board::pack(player as u8, pieces);
            game.pieces[player] = pieces;
        }
        game.hash = game.compute_hash();
        game.history.record(game.hash);
        Ok(game)
    }

    const OPTIONS: &'static [OptionInfo] = &options::OPTION_INFO;

    fn set_option(options: &mut AdamasOptions, key: &str, value: &str) -> Result<(), OptionsError> {
        options::set_option(options, key, value)
    }

    fn options(&self) -> &AdamasOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        self.num_players as usize
    }

    fn player_name(&self, player: Player) -> String {
        PLAYER_LETTERS[player.index()].to_string()
    }

    fn to_move(&self) -> Player {
        Player(self.to_move)
    }

    fn status(&self) -> Status {
        self.status
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self) -> AdamasMoves<'_> {
        AdamasMoves::new(self)
    }

    fn count_moves(&self) -> Count {
        generate::count_moves(self)
    }

    fn count_moves_within(&self, work: u64) -> Option<Count> {
        generate::count_moves_within(self, work)
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<AdamasMove> {
        random::random_move(self, rng)
    }

    fn check_move(&self, mv: &AdamasMove) -> Result<(), IllegalMove> {
        moves::check_move(self, mv)
    }

    fn play_with(&mut self, mv: &AdamasMove, emit: &mut impl FnMut(AdamasEvent)) {
        apply::play(self, mv, emit);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut counted = [0u16; 3];
        for cell in 0..self.grid.len() {
            let stack = self.board[cell];
            if stack != 0 {
                let who = board::owner(stack) as usize;
                if who >= self.num_players as usize || board::height(stack) == 0 {
                    return Err(format!("cell {} holds a malformed stack", self.label(cell)));
                }
                counted[who] += board::height(stack);
            }
        }
        if self.board[self.grid.len()..].iter().any(|&s| s != 0) {
            return Err("pieces stored beyond the board".into());
        }
        if counted != self.pieces {
            return Err(format!(
                "piece totals {counted:?} differ from the cached {:?}",
                self.pieces
            ));
        }
        if self.hash != self.compute_hash() {
            return Err("the incremental hash differs from a recomputation".into());
        }
        if !self.history.ends_with(self.hash) {
            return Err("the repetition history does not end with this position".into());
        }
        for (p, letter) in PLAYER_LETTERS.iter().enumerate() {
            if self.active[p] && self.pieces[p] == 0 {
                return Err(format!("{letter} is in the game with no pieces"));
            }
        }
        if self.status == Status::Ongoing && !self.active[self.to_move as usize] {
            return Err("the player to move has been removed".into());
        }
        Ok(())
    }

    fn format_move(&self, mv: &AdamasMove) -> String {
        notation::format_move(self.grid, mv)
    }

    fn describe_event(&self, event: &AdamasEvent) -> String {
        let name = |p: &Player| self.player_name(*p);
        match event {
            AdamasEvent::Moved { from, to, count } => format!(
                "moved {count} from {} to {}",
                self.label(*from),
                self.label(*to)
            ),
            AdamasEvent::Captured {
                cell,
                owner,
                height,
            } => format!(
                "captured {}'s stack of {height} on {}",
                name(owner),
                self.label(*cell)
            ),
            AdamasEvent::Eliminated {
                player,
                reason,
                removed,
            } => {
                let why = match reason {
                    Elimination::NoPieces => "has no pieces left",
                    Elimination::NoLegalMove => "has no legal move",
                };
                let pieces: u32 = removed.iter().map(|(_, h)| *h as u32).sum();
                if pieces > 0 {
                    let noun = if pieces == 1 {
                        "piece is"
                    } else {
                        "pieces are"
                    };
                    format!(
                        "{} {why} and leaves the game; {pieces} {noun} taken off",
                        name(player)
                    )
                } else {
                    format!("{} {why} and leaves the game", name(player))
                }
            }
            AdamasEvent::GameOver { status } => {
                format!("game over: {}", self.describe_status(*status))
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<AdamasMove, NotationError> {
        notation::parse_move(self.grid, text)
    }

    fn position_string(&self) -> String {
        position::format_position(self)
    }

    fn from_position(options: AdamasOptions, text: &str) -> Result<Self, PositionError> {
        position::parse_position(options, text)
    }

    fn builder(&self) -> AdamasBuilder {
        AdamasBuilder::default()
    }

    fn ascii(&self) -> String {
        position::ascii(self)
    }
}

impl Adamas {
    /// A board with no pieces, for the start position and position strings.
    fn empty(options: AdamasOptions, grid: &'static HexGrid) -> Adamas {
        let num_players = options.players;
        Adamas {
            options,
            grid,
            board: [0; MAX_CELLS],
            pieces: [0; 3],
            num_players,
            active: [true, true, num_players == 3],
            to_move: 0,
            ply: 0,
            plies_since_capture: 0,
            status: Status::Ongoing,
            hash: 0,
            history: crate::history::History::default(),
        }
    }
}

/// What one Adamas move changed, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdamasEvent {
    /// `count` pieces moved in a straight line from `from` to `to` (one per split part or
    /// merge source, in the move's order).
    Moved {
        from: usize,
        to: usize,
        count: u16,
    },
    /// The stack on `cell` was captured by replacement as the pieces of the last
    /// `Moved` arrived.
    Captured {
        cell: usize,
        owner: Player,
        height: u16,
    },
    /// A player left the game; `removed` lists their stacks taken off the board.
    Eliminated {
        player: Player,
        reason: Elimination,
        removed: Vec<(usize, u16)>,
    },
    GameOver {
        status: Status,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Elimination {
    NoPieces,
    NoLegalMove,
}
