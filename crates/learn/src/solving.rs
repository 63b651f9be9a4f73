//! A try at a puzzle, judged by the exact solver: the moves played since the puzzle's
//! position (the player's and the solver's answers), and what comes next.

use crate::puzzle::Puzzle;
use crate::solve::{PROOF_WORK, Turn, Work, first_turn, longest_defence, wins_after};
use tabula_rules::text::quoted;
use tabula_rules::{Game, Player, Status};
use tabula_session::{GameKind, with_game};

/// How a try at a puzzle stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleProgress {
    /// The player is to move: their turn goes on (Absorption's phases), or the solver has
    /// answered.
    Continue,
    /// A move is not legal here: the rules' reason.
    Illegal(String),
    /// The player's turn still wins by force: the solver answers with this turn (`;`
    /// between its moves), and the player plays on.
    Answer(String),
    /// The player won: solved.
    Solved,
    /// The turn does not win in time: the answer that refutes it, if the game goes on.
    Wrong { refutation: Option<String> },
}

/// Judges `played` (the moves since the puzzle's position, in notation).
pub fn judge_puzzle(kind: GameKind, puzzle: &Puzzle, played: &[String]) -> PuzzleProgress {
    with_game!(kind, G => judge_in::<G>(puzzle, played))
}

fn judge_in<G: Game>(puzzle: &Puzzle, played: &[String]) -> PuzzleProgress {
    let mut game = match puzzle.position::<G>() {
        Ok(game) => game,
        Err(e) => return PuzzleProgress::Illegal(format!("this puzzle cannot be set up: {e}")),
    };
    let mover = game.to_move();
    let mut turns_played = 0;
    let mut last_mover = None;
    for text in played {
        let mv = match game.parse_move(text) {
            Ok(mv) => mv,
            Err(e) => return PuzzleProgress::Illegal(e.to_string()),
        };
        if game.to_move() == mover && last_mover != Some(mover) {
            turns_played += 1;
        }
        last_mover = Some(game.to_move());
        if let Err(e) = game.apply(&mv) {
            return PuzzleProgress::Illegal(format!("{} is not legal: {e}", quoted(text)));
        }
    }
    match game.status() {
        Status::Win { winner, .. } if winner == mover => return PuzzleProgress::Solved,
        Status::Ongoing => {}
        _ => return PuzzleProgress::Wrong { refutation: None },
    }
    if game.to_move() == mover {
        // Mid-turn, or the solver has just answered: the player plays on.
        return PuzzleProgress::Continue;
    }
    let left = puzzle.depth.saturating_sub(turns_played);
    let mut work = Work(PROOF_WORK);
    match wins_after(&game, mover, left, &mut work) {
        // Still winning: the solver's longest defence, or, should finding it outrun the
        // solver's work, any answer (the try is judged again at its end).
        Some(true) => {
            let answer = longest_defence(&game, mover, left, &mut Work(PROOF_WORK))
                .or_else(|| any_turn(&game));
            match answer {
                Some(answer) => PuzzleProgress::Answer(answer.text(&game)),
                None => PuzzleProgress::Wrong { refutation: None },
            }
        }
        Some(false) => {
            // An answer after which the player no longer wins within the turns left.
            let refutation = first_failing(&game, mover, left).map(|answer| answer.text(&game));
            PuzzleProgress::Wrong { refutation }
        }
        // Too big to judge within the solver's work: the player plays on, judged at the end.
        None => match any_turn(&game) {
            Some(answer) => PuzzleProgress::Answer(answer.text(&game)),
            None => PuzzleProgress::Wrong { refutation: None },
        },
    }
}

/// A first turn of `puzzle` that does not win within its depth (the first in the order of
/// the legal moves), in notation; `None` if every one wins or the position is too big.
pub fn wrong_first_turn(kind: GameKind, puzzle: &Puzzle) -> Option<String> {
    with_game!(kind, G => {
        let game = puzzle.position::<G>().ok()?;
        let mover = game.to_move();
        let left = puzzle.depth.checked_sub(1)?;
        first_failing(&game, mover, left).map(|turn| turn.text(&game))
    })
}

/// The first turn from `game` after which `mover` does not win within `left` of their
/// turns (a turn too big to judge is passed over); `None` if there is none.
fn first_failing<G: Game>(game: &G, mover: Player, left: u32) -> Option<Turn<G>> {
    first_turn(game, &mut Work(PROOF_WORK), &mut |turn: &Turn<G>| {
        wins_after(&turn.after, mover, left, &mut Work(PROOF_WORK)) == Some(false)
    })?
}

/// Any whole turn from `game`, the first the walk meets.
fn any_turn<G: Game>(game: &G) -> Option<Turn<G>> {
    first_turn(game, &mut Work(PROOF_WORK), &mut |_| true)?
}
