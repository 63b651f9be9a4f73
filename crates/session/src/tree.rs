//! [`MoveTree`]: a game's moves with their side lines, as text. It knows nothing of the
//! rules: [`crate::Match`] checks every move before it goes in.
//!
//! Each node is a move; its first child continues its line and any later child begins a
//! variation there. The main line is the chain of first children from the start.

use serde::{Deserialize, Serialize};

/// A move of the tree. The start (no move) is [`MoveTree::START`].
pub type NodeId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    text: String,
    parent: NodeId,
    children: Vec<NodeId>,
}

/// The moves of a game and its side lines. Ids stay valid while their node is in the tree;
/// a deleted node's slot is never reused, so a stale id finds nothing rather than
/// another move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTree {
    nodes: Vec<Node>,
    /// Whether each node is still in the tree.
    alive: Vec<bool>,
}

/// A side line as a record keeps it: `moves` played instead of the move numbered
/// `ply + 1` (`ply` moves from the game's start) of the line it leaves, `of`: 0 for the
/// main line, N for the Nth side line before it in the record. A flat list, however deep
/// side lines nest: a nested form would soon pass what a RON reader allows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variation {
    #[serde(default)]
    pub of: usize,
    pub ply: usize,
    pub moves: Vec<String>,
}

/// One move as a move list shows the tree: in reading order, each variation right after
/// the move it is played instead of, one step further in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeRow {
    pub node: NodeId,
    /// Moves from the start to this one, this one included.
    pub ply: usize,
    /// 0 on the main line, one more for each variation it lies in.
    pub depth: usize,
    /// The first move of a variation.
    pub starts_variation: bool,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl MoveTree {
    pub const START: NodeId = 0;

    pub fn new() -> MoveTree {
        MoveTree {
            nodes: vec![Node {
                text: String::new(),
                parent: MoveTree::START,
                children: Vec::new(),
            }],
            alive: vec![true],
        }
    }

    /// A tree holding one line; its nodes in order.
    pub fn from_line(moves: &[String]) -> (MoveTree, Vec<NodeId>) {
        let mut tree = MoveTree::new();
        let mut at = MoveTree::START;
        let mut path = Vec::with_capacity(moves.len());
        for text in moves {
            at = tree.add(at, text, false);
            path.push(at);
        }
        (tree, path)
    }

    pub fn contains(&self, node: NodeId) -> bool {
        self.alive.get(node).copied().unwrap_or(false)
    }

    /// The move in notation (empty for the start).
    pub fn text(&self, node: NodeId) -> &str {
        &self.nodes[node].text
    }

    /// The move before this one; `None` for the start.
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        (node != MoveTree::START).then(|| self.nodes[node].parent)
    }

    /// The moves played after this one: the line's own first, then its variations.
    pub fn children(&self, node: NodeId) -> &[NodeId] {
        &self.nodes[node].children
    }

    /// The move `text` after `node`, if the tree has it.
    pub fn child_with(&self, node: NodeId, text: &str) -> Option<NodeId> {
        self.children(node)
            .iter()
            .copied()
            .find(|&child| self.text(child) == text)
    }

    /// Adds `text` after `node` (the move already there if it has one); as the line's own
    /// continuation when `leads`, else as a variation unless it is the first move there.
    pub fn add(&mut self, node: NodeId, text: &str, leads: bool) -> NodeId {
        if let Some(child) = self.child_with(node, text) {
            return child;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            text: text.to_string(),
            parent: node,
            children: Vec::new(),
        });
        self.alive.push(true);
        let children = &mut self.nodes[node].children;
        if leads {
            children.insert(0, id);
        } else {
            children.push(id);
        }
        id
    }

    /// Puts `text` where `old` was, dropping `old` and everything after it.
    pub fn replace(&mut self, old: NodeId, text: &str) -> NodeId {
        let parent = self.nodes[old].parent;
        let place = self.place(old);
        self.delete(old);
        let id = self.add(parent, text, false);
        let children = &mut self.nodes[parent].children;
        children.retain(|&c| c != id);
        children.insert(place.min(children.len()), id);
        id
    }

    /// Removes `node` and everything after it. The start cannot be removed.
    pub fn delete(&mut self, node: NodeId) {
        if node == MoveTree::START || !self.contains(node) {
            return;
        }
        let parent = self.nodes[node].parent;
        self.nodes[parent].children.retain(|&c| c != node);
        let mut gone = vec![node];
        while let Some(id) = gone.pop() {
            self.alive[id] = false;
            gone.extend(std::mem::take(&mut self.nodes[id].children));
        }
    }

    /// Makes the variation holding `node` the line it left: the nearest move at or before
    /// `node` that begins a variation becomes its line's own continuation, and that line's
    /// old continuation the first variation. False when `node` is on the main line.
    pub fn promote(&mut self, node: NodeId) -> bool {
        let Some(first) = self.variation_start(node) else {
            return false;
        };
        let parent = self.nodes[first].parent;
        let children = &mut self.nodes[parent].children;
        children.retain(|&c| c != first);
        children.insert(0, first);
        true
    }

    /// The first move of the innermost variation holding `node`; `None` on the main line.
    pub fn variation_start(&self, node: NodeId) -> Option<NodeId> {
        let mut at = node;
        while at != MoveTree::START {
            if self.place(at) > 0 {
                return Some(at);
            }
            at = self.nodes[at].parent;
        }
        None
    }

    pub fn is_main_line(&self, node: NodeId) -> bool {
        self.variation_start(node).is_none()
    }

    /// The moves from the start to `node`, `node` last (empty for the start).
    pub fn path_to(&self, node: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = node;
        while at != MoveTree::START {
            path.push(at);
            at = self.nodes[at].parent;
        }
        path.reverse();
        path
    }

    /// The line through `node`: the moves to it, then each first continuation after it.
    pub fn line_through(&self, node: NodeId) -> Vec<NodeId> {
        let mut line = self.path_to(node);
        let mut at = node;
        while let Some(&next) = self.children(at).first() {
            line.push(next);
            at = next;
        }
        line
    }

    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_through(MoveTree::START)
    }

    /// The main line's last move (the start when it has none).
    pub fn main_line_end(&self) -> NodeId {
        let mut at = MoveTree::START;
        while let Some(&next) = self.children(at).first() {
            at = next;
        }
        at
    }

    /// The moves of some nodes in notation.
    pub fn texts(&self, nodes: &[NodeId]) -> Vec<String> {
        nodes.iter().map(|&n| self.text(n).to_string()).collect()
    }

    /// Whether any move has a variation.
    pub fn has_variations(&self) -> bool {
        self.nodes
            .iter()
            .zip(&self.alive)
            .any(|(node, &alive)| alive && node.children.len() > 1)
    }

    /// Every move in reading order, as a move list shows them.
    pub fn rows(&self) -> Vec<TreeRow> {
        let mut rows = Vec::new();
        self.push_lines(&mut rows);
        rows
    }

    /// The side lines, as a record keeps them beside the main line's moves: each after the
    /// line it leaves, those leaving one line in its order.
    pub fn variations(&self) -> Vec<Variation> {
        let mut found = Vec::new();
        // Lines still to look along: their moves, the ply of their first move, and their
        // number in the record (0 for the main line).
        let mut lines = std::collections::VecDeque::from([(self.main_line(), 0, 0)]);
        while let Some((line, first_ply, of)) = lines.pop_front() {
            for (i, &node) in line.iter().enumerate() {
                let parent = self.nodes[node].parent;
                for &start in self.children(parent).iter().skip(1) {
                    let ply = first_ply + i;
                    let moves = self.line_through(start).split_off(ply);
                    found.push(Variation {
                        of,
                        ply,
                        moves: self.texts(&moves),
                    });
                    lines.push_back((moves[1..].to_vec(), ply + 1, found.len()));
                }
            }
        }
        found
    }

    /// A tree from a record's main line and side lines. Checks only the shape (each side
    /// line leaves an earlier line at one of its moves); the moves themselves are for the
    /// rules to check.
    pub fn from_record(moves: &[String], variations: &[Variation]) -> Result<MoveTree, String> {
        let (mut tree, main) = MoveTree::from_line(moves);
        // Each line's moves after its first (a side line may leave from any of them) and
        // the ply of the first of those.
        let mut lines = vec![(main, 0)];
        for (i, variation) in variations.iter().enumerate() {
            let field = format!("variations[{i}]");
            let Some((line, first_ply)) = lines.get(variation.of) else {
                let lines = match i {
                    0 => "the main line (0)".to_string(),
                    _ => format!("the main line (0) or a side line before it (1 to {i})"),
                };
                return Err(format!("{field}.of: {} is not {lines}", variation.of));
            };
            let Some(offset) = variation
                .ply
                .checked_sub(*first_ply)
                .filter(|&offset| offset < line.len())
            else {
                let plies = match line.len() {
                    0 => "it has none after its first".to_string(),
                    n => format!("{first_ply} to {}", first_ply + n - 1),
                };
                return Err(format!(
                    "{field}.ply: {} is not the ply of a move of its line ({plies})",
                    variation.ply
                ));
            };
            if variation.moves.is_empty() {
                return Err(format!("{field}.moves: a side line needs a move"));
            }
            let mut at = tree.nodes[line[offset]].parent;
            let mut nodes = Vec::with_capacity(variation.moves.len());
            for text in &variation.moves {
                // A move the tree has already is followed, not added twice.
                at = tree.add(at, text, false);
                nodes.push(at);
            }
            nodes.remove(0);
            lines.push((nodes, variation.ply + 1));
        }
        Ok(tree)
    }

    /// Whether `node` continues its line (the start counts as the main line's).
    pub fn is_first_child(&self, node: NodeId) -> bool {
        node == MoveTree::START || self.place(node) == 0
    }

    /// Where `node` stands among its parent's children.
    fn place(&self, node: NodeId) -> usize {
        let parent = self.nodes[node].parent;
        self.nodes[parent]
            .children
            .iter()
            .position(|&c| c == node)
            .unwrap_or(0)
    }

    /// The rows of every line from the start: each move, then the side lines played
    /// instead of it, then the line goes on. A stack rather than recursion: side lines may
    /// nest as deep as a record makes them.
    fn push_lines(&self, rows: &mut Vec<TreeRow>) {
        enum Next {
            /// A side line's first move, then its line.
            Begin(NodeId, usize, usize),
            /// The line after `node` (shown, at `ply` and `depth`).
            GoOn(NodeId, usize, usize),
        }
        let mut stack = vec![Next::GoOn(MoveTree::START, 0, 0)];
        while let Some(next) = stack.pop() {
            let (at, ply, depth) = match next {
                Next::Begin(node, ply, depth) => {
                    rows.push(TreeRow {
                        node,
                        ply,
                        depth,
                        starts_variation: true,
                    });
                    (node, ply, depth)
                }
                Next::GoOn(node, ply, depth) => (node, ply, depth),
            };
            if let Some((&first, variations)) = self.children(at).split_first() {
                rows.push(TreeRow {
                    node: first,
                    ply: ply + 1,
                    depth,
                    starts_variation: false,
                });
                stack.push(Next::GoOn(first, ply + 1, depth));
                for &variation in variations.iter().rev() {
                    stack.push(Next::Begin(variation, ply + 1, depth + 1));
                }
            }
        }
    }
}
