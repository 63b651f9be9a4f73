//! The bots' tactics test (issue 41, item 5): a bot plays the mover's side of a shipped
//! puzzle and the exact solver the defence, judged move by move as a person's try is in the
//! app ([`judge_puzzle`]), so a bot solves a puzzle exactly when a person playing its moves
//! would.

use crate::puzzle::Puzzle;
use crate::solving::{PuzzleProgress, judge_puzzle};
use crate::teach::Teach;
use tabula_bot::{Bot, BotSpec, Knowledge};
use tabula_rules::text::quoted;
use tabula_session::{GameKind, with_game};

/// A try can be no longer than this many of the bot's moves: a puzzle wins within three
/// turns, and an Absorption turn is a few moves, so a try this long is a fault.
const MOST_BOT_MOVES: usize = 64;

/// Whether the bot `spec` (seeded with `seed`) solves `puzzle`, the solver answering each
/// of its turns with its longest defence. An error is a fault: a puzzle that cannot be set
/// up, or a move the rules refuse.
pub fn bot_solves(
    kind: GameKind,
    puzzle: &Puzzle,
    spec: &BotSpec,
    seed: u64,
) -> Result<bool, String> {
    with_game!(kind, G => bot_solves_in::<G>(kind, puzzle, spec, seed))
}

fn bot_solves_in<G: Teach + Knowledge>(
    kind: GameKind,
    puzzle: &Puzzle,
    spec: &BotSpec,
    seed: u64,
) -> Result<bool, String> {
    let fault = |what: String| format!("puzzle {}: {what}", puzzle.id);
    let mut game = puzzle.position::<G>().map_err(fault)?;
    let mut bot = Bot::new(spec, &game, seed);
    let mut played: Vec<String> = Vec::new();
    for _ in 0..MOST_BOT_MOVES {
        let mv = bot
            .choose(&game)
            .ok_or_else(|| fault("the bot has no move in a position still being played".into()))?;
        played.push(game.format_move(&mv));
        game.play_unchecked(&mv);
        match judge_puzzle(kind, puzzle, &played) {
            PuzzleProgress::Solved => return Ok(true),
            PuzzleProgress::Wrong { .. } => return Ok(false),
            PuzzleProgress::Continue => {}
            PuzzleProgress::Answer(answer) => {
                for text in G::split_moves(&answer) {
                    let refused =
                        |e: String| fault(format!("the solver's answer {}: {e}", quoted(&text)));
                    let mv = game.parse_move(&text).map_err(|e| refused(e.to_string()))?;
                    game.apply(&mv).map_err(|e| refused(e.to_string()))?;
                    played.push(text);
                }
                // An answer that ends the game (one found when the solver's work ran out)
                // leaves the bot no move: the try is judged as it stands.
                if game.status().is_over() {
                    return Ok(judge_puzzle(kind, puzzle, &played) == PuzzleProgress::Solved);
                }
            }
            PuzzleProgress::Illegal(why) => {
                return Err(fault(format!("the bot's moves were refused: {why}")));
            }
        }
    }
    Err(fault(format!(
        "no verdict after {MOST_BOT_MOVES} of the bot's moves"
    )))
}
