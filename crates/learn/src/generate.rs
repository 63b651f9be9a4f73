//! Making puzzles: the project's bots play each other, and every position on the way is
//! asked whether its side to move wins by force: in one or two turns by the exact solver
//! straight away, in three when the bot's own search has proved a win there.

use crate::puzzle::{Puzzle, puzzle_at, puzzle_of};
use crate::solve::{PROOF_WORK, Work, winning_turns};
use crate::teach::Teach;
use std::collections::HashSet;
use tabula_bot::{Bot, BotSpec, Knowledge, Proof};
use tabula_rules::Status;

/// The bots whose games puzzles are found in: the game's levels 1 and 2 before its ladder
/// (config/bots.ron then), with which the shipped puzzles were made.
const PLAYERS: [&str; 2] = [
    "mcts:iters=24,c=1,playout=2,moves=30",
    "mcts:iters=300,c=0.5,playout=6,moves=80",
];

/// What a run of generation did.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub games: u64,
    pub positions: u64,
    /// Positions too big to prove within the solver's work.
    pub too_big: u64,
    pub puzzles: Vec<Puzzle>,
}

enum Looked {
    Found(Puzzle),
    TooBig,
    Nothing,
}

/// Whether the position is a puzzle: a win in one turn if there is one, else a win in two
/// within generation's work, or in two or three where the bot's own search has proved a
/// win. (A separate prover, an MCTS with its solver given 1,500 iterations a position,
/// found one Adomoc puzzle a minute where the players' own proofs found 18: the time went
/// to positions with nothing to prove. The solver's remembered shots and answers made a
/// win in two cheap enough to ask of every position: it costs an Adomoc position about
/// 10,000 positions of work.)
fn look_for_puzzle<G: Teach + Knowledge>(
    played: &G,
    moves: &[String],
    options: &[(String, String)],
    rules: &G::Options,
    proved_by_player: bool,
) -> Looked {
    // Judged as it is shipped and solved: from its position string, which leaves out the
    // positions before it (a repetition the game played could otherwise decide a line).
    let Ok(game) = G::from_position(rules.clone(), &played.position_string()) else {
        return Looked::Nothing;
    };
    let game = &game;
    let mut work = Work(GENERATION_WORK);
    let Some((wins_now, count)) = winning_turns(game, 1, &mut work) else {
        return Looked::TooBig;
    };
    let found = if !wins_now.is_empty() {
        puzzle_of(game, moves, options, 1, &wins_now, count, &mut work)
    } else if proved_by_player {
        // A proved win is worth the whole of a proof's work.
        work = Work(PROOF_WORK);
        puzzle_at(game, moves, options, 2..=3, &mut work)
    } else if (count as u64).saturating_mul(count as u64) <= GENERATION_WORK {
        work = Work(GENERATION_WORK);
        puzzle_at(game, moves, options, 2..=2, &mut work)
    } else {
        // A win in two walks about the square of the turns: with more than about 550
        // (Adamas' splits of tall stacks) it would not fit, and trying cost most of the time.
        return Looked::Nothing;
    };
    match found {
        Some(puzzle) => Looked::Found(puzzle),
        None if work.0 == 0 => Looked::TooBig,
        None => Looked::Nothing,
    }
}

/// The work generation gives one position: a tenth of a proof's, so that the many
/// positions too big to prove (Absorption's middle games, whose turns run to millions) are
/// passed over quickly; the endgames puzzles come from fit easily.
const GENERATION_WORK: u64 = PROOF_WORK / 10;

/// The longest game generation plays: past it the game is left.
const MOST_PLIES: u32 = 600;

/// Plays bot games from `options`' start (seeds from `seed`) until `wanted` new puzzles are
/// found or `go_on` says stop, skipping positions in `seen` (the rules' position hashes,
/// which leave out how many moves led there) and adding
/// those it finds. `found` hears of each puzzle as it is found.
pub fn generate<G: Teach + Knowledge>(
    options: &[(String, String)],
    wanted: usize,
    seed: u64,
    seen: &mut HashSet<u64>,
    go_on: &mut dyn FnMut(&Generated) -> bool,
    found: &mut dyn FnMut(&Puzzle),
) -> Result<Generated, String> {
    let rules = tabula_session::options::options_from::<G>(options)?;
    let start = G::new(rules.clone()).map_err(|e| e.to_string())?;
    if start.num_players() != 2 {
        return Err("puzzles are for two players".into());
    }
    let players: Vec<BotSpec> = PLAYERS
        .iter()
        .map(|spec| spec.parse())
        .collect::<Result<_, _>>()?;
    let mut run = Generated::default();
    let mut game_seed = seed;
    while run.puzzles.len() < wanted && go_on(&run) {
        game_seed = game_seed.wrapping_add(1);
        run.games += 1;
        // The former levels 1 and 2 in turn: quick, and their games have the mistakes
        // puzzles come from. Their own settings, not the ladder's levels, so the shipped
        // puzzles come again from the same seeds.
        let mut bots: Vec<Bot<G>> = (0..2)
            .map(|seat| {
                let spec = &players[(game_seed.wrapping_add(seat) % 2) as usize];
                Bot::new(spec, &start, game_seed.wrapping_mul(2).wrapping_add(seat))
            })
            .collect();
        let mut game = start.clone();
        let mut moves: Vec<String> = Vec::new();
        let mut last_mover = None;
        while game.status() == Status::Ongoing && game.ply() < MOST_PLIES && go_on(&run) {
            let mover = game.to_move();
            let bot = &mut bots[mover.index()];
            let Some(mv) = bot.choose(&game) else {
                break;
            };
            let proved_by_player = bot.proof() == Some(Proof::Win(mover));
            // A turn's start only: Absorption's later phases are part of the turn before.
            let turn_start = last_mover != Some(mover);
            last_mover = Some(mover);
            if turn_start && seen.insert(game.hash()) {
                run.positions += 1;
                match look_for_puzzle(&game, &moves, options, &rules, proved_by_player) {
                    Looked::Found(mut puzzle) => {
                        puzzle.id = format!("{}-{:016x}", G::NAME, game.hash());
                        found(&puzzle);
                        run.puzzles.push(puzzle);
                    }
                    Looked::TooBig => run.too_big += 1,
                    Looked::Nothing => {}
                }
            }
            moves.push(game.format_move(&mv));
            game.play_unchecked(&mv);
            if run.puzzles.len() >= wanted {
                break;
            }
        }
    }
    Ok(run)
}
