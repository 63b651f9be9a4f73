//! `learn`: a course in the terminal, as a person types at it; `learn check`: a course
//! file judged for its author.

mod typed;

use std::process::Output;
use tabula_learn::course_for;
use tabula_session::GameKind;
use typed::{cli_with_input, text};

fn learn_with_input(args: &[&str], input: &str) -> Output {
    let words: Vec<&str> = std::iter::once("learn")
        .chain(args.iter().copied())
        .collect();
    cli_with_input(&words, input)
}

/// Every course can be gone through by typing its solutions, each answered "Well done".
#[test]
fn a_course_is_done_by_typing_its_solutions() {
    for kind in GameKind::ALL {
        let course = course_for(kind).unwrap();
        let mut input = String::new();
        for step in &course.steps {
            match &step.task {
                Some(task) => input.push_str(&format!("{}\n\n", task.solution)),
                None => input.push('\n'),
            }
        }
        let out = learn_with_input(&[kind.key()], &input);
        let shown = text(&out.stdout);
        assert!(out.status.success(), "{kind:?}: {}", text(&out.stderr));
        let tasks = course.steps.iter().filter(|s| s.task.is_some()).count();
        assert_eq!(
            shown.matches("Well done.").count(),
            tasks,
            "{kind:?}:\n{shown}"
        );
        assert!(
            shown.contains(&format!("The {} course is done", kind.title())),
            "{shown}"
        );
    }
}

/// A wrong try is told why and set up again; `show` plays a solution; `quit` ends.
#[test]
fn a_miss_is_explained_and_show_plays_a_solution() {
    let course = course_for(GameKind::Adamas).unwrap();
    let step = course
        .steps
        .iter()
        .position(|s| s.title == "Multiple capture")
        .expect("the designer's multiple capture");
    let out = learn_with_input(
        &["adamas", "--step", &(step + 1).to_string()],
        "c2-c3\n9xa1-a2\nshow\nquit\n",
    );
    let shown = text(&out.stdout);
    assert!(out.status.success());
    assert!(
        shown.contains("Not quite. This turn had no capture"),
        "{shown}"
    );
    assert!(shown.contains("is not legal"), "{shown}");
    assert!(shown.contains("That does it."), "{shown}");
}

#[test]
fn course_files_are_checked_for_their_authors() {
    let dir = tempfile::tempdir().unwrap();
    let sound = format!(
        "{}/../../config/learn/adomoc.ron",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = learn_with_input(&["check", "--explain", &sound], "");
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        shown.contains("steps") && shown.contains("sound"),
        "{shown}"
    );
    assert!(shown.contains(" → "), "a miss explained: {shown}");

    let broken = dir.path().join("broken.ron");
    std::fs::write(
        &broken,
        r#"(game: Adamas, title: "T", about: "A.", steps: [(title: "S", text: ["x"],
            task: Some((goal: "g", needs: [Does("split", 1)], solution: "c1-c9")))])"#,
    )
    .unwrap();
    let out = learn_with_input(&["check", broken.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("step 1 (\"S\"): its solution"),
        "{}",
        text(&out.stdout)
    );

    std::fs::write(&broken, "(game: Adamas, title: 3)").unwrap();
    let out = learn_with_input(&["adamas", "--course", broken.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1"),
        "{}",
        text(&out.stderr)
    );
}
