//! Monte Carlo tree search over any [`Game`], with an MCTS-Solver for decided positions,
//! tree reuse between moves, seeded randomness and an incremental `step` API.
//!
//! Nodes store no positions: each iteration replays the moves from the root. A node's
//! value is the sum of the rewards of the seat that made the move into it, so seats that
//! move twice in a row (Absorption's phases) and three-player games need no special case.
//!
//! Here: the tree, kept between moves, and the runs of iterations. One iteration is in
//! [`iteration`] ([`threads`] runs them on several threads), what the search found in
//! [`answers`], a review's study of the move played in [`study`].

use crate::config::{Budget, Evaluation, MctsConfig};
use crate::knowledge::Knowledge;
use crate::learned::Weights;
use crate::outcome::{Proof, Rewards};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::HashMap;
use std::sync::Arc;
use tabula_rules::Player;
use web_time::Instant;

mod answers;
mod iteration;
mod study;
mod temperature;
mod threads;
mod win_walk;

/// Playouts without an evaluation stop here and count as even (random Adomoc games can
/// last 10,000 plies).
pub(crate) const PLAYOUT_CAP: u32 = 20_000;
/// The tree stops growing at this many nodes; iterations go on with playouts from leaves.
const MAX_NODES: usize = 3_000_000;

struct Node<M> {
    mv: Option<M>,
    /// The seat that played `mv`: the node's value is its rewards.
    mover: Player,
    /// The seat to move here.
    to_move: Player,
    visits: u32,
    value: f64,
    children: Vec<u32>,
    /// Generated moves not yet given a child, taken from the end.
    untried: Vec<M>,
    /// Whether the moves have been generated.
    generated: bool,
    /// Whether the generated moves are all the legal moves (needed to prove a loss).
    complete: bool,
    proof: Option<Proof>,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Player, to_move: Player, proof: Option<Proof>) -> Node<M> {
        Node {
            mv,
            mover,
            to_move,
            visits: 0,
            value: 0.0,
            children: Vec::new(),
            untried: Vec::new(),
            generated: false,
            complete: false,
            proof,
        }
    }

    fn mean(&self) -> f64 {
        self.value / self.visits.max(1) as f64
    }
}

/// What the search thinks of one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u32,
    /// The mover's mean reward: its chance of winning, with draws counting half.
    pub value: f64,
    pub proof: Option<Proof>,
}

/// A search from one position, kept between moves.
pub struct Search<G: Knowledge> {
    config: MctsConfig,
    position: G,
    nodes: Vec<Node<G::Move>>,
    root: u32,
    rng: SmallRng,
    /// Iterations run since the root was last set.
    iterations: u64,
    path: Vec<u32>,
    /// For three seats, every seat's rewards summed over the iterations through each root
    /// child since the root was set, and their count: a node keeps only its mover's, which
    /// says the other two seats' chances only together.
    root_child_rewards: HashMap<u32, (Rewards, u32)>,
    /// Threads the iterations run on, sharing this tree (see `run`).
    threads: usize,
    /// The learned weights a stopped playout is judged by; `None`: the hand-written
    /// evaluation.
    weights: Option<Arc<Weights>>,
    /// Whether the current root's whole turns have been walked for a win in one
    /// (`take_win_in_one_turn`): done when the root is first searched or asked for its
    /// move, not when it is set, so the opponent's roots a bot passes through are not
    /// walked and a budget of time counts the walk.
    root_walked: bool,
}

/// The most threads one search runs on: past the cores a machine has, more only wait for
/// the tree's lock.
pub const MAX_THREADS: usize = 64;

/// The threads a search asked for `threads` runs on: 1 to [`MAX_THREADS`], and one on the
/// web, whose search worker is one thread.
pub fn usable_threads(threads: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        threads.clamp(1, MAX_THREADS)
    }
}

impl<G: Knowledge> Search<G> {
    pub fn new(position: G, config: MctsConfig, seed: u64) -> Search<G> {
        let mut search = Search {
            nodes: Vec::new(),
            root: 0,
            rng: SmallRng::seed_from_u64(seed),
            iterations: 0,
            path: Vec::new(),
            root_child_rewards: HashMap::new(),
            threads: 1,
            // Weights fitted to two-player games do not judge three-player ones.
            weights: match config.evaluation {
                Evaluation::Learned => {
                    G::shipped_weights().filter(|weights| weights.players == position.num_players())
                }
                Evaluation::Hand => None,
            },
            config,
            position,
            root_walked: false,
        };
        search.reset_tree();
        search
    }

