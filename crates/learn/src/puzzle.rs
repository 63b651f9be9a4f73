//! Puzzles: positions from the bots' own games where the side to move wins by force in one
//! to three of its turns, each proved by the exact solver. A puzzle is its position, in the
//! rules' own position string; the moves that led there from the start are kept while
//! puzzles are made and chosen, and left out of the shipped sets (they were nine tenths of
//! them, and of the browser's download of them: docs/decisions.md).

use crate::data::{built_in_for, read_ron};
use crate::solve::{PROOF_WORK, Turn, Work, longest_defence, winning_turns, wins_after};
use crate::teach::Teach;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;
use tabula_rules::text::quoted;
use tabula_rules::{Game, Status, WinReason};
use tabula_session::{GameKind, options, with_game};

/// One game's puzzles, as shipped in `config/puzzles/<game>.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleSet {
    pub game: GameKind,
    pub puzzles: Vec<Puzzle>,
}

/// A position where the side to move wins by force, and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    pub id: String,
    /// Options as `key=value` text, over the game's defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// The position, as the rules write it (`Game::position_string`); absent from sets
    /// generated before it was kept, whose moves lead to it.
    #[serde(default)]
    pub position: String,
    /// The moves from the start to the position, in notation: kept in a generated set, to
    /// tell the same game's puzzles apart when choosing; none in a shipped set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    /// The fewest of the mover's turns that win by force.
    pub depth: u32,
    /// The first turns that win within `depth` (a turn's moves joined by `; `), in order,
    /// the first [`LISTED_WINS`] of them: an Absorption position can have thousands.
    pub wins: Vec<String>,
    /// How many first turns win within `depth` (absent from files made before it was kept:
    /// `puzzles select` works it out again).
    #[serde(default)]
    pub winning: usize,
    /// How many first turns the mover has in all.
    pub turns: usize,
    /// The main line: a winning turn, the solver's longest defence, and so on to the win.
    pub line: Vec<String>,
    /// What the winning line does, from its rules events ("multiple capture", ...).
    pub theme: String,
    /// A first rating: harder for more turns to see and fewer winning first turns.
    pub rating: u32,
}

/// How many winning first turns a puzzle lists.
pub const LISTED_WINS: usize = 12;

const BUILT_IN: [(GameKind, &str); 4] = [
    (
        GameKind::Absorption,
        include_str!("../../../config/puzzles/absorption.ron"),
    ),
    (
        GameKind::Adamas,
        include_str!("../../../config/puzzles/adamas.ron"),
    ),
    (
        GameKind::Adaptoid,
        include_str!("../../../config/puzzles/adaptoid.ron"),
    ),
    (
        GameKind::Adomoc,
        include_str!("../../../config/puzzles/adomoc.ron"),
    ),
];

/// Reads a puzzle set from RON text; the error names where the text is wrong.
pub fn read_puzzles(text: &str) -> Result<PuzzleSet, String> {
    read_ron(text, "puzzles")
}

/// The puzzles that come with Tabula for `game`.
pub fn puzzles_for(game: GameKind) -> Result<PuzzleSet, String> {
    built_in_for(&BUILT_IN, game, "puzzles")
}

/// Writes a puzzle set as the shipped files are written.
pub fn write_puzzles(set: &PuzzleSet) -> String {
    let config = ron::ser::PrettyConfig::new().depth_limit(3);
    ron::ser::to_string_pretty(set, config).expect("puzzles are plain data")
}

impl Puzzle {
    /// The position string of the puzzle's position, in game `kind`.
    pub fn position_string(&self, kind: GameKind) -> Result<String, String> {
        with_game!(kind, G => Ok(self.position::<G>()?.position_string()))
    }

    /// The puzzle's position: its options and its position string (or, in a set generated
    /// before positions were kept, where its moves lead).
    pub fn position<G: Game>(&self) -> Result<G, String> {
        if self.position.is_empty() {
            return self.replayed();
        }
        let options = options::options_from::<G>(&self.options)?;
        G::from_position(options, &self.position)
            .map_err(|e| format!("position {}: {e}", quoted(&self.position)))
    }

