//! The exact solver puzzles are proved with: every whole turn of the side to move (a turn
//! of Absorption is several moves), and whether it wins within so many of its turns
//! against every defence. Bounded by a work budget, so a position too big to prove is
//! said to be so rather than searched without end.

use tabula_rules::{Game, Player, Status};
// The walk over whole turns is the bot's too, which takes a win in one turn with it.
use tabula_bot::turns::fingerprint;
pub use tabula_bot::turns::{Turn, Wanted, Work, first_turn, turns, won_by};

/// Positions a proof may visit before it gives up: enough for the endgames puzzles come
/// from, far from enough for an opening.
pub const PROOF_WORK: u64 = 3_000_000;

/// Whether `mover`, to move in `game`, wins within `depth` of their own turns whatever the
/// others do; `None` past the work allowed.
pub fn wins_within<G: Game>(game: &G, mover: Player, depth: u32, work: &mut Work) -> Option<bool> {
    Search::new(mover, work).wins_within(game, depth)
}

/// Whether `mover`, having just played a turn leading to `game`, wins within `depth` more
/// of their turns against every answer.
pub fn wins_after<G: Game>(game: &G, mover: Player, depth: u32, work: &mut Work) -> Option<bool> {
    Search::new(mover, work).wins_after(game, depth)
}

/// One proof's search. It remembers, for each depth, the last turn that won there and the
/// last answer that held there, and tries that first in the next position: the same shot
/// usually wins after another answer, and the same answer usually holds against another
/// try, so most positions are settled without walking all their turns.
struct Search<'w, G: Game> {
    mover: Player,
    work: &'w mut Work,
    shots: Vec<Option<Vec<G::Move>>>,
    answers: Vec<Option<Vec<G::Move>>>,
}

impl<'w, G: Game> Search<'w, G> {
    fn new(mover: Player, work: &'w mut Work) -> Self {
        Search {
            mover,
            work,
            shots: Vec::new(),
            answers: Vec::new(),
        }
    }

    fn wins_within(&mut self, game: &G, depth: u32) -> Option<bool> {
        if depth == 0 || game.status() != Status::Ongoing {
            return Some(won_by(game, self.mover));
        }
        self.some_turn_gives(game, Memory::Shot, depth, depth - 1, true)
    }

    fn wins_after(&mut self, game: &G, depth: u32) -> Option<bool> {
        if game.status() != Status::Ongoing {
            return Some(won_by(game, self.mover));
        }
        if game.to_move() == self.mover {
            return self.wins_within(game, depth);
        }
        if depth == 0 {
            return Some(false);
        }
        Some(!self.some_turn_gives(game, Memory::Answer, depth, depth, false)?)
    }

    /// Whether some turn of the player to move leaves a position where the mover's win
    /// within `left` turns is `wanted` (a shot that wins, an answer that holds): the
    /// remembered one first, then the others, remembering the one found.
    fn some_turn_gives(
        &mut self,
        game: &G,
        memory: Memory,
        depth: u32,
        left: u32,
        wanted: bool,
    ) -> Option<bool> {
        let mut tried = None;
        if let Some(after) = self.remembered(game, memory, depth)? {
            if self.wins_after(&after, left)? == wanted {
                return Some(true);
            }
            tried = Some(fingerprint(&after));
        }
        for turn in turns(game, self.work)? {
            // The remembered turn, already searched.
            if tried == Some(fingerprint(&turn.after)) {
                continue;
            }
            if self.wins_after(&turn.after, left)? == wanted {
                self.remember(memory, depth, turn.moves);
                return Some(true);
            }
        }
        Some(false)
    }

    fn slot(&mut self, memory: Memory, depth: u32) -> &mut Option<Vec<G::Move>> {
        let slots = match memory {
            Memory::Shot => &mut self.shots,
            Memory::Answer => &mut self.answers,
        };
        let at = depth as usize;
        if slots.len() <= at {
            slots.resize(at + 1, None);
        }
        &mut slots[at]
    }

    fn remember(&mut self, memory: Memory, depth: u32, moves: Vec<G::Move>) {
        *self.slot(memory, depth) = Some(moves);
    }

    /// The position after the remembered turn, if it is a whole legal turn here; the
    /// outer `None` past the work allowed.
    fn remembered(&mut self, game: &G, memory: Memory, depth: u32) -> Option<Option<G>> {
        let Some(moves) = self.slot(memory, depth).clone() else {
            return Some(None);
        };
        replay_turn(game, &moves, self.work)
    }
}

#[derive(Clone, Copy)]
enum Memory {
    Shot,
    Answer,
}

/// The position after `moves` played as one whole turn from `game`, if each is legal
/// where it is played and the turn ends with the last; the outer `None` past the work
/// allowed.
fn replay_turn<G: Game>(game: &G, moves: &[G::Move], work: &mut Work) -> Option<Option<G>> {
    let player = game.to_move();
    let mut at = game.clone();
    for (i, mv) in moves.iter().enumerate() {
        if at.status() != Status::Ongoing || at.to_move() != player {
            return Some(None);
        }
        if !at.legal_moves().any(|legal| legal == *mv) {
            return Some(None);
        }
        work.spend()?;
        at.play_unchecked(mv);
        let turn_over = at.status() != Status::Ongoing || at.to_move() != player;
        if turn_over != (i + 1 == moves.len()) {
            return Some(None);
        }
    }
    Some(Some(at))
}

/// The turns of the player to move that win within `depth` of their turns, and all their
/// turns; `None` past the work allowed.
pub fn winning_turns<G: Game>(
    game: &G,
    depth: u32,
    work: &mut Work,
) -> Option<(Vec<Turn<G>>, usize)> {
    let all = turns(game, work)?;
    let count = all.len();
    let mut search = Search::new(game.to_move(), work);
    let mut winning = Vec::new();
    for turn in all {
        if search.wins_after(&turn.after, depth - 1)? {
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
    let answers = turns(game, work)?;
    let mut search = Search::new(mover, work);
    for answer in answers {
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
            if search.wins_after(&answer.after, shorter)? {
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
