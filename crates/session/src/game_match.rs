//! [`Match`]: one game in progress, with its whole line of moves and the move being built.

use crate::Seat;
use crate::options::{changed_settings, options_from};
use crate::tree::{MoveTree, NodeId, Variation};
use tabula_rules::text::quoted;
use tabula_rules::{Game, MoveBuilder, Status};

/// A step of a game's move builder.
pub type StepOf<G> = <<G as Game>::Builder as MoveBuilder<G>>::Step;

/// A game in progress: the position, every move of its line (the moves played and, after
/// them, the moves taken back and not yet replayed), the position before each move, the
/// side lines explored, and the move being built step by step.
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    game: G,
    /// Every move of the line in notation, including those taken back and not replayed.
    line: Vec<String>,
    /// The tree's node of each move of `line`.
    path: Vec<NodeId>,
    /// Every move kept: the main line (the game) and its variations.
    tree: MoveTree,
    /// Whether a move that leaves the line starts a variation (an analysis board) rather
    /// than replacing the moves after it (a game).
    exploring: bool,
    /// The position before each move played: `before[i]` is the position after `i` moves.
    before: Vec<G>,
    /// Whether the game started from a position string rather than the options' start.
    set_up: bool,
    revision: u64,
    builder: G::Builder,
    steps: Vec<StepOf<G>>,
    next_steps: Vec<StepOf<G>>,
}

impl<G: Game> Match<G> {
    /// A new game with `key=value` settings over the default options.
    pub fn start(settings: &[(String, String)]) -> Result<Self, String> {
        let options = options_from::<G>(settings)?;
        Ok(Self::from_game(G::new(options).map_err(|e| e.to_string())?))
    }

    /// A game set up from a position string, with `key=value` settings over the defaults.
    pub fn set_up(settings: &[(String, String)], position: &str) -> Result<Self, String> {
        let options = options_from::<G>(settings)?;
        let game = G::from_position(options, position).map_err(|e| e.to_string())?;
        let mut set_up = Self::from_game(game);
        set_up.set_up = true;
        Ok(set_up)
    }

    /// A game from a position, as if it had started there at its options' start.
    pub fn from_game(game: G) -> Self {
        let mut new = Match {
            builder: game.builder(),
            game,
            line: Vec::new(),
            path: Vec::new(),
            tree: MoveTree::new(),
            exploring: false,
            before: Vec::new(),
            set_up: false,
            revision: 0,
            steps: Vec::new(),
            next_steps: Vec::new(),
        };
        new.refresh_steps();
        new
    }

    /// The position now.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The position before the last move played, to describe that move's events in.
    pub fn before_last_move(&self) -> Option<&G> {
        self.before.last()
    }

    /// The moves played to reach this position, in notation.
    pub fn record(&self) -> &[String] {
        &self.line[..self.before.len()]
    }

    /// The whole line: the record and, after it, the moves taken back and not replayed.
    pub fn line(&self) -> &[String] {
        &self.line
    }

    /// How many moves of the line have been played.
    pub fn ply(&self) -> usize {
        self.before.len()
    }

    /// Whether moves were taken back and wait to be replayed (someone looks back).
    pub fn is_looking_back(&self) -> bool {
        self.line.len() > self.before.len()
    }

