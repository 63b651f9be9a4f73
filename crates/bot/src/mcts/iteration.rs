//! One iteration of the search: down the tree by UCT (never into a proved loss while
//! something else is open), growing it a node at a time from each node's candidates, a
//! playout judged where it stops, and the rewards and the solver's proofs backed up.

use super::{MAX_NODES, Node, PLAYOUT_CAP, Search};
use crate::config::{MctsConfig, Playout, Policy};
use crate::knowledge::Knowledge;
use crate::learned::Weights;
use crate::outcome::{Proof, Rewards, even};
use crate::turns::won_by;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

impl<G: Knowledge> Search<G> {
    /// One iteration from the root; through `first`, a root child, when given.
    pub(super) fn iterate(&mut self, first: Option<u32>) {
        let mut path = std::mem::take(&mut self.path);
        let (mut position, decided) = self.descend(self.position.clone(), first, &mut path);
        let rewards = decided.unwrap_or_else(|| {
            playout(
                &self.config,
                self.weights.as_deref(),
                &mut position,
                &mut self.rng,
            )
        });
        self.back_up(&path, &rewards, position.num_players());
        self.path = path;
    }

    /// Plays the move into `child` and puts it on the path.
    fn enter(&self, child: u32, position: &mut G, path: &mut Vec<u32>) {
        let mv = self.nodes[child as usize]
            .mv
            .as_ref()
            .expect("a child has a move");
        position.play_unchecked(mv);
        path.push(child);
    }

    /// Selects and grows the tree from the root (through `first`, when given) into `path`,
    /// counting a visit at each node on it; plays `position`, a copy of the root's, down to
    /// the leaf and gives it with the leaf's rewards when the leaf is decided.
    pub(super) fn descend(
        &mut self,
        mut position: G,
        first: Option<u32>,
        path: &mut Vec<u32>,
    ) -> (G, Option<Rewards>) {
        path.clear();
        let mut node = self.root;
        path.push(node);
        if let Some(child) = first {
            self.enter(child, &mut position, path);
            node = child;
        }
        loop {
            if self.nodes[node as usize].proof.is_some() || position.status().is_over() {
                break;
            }
            if !self.nodes[node as usize].generated {
                self.generate(node, &position);
                if self.nodes[node as usize].proof.is_some() {
                    break;
                }
            }
            if self.nodes.len() < MAX_NODES
                && let Some(mv) = self.nodes[node as usize].untried.pop()
            {
                let mover = position.to_move();
                position.play_unchecked(&mv);
                let proof = self.proof_of(&position).filter(|_| self.config.solver);
                let child = self.nodes.len() as u32;
                self.nodes
                    .push(Node::new(Some(mv), mover, position.to_move(), proof));
                self.nodes[node as usize].children.push(child);
                path.push(child);
                // A reply that wins at once is found as soon as a root move is tried, so
                // a loss in one is avoided on the smallest budgets.
                if node == self.root
                    && self.config.solver
                    && self.nodes[child as usize].proof.is_none()
                {
                    self.generate(child, &position);
                }
                break;
            }
            let Some(child) = self.select(node) else {
                break;
            };
            self.enter(child, &mut position, path);
            node = child;
        }
        for &index in path.iter() {
            self.nodes[index as usize].visits += 1;
        }
        let leaf = &self.nodes[*path.last().expect("the path holds the root") as usize];
        let decided = leaf
            .proof
            .map(|proof| proof.rewards(position.num_players()));
        (position, decided)
    }

    /// Adds an iteration's rewards to the nodes on its path (their visits were counted on
    /// the way down) and proves what they decide.
    pub(super) fn back_up(&mut self, path: &[u32], rewards: &Rewards, players: usize) {
        for &index in path {
            let node = &mut self.nodes[index as usize];
            node.value += rewards[node.mover.index()];
        }
        if players > 2
            && let Some(&child) = path.get(1)
        {
            let (sum, count) = self.root_child_rewards.entry(child).or_default();
            for (total, reward) in sum.iter_mut().zip(rewards) {
                *total += reward;
            }
            *count += 1;
        }
        if self.config.solver {
            self.prove_upwards(path);
        }
    }

