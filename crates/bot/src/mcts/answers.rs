//! What the search has found: its move (or one by a temperature), the root moves' stats,
//! the line it expects, and each seat's chance.

use super::temperature::pick_by_temperature;
use super::{MoveStats, Search};
use crate::knowledge::Knowledge;
use crate::outcome::{MAX_PLAYERS, Proof, Rewards, even};

impl<G: Knowledge> Search<G> {
    /// Every root move searched so far, most visited first.
    pub fn root_moves(&self) -> Vec<MoveStats<G::Move>> {
        let mut moves: Vec<MoveStats<G::Move>> = self.nodes[self.root as usize]
            .children
            .iter()
            .map(|&child| {
                let c = &self.nodes[child as usize];
                MoveStats {
                    mv: c.mv.clone().expect("a child has a move"),
                    visits: c.visits,
                    value: c.mean(),
                    proof: c.proof,
                }
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.visits));
        moves
    }

    /// The move to play: a proved win, else the most visited move not proved lost (the most
    /// visited of all when every move loses). `None` only when the game is over.
    pub fn best_move(&mut self) -> Option<G::Move> {
        self.chosen_move(false)
    }

    /// The move a bot plays: [`Search::best_move`], or with a temperature one of the
    /// searched moves not proved lost, drawn by [`pick_by_temperature`]. Hints and reviews
    /// judge by `best_move`: a temperature weakens how a bot plays, not what it finds.
    pub fn move_to_play(&mut self) -> Option<G::Move> {
        self.chosen_move(self.config.temperature > 0.0)
    }

    fn chosen_move(&mut self, by_temperature: bool) -> Option<G::Move> {
        if self.position.status().is_over() {
            return None;
        }
        self.take_win_in_one_turn();
        if self.nodes[self.root as usize].children.is_empty() {
            self.step(1);
        }
        let mover = self.position.to_move();
        let moves = self.root_moves();
        if let Some(win) = moves.iter().find(|s| s.proof == Some(Proof::Win(mover))) {
            return Some(win.mv.clone());
        }
        let not_lost: Vec<&MoveStats<G::Move>> = moves
            .iter()
            .filter(|s| s.proof.is_none_or(|p| p.rank_for(mover) > 0))
            .collect();
        if by_temperature && not_lost.len() > 1 {
            let temperature = self.config.temperature;
            if let Some(pick) = pick_by_temperature(&not_lost, temperature, &mut self.rng) {
                return Some(pick.mv.clone());
            }
        }
        not_lost
            .first()
            .copied()
            .or(moves.first())
            .map(|s| s.mv.clone())
            .or_else(|| self.position.random_move(&mut self.rng))
    }

    /// The line the search expects: its own move (a proved win first, as `best_move`),
    /// then at each node the reply it searched most (a proved win for the seat to move
    /// first) while that reply has been visited at least `min_visits` times; `max` moves at
    /// most.
    pub fn principal_line(&self, max: usize, min_visits: u32) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mover = self.position.to_move();
        let root = &self.nodes[self.root as usize];
        let proved_win = root
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c as usize].proof == Some(Proof::Win(mover)));
        let mut at = proved_win.or_else(|| self.chosen_root_child());
        while let Some(node) = at.map(|n| &self.nodes[n as usize]) {
            let enough = line.is_empty() || node.visits >= min_visits;
            if line.len() >= max || !enough {
                break;
            }
            line.push(node.mv.clone().expect("a child has a move"));
            let mover = node.to_move;
            let children = &node.children;
            let proved_win = children
                .iter()
                .copied()
                .find(|&c| self.nodes[c as usize].proof == Some(Proof::Win(mover)));
            at = proved_win.or_else(|| {
                children
                    .iter()
                    .copied()
                    .max_by_key(|&c| self.nodes[c as usize].visits)
            });
        }
        line
    }

    /// The root's result when it is proved or the game is over there (without the solver a
    /// kept tree's root is never proved, even at the end of the game).
    fn settled(&self) -> Option<Proof> {
        self.root_proof()
            .or_else(|| Proof::of_status(self.position.status()))
    }

    /// The root child the search thinks best: the most visited not proved lost (the most
    /// visited of all when every move loses).
    fn chosen_root_child(&self) -> Option<u32> {
        let mover = self.position.to_move();
        let children = &self.nodes[self.root as usize].children;
        // The first of equals, as root_moves' stable sort lists them.
        let most_visited = |wanted: &dyn Fn(u32) -> bool| {
            let mut best: Option<u32> = None;
            for &child in children {
                let visits = self.nodes[child as usize].visits;
                if wanted(child) && best.is_none_or(|b| visits > self.nodes[b as usize].visits) {
                    best = Some(child);
                }
            }
            best
        };
        most_visited(&|child| {
            self.nodes[child as usize]
                .proof
                .is_none_or(|p| p.rank_for(mover) > 0)
        })
        .or_else(|| most_visited(&|_| true))
    }

    /// The chance the seat to move wins from here (draws half), as the search sees it.
    pub fn root_value(&self) -> f64 {
        let mover = self.position.to_move();
        if let Some(proof) = self.settled() {
            return proof.rewards(self.position.num_players())[mover.index()];
        }
        self.chosen_root_child()
            .map_or(0.5, |child| self.nodes[child as usize].mean())
    }

    /// Every seat's chance of winning from here (draws shared), as the search sees it: the
    /// proved result, else what the search found after the move it would play.
    pub fn root_chances(&self) -> Rewards {
        let players = self.position.num_players();
        if let Some(proof) = self.settled() {
            return proof.rewards(players);
        }
        match self.chosen_root_child() {
            Some(child) => self.child_chances(child),
            None => even(players),
        }
    }

    /// The visits behind the chances of the move the search would play (see `study`).
    pub fn chosen_visits(&self) -> u32 {
        self.chosen_root_child()
            .map_or(0, |child| self.counted_visits(child))
    }

    /// The visits a root child's chances come from: three seats' come from the iterations
    /// since the root was set (a kept tree's visits carry only the mover's reward).
    pub(super) fn counted_visits(&self, child: u32) -> u32 {
        if self.position.num_players() == 2 {
            return self.nodes[child as usize].visits;
        }
        self.root_child_rewards
            .get(&child)
            .map_or(0, |&(_, count)| count)
    }

    /// Every seat's chance after the root child `child`, as the search sees it.
    pub(super) fn child_chances(&self, child: u32) -> Rewards {
        let players = self.position.num_players();
        let node = &self.nodes[child as usize];
        if let Some(proof) = node.proof {
            return proof.rewards(players);
        }
        let mover = node.mover.index();
        let mut chances = [0.0; MAX_PLAYERS];
        match self.root_child_rewards.get(&child) {
            Some((sum, count)) if players > 2 && *count > 0 => {
                for (chance, total) in chances.iter_mut().zip(sum) {
                    *chance = total / *count as f64;
                }
            }
            // Two seats share what the mover does not win; three without a count of their
            // own (a tree kept from an earlier move) share it evenly.
            _ => {
                let others = (players - 1).max(1) as f64;
                for (seat, chance) in chances.iter_mut().enumerate().take(players) {
                    *chance = if seat == mover {
                        node.mean()
                    } else {
                        (1.0 - node.mean()) / others
                    };
                }
            }
        }
        chances
    }
}