    pub fn position(&self) -> &G {
        &self.position
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Runs the iterations of `step`, `think` and `study` on `threads` threads (1 to
    /// [`MAX_THREADS`]) that share the tree. One thread gives the same search for the
    /// same seed every time; more do not, as the threads' order varies. The web has one.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = usable_threads(threads);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The learned weights stopped playouts are judged by, if any.
    pub fn weights(&self) -> Option<&Weights> {
        self.weights.as_deref()
    }

    /// Judges stopped playouts by these weights instead (`None`: the hand-written
    /// evaluation): the trainer's matches between evaluations not yet shipped.
    pub fn set_weights(&mut self, weights: Option<Arc<Weights>>) {
        self.weights = weights;
    }

    /// Iterations run from the current root.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The nodes in the tree (including those kept from earlier moves).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    fn reset_tree(&mut self) {
        self.nodes.clear();
        let to_move = self.position.to_move();
        let proof = self.proof_of(&self.position);
        self.nodes.push(Node::new(None, to_move, to_move, proof));
        self.root = 0;
        self.iterations = 0;
        self.root_child_rewards.clear();
        self.root_walked = false;
    }

    fn proof_of(&self, position: &G) -> Option<Proof> {
        Proof::of_status(position.status())
    }

    /// Starts again from `position`, keeping the part of the tree that leads there when it
    /// is the current root or one move after it.
    pub fn set_position(&mut self, position: &G) {
        if position.hash() == self.position.hash() && position.ply() == self.position.ply() {
            self.position = position.clone();
            return;
        }
        let reached = self.nodes[self.root as usize]
            .children
            .iter()
            .copied()
            .find(|&child| {
                let mv = self.nodes[child as usize].mv.as_ref();
                mv.is_some_and(|mv| {
                    let mut next = self.position.clone();
                    next.play_unchecked(mv);
                    next.hash() == position.hash() && next.ply() == position.ply()
                })
            });
        self.position = position.clone();
        match reached {
            Some(child) => self.keep_subtree(child),
            None => self.reset_tree(),
        }
    }

    /// Plays `mv` (legal here) at the root, keeping its subtree.
    pub fn advance(&mut self, mv: &G::Move) {
        let reached = self.root_child(mv);
        self.position.play_unchecked(mv);
        match reached {
            Some(child) => self.keep_subtree(child),
            None => self.reset_tree(),
        }
    }

    /// The root child for `mv`, if the tree has one.
    fn root_child(&self, mv: &G::Move) -> Option<u32> {
        self.nodes[self.root as usize]
            .children
            .iter()
            .copied()
            .find(|&child| self.nodes[child as usize].mv.as_ref() == Some(mv))
    }

    /// Copies the subtree under `new_root` into a fresh arena, dropping the rest.
    fn keep_subtree(&mut self, new_root: u32) {
        let mut old = std::mem::take(&mut self.nodes);
        let mut kept: Vec<Node<G::Move>> = Vec::new();
        let mut queue = vec![new_root];
        let mut head = 0;
        // Breadth first: a node's new index is its place in the queue.
        while head < queue.len() {
            let index = queue[head] as usize;
            head += 1;
            let first_child = queue.len() as u32;
            let node = &mut old[index];
            let children = std::mem::take(&mut node.children);
            queue.extend(&children);
            let mut copy = Node::new(node.mv.take(), node.mover, node.to_move, node.proof);
            copy.visits = node.visits;
            copy.value = node.value;
            copy.untried = std::mem::take(&mut node.untried);
            copy.generated = node.generated;
            copy.complete = node.complete;
            copy.children = (first_child..first_child + children.len() as u32).collect();
            kept.push(copy);
        }
        self.nodes = kept;
        self.root = 0;
        self.iterations = 0;
        self.root_child_rewards.clear();
        self.root_walked = false;
    }

    /// Runs up to `n` iterations and returns how many ran: fewer when the root is proved
    /// or the game is over. Cheap to call in slices (once per frame on the web).
    pub fn step(&mut self, n: u64) -> u64 {
        self.run(None, &|done| done < n)
    }

    /// Thinks until the budget is spent or the root is proved, on the budget's threads if
    /// it names them. The clock is read before every iteration: one plain-UCT playout of
    /// Adomoc can take 20 ms.
    pub fn think(&mut self, budget: Budget) {
        if budget.threads.is_some() {
            self.set_threads(budget.thread_count());
        }
        let start = Instant::now();
        self.run(None, &|done| !budget.spent(done, start.elapsed()));
    }

    /// Runs iterations (through the root child `first`, when given) while `more(started)`
    /// allows and the root (or `first`, when given) is not proved; returns how many ran,
    /// on the search's threads (`threads.rs`).
    pub(crate) fn run(&mut self, first: Option<u32>, more: &(dyn Fn(u64) -> bool + Sync)) -> u64 {
        self.take_win_in_one_turn();
        if self.threads > 1 {
            return self.run_on_threads(first, more);
        }
        let mut started = 0;
        while self.open(first) && more(started) {
            self.iterate(first);
            started += 1;
        }
        self.iterations += started;
        started
    }

    /// Whether iterations through `first` (else the root) can still learn anything. Through
    /// a root child only its proof ends them: a root proved by another move (a win the
    /// player missed) still has the move played to judge.
    fn open(&self, first: Option<u32>) -> bool {
        let through = first.unwrap_or(self.root);
        self.nodes[through as usize].proof.is_none()
    }

    /// Whether the root position is decided, and how.
    pub fn root_proof(&self) -> Option<Proof> {
        self.nodes[self.root as usize].proof
    }
}

#[cfg(test)]
mod tests;
