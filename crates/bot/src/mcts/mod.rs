//! Monte Carlo tree search over any [`Game`], with an MCTS-Solver for decided positions,
//! tree reuse between moves, seeded randomness and an incremental `step` API.
//!
//! Nodes store no positions: each iteration replays the moves from the root. A node's
//! value is the sum of the rewards of the seat that made the move into it, so seats that
//! move twice in a row (Absorption's phases) and three-player games need no special case.

use crate::config::{Budget, Evaluation, MctsConfig, Playout};
use crate::knowledge::Knowledge;
use crate::learned::Weights;
use crate::outcome::{MAX_PLAYERS, Proof, Rewards, even};
use crate::turns::won_by;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use std::collections::HashMap;
use std::sync::Arc;
use tabula_rules::Player;
use web_time::Instant;

mod temperature;
mod threads;
mod win_walk;

use temperature::pick_by_temperature;

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
        self.threads = if cfg!(target_arch = "wasm32") {
            1
        } else {
            threads.clamp(1, MAX_THREADS)
        };
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

    /// One iteration from the root; through `first`, a root child, when given.
    fn iterate(&mut self, first: Option<u32>) {
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
    fn descend(
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
    fn back_up(&mut self, path: &[u32], rewards: &Rewards, players: usize) {
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
    fn generate(&mut self, index: u32, position: &G) {
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

    /// The visits behind the chances of the move the search would play (see `study`).
    pub fn chosen_visits(&self) -> u32 {
        self.chosen_root_child()
            .map_or(0, |child| self.counted_visits(child))
    }

    /// The visits a root child's chances come from: three seats' come from the iterations
    /// since the root was set (a kept tree's visits carry only the mover's reward).
    fn counted_visits(&self, child: u32) -> u32 {
        if self.position.num_players() == 2 {
            return self.nodes[child as usize].visits;
        }
        self.root_child_rewards
            .get(&child)
            .map_or(0, |&(_, count)| count)
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

    /// The root child for `mv`, if the tree has one.
    fn root_child(&self, mv: &G::Move) -> Option<u32> {
        self.nodes[self.root as usize]
            .children
            .iter()
            .copied()
            .find(|&child| self.nodes[child as usize].mv.as_ref() == Some(mv))
    }

    /// Adds a root child for `mv` (legal here, not yet a child), taken out of the moves
    /// still untried and proved when it ends the game; gives it and its position.
    fn add_root_child(&mut self, mv: &G::Move) -> (u32, G) {
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

    /// Every seat's chance after the root child `child`, as the search sees it.
    fn child_chances(&self, child: u32) -> Rewards {
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

/// Plays on from `position` by the config's playout and judges where it stops: by
/// `weights` when given, else by the game's hand-written evaluation.
fn playout<G: Knowledge>(
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
        let mv = if knowledge {
            position.playout_move(rng)
        } else {
            position.random_move(rng)
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

#[cfg(test)]
mod tests;
