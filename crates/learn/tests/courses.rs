//! The built-in courses: each step sound (its position reads, its solution does its task,
//! another legal turn misses it and is told why), each rules section it links to real,
//! and tries judged as the lesson panel and the terminal show them.

use tabula_learn::{
    Course, Need, Progress, Step, Task, built_in, check_turn, problems, read_course,
};
use tabula_session::GameKind;
use tabula_session::rules::Game;
use tabula_session::rules::absorption::Absorption;

/// The `## ` headings of the rules the app shows for `kind`: what a step's `rule` names.
fn rules_sections(kind: GameKind) -> Vec<String> {
    let path = format!(
        "{}/../../docs/rules/{}.md",
        env!("CARGO_MANIFEST_DIR"),
        kind.key()
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("## "))
        .map(|s| s.trim().to_string())
        .collect()
}

#[test]
fn every_built_in_course_is_sound() {
    let courses = built_in().unwrap();
    assert_eq!(courses.len(), 4);
    for (course, kind) in courses.iter().zip(GameKind::ALL) {
        assert_eq!(course.game, kind);
        let found = problems(course);
        assert!(found.is_empty(), "{kind:?}:\n{}", found.join("\n"));
        let sections = rules_sections(kind);
        for step in &course.steps {
            if let Some(rule) = &step.rule {
                assert!(
                    sections.contains(rule),
                    "{kind:?} step {:?} names the rules section {rule:?}, which is not one of {sections:?}",
                    step.title
                );
            }
        }
    }
}

#[test]
fn every_course_teaches_on_the_board() {
    for course in built_in().unwrap() {
        let tasks = course.steps.iter().filter(|s| s.task.is_some()).count();
        assert!(
            course.steps.len() >= 12 && tasks * 2 >= course.steps.len(),
            "{:?}: {} steps, {tasks} with a task",
            course.game,
            course.steps.len()
        );
        let linked = course.steps.iter().filter(|s| s.rule.is_some()).count();
        assert!(
            linked >= 5,
            "{:?}: {linked} steps link to the rules",
            course.game
        );
    }
}

fn adamas_step(position: &str, needs: Vec<Need>, solution: &str) -> Step {
    Step {
        title: "test".into(),
        position: Some(position.into()),
        text: vec!["A test step.".into()],
        task: Some(Task {
            goal: "Do it.".into(),
            needs,
            solution: solution.into(),
            miss: Some("Look again.".into()),
        }),
        ..Step::default()
    }
}

#[test]
fn a_try_is_judged_from_the_rules() {
    let start = ".../..../o8...x8/..../... o ox 0 0";
    let step = adamas_step(
        start,
        vec![Need::Does("part".into(), 4)],
        "c1-a1,c2,4xc3,e1",
    );
    let judge = |moves: &[&str]| {
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        check_turn(GameKind::Adamas, &step, &moves)
    };
    assert_eq!(judge(&["c1-a1,c2,4xc3,e1"]), Progress::Solved);
    match judge(&["c1-c2"]) {
        Progress::Missed(why) => {
            assert!(why.contains("the task needs 4"), "{why}");
            assert!(why.ends_with("Look again."), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // The rules' own reasons: a move that does not read, and one that is not legal.
    assert!(matches!(judge(&["c1-"]), Progress::Illegal(_)));
    match judge(&["9xc1-c2"]) {
        Progress::Illegal(why) => assert!(why.contains("9xc1-c2"), "{why}"),
        other => panic!("{other:?}"),
    }
    // A turn of one move has no second.
    match judge(&["c1-a1,c2,4xc3,e1", "c5-c4"]) {
        Progress::Illegal(why) => assert!(why.contains("turn was over"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_absorption_turn_goes_on_through_its_phases() {
    let course = tabula_learn::course_for(GameKind::Absorption).unwrap();
    let (step, task) = course
        .steps
        .iter()
        .find_map(|s| {
            let task = s.task.as_ref()?;
            let moves = <Absorption as Game>::split_moves(&task.solution);
            (moves.len() > 1).then_some((s, task))
        })
        .expect("an Absorption task of several moves");
    let moves = <Absorption as Game>::split_moves(&task.solution);
    assert_eq!(
        check_turn(GameKind::Absorption, step, &moves[..1]),
        Progress::Continue
    );
    assert_eq!(
        check_turn(GameKind::Absorption, step, &moves),
        Progress::Solved
    );
}

#[test]
fn a_prevents_need_names_the_reply_it_fears() {
    let course = tabula_learn::course_for(GameKind::Adamas).unwrap();
    let step = course
        .steps
        .iter()
        .find(|s| {
            s.task.as_ref().is_some_and(|t| {
                t.needs
                    .iter()
                    .any(|n| matches!(n, Need::Prevents(_) | Need::Lacks(_)))
            })
        })
        .expect("a step asking for safety");
    let (turn, why) = tabula_learn::failing_turn(&course, step).unwrap();
    assert!(!turn.is_empty());
    assert!(why.starts_with("After this turn"), "{why}");
}

/// Damaged course files (an author's typo, a file cut short) are refused with a short
/// reason, or read and then checked without a panic.
#[test]
fn damaged_courses_are_refused_or_checked_without_a_panic() {
    let corpus: Vec<Vec<u8>> = GameKind::ALL
        .iter()
        .map(|kind| {
            let path = format!(
                "{}/../../config/learn/{}.ron",
                env!("CARGO_MANIFEST_DIR"),
                kind.key()
            );
            std::fs::read(path).unwrap()
        })
        .collect();
    let mut mutator = tabula_mutate::Mutator::new(11);
    for _ in 0..300 {
        let input = mutator.next(&corpus);
        match read_course(&String::from_utf8_lossy(&input)) {
            Ok(course) => {
                for problem in problems(&course) {
                    tabula_mutate::check_error("course problem", &problem);
                }
            }
            Err(e) => tabula_mutate::check_error("course", &e),
        }
    }
}

#[test]
fn a_course_without_steps_or_with_unknown_names_is_unsound() {
    let empty = Course {
        game: GameKind::Adomoc,
        title: "Empty".into(),
        about: "Nothing.".into(),
        steps: Vec::new(),
    };
    assert_eq!(
        problems(&empty),
        vec!["the course has no steps".to_string()]
    );
    let start = ".../..../o8...x8/..../... o ox 0 0";
    let wrong = Course {
        game: GameKind::Adamas,
        title: "Wrong".into(),
        about: "Wrong names.".into(),
        steps: vec![
            adamas_step(start, vec![Need::Does("capturing".into(), 1)], "c1-c2"),
            adamas_step(start, vec![Need::Does("split".into(), 1)], "c1-c2"),
            Step {
                cells: vec!["z9".into()],
                ..adamas_step("not a position", vec![], "c1-c2")
            },
        ],
    };
    let found = problems(&wrong);
    assert!(
        found
            .iter()
            .any(|p| p.contains("\"capturing\" is not something")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("every legal turn does the task")),
        "{found:?}"
    );
    assert!(found.iter().any(|p| p.starts_with("step 3")), "{found:?}");
}
