//! A win in one whole turn, found at the root by walking every turn of the side to move
//! (docs/decisions.md, "A win in one whole turn, at the root").

use super::Search;
use crate::knowledge::Knowledge;
use crate::outcome::Proof;
use crate::turns::{WIN_WALK_WORK, Work, winning_turn};

impl<G: Knowledge> Search<G> {
    /// Finds a win in one whole turn at the root by walking all the mover's turns, and
    /// makes its first move a root child proved won, which the search then plays. The tree
    /// alone misses such wins where a game searches a sample of its moves (Adamas'
    /// candidates) or a turn is several moves (Absorption's), as the tactics test showed.
    pub(super) fn take_win_in_one_turn(&mut self) {
        if std::mem::replace(&mut self.root_walked, true)
            || !self.config.solver
            || self.position.status().is_over()
        {
            return;
        }
        let mover = self.position.to_move();
        let root = self.root as usize;
        let won = Some(Proof::Win(mover));
        let root_proof = self.nodes[root].proof;
        if root_proof.is_some_and(|proof| proof != Proof::Win(mover))
            || self.nodes[root]
                .children
                .iter()
                .any(|&child| self.nodes[child as usize].proof == won)
        {
            return;
        }
        let first = winning_turn(&self.position, &mut Work(WIN_WALK_WORK))
            .and_then(|turn| turn.moves.into_iter().next());
        let Some(first) = first else {
            // A root proved won with no child proved won (the rest of a turn whose win the
            // walk no longer finds within its work) is searched again rather than played
            // by a child that may not win.
            if root_proof == won {
                self.nodes[root].proof = None;
            }
            return;
        };
        let child = match self.root_child(&first) {
            Some(child) => child,
            None => self.add_root_child(&first).0,
        };
        // Its own turn goes on after a first move of several: the win is still forced.
        self.nodes[child as usize].proof = won;
        self.nodes[root].proof = won;
    }
}
