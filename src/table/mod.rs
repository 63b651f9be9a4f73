//! The app's one window onto a game. Every screen and system is written once against
//! [`Table`]; each game's file only says how its state looks (board, pieces, marks),
//! what each builder step and rules event touches on the board, and how to word them.
//! The rules themselves stay in `tabula-rules`: nothing here decides what is legal.

mod absorption;
mod adamas;
mod adaptoid;
mod adomoc;
mod building;
mod game_table;

pub use building::{CellCounts, Ghost, StepCount, counts_at, ghosts_between};
pub use game_table::GameTable;
pub use tabula_session::{GameKind, Thinker};

use bevy::math::Vec2;
use tabula_session::{AnyMatch, Match, Seat, options, with_game};

/// How a board is drawn: the cells' shape and what the links between them mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardShape {
    /// Square tiles (Absorption).
    Squares,
    /// Hexagonal tiles (Adamas).
    Hexes,
    /// Discs joined by their adjacencies (Adaptoid, Super-Adaptoid).
    Graph,
    /// Spaces on concentric cycles, with columns and spirals (Adomoc).
    Rings,
}

/// What a drawn line between two cells stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    Adjacent,
    Cycle,
    Column,
    Spiral,
}

/// A line drawn between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub a: usize,
    pub b: usize,
    pub kind: LinkKind,
}

#[derive(Clone, Debug)]
pub struct Cell {
    /// On the board plane: `x` east, `y` towards the viewer, neighbours about one apart.
    pub pos: Vec2,
    pub label: String,
}

#[derive(Clone, Debug)]
pub struct BoardLayout {
    pub shape: BoardShape,
    pub cells: Vec<Cell>,
    pub links: Vec<Link>,
    /// The distance between neighbouring cells, which sizes tiles and pieces.
    pub spacing: f32,
}

impl BoardLayout {
    /// Moves the cells so the board's bounding box is centred on the origin.
    fn centred(mut self) -> BoardLayout {
        let (mut min, mut max) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for cell in &self.cells {
            min = min.min(cell.pos);
            max = max.max(cell.pos);
        }
        let centre = (min + max) / 2.0;
        for cell in &mut self.cells {
            cell.pos -= centre;
        }
        self
    }

    /// Half the width of the board's bounding box, plus a cell, for framing the camera.
    pub fn extent(&self) -> f32 {
        self.cells
            .iter()
            .map(|c| c.pos.abs().max_element())
            .fold(0.0, f32::max)
            + self.spacing
    }
}

/// The kinds of piece the four games put on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A pile of `height` discs (Absorption, Adamas).
    Stack,
    /// An Adaptoid body with its legs and pincers.
    Creature {
        legs: u8,
        pincers: u8,
    },
    Sun,
    Moon,
    Foot,
}

/// What stands on a cell, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceLook {
    /// Index into the player palette (Adaptoid: the colour, not the seat).
    pub colour: usize,
    pub shape: Shape,
    pub height: u16,
    /// Adomoc primes carry a crown.
    pub prime: bool,
}

/// The cells a rules path passes over before its last, for [`Anim::Glide`]'s `via`.
fn passed_over(path: Option<Vec<u8>>) -> Vec<usize> {
    let mut path = path.unwrap_or_default();
    path.pop();
    path.into_iter().map(usize::from).collect()
}

/// Cell markings that help a player read the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Adamas: a stack that can be captured now. Absorption: one that would be absorbed.
    Threatened,
    /// Absorption: a stack that took part in this turn's split or merge.
    Involved,
    /// Absorption: a split Small that still has its follow-up move.
    FollowUp,
    /// Adaptoid: an adaptoid that would starve.
    Starving,
    /// Adomoc: a foot held by an enemy sun.
    Attracted,
}

