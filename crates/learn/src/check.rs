//! Judging a try at a step's task: one turn of the side to move, read from the rules.

use crate::course::{Need, Step};
use crate::solve::{Work, turns};
use crate::teach::Teach;
use tabula_rules::text::quoted;
use tabula_rules::{Game, Player, Status};
use tabula_session::{GameKind, options, with_game};

/// How a try stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The moves so far are legal and the turn goes on (Absorption's phases).
    Continue,
    /// A move is not legal here: the rules' reason.
    Illegal(String),
    /// The turn is legal but does not do the task: why.
    Missed(String),
    /// The turn does the task.
    Solved,
}

/// A step's game ready for the task: its options, its position, and the watched moves
/// played.
#[derive(Clone, Debug)]
pub struct StepGame<G> {
    pub game: G,
    /// The player whose turn the task is.
    pub mover: Player,
}

/// The step's position with its watched moves played, or what is wrong with the step.
pub fn start_of<G: Game>(step: &Step) -> Result<StepGame<G>, String> {
    let options = options::options_from::<G>(&step.options)?;
    let mut game = match &step.position {
        Some(text) => G::from_position(options, text).map_err(|e| e.to_string())?,
        None => G::new(options).map_err(|e| e.to_string())?,
    };
    for (i, text) in step.watch.iter().enumerate() {
        play(&mut game, text).map_err(|e| format!("watched move {}: {e}", i + 1))?;
    }
    let mover = game.to_move();
    Ok(StepGame { game, mover })
}

/// The cells a step's words name, as the rules number them (and the board does); a label
/// not on the board is left out (a course's check reports it).
pub fn step_cells(kind: GameKind, step: &Step) -> Vec<usize> {
    with_game!(kind, G => match start_of::<G>(step) {
        Ok(start) => step
            .cells
            .iter()
            .filter_map(|label| start.game.cell(label))
            .collect(),
        Err(_) => Vec::new(),
    })
}

/// Parses and plays one move, returning what it did; an error is the rules' own reason.
fn play<G: Game>(game: &mut G, text: &str) -> Result<(G::Move, Vec<G::Event>), String> {
    let mv = game.parse_move(text).map_err(|e| e.to_string())?;
    let events = game
        .apply(&mv)
        .map_err(|e| format!("{} is not legal: {e}", quoted(text.trim())))?;
    Ok((mv, events))
}

/// Judges `moves` (in notation, the moves of the try so far) against the step's task.
pub fn check_turn(kind: GameKind, step: &Step, moves: &[String]) -> Progress {
    with_game!(kind, G => check_turn_in::<G>(step, moves))
}

/// The turn played out: its position after, its moves and what they did.
pub(crate) struct Turn<G: Game> {
    pub after: G,
    pub moves: Vec<G::Move>,
    pub happenings: Vec<&'static str>,
}

impl<G: Game> Turn<G> {
    fn is_over(&self, mover: Player) -> bool {
        self.after.status() != Status::Ongoing || self.after.to_move() != mover
    }
}

/// Plays the try's moves; `Ok(None)` while the turn goes on.
pub(crate) fn play_turn<G: Teach>(
    start: &StepGame<G>,
    moves: &[String],
) -> Result<Option<Turn<G>>, String> {
    let mut turn = Turn {
        after: start.game.clone(),
        moves: Vec::new(),
        happenings: Vec::new(),
    };
    for (i, text) in moves.iter().enumerate() {
        if turn.is_over(start.mover) {
            return Err(format!(
                "the turn was over after {} move{}; {} is one too many",
                i,
                if i == 1 { "" } else { "s" },
                quoted(text.trim())
            ));
        }
        let (mv, events) = play(&mut turn.after, text)?;
        turn.happenings
            .extend(G::happenings(start.mover, &mv, &events));
        turn.moves.push(mv);
    }
    Ok(turn.is_over(start.mover).then_some(turn))
}

fn check_turn_in<G: Teach>(step: &Step, moves: &[String]) -> Progress {
    let Some(task) = &step.task else {
        return Progress::Missed("this step has no task: read it and go on".into());
    };
    let start = match start_of::<G>(step) {
        Ok(start) => start,
        Err(e) => return Progress::Illegal(format!("this step cannot be set up: {e}")),
    };
    let turn = match play_turn(&start, moves) {
        Ok(Some(turn)) => turn,
        Ok(None) => return Progress::Continue,
        Err(e) => return Progress::Illegal(e),
    };
    match task
        .needs
        .iter()
        .find_map(|need| unmet(&start, &turn, need))
    {
        None => Progress::Solved,
        Some(why) => Progress::Missed(match &task.miss {
            Some(miss) => format!("{why} {miss}"),
            None => why,
        }),
    }
}