    /// Where its moves from the start lead, when it has them.
    fn replayed<G: Game>(&self) -> Result<G, String> {
        let options = options::options_from::<G>(&self.options)?;
        let mut game = G::new(options).map_err(|e| e.to_string())?;
        for (i, text) in self.moves.iter().enumerate() {
            let mv = game
                .parse_move(text)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            game.apply(&mv)
                .map_err(|e| format!("move {} {}: {e}", i + 1, quoted(text)))?;
        }
        Ok(game)
    }
}

/// What is wrong with a puzzle, or nothing: its position reads (and is where its moves
/// lead, if it has them), its side to move wins within `depth` turns with exactly the
/// first turns listed and not sooner, and its line is a win played out with the solver's
/// defence.
pub fn prove(kind: GameKind, puzzle: &Puzzle) -> Result<(), String> {
    with_game!(kind, G => prove_in::<G>(puzzle))
}

fn prove_in<G: Game>(puzzle: &Puzzle) -> Result<(), String> {
    let game = puzzle.position::<G>()?;
    if !puzzle.moves.is_empty() && !puzzle.position.is_empty() {
        let replayed = puzzle.replayed::<G>()?.position_string();
        if replayed != puzzle.position {
            return Err(format!(
                "its moves lead to {}, not to its position",
                quoted(&replayed)
            ));
        }
    }
    if game.status() != Status::Ongoing {
        return Err("the game is over at the puzzle".into());
    }
    if !(1..=3).contains(&puzzle.depth) {
        return Err(format!("depth {} is not 1 to 3", puzzle.depth));
    }
    let over = || "too big to prove within the solver's work".to_string();
    let mut work = Work(PROOF_WORK);
    if puzzle.depth > 1 {
        let (sooner, _) = winning_turns(&game, puzzle.depth - 1, &mut work).ok_or_else(over)?;
        if let Some(turn) = sooner.first() {
            return Err(format!(
                "{} wins sooner than in {} turns",
                quoted(&turn.text(&game)),
                puzzle.depth
            ));
        }
    }
    let (winning, count) = winning_turns(&game, puzzle.depth, &mut work).ok_or_else(over)?;
    if winning.len() != puzzle.winning {
        return Err(format!(
            "{} first turns win, not {}",
            winning.len(),
            puzzle.winning
        ));
    }
    let all_wins: Vec<String> = winning.iter().map(|t| t.text(&game)).collect();
    let found = listed_wins(&game, &winning);
    if found != puzzle.wins {
        return Err(format!(
            "the winning first turns are {found:?}, not the {:?} listed",
            puzzle.wins
        ));
    }
    if count != puzzle.turns {
        return Err(format!("the mover has {count} turns, not {}", puzzle.turns));
    }
    // The line: the mover's turns and the answers in between, each whole; each of the
    // mover's turns still wins within the turns left, and the line ends in the mover's win
    // within `depth` turns.
    let mover = game.to_move();
    let turns_in_line = puzzle.line.len().div_ceil(2);
    if puzzle.line.len().is_multiple_of(2) || turns_in_line > puzzle.depth as usize {
        return Err(format!(
            "the line has {} turns: not {} or fewer of the mover's with answers between",
            puzzle.line.len(),
            puzzle.depth
        ));
    }
    let mut work = Work(PROOF_WORK);
    let mut at = game.clone();
    let mut left = puzzle.depth;
    for (i, text) in puzzle.line.iter().enumerate() {
        let by_mover = i % 2 == 0;
        if (at.to_move() == mover) != by_mover || at.status() != Status::Ongoing {
            return Err(format!("line turn {} is not its player's", i + 1));
        }
        let player = at.to_move();
        for part in G::split_moves(text) {
            let mv = at
                .parse_move(&part)
                .map_err(|e| format!("line turn {}: {e}", i + 1))?;
            at.apply(&mv)
                .map_err(|e| format!("line turn {}: {e}", i + 1))?;
        }
        if at.status() == Status::Ongoing && at.to_move() == player {
            return Err(format!("line turn {} is not a whole turn", i + 1));
        }
        if by_mover {
            left -= 1;
        }
        if !wins_after(&at, mover, left, &mut work).ok_or_else(over)? {
            return Err(format!(
                "after line turn {} the mover no longer wins in time",
                i + 1
            ));
        }
    }
    if !crate::solve::won_by(&at, mover) {
        return Err("the line does not end in the mover's win".into());
    }
    if !puzzle
        .line
        .first()
        .is_some_and(|first| all_wins.contains(first))
    {
        return Err("the line does not start with a winning turn".into());
    }
    Ok(())
}

