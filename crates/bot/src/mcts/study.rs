//! A move searched on however little the search chose it, to as many visits as its own
//! move: how a review judges the move played.

use super::{MAX_NODES, Node, Search};
use crate::knowledge::Knowledge;
use crate::outcome::Rewards;

impl<G: Knowledge> Search<G> {
    /// Searches `mv`, a legal move here, until it has `visits` visits or is proved, with at
    /// most `iterations` more iterations, however little the search chose it; then gives
    /// each seat's chance after it, and whether it has been searched enough. A review
    /// compares the move played with the search's own choice this way, at as many visits
    /// (`chosen_visits`): both are judged by one search, so its lean to the seat to move
    /// cancels out, and a move's mean falls as its replies are searched better, so equal
    /// visits are a fair comparison.
    /// None when it cannot be searched: the game is over or the tree is full.
    pub fn study(&mut self, mv: &G::Move, visits: u32, iterations: u64) -> Option<(Rewards, bool)> {
        let child = self.root_child_for(mv)?;
        let enough = |search: &Self| {
            search.nodes[child as usize].proof.is_some()
                || search.counted_visits(child) >= visits.max(1)
        };
        if !enough(self) {
            // Visits counted on the way down are enough too: a thread stops once the
            // iterations under way will bring the move its visits.
            let needed = u64::from(visits.max(1) - self.counted_visits(child));
            self.run(Some(child), &|started| started < iterations.min(needed));
        }
        Some((self.child_chances(child), enough(self)))
    }

    /// The root child for `mv`, made if the search has not tried it (or never would: it
    /// may not be among the candidates). None once the game is over or the tree is full.
    fn root_child_for(&mut self, mv: &G::Move) -> Option<u32> {
        if self.position.status().is_over() {
            return None;
        }
        self.take_win_in_one_turn();
        let root = self.root as usize;
        if !self.nodes[root].generated {
            let position = self.position.clone();
            self.generate(self.root, &position);
        }
        let tried = self.root_child(mv);
        if tried.is_some() {
            return tried;
        }
        if self.nodes.len() >= MAX_NODES {
            return None;
        }
        let (child, next) = self.add_root_child(mv);
        if self.config.solver && self.nodes[child as usize].proof.is_none() {
            // As for any root move: an opponent's win in one after it is found at once.
            self.generate(child, &next);
        }
        Some(child)
    }

    /// Adds a root child for `mv` (legal here, not yet a child), taken out of the moves
    /// still untried and proved when it ends the game; gives it and its position.
    pub(super) fn add_root_child(&mut self, mv: &G::Move) -> (u32, G) {
        let root = self.root as usize;
        let untried = &mut self.nodes[root].untried;
        if let Some(at) = untried.iter().position(|m| m == mv) {
            // In place: the untried moves are taken from the end, best candidates last.
            untried.remove(at);
        }
        let mover = self.position.to_move();
        let mut next = self.position.clone();
        next.play_unchecked(mv);
        let proof = self.proof_of(&next).filter(|_| self.config.solver);
        let child = self.nodes.len() as u32;
        self.nodes
            .push(Node::new(Some(mv.clone()), mover, next.to_move(), proof));
        self.nodes[root].children.push(child);
        (child, next)
    }
}
