//! What is wrong with a course, for its tests and for whoever writes one.

use crate::check::{Progress, StepGame, check_turn, play_turn, replies_within_limit, start_of};
use crate::course::{Course, Need, Step};
use crate::teach::Teach;
use tabula_rules::Status;
use tabula_rules::text::quoted;
use tabula_session::with_game;

/// Every problem of `course`, each naming its step; empty when the course is sound: every
/// position reads, every watched move is legal, every highlighted cell is on the board,
/// every task names what its game knows, its solution does it, and some other legal turn
/// does not (and is told why).
pub fn problems(course: &Course) -> Vec<String> {
    let mut found = Vec::new();
    if course.steps.is_empty() {
        found.push("the course has no steps".to_string());
    }
    for (i, step) in course.steps.iter().enumerate() {
        let problems = with_game!(course.game, G => step_problems::<G>(course, step));
        found.extend(
            problems
                .into_iter()
                .map(|p| format!("step {} ({}): {p}", i + 1, quoted(&step.title))),
        );
    }
    found
}

fn step_problems<G: Teach>(course: &Course, step: &Step) -> Vec<String> {
    let mut found = Vec::new();
    if step.text.iter().all(|t| t.trim().is_empty()) {
        found.push("it says nothing".to_string());
    }
    let start = match start_of::<G>(step) {
        Ok(start) => start,
        Err(e) => return vec![e],
    };
    for label in &step.cells {
        if start.game.cell(label).is_none() {
            found.push(format!("{} is not a cell of this board", quoted(label)));
        }
    }
    let Some(task) = &step.task else {
        return found;
    };
    if start.game.status() != Status::Ongoing {
        found.push("the game is over before the task".to_string());
        return found;
    }
    if task.needs.is_empty() {
        found.push("its task needs nothing".to_string());
    }
    for need in &task.needs {
        found.extend(need_problem::<G>(&start, need));
    }
    let solution = G::split_moves(&task.solution);
    match check_turn(course.game, step, &solution) {
        Progress::Solved => {}
        other => found.push(format!(
            "its solution {} does not do the task: {other:?}",
            quoted(&task.solution)
        )),
    }
    if task.needs.iter().any(|n| matches!(n, Need::Prevents(_)))
        && let Ok(Some(turn)) = play_turn(&start, &solution)
        && !replies_within_limit(&turn.after)
    {
        found.push("its position has too many replies to check a Prevents need".to_string());
    }
    match failing_turn_in(course, step, &start) {
        Some((_, why)) if why.trim().is_empty() => {
            found.push("a turn that misses the task is not told why".to_string())
        }
        Some(_) => {}
        None => found.push("every legal turn does the task: it asks nothing".to_string()),
    }
    found
}

fn need_problem<G: Teach>(start: &StepGame<G>, need: &Need) -> Option<String> {
    let happening = |name: &String| {
        (!G::HAPPENINGS.iter().any(|h| h.name == name)).then(|| {
            format!(
                "{} is not something a {} move does (it knows {})",
                quoted(name),
                G::NAME,
                G::HAPPENINGS
                    .iter()
                    .map(|h| h.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    };
    let fact = |name: &String| {
        (!G::FACTS.iter().any(|f| f.name == name))
            .then(|| format!("{} is not a fact {} knows", quoted(name), G::NAME))
    };
    match need {
        Need::OneOf(turns) => {
            turns
                .iter()
                .find_map(|text| match play_turn(start, &G::split_moves(text)) {
                    Ok(Some(_)) => None,
                    Ok(None) => Some(format!("{} is not a whole turn", quoted(text))),
                    Err(e) => Some(e),
                })
        }
        Need::Does(name, _) | Need::Never(name) | Need::Prevents(name) => happening(name),
        Need::Holds(name) | Need::Lacks(name) => fact(name),
        Need::Wins => None,
    }
}

/// A legal turn that misses the step's task, with what the player is told: each legal
/// first move, its turn finished with the first legal moves after it. `None` when the
/// step cannot be set up or every such turn does the task.
pub fn failing_turn(course: &Course, step: &Step) -> Option<(Vec<String>, String)> {
    with_game!(course.game, G => {
        let start = start_of::<G>(step).ok()?;
        failing_turn_in(course, step, &start)
    })
}

fn failing_turn_in<G: Teach>(
    course: &Course,
    step: &Step,
    start: &StepGame<G>,
) -> Option<(Vec<String>, String)> {
    for first in start.game.legal_moves() {
        let mut game = start.game.clone();
        let mut texts = vec![game.format_move(&first)];
        game.play_unchecked(&first);
        while game.status() == Status::Ongoing && game.to_move() == start.mover {
            let next = game.legal_moves().next()?;
            texts.push(game.format_move(&next));
            game.play_unchecked(&next);
        }
        if let Progress::Missed(why) = check_turn(course.game, step, &texts) {
            return Some((texts, why));
        }
    }
    None
}