/// The puzzle of a position if it is one: the side to move wins within one of `depths`
/// of its turns (the fewest of them), and no more than a third of its first turns do
/// (most moves fail).
pub fn puzzle_at<G: Teach>(
    game: &G,
    moves: &[String],
    options: &[(String, String)],
    depths: RangeInclusive<u32>,
    work: &mut Work,
) -> Option<Puzzle> {
    for depth in depths {
        let (winning, count) = winning_turns(game, depth, work)?;
        if !winning.is_empty() {
            return puzzle_of(game, moves, options, depth, &winning, count, work);
        }
    }
    None
}

/// The puzzle of a position whose side to move wins within `depth` turns by `winning` of
/// its `count` turns (and not sooner), unless too many of them win: its line played out
/// with the solver's longest defence, its theme and its first rating.
pub(crate) fn puzzle_of<G: Teach>(
    game: &G,
    moves: &[String],
    options: &[(String, String)],
    depth: u32,
    winning: &[Turn<G>],
    count: usize,
    work: &mut Work,
) -> Option<Puzzle> {
    if winning.len() * 3 > count || count < 3 {
        return None;
    }
    let mover = game.to_move();
    let mut line = Vec::new();
    let mut at = game.clone();
    let mut turn = winning.first()?.clone();
    let mut happenings = Vec::new();
    let mut left = depth;
    loop {
        line.push(turn.text(&at));
        let mut replay = at.clone();
        for mv in &turn.moves {
            let events = replay.apply(mv).ok()?;
            happenings.extend(G::happenings(mover, mv, &events));
        }
        at = turn.after.clone();
        left -= 1;
        if at.status() != Status::Ongoing || left == 0 {
            break;
        }
        let answer = longest_defence(&at, mover, left, work)?;
        line.push(answer.text(&at));
        at = answer.after.clone();
        let (next, _) = winning_turns(&at, left, work)?;
        turn = next.into_iter().next()?;
    }
    let reason = match at.status() {
        Status::Win { reason, .. } => reason,
        _ => return None,
    };
    Some(Puzzle {
        id: String::new(),
        options: options.to_vec(),
        position: game.position_string(),
        moves: moves.to_vec(),
        depth,
        rating: rating(depth, winning.len(), count),
        wins: listed_wins(game, winning),
        winning: winning.len(),
        turns: count,
        line,
        theme: theme(&happenings, reason),
    })
}

/// The winning turns a puzzle lists: the first [`LISTED_WINS`] in notation's order.
fn listed_wins<G: Game>(game: &G, winning: &[Turn<G>]) -> Vec<String> {
    let mut texts: Vec<String> = winning.iter().map(|t| t.text(game)).collect();
    texts.sort();
    texts.truncate(LISTED_WINS);
    texts
}

/// The same puzzle worked out again by the solver as it now is (its id and moves kept),
/// if its position is still a puzzle of the same depth.
pub fn refreshed(kind: GameKind, puzzle: &Puzzle) -> Option<Puzzle> {
    with_game!(kind, G => {
        let game = puzzle.position::<G>().ok()?;
        let mut work = Work(PROOF_WORK);
        let again = puzzle_at(
            &game,
            &puzzle.moves,
            &puzzle.options,
            1..=puzzle.depth,
            &mut work,
        )?;
        (again.depth == puzzle.depth).then(|| Puzzle {
            id: puzzle.id.clone(),
            ..again
        })
    })
}

/// A first rating, on the players' scale: 1000 for a win in one that half the moves would
/// find, up by 350 a turn deeper and by up to 400 as the winning moves get rarer.
fn rating(depth: u32, winning: usize, turns: usize) -> u32 {
    let rarity = 1.0 - (winning as f64 / turns as f64).min(0.5) * 2.0;
    1000 + 350 * (depth - 1) + (400.0 * rarity) as u32
}