/// How one rules event is animated, naming cells of the layout.
#[derive(Clone, Debug, PartialEq)]
pub enum Anim {
    /// Pieces travel from one cell to another: the whole piece when `count` is `None`,
    /// otherwise `count` discs peel off the stack. `via`: the cells passed over on the way,
    /// in order, where the way is not a straight line (an Adomoc cycle or spiral, an
    /// Adaptoid's walk); empty for a straight one.
    Glide {
        from: usize,
        to: usize,
        count: Option<u16>,
        via: Vec<usize>,
    },
    /// The stack on `from` fans out into new stacks of the given heights.
    Split {
        from: usize,
        parts: Vec<(usize, u16)>,
    },
    /// The stacks on `from` converge on `into`.
    Merge { into: usize, from: Vec<usize> },
    /// The piece of `colour` on `cell` is captured: it is lifted and thrown off the board.
    /// (A cell may hold an arrival and the piece it fights; the colour tells them apart,
    /// and of two alike the one that was there first goes.)
    LiftAway { cell: usize, colour: usize },
    /// The piece of `colour` on `cell` is consumed by the piece arriving there (Adomoc): it
    /// is swallowed into the board beneath it.
    Consume { cell: usize, colour: usize },
    /// The piece of `colour` on `from` flies in an arc to a distant cell (Adomoc
    /// origination).
    Fly {
        from: usize,
        to: usize,
        colour: usize,
    },
    /// The stack on `cell` turns over to `colour` and its discs go to the given stacks.
    Absorb {
        cell: usize,
        colour: usize,
        gifts: Vec<(usize, u16)>,
    },
    /// Something new appears on `cell` (a placed or created adaptoid, a new limb).
    Appear { cell: usize },
    /// The piece of `colour` on `cell` fades away (starvation).
    Fade { cell: usize, colour: usize },
    /// Several pieces leave at once (a player eliminated).
    ClearCells { cells: Vec<usize> },
    /// Nothing moves on the board; the event is only shown in words.
    Note,
}

/// One rules event as the app receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedEvent {
    pub text: String,
    pub anim: Anim,
}

/// A legal next step of the move being built, as offered to the player.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub text: String,
    /// The cell a click chooses it with, if it has one.
    pub cell: Option<usize>,
    /// How it changes a count at its cell, for the cell's − and + (and the wheel).
    pub count: Option<StepCount>,
}

/// A game in progress, whichever it is, as the screens draw and play it: what the app adds
/// to the session's match (the board's layout, pieces and marks, the offered steps in words,
/// the move's preview, the last move's cells, the events of each move played). Everything
/// else about the game (whose turn, the line, the status, the options, a bot's search) is
/// the match's own, through [`Table::as_match`].
pub trait Table: Send + Sync {
    /// The session's match: the game itself, its line and everything said in text.
    fn as_match(&self) -> &dyn AnyMatch;
    fn layout(&self) -> &BoardLayout;
    /// The palette colour a seat plays (Adaptoid seats swap colours after a pie start).
    fn colour_of_seat(&self, seat: usize) -> usize;
    /// One line per seat: pieces, captures or score.
    fn score_lines(&self) -> Vec<String>;
    /// Plays the next move of the line again; its events in order.
    fn redo(&mut self) -> Result<Vec<PlayedEvent>, String>;
    /// Jumps to the position after `ply` moves of the line, without events.
    fn go_to(&mut self, ply: usize) -> Result<(), String>;
    /// Forgets the moves after this position.
    fn discard_later_moves(&mut self);
    /// Changes the match through its text interface (the variation tree: going to a move,
    /// promoting, deleting); the table then follows the position.
    fn change_match(
        &mut self,
        change: &mut dyn FnMut(&mut dyn AnyMatch) -> Result<(), String>,
    ) -> Result<(), String>;
    /// Takes back one move, or against a bot back to the person's previous turn.
    fn undo(&mut self, seats: &[Seat]) -> Result<(), String>;
    fn pieces(&self) -> Vec<(usize, PieceLook)>;
    fn marks(&self) -> Vec<(usize, Mark)>;
    /// Cells last moved from or to, for the highlight.
    fn last_move_cells(&self) -> &[usize];
    /// Words about a cell for hovering (Adamas: the visible enemy count).
    fn cell_hint(&self, cell: usize) -> Option<String>;

    /// The legal next steps of the move being built.
    fn choices(&self) -> &[Choice];
    /// The steps taken so far, in words.
    fn chosen(&self) -> Vec<String>;
    /// The move being built, summed up, where the game has more to say than its steps.
    fn draft_text(&self) -> Option<String>;
    /// Cells the steps so far name, to show as selected.
    fn selected_cells(&self) -> Vec<usize>;
    /// How many pieces the move being built takes to or from `cell`, where it counts them
    /// (the number between a cell's − and +).
    fn part_count(&self, cell: usize) -> Option<u16>;
    fn choose(&mut self, index: usize) -> Result<(), String>;
    fn take_back_choice(&mut self) -> bool;
    fn clear_choices(&mut self);
    /// The move built so far in notation, if it is complete and legal.
    fn complete_move(&self) -> Option<String>;
    /// What the move built so far would change on the board, if it is complete: each
    /// cell whose piece it changes, with the piece it would leave there (none: emptied).
    /// Before that, what its steps so far put on empty cells, where the game says.
    fn move_preview(&self) -> Option<Vec<Ghost>>;
    /// Plays the move built so far; its events in order.
    fn commit(&mut self) -> Result<Vec<PlayedEvent>, String>;
    /// Plays a move written in notation; its events in order.
    fn play_notation(&mut self, text: &str) -> Result<Vec<PlayedEvent>, String>;