    /// Lists the moves a node will search, and takes a win in one if there is one.
    pub(super) fn generate(&mut self, index: u32, position: &G) {
        let knowledge = self.config.knowledge;
        let limit = self.config.max_moves;
        let candidates = if knowledge {
            position.candidates(&mut self.rng, limit)
        } else {
            crate::knowledge::sampled_moves(position, &mut self.rng, limit)
        };
        let (mut moves, complete) = match candidates {
            Some(mut moves) => {
                // Candidates come best first; children are taken from the end.
                moves.reverse();
                (moves, false)
            }
            None => {
                let mut moves: Vec<G::Move> = position.legal_moves().collect();
                moves.shuffle(&mut self.rng);
                (moves, true)
            }
        };
        let mover = position.to_move();
        // A root given its winning child by the walk before it was generated (a review's
        // study generates it): that child is neither listed again nor joined by another.
        let node = &self.nodes[index as usize];
        if !node.children.is_empty() {
            let nodes = &self.nodes;
            moves.retain(|mv| {
                !node
                    .children
                    .iter()
                    .any(|&child| nodes[child as usize].mv.as_ref() == Some(mv))
            });
        }
        if self.config.solver
            && node.proof != Some(Proof::Win(mover))
            && let Some(at) = moves.iter().position(|mv| {
                let mut next = position.clone();
                next.play_unchecked(mv);
                won_by(&next, mover)
            })
        {
            // The winning move becomes the node's only child: nothing else matters here.
            let winning = moves.swap_remove(at);
            let mut next = position.clone();
            next.play_unchecked(&winning);
            let child = self.nodes.len() as u32;
            let proof = Some(Proof::Win(mover));
            self.nodes
                .push(Node::new(Some(winning), mover, next.to_move(), proof));
            let node = &mut self.nodes[index as usize];
            node.children.push(child);
            node.proof = proof;
            moves.clear();
        }
        let node = &mut self.nodes[index as usize];
        node.untried = moves;
        node.generated = true;
        node.complete = complete;
    }

    /// UCT over the children, never into a proved loss while something else is open.
    fn select(&self, index: u32) -> Option<u32> {
        let node = &self.nodes[index as usize];
        let mover = node.to_move;
        let log_visits = (node.visits.max(1) as f64).ln();
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for &child in &node.children {
            let c = &self.nodes[child as usize];
            let score = match c.proof {
                Some(proof) if proof.rank_for(mover) == 2 => return Some(child),
                Some(proof) if proof.rank_for(mover) == 0 => -1.0,
                _ => {
                    c.mean()
                        + self.config.exploration * (log_visits / c.visits.max(1) as f64).sqrt()
                }
            };
            if score > best_score {
                best_score = score;
                best = Some(child);
            }
        }
        best
    }

    /// After a proof at the end of `path`, proves what follows for the nodes above it.
    fn prove_upwards(&mut self, path: &[u32]) {
        for &index in path.iter().rev().skip(1) {
            if self.nodes[index as usize].proof.is_some() {
                continue;
            }
            match self.proof_from_children(index) {
                Some(proof) => self.nodes[index as usize].proof = Some(proof),
                None => return,
            }
        }
    }

    /// A win for the seat to move if one child is, else the best of all the children's
    /// results when every legal move has a proved child.
    fn proof_from_children(&self, index: u32) -> Option<Proof> {
        let node = &self.nodes[index as usize];
        let mover = node.to_move;
        let mut all_proved = node.generated && node.complete && node.untried.is_empty();
        let mut best: Option<Proof> = None;
        for &child in &node.children {
            match self.nodes[child as usize].proof {
                Some(proof) if proof.rank_for(mover) == 2 => return Some(proof),
                Some(proof) => {
                    if best.is_none_or(|b| proof.rank_for(mover) > b.rank_for(mover)) {
                        best = Some(proof);
                    }
                }
                None => all_proved = false,
            }
        }
        if all_proved { best } else { None }
    }
}

/// Plays on from `position` by the config's playout and judges where it stops: by
/// `weights` when given, else by the game's hand-written evaluation.
pub(super) fn playout<G: Knowledge>(
    config: &MctsConfig,
    weights: Option<&Weights>,
    position: &mut G,
    rng: &mut SmallRng,
) -> Rewards {
    let knowledge = config.knowledge;
    let limit = match config.playout {
        Playout::End => None,
        Playout::Plies(n) => Some(n),
        Playout::Game if knowledge => match weights {
            Some(Weights {
                playout_plies: Some(plies),
                ..
            }) => Some((*plies).min(PLAYOUT_CAP)),
            _ => position.playout_plies(),
        },
        Playout::Game => None,
    }
    .unwrap_or(PLAYOUT_CAP);
    for _ in 0..limit {
        if position.status().is_over() {
            break;
        }
        let mv = if !knowledge {
            position.random_move(rng)
        } else if config.policy == Policy::Tactical {
            position.tactical_playout_move(rng)
        } else {
            position.playout_move(rng)
        };
        match mv {
            Some(mv) => position.play_unchecked(&mv),
            None => break,
        }
    }
    match Proof::of_status(position.status()) {
        Some(proof) => proof.rewards(position.num_players()),
        None if knowledge => match weights {
            Some(weights) => weights.chances(position),
            None => position.evaluate(),
        },
        None => even(position.num_players()),
    }
}