/// The puzzle's theme: the most telling thing the winning side's turns do, else how the
/// game is won.
fn theme(happenings: &[&str], reason: WinReason) -> String {
    let count = |name: &str| happenings.iter().filter(|h| **h == name).count();
    let theme = if count("capture") >= 2 {
        "multiple capture"
    } else if count("starvation") >= 2 {
        "multiple starvation"
    } else if count("absorption") >= 2 {
        "multiple absorption"
    } else if count("starvation") == 1 {
        "starvation"
    } else if count("absorption") == 1 {
        "absorption"
    } else if count("origination") > 0 {
        "origination"
    } else if count("consumption") > 0 {
        "consumption"
    } else if count("elimination") > 0 || count("capture") > 0 || count("fight won") > 0 {
        "capture"
    } else {
        match reason {
            WinReason::Forfeit => "forfeit",
            WinReason::Centre => "the state of primes",
            WinReason::Reduction => "reduction",
            _ => "the end of the game",
        }
    };
    theme.to_string()
}

/// Up to `count` puzzles of `set` to ship: half of them (or more, where there are too few
/// wins in one) deeper puzzles, every one of three turns then those of two spread evenly
/// over their ratings, and the rest wins in one spread evenly over theirs, so that a
/// newcomer's first puzzles are easy and a strong player's are deep. A puzzle that is
/// another's shot again (the same winning turns, in the same game a few moves on or back)
/// is passed over. The chosen are shipped without their moves.
pub fn select(set: &PuzzleSet, count: usize) -> PuzzleSet {
    let deeper = distinct(set.puzzles.iter().filter(|p| p.depth > 1).collect());
    let mut ones = distinct(set.puzzles.iter().filter(|p| p.depth == 1).collect());
    // A win in one that is a deeper puzzle's shot a few moves on is that puzzle again.
    ones.retain(|one| !deeper.iter().any(|deep| shot_again(deep, one)));
    let deeper_room = deeper
        .len()
        .min((count / 2).max(count.saturating_sub(ones.len())));
    let threes = deeper
        .iter()
        .take_while(|p| p.depth > 2)
        .count()
        .min(deeper_room);
    let mut kept: Vec<Puzzle> = deeper[..threes].iter().map(|p| (*p).clone()).collect();
    kept.extend(spread(&deeper[threes..], deeper_room - threes));
    kept.extend(spread(&ones, count - kept.len()));
    for puzzle in &mut kept {
        puzzle.moves.clear();
    }
    kept.sort_by(|a, b| a.rating.cmp(&b.rating).then(a.id.cmp(&b.id)));
    PuzzleSet {
        game: set.game,
        puzzles: kept,
    }
}

/// `puzzles` with each that is another's shot again left out, deepest first, then by
/// rating.
fn distinct(mut puzzles: Vec<&Puzzle>) -> Vec<&Puzzle> {
    puzzles.sort_by(|a, b| b.depth.cmp(&a.depth).then(a.rating.cmp(&b.rating)));
    let mut kept: Vec<&Puzzle> = Vec::new();
    for puzzle in puzzles {
        if !kept.iter().any(|other| shot_again(other, puzzle)) {
            kept.push(puzzle);
        }
    }
    kept
}

/// Whether two puzzles are one shot: the same winning turns, in the same game a few moves
/// on or back (without moves: in the same position).
fn shot_again(a: &Puzzle, b: &Puzzle) -> bool {
    if a.wins != b.wins {
        return false;
    }
    if a.moves.is_empty() || b.moves.is_empty() {
        return a.position == b.position;
    }
    let (short, long) = match a.moves.len() <= b.moves.len() {
        true => (&a.moves, &b.moves),
        false => (&b.moves, &a.moves),
    };
    long.starts_with(short)
}

/// Up to `room` of `puzzles` (in rating order) taken at even steps through them.
fn spread(puzzles: &[&Puzzle], room: usize) -> Vec<Puzzle> {
    if puzzles.is_empty() || room == 0 {
        return Vec::new();
    }
    let step = (puzzles.len() as f64 / room as f64).max(1.0);
    (0..room)
        .map(|i| (i as f64 * step) as usize)
        .take_while(|&at| at < puzzles.len())
        .map(|at| puzzles[at].clone())
        .collect()
}