    /// The cells a move in notation would travel from or to here, to show it as a hint.
    fn move_cells(&self, text: &str) -> Result<Vec<usize>, String>;
}

/// Starts a game of `kind` with options given as `key=value` settings.
pub fn new_table(kind: GameKind, settings: &[(String, String)]) -> Result<Box<dyn Table>, String> {
    with_game!(kind, G => Ok(Box::new(GameTable::new(Match::<G>::start(settings)?))))
}

/// Sets up a game of `kind` from a position string, with options as `key=value` settings.
pub fn table_at(
    kind: GameKind,
    settings: &[(String, String)],
    position: &str,
) -> Result<Box<dyn Table>, String> {
    with_game!(kind, G => Ok(Box::new(GameTable::new(Match::<G>::set_up(settings, position)?))))
}

/// The table for a match made by the session crate (a record loaded, moves imported).
pub fn table_of(game: Box<dyn AnyMatch>) -> Box<dyn Table> {
    let kind = game.kind();
    with_game!(kind, G => {
        let game = game
            .into_any()
            .downcast::<Match<G>>()
            .expect("a match's kind names its game");
        Box::new(GameTable::new(*game))
    })
}

/// The options of `kind` as `(key, value)` text pairs, for the new-game form.
pub fn default_settings(kind: GameKind) -> Vec<(String, String)> {
    with_game!(kind, G => options::default_settings::<G>())
}

/// How many players a game of `kind` with these form settings seats (three-player Adamas).
/// While some other option is half typed, each setting is asked alone, so the seats do not
/// come and go with it.
pub fn players_for(kind: GameKind, settings: &[(String, String)]) -> usize {
    let players = |settings: &[(String, String)]| {
        with_game!(kind, G => options::players_for::<G>(settings)).ok()
    };
    let given: Vec<(String, String)> = settings
        .iter()
        .filter(|(_, value)| !value.is_empty())
        .cloned()
        .collect();
    players(&given)
        .or_else(|| {
            given
                .iter()
                .filter_map(|setting| players(std::slice::from_ref(setting)))
                .max()
        })
        .unwrap_or(2)
}

/// How a game looks and how its steps and events touch the board.
pub trait Look: tabula_bot::Knowledge {
    const KIND: GameKind;
    fn layout(&self) -> BoardLayout;
    fn pieces(&self) -> Vec<(usize, PieceLook)>;
    fn marks(&self) -> Vec<(usize, Mark)>;
    fn colour_of_seat(&self, seat: usize) -> usize {
        seat
    }
    fn score_lines(&self) -> Vec<String>;
    fn cell_hint(&self, _cell: usize) -> Option<String> {
        None
    }
    fn choice(&self, step: &StepOf<Self>) -> Choice;
    /// The move being built, summed up (Adamas: counts per cell and pieces left behind).
    fn draft_text(&self, _builder: &Self::Builder) -> Option<String> {
        None
    }
    /// Ghosts of the steps taken while the move is not yet complete, on empty cells only
    /// (Absorption: a split's parts, placed before the stack they come from is chosen).
    fn partial_ghosts(&self, _steps: &[StepOf<Self>]) -> Vec<Ghost> {
        Vec::new()
    }
    /// How many pieces the move being built takes to or from `cell` (Adamas: a split's
    /// or merge's part), where steps count them.
    fn part_count(&self, _builder: &Self::Builder, _cell: usize) -> Option<u16> {
        None
    }
    /// Cells that a step already taken names, to show as selected.
    fn step_cells(step: &StepOf<Self>) -> Vec<usize>;
    fn anim(&self, event: &Self::Event) -> Anim;
}

pub use tabula_session::StepOf;

#[cfg(test)]
mod tests;

/// The members of a 64-bit cell set, lowest first.
fn bits(set: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |&i| set >> i & 1 == 1)
}