/// Why the turn does not meet `need`, or `None` when it does.
pub(crate) fn unmet<G: Teach>(start: &StepGame<G>, turn: &Turn<G>, need: &Need) -> Option<String> {
    let mover = start.mover;
    match need {
        Need::OneOf(turns) => {
            let listed = turns.iter().any(|text| {
                let moves = G::split_moves(text);
                matches!(play_turn(start, &moves), Ok(Some(listed)) if listed.moves == turn.moves)
            });
            (!listed).then(|| "That is not the move this step asks for.".to_string())
        }
        Need::Does(name, times) => {
            let done = count(&turn.happenings, name);
            (done < *times).then(|| {
                let (noun, plural) = words::<G>(name);
                let made = match done {
                    0 => format!("no {noun}"),
                    1 => format!("1 {noun}"),
                    n => format!("{n} {plural}"),
                };
                let needed = if *times == 1 {
                    with_article(noun)
                } else {
                    format!("{times} {plural}")
                };
                format!("This turn had {made}; the task needs {needed}.")
            })
        }
        Need::Never(name) => (count(&turn.happenings, name) > 0).then(|| {
            let (noun, _) = words::<G>(name);
            format!(
                "This turn had {}, which the task rules out.",
                with_article(noun)
            )
        }),
        Need::Wins => {
            let won = crate::solve::won_by(&turn.after, mover);
            (!won).then(|| "This turn does not win the game.".to_string())
        }
        Need::Prevents(name) => reply_doing::<G>(&turn.after, name).map(|reply| {
            // Happenings are worded for the side that makes them ("an enemy adaptoid
            // starved"), so the reply's is said as the answering side's.
            let (noun, _) = words::<G>(name);
            let answerer = turn.after.player_name(turn.after.to_move());
            format!(
                "After this turn, {answerer} can answer {reply}: for {answerer}, {}.",
                with_article(noun)
            )
        }),
        Need::Holds(name) => (!turn.after.holds(mover, name))
            .then(|| format!("After this turn {}.", fact::<G>(name).1)),
        Need::Lacks(name) => turn
            .after
            .holds(mover, name)
            .then(|| format!("After this turn {}.", fact::<G>(name).0)),
    }
}

/// "a capture", "an absorption".
fn with_article(noun: &str) -> String {
    let vowel = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

fn count(happenings: &[&str], name: &str) -> u32 {
    happenings.iter().filter(|h| **h == name).count() as u32
}

fn words<G: Teach>(name: &str) -> (&'static str, &'static str) {
    G::HAPPENINGS
        .iter()
        .find(|h| h.name == name)
        .map_or(("(unknown)", "(unknown)"), |h| (h.noun, h.plural))
}

fn fact<G: Teach>(name: &str) -> (&'static str, &'static str) {
    G::FACTS
        .iter()
        .find(|f| f.name == name)
        .map_or(("(unknown)", "(unknown)"), |f| (f.holds, f.lacks))
}

/// The most positions a `Prevents` need looks through: far more than any lesson's
/// position needs, so a step that would need more is reported as a problem in its course.
pub(crate) const REPLY_SEARCH_LIMIT: u64 = 200_000;

/// A turn of the player to move in `game` that does `name`, in notation (`;` between its
/// moves), or `None` when no turn does (or the turns outrun the limit, which a course's
/// check reports).
pub(crate) fn reply_doing<G: Teach>(game: &G, name: &str) -> Option<String> {
    let replier = game.to_move();
    turns(game, &mut Work(REPLY_SEARCH_LIMIT))?
        .into_iter()
        .find(|turn| {
            let mut replay = game.clone();
            turn.moves.iter().any(|mv| {
                let events = replay.apply(mv).unwrap_or_default();
                G::happenings(replier, mv, &events).contains(&name)
            })
        })
        .map(|turn| turn.text(game))
}

/// Whether `reply_doing` looks through every reply of `game` within its limit.
pub(crate) fn replies_within_limit<G: Teach>(game: &G) -> bool {
    turns(game, &mut Work(REPLY_SEARCH_LIMIT)).is_some()
}