    /// Changes whenever the position does (a move, an undo, a jump), so work begun for one
    /// position can tell it is stale.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The seat to move after `ply` moves of the line (`None` past the moves played).
    pub fn to_move_after(&self, ply: usize) -> Option<usize> {
        match ply.cmp(&self.before.len()) {
            std::cmp::Ordering::Less => Some(self.before[ply].to_move().index()),
            std::cmp::Ordering::Equal => Some(self.game.to_move().index()),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// The options that differ from the game's defaults, as `key=value` text.
    pub fn settings(&self) -> Vec<(String, String)> {
        changed_settings::<G>(self.game.options())
    }

    /// The start position as a position string, if the game was set up from one.
    pub fn start_position(&self) -> Option<String> {
        self.set_up.then(|| match self.before.first() {
            Some(start) => start.position_string(),
            None => self.game.position_string(),
        })
    }

    /// Checks and plays a move, returning its events. Replaying the next move of the line
    /// keeps the moves after it, and so does a move the tree holds (its line is followed).
    /// Any other move starts a variation when exploring, and otherwise takes the place of
    /// the moves after this position.
    pub fn play(&mut self, mv: &G::Move) -> Result<Vec<G::Event>, String> {
        let text = self.game.format_move(mv);
        let before = self.game.clone();
        let events = self.game.apply(mv).map_err(|e| e.to_string())?;
        let ply = self.before.len();
        if self.line.get(ply) != Some(&text) {
            let parent = self.node_after(ply);
            let node = match self.path.get(ply) {
                Some(&old) if !self.exploring => self.tree.replace(old, &text),
                _ => self.tree.add(parent, &text, false),
            };
            if ply == self.path.len() {
                // The end of the line grows by one new move: no need to walk the line
                // again (a long line played move by move would cost its square).
                self.path.push(node);
                self.line.push(text);
            } else {
                self.follow(node);
            }
        }
        self.before.push(before);
        self.changed();
        Ok(events)
    }

    /// The tree of every move kept: the main line and its variations.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }

    /// The tree's node of each move of the line.
    pub fn path(&self) -> &[NodeId] {
        &self.path
    }

    /// The tree's node of the position now ([`MoveTree::START`] before any move).
    pub fn node(&self) -> NodeId {
        self.node_after(self.ply())
    }

    /// Whether a move that leaves the line starts a variation instead of replacing it.
    pub fn is_exploring(&self) -> bool {
        self.exploring
    }

    /// Searches begun for the other way of playing are stale: the revision changes.
    pub fn set_exploring(&mut self, exploring: bool) {
        if self.exploring != exploring {
            self.exploring = exploring;
            self.revision += 1;
        }
    }

    /// Whether the line shown is the game's own (the main line), not a variation.
    pub fn on_main_line(&self) -> bool {
        self.path
            .last()
            .is_none_or(|&last| self.tree.is_main_line(last))
    }

    /// Goes to the position after `node`, along the line through it.
    pub fn go_to_node(&mut self, node: NodeId) -> Result<(), String> {
        if !self.tree.contains(node) {
            return Err("that move is no longer kept".to_string());
        }
        let path = self.tree.line_through(node);
        let shared = self
            .path
            .iter()
            .zip(&path)
            .take_while(|(a, b)| a == b)
            .count();
        self.go_to(shared.min(self.ply()))?;
        self.line = self.tree.texts(&path);
        self.path = path;
        self.go_to(self.tree.path_to(node).len())
    }

    /// Leaves the variation the position is in for the line it left, at the position
    /// where it left it.
    pub fn return_from_variation(&mut self) -> Result<(), String> {
        let start = self
            .tree
            .variation_start(self.node())
            .ok_or("this is the main line")?;
        // The line through the move before the variation follows the line it left.
        self.go_to_node(self.tree.parent(start).unwrap_or(MoveTree::START))
    }

    /// Makes the variation holding `node` the line it left; false on the main line.
    pub fn promote(&mut self, node: NodeId) -> bool {
        let promoted = self.tree.contains(node) && self.tree.promote(node);
        if promoted {
            self.revision += 1;
        }
        promoted
    }

    /// Deletes a variation from `node` on. The main line (the game) is kept: that is
    /// for [`Match::discard_later_moves`].
    pub fn delete_variation(&mut self, node: NodeId) -> Result<(), String> {
        if !self.tree.contains(node) || node == MoveTree::START {
            return Err("that move is no longer kept".to_string());
        }
        if self.tree.is_main_line(node) {
            return Err("the main line is the game itself and is not deleted".to_string());
        }
        if let Some(at) = self.path.iter().position(|&n| n == node) {
            if self.ply() > at {
                self.go_to(at)?;
            }
            self.tree.delete(node);
            self.follow(self.node());
        } else {
            self.tree.delete(node);
        }
        self.revision += 1;
        Ok(())
    }

    /// The main line's moves in notation.
    pub fn main_line(&self) -> Vec<String> {
        self.tree.texts(&self.tree.main_line())
    }

    /// The side lines, as a record keeps them.
    pub fn variations(&self) -> Vec<Variation> {
        self.tree.variations()
    }

    /// How far along the main line the position is: its ply there, or where the variation
    /// holding it leaves the main line.
    pub fn main_line_ply(&self) -> usize {
        // The path is the main line up to its first move that does not continue its line.
        self.path[..self.ply()]
            .iter()
            .position(|&node| !self.tree.is_first_child(node))
            .unwrap_or(self.ply())
    }

    /// The main line's result in words, when it ends the game.
    pub fn main_line_result(&self) -> Option<String> {
        let end = self.tree.main_line_end();
        let result = |game: &Match<G>| game.status().is_over().then(|| game.status_text());
        if self.node() == end {
            return result(self);
        }
        let mut there = self.clone();
        there.go_to_node(end).ok()?;
        result(&there)
    }

    /// Adds a record's variations to the main line, every move checked by the rules. The
    /// position is left at the end of the main line.
    pub fn add_variations(&mut self, variations: &[Variation]) -> Result<(), String> {
        let main = self.main_line();
        let shape = MoveTree::from_record(&main, variations)?;
        let exploring = self.exploring;
        self.exploring = true;
        // Each move of the record's tree, and the node it became here.
        let mut placed = std::collections::HashMap::from([(MoveTree::START, MoveTree::START)]);
        let mut added = Ok(());
        for row in shape.rows() {
            let parent = placed[&shape.parent(row.node).unwrap_or(MoveTree::START)];
            let text = shape.text(row.node);
            let there = if self.node() == parent {
                Ok(())
            } else {
                self.go_to_node(parent)
            };
            added = there.and_then(|()| {
                let mv = self.game.parse_move(text).map_err(|e| e.to_string())?;
                self.play(&mv).map(|_| ())
            });
            if let Err(e) = &added {
                added = Err(format!("move {} ({}): {e}", row.ply, quoted(text)));
                break;
            }
            placed.insert(row.node, self.node());
        }
        self.exploring = exploring;
        let end = self.tree.main_line_end();
        self.go_to_node(end)?;
        added
    }

    /// Makes the line through `node` the line, keeping the position.
    fn follow(&mut self, node: NodeId) {
        self.path = self.tree.line_through(node);
        self.line = self.tree.texts(&self.path);
    }

    /// The tree's node after `ply` moves of the line.
    fn node_after(&self, ply: usize) -> NodeId {
        match ply {
            0 => MoveTree::START,
            _ => self.path[ply - 1],
        }
    }

    /// Reads and plays a move written in notation.
    pub fn play_notation(&mut self, text: &str) -> Result<Vec<G::Event>, String> {
        let mv = self.game.parse_move(text).map_err(|e| e.to_string())?;
        self.play(&mv)
    }

    /// Plays the next move of the line again, with its events.
    pub fn redo(&mut self) -> Result<Vec<G::Event>, String> {
        let mv = self.next_move()?;
        self.play(&mv)
    }

    /// Jumps to the position after `ply` moves of the line. Moves replayed on the way are
    /// checked, but give no events.
    pub fn go_to(&mut self, ply: usize) -> Result<(), String> {
        if ply == self.before.len() {
            return Ok(());
        }
        if ply > self.line.len() {
            return Err(format!(
                "there is no move {ply}: the game has {} moves",
                self.line.len()
            ));
        }
        while self.before.len() > ply {
            if let Some(before) = self.before.pop() {
                self.game = before;
            }
        }
        let mut replayed = Ok(());
        while self.before.len() < ply && replayed.is_ok() {
            replayed = self.replay_quietly();
        }
        // Even a replay stopped by a bad move leaves a consistent position behind.
        self.changed();
        replayed
    }

    /// Forgets the moves after this position, with every side line that leaves from here
    /// on: a game that goes on from here has no later moves yet.
    pub fn discard_later_moves(&mut self) {
        if self.is_looking_back() {
            let ply = self.before.len();
            for later in self.tree.children(self.node()).to_vec() {
                self.tree.delete(later);
            }
            self.path.truncate(ply);
            self.line.truncate(ply);
            self.changed();
        }
    }

    /// Whether a bot in `seats` has the turn after `ply` moves.
    pub fn bot_to_move_after(&self, seats: &[Seat], ply: usize) -> bool {
        self.to_move_after(ply)
            .and_then(|seat| seats.get(seat))
            .is_some_and(Seat::is_bot)
    }

    /// Whether a bot in `seats` is to move now, in a game that goes on.
    pub fn bot_to_move(&self, seats: &[Seat]) -> bool {
        !self.game.status().is_over() && self.bot_to_move_after(seats, self.ply())
    }

    /// Where an undo goes: one move back, or against a bot back to the last position where
    /// a person was to move. `None` when there is nothing of the person's to take back.
    pub fn undo_target(&self, seats: &[Seat]) -> Option<usize> {
        let has_person = seats.iter().any(|seat| !seat.is_bot());
        (0..self.ply())
            .rev()
            .find(|&ply| !has_person || !self.bot_to_move_after(seats, ply))
    }

    /// Takes back moves as [`Match::undo_target`] says.
    pub fn undo(&mut self, seats: &[Seat]) -> Result<(), String> {
        match self.undo_target(seats) {
            Some(target) => self.go_to(target),
            None => Err("there is no earlier move of yours to take back".to_string()),
        }
    }

    /// Whether a redo against a bot should go on: a bot has the turn and the line has more.
    pub fn redo_goes_on(&self, seats: &[Seat]) -> bool {
        seats.iter().any(|seat| !seat.is_bot())
            && self.is_looking_back()
            && self.bot_to_move_after(seats, self.ply())
    }

    /// The builder of the move being built.
    pub fn builder(&self) -> &G::Builder {
        &self.builder
    }

    /// The steps taken so far in the move being built.
    pub fn steps(&self) -> &[StepOf<G>] {
        &self.steps
    }

    /// The legal next steps of the move being built (none once the game is over).
    pub fn next_steps(&self) -> &[StepOf<G>] {
        &self.next_steps
    }

    /// Takes the next step numbered `index` in [`Match::next_steps`].
    pub fn choose(&mut self, index: usize) -> Result<(), String> {
        let step = self
            .next_steps
            .get(index)
            .cloned()
            .ok_or_else(|| format!("there is no choice {index}"))?;
        self.builder
            .push(&self.game, step.clone())
            .map_err(|e| e.to_string())?;
        self.steps.push(step);
        self.refresh_steps();
        Ok(())
    }

    /// Takes back the last step; false if there was none.
    pub fn take_back_step(&mut self) -> bool {
        let taken = self.builder.pop();
        if taken {
            self.steps.pop();
            self.refresh_steps();
        }
        taken
    }

    /// Drops the move being built.
    pub fn clear_steps(&mut self) {
        self.builder = self.game.builder();
        self.steps.clear();
        self.refresh_steps();
    }

    /// The move built so far, if it is a complete legal move.
    pub fn complete_move(&self) -> Option<G::Move> {
        self.builder.complete_move(&self.game)
    }

    /// Plays the move built so far, with its events.
    pub fn commit(&mut self) -> Result<Vec<G::Event>, String> {
        let mv = self.complete_move().ok_or("the move is not complete yet")?;
        self.play(&mv)
    }

    /// The status in words, with this game's player names.
    pub fn status_text(&self) -> String {
        self.game.describe_status(self.game.status())
    }

    pub fn status(&self) -> Status {
        self.game.status()
    }

    fn refresh_steps(&mut self) {
        self.next_steps = if self.game.status().is_over() {
            Vec::new()
        } else {
            self.builder.legal_steps(&self.game)
        };
    }

    fn changed(&mut self) {
        self.revision += 1;
        self.clear_steps();
    }

    /// The next move of the line, read in this position.
    fn next_move(&self) -> Result<G::Move, String> {
        let text = self
            .line
            .get(self.before.len())
            .ok_or("there is no move to replay")?;
        self.game.parse_move(text).map_err(|e| e.to_string())
    }

    /// Plays the next move of the line for a jump: checked, but with no move builder,
    /// which the jump's end sets up once.
    fn replay_quietly(&mut self) -> Result<(), String> {
        let mv = self.next_move()?;
        let before = self.game.clone();
        self.game.apply(&mv).map_err(|e| e.to_string())?;
        self.before.push(before);
        Ok(())
    }
}
