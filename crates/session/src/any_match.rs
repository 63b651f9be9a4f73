//! [`AnyMatch`]: a match of whichever game, in text, for code that does not care which
//! game it holds (records, the terminal's commands, the server).

use crate::{GameKind, Match, MoveTree, NodeId, Seat, Thinker, Variation, thinker_for, with_game};
use std::any::Any;
use tabula_bot::{BotSpec, Knowledge};
use tabula_rules::{Game, Player, Status};

/// A match of any game. Moves and events are text; [`AnyMatch::into_any`] gives the
/// concrete [`Match`] back to a front end that knows the game.
pub trait AnyMatch: Send + Sync + Any {
    fn kind(&self) -> GameKind;
    fn num_players(&self) -> usize;
    /// How the rules name a seat (Adamas: O, X, Y); one the game lacks by its number.
    fn player_name(&self, seat: usize) -> String;
    fn to_move(&self) -> usize;
    fn status(&self) -> Status;
    fn status_text(&self) -> String;
    fn record(&self) -> &[String];
    fn line(&self) -> &[String];
    fn revision(&self) -> u64;
    fn to_move_after(&self, ply: usize) -> Option<usize>;
    /// Whether moves were taken back and wait to be replayed (someone looks back).
    fn is_looking_back(&self) -> bool;
    /// Whether a bot in `seats` is to move now, in a game that goes on.
    fn bot_to_move(&self, seats: &[Seat]) -> bool;
    /// Where an undo goes with these seats (against a bot, back to the person's turn).
    fn undo_target(&self, seats: &[Seat]) -> Option<usize>;
    /// Whether a redo against a bot goes on replaying (a bot has the turn, the line has more).
    fn redo_goes_on(&self, seats: &[Seat]) -> bool;
    /// Plays a move in notation; its events in words.
    fn play_notation(&mut self, text: &str) -> Result<Vec<String>, String>;
    /// Plays the next move of the line again; its events in words.
    fn redo(&mut self) -> Result<Vec<String>, String>;
    fn go_to(&mut self, ply: usize) -> Result<(), String>;
    fn discard_later_moves(&mut self);
    /// The options that differ from the game's defaults, as `key=value` text.
    fn settings(&self) -> Vec<(String, String)>;
    fn start_position(&self) -> Option<String>;
    /// Splits a list of moves in this game's notation into one text per move.
    fn split_moves(&self, text: &str) -> Vec<String>;
    /// The moves played, as a list that [`AnyMatch::split_moves`] reads back.
    fn move_list(&self) -> String;
    fn position_string(&self) -> String;
    /// The board as text, for a terminal.
    fn ascii(&self) -> String;
    /// The first `limit` legal moves in notation, and how many there are in words (some
    /// positions have too many to count in a `u64`).
    fn legal_moves(&self, limit: usize) -> (Vec<String>, String);
    /// The position string after one more move, which is not played.
    fn position_after(&self, text: &str) -> Result<String, String>;
    /// A bot's search from this position.
    fn thinker(&self, spec: &BotSpec, seed: u64) -> Box<dyn Thinker> {
        self.thinker_from(spec, seed, None)
    }
    /// A bot's search from this position that goes on with `kept`'s tree, when `kept`
    /// searched this game from here or from one move before.
    fn thinker_from(
        &self,
        spec: &BotSpec,
        seed: u64,
        kept: Option<Box<dyn Thinker>>,
    ) -> Box<dyn Thinker>;
    /// A copy of the whole match, line and all.
    fn boxed_clone(&self) -> Box<dyn AnyMatch>;
    /// Every move kept: the main line (the game) and its variations.
    fn tree(&self) -> &MoveTree;
    /// The tree's node of each move of the line.
    fn path(&self) -> &[NodeId];
    /// The tree's node of the position now.
    fn node(&self) -> NodeId;
    /// Whether a move that leaves the line starts a variation (an analysis board).
    fn is_exploring(&self) -> bool;
    fn set_exploring(&mut self, exploring: bool);
    /// Whether the line shown is the main line.
    fn on_main_line(&self) -> bool;
    /// Goes to the position after `node`, along the line through it.
    fn go_to_node(&mut self, node: NodeId) -> Result<(), String>;
    /// Leaves the variation the position is in, for where it left its line.
    fn return_from_variation(&mut self) -> Result<(), String>;
    /// Makes the variation holding `node` the line it left; false on the main line.
    fn promote(&mut self, node: NodeId) -> bool;
    /// Deletes a variation from `node` on; never the main line.
    fn delete_variation(&mut self, node: NodeId) -> Result<(), String>;
    fn main_line(&self) -> Vec<String>;
    fn variations(&self) -> Vec<Variation>;
    /// The position's ply on the main line, or where its variation leaves the main line.
    fn main_line_ply(&self) -> usize;
    /// The main line's result in words, when it ends the game.
    fn main_line_result(&self) -> Option<String>;
    /// Adds a record's variations, checked by the rules; the position goes to the end of
    /// the main line.
    fn add_variations(&mut self, variations: &[Variation]) -> Result<(), String>;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<G: Knowledge> AnyMatch for Match<G> {
    fn kind(&self) -> GameKind {
        GameKind::from_key(G::NAME).expect("every rules game is listed in GameKind")
    }

    fn num_players(&self) -> usize {
        self.game().num_players()
    }

    fn player_name(&self, seat: usize) -> String {
        if seat >= self.num_players() {
            // A seat from a peer that is wrong is named, not a reason to stop.
            return format!("seat {}", seat.saturating_add(1));
        }
        self.game().player_name(Player(seat as u8))
    }

    fn to_move(&self) -> usize {
        self.game().to_move().index()
    }

    fn status(&self) -> Status {
        Match::status(self)
    }

    fn status_text(&self) -> String {
        Match::status_text(self)
    }

    fn record(&self) -> &[String] {
        Match::record(self)
    }

    fn line(&self) -> &[String] {
        Match::line(self)
    }

    fn revision(&self) -> u64 {
        Match::revision(self)
    }

    fn to_move_after(&self, ply: usize) -> Option<usize> {
        Match::to_move_after(self, ply)
    }

    fn is_looking_back(&self) -> bool {
        Match::is_looking_back(self)
    }

    fn bot_to_move(&self, seats: &[Seat]) -> bool {
        Match::bot_to_move(self, seats)
    }

    fn undo_target(&self, seats: &[Seat]) -> Option<usize> {
        Match::undo_target(self, seats)
    }

    fn redo_goes_on(&self, seats: &[Seat]) -> bool {
        Match::redo_goes_on(self, seats)
    }

    fn play_notation(&mut self, text: &str) -> Result<Vec<String>, String> {
        let events = Match::play_notation(self, text)?;
        Ok(self.described(&events))
    }

    fn redo(&mut self) -> Result<Vec<String>, String> {
        let events = Match::redo(self)?;
        Ok(self.described(&events))
    }

    fn go_to(&mut self, ply: usize) -> Result<(), String> {
        Match::go_to(self, ply)
    }

    fn discard_later_moves(&mut self) {
        Match::discard_later_moves(self)
    }

    fn settings(&self) -> Vec<(String, String)> {
        Match::settings(self)
    }

    fn start_position(&self) -> Option<String> {
        Match::start_position(self)
    }

    fn split_moves(&self, text: &str) -> Vec<String> {
        G::split_moves(text)
    }

    fn move_list(&self) -> String {
        G::join_moves(Match::record(self))
    }

    fn position_string(&self) -> String {
        self.game().position_string()
    }

    fn ascii(&self) -> String {
        self.game().ascii()
    }

    fn legal_moves(&self, limit: usize) -> (Vec<String>, String) {
        let game = self.game();
        let listed = game
            .legal_moves()
            .take(limit)
            .map(|mv| game.format_move(&mv))
            .collect();
        (listed, tabula_rules::shown_move_count(game))
    }

    fn position_after(&self, text: &str) -> Result<String, String> {
        let mut after = self.game().clone();
        let mv = after.parse_move(text).map_err(|e| e.to_string())?;
        after.apply(&mv).map_err(|e| e.to_string())?;
        Ok(after.position_string())
    }

    fn thinker_from(
        &self,
        spec: &BotSpec,
        seed: u64,
        kept: Option<Box<dyn Thinker>>,
    ) -> Box<dyn Thinker> {
        thinker_for(self.game(), spec, seed, kept)
    }

    fn boxed_clone(&self) -> Box<dyn AnyMatch> {
        Box::new(self.clone())
    }

    fn tree(&self) -> &MoveTree {
        Match::tree(self)
    }

    fn path(&self) -> &[NodeId] {
        Match::path(self)
    }

    fn node(&self) -> NodeId {
        Match::node(self)
    }

    fn is_exploring(&self) -> bool {
        Match::is_exploring(self)
    }

    fn set_exploring(&mut self, exploring: bool) {
        Match::set_exploring(self, exploring)
    }

    fn on_main_line(&self) -> bool {
        Match::on_main_line(self)
    }

    fn go_to_node(&mut self, node: NodeId) -> Result<(), String> {
        Match::go_to_node(self, node)
    }

    fn return_from_variation(&mut self) -> Result<(), String> {
        Match::return_from_variation(self)
    }

    fn promote(&mut self, node: NodeId) -> bool {
        Match::promote(self, node)
    }

    fn delete_variation(&mut self, node: NodeId) -> Result<(), String> {
        Match::delete_variation(self, node)
    }

    fn main_line(&self) -> Vec<String> {
        Match::main_line(self)
    }

    fn variations(&self) -> Vec<Variation> {
        Match::variations(self)
    }

    fn main_line_ply(&self) -> usize {
        Match::main_line_ply(self)
    }

    fn main_line_result(&self) -> Option<String> {
        Match::main_line_result(self)
    }

    fn add_variations(&mut self, variations: &[Variation]) -> Result<(), String> {
        Match::add_variations(self, variations)
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

impl<G: Game> Match<G> {
    /// The last move's events in words, named from the position before it.
    fn described(&self, events: &[G::Event]) -> Vec<String> {
        let before = self.before_last_move().unwrap_or(self.game());
        events.iter().map(|e| before.describe_event(e)).collect()
    }
}

/// A new game of `kind` with `key=value` settings over its defaults.
pub fn new_match(
    kind: GameKind,
    settings: &[(String, String)],
) -> Result<Box<dyn AnyMatch>, String> {
    with_game!(kind, G => Ok(Box::new(Match::<G>::start(settings)?)))
}

/// A game of `kind` set up from a position string, with `key=value` settings.
pub fn match_at(
    kind: GameKind,
    settings: &[(String, String)],
    position: &str,
) -> Result<Box<dyn AnyMatch>, String> {
    with_game!(kind, G => Ok(Box::new(Match::<G>::set_up(settings, position)?)))
}
