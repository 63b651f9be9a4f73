//! Whole turns: every sequence of moves one player makes before the turn passes (a turn
//! of Absorption is several moves), walked within a work budget. The exact solver
//! (tabula-learn) proves puzzles with them, and a search takes a win in one turn with them
//! ([`winning_turn`]).

use std::collections::HashSet;
use tabula_rules::{Game, Player, Status};

/// The work a proof may still do; `None` from a search means it ran out.
#[derive(Clone, Copy, Debug)]
pub struct Work(pub u64);

impl Work {
    /// Spends one position; `None` once none is left.
    pub fn spend(&mut self) -> Option<()> {
        self.0 = self.0.checked_sub(1)?;
        Some(())
    }
}

/// One whole turn: its moves in order and the position after it.
#[derive(Clone, Debug)]
pub struct Turn<G: Game> {
    pub moves: Vec<G::Move>,
    pub after: G,
}

impl<G: Game> Turn<G> {
    /// The turn in notation, its moves joined by `; `, each written in the position it
    /// was played from.
    pub fn text(&self, before: &G) -> String {
        let mut game = before.clone();
        let mut texts = Vec::new();
        for mv in &self.moves {
            texts.push(game.format_move(mv));
            game.play_unchecked(mv);
        }
        texts.join("; ")
    }
}

/// Every whole turn of the player to move, or `None` past the work allowed. A turn of one
/// move is its move; turns of several moves (Absorption's) that leave the same position
/// are one turn (the first found, in the order of the legal moves), and a position reached
/// twice within a turn (follow-ups made in another order) is gone on from once: positions
/// are told apart by the rules' hash.
pub fn turns<G: Game>(game: &G, work: &mut Work) -> Option<Vec<Turn<G>>> {
    let mut walk = Walk::new(game, None);
    walk.extend(game, work)?;
    Some(walk.found)
}

/// The first whole turn (in the order [`turns`] gives them) that `wanted` accepts, walking
/// no further than it: a refutation needs one answer, not all of an Absorption position's
/// thousands. The outer `None` past the work allowed.
pub fn first_turn<G: Game>(
    game: &G,
    work: &mut Work,
    wanted: Wanted<'_, G>,
) -> Option<Option<Turn<G>>> {
    let mut walk = Walk::new(game, Some(wanted));
    walk.extend(game, work)?;
    Some(walk.found.pop())
}

/// What a stopping walk looks for.
pub type Wanted<'a, G> = &'a mut dyn FnMut(&Turn<G>) -> bool;

struct Walk<'a, G: Game> {
    mover: Player,
    line: Vec<G::Move>,
    found: Vec<Turn<G>>,
    seen: HashSet<u64>,
    /// Stops the walk at the first turn it accepts (kept as the only one found).
    wanted: Option<Wanted<'a, G>>,
}

impl<'a, G: Game> Walk<'a, G> {
    fn new(game: &G, wanted: Option<Wanted<'a, G>>) -> Self {
        Walk {
            mover: game.to_move(),
            line: Vec::new(),
            found: Vec::new(),
            seen: HashSet::new(),
            wanted,
        }
    }

    fn done(&self) -> bool {
        self.wanted.is_some() && !self.found.is_empty()
    }

    fn extend(&mut self, game: &G, work: &mut Work) -> Option<()> {
        for mv in game.legal_moves() {
            if self.done() {
                break;
            }
            work.spend()?;
            let mut after = game.clone();
            after.play_unchecked(&mv);
            let turn_over = after.status() != Status::Ongoing || after.to_move() != self.mover;
            // A turn of one move is told apart by its move (the legal moves are distinct);
            // only turns of several moves can meet in one position.
            let one_move_turn = self.line.is_empty() && turn_over;
            if !one_move_turn && !self.seen.insert(fingerprint(&after)) {
                continue;
            }
            self.line.push(mv);
            if turn_over {
                let turn = Turn {
                    moves: self.line.clone(),
                    after,
                };
                if self.wanted.as_mut().is_none_or(|wanted| wanted(&turn)) {
                    self.found.push(turn);
                }
            } else {
                self.extend(&after, work)?;
            }
            self.line.pop();
        }
        Some(())
    }
}

/// A position's hash: the rules' own, which holds the board, the player to move and where
/// the turn stands (Absorption's phase, the stacks involved, the follow-ups left), and
/// leaves out only how many moves led there. Building the position string instead made
/// proving Absorption's puzzles several times slower.
pub fn fingerprint<G: Game>(game: &G) -> u64 {
    game.hash()
}

/// Positions a search's walk for a win in one whole turn may visit at its root: every
/// shipped win in one is found within 255,513 (Absorption's; the other games' within
/// 7,512), and a walk that finds none is bounded by it
/// (`cargo run --release -p tabula-learn --example win_walk_timing`).
pub const WIN_WALK_WORK: u64 = 300_000;

/// Whether `game` is over and `mover` won it.
pub fn won_by<G: Game>(game: &G, mover: Player) -> bool {
    matches!(game.status(), Status::Win { winner, .. } if winner == mover)
}

/// A whole turn of the player to move that wins the game: a single move that wins at once
/// if there is one (a player ends the game when they can), else the first turn of several
/// moves the walk finds within `work`.
pub fn winning_turn<G: Game>(game: &G, work: &mut Work) -> Option<Turn<G>> {
    let mover = game.to_move();
    for mv in game.legal_moves() {
        work.spend()?;
        let mut after = game.clone();
        after.play_unchecked(&mv);
        if won_by(&after, mover) {
            return Some(Turn {
                moves: vec![mv],
                after,
            });
        }
    }
    first_turn(game, work, &mut |turn: &Turn<G>| won_by(&turn.after, mover)).flatten()
}
