//! The exact solver puzzles are proved with: every whole turn of the side to move (a turn
//! of Absorption is several moves), and whether it wins within so many of its turns
//! against every defence. Bounded by a work budget, so a position too big to prove is
//! said to be so rather than searched without end.

use std::collections::HashSet;
use tabula_rules::{Game, Player, Status};

/// Positions a proof may visit before it gives up: enough for the endgames puzzles come
/// from, far from enough for an opening.
pub const PROOF_WORK: u64 = 3_000_000;

/// The work a proof may still do; `None` from a search means it ran out.
#[derive(Clone, Copy, Debug)]
pub struct Work(pub u64);

impl Work {
    fn spend(&mut self) -> Option<()> {
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
    let mover = game.to_move();
    let mut walk = Walk {
        mover,
        line: Vec::new(),
        found: Vec::new(),
        seen: HashSet::new(),
    };
    walk.extend(game, work)?;
    Some(walk.found)
}

struct Walk<G: Game> {
    mover: Player,
    line: Vec<G::Move>,
    found: Vec<Turn<G>>,
    seen: HashSet<u64>,
}

impl<G: Game> Walk<G> {
    fn extend(&mut self, game: &G, work: &mut Work) -> Option<()> {
        for mv in game.legal_moves() {
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
                self.found.push(Turn {
                    moves: self.line.clone(),
                    after,
                });
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
fn fingerprint<G: Game>(game: &G) -> u64 {
    game.hash()
}

fn won_by<G: Game>(game: &G, mover: Player) -> bool {
    matches!(game.status(), Status::Win { winner, .. } if winner == mover)
}

/// Whether `mover`, to move in `game`, wins within `depth` of their own turns whatever the
/// others do; `None` past the work allowed.
pub fn wins_within<G: Game>(game: &G, mover: Player, depth: u32, work: &mut Work) -> Option<bool> {
    if depth == 0 || game.status() != Status::Ongoing {
        return Some(won_by(game, mover));
    }
    for turn in turns(game, work)? {
        if wins_after(&turn.after, mover, depth - 1, work)? {
            return Some(true);
        }
    }
    Some(false)
}

/// Whether `mover`, having just played a turn leading to `game`, wins within `depth` more
/// of their turns against every answer.
pub fn wins_after<G: Game>(game: &G, mover: Player, depth: u32, work: &mut Work) -> Option<bool> {
    if game.status() != Status::Ongoing {
        return Some(won_by(game, mover));
    }
    if game.to_move() == mover {
        return wins_within(game, mover, depth, work);
    }
    if depth == 0 {
        return Some(false);
    }
    for answer in turns(game, work)? {
        if !wins_after(&answer.after, mover, depth, work)? {
            return Some(false);
        }
    }
    Some(true)
}

/// The turns of the player to move that win within `depth` of their turns, and all their
/// turns; `None` past the work allowed.
pub fn winning_turns<G: Game>(
    game: &G,
    depth: u32,
    work: &mut Work,
) -> Option<(Vec<Turn<G>>, usize)> {
    let mover = game.to_move();
    let all = turns(game, work)?;
    let count = all.len();
    let mut winning = Vec::new();
    for turn in all {
        if wins_after(&turn.after, mover, depth - 1, work)? {
            winning.push(turn);
        }
    }
    Some((winning, count))
}

/// The answer that holds out longest against `mover` (who wins within `depth` of their
/// turns after it): the solver's defence. `None` past the work allowed, or with nothing to
/// answer.
pub fn longest_defence<G: Game>(
    game: &G,
    mover: Player,
    depth: u32,
    work: &mut Work,
) -> Option<Turn<G>> {
    let mut best: Option<(u32, Turn<G>)> = None;
    for answer in turns(game, work)? {
        // The fewest of the mover's turns still needed after this answer: none when the
        // answer itself ends the game in the mover's favour.
        let mut needed = depth;
        if won_by(&answer.after, mover) {
            needed = 0;
        }
        for shorter in (1..depth).rev() {
            if needed == 0 {
                break;
            }
            if wins_after(&answer.after, mover, shorter, work)? {
                needed = shorter;
            } else {
                break;
            }
        }
        if best.as_ref().is_none_or(|(most, _)| needed > *most) {
            best = Some((needed, answer));
        }
    }
    best.map(|(_, answer)| answer)
}
