//! `puzzle`: solving in the terminal, the solver answering; `puzzles generate`, `select`
//! and `prove`: the shipped sets made and checked; `puzzles tactics`: bots tried at them.

mod typed;

use tabula_learn::puzzles_for;
use tabula_session::GameKind;
use typed::{cli_with_input, text};

#[test]
fn a_puzzle_is_solved_in_the_terminal_by_its_line() {
    for kind in [GameKind::Adamas, GameKind::Adaptoid, GameKind::Adomoc] {
        let set = puzzles_for(kind).unwrap();
        let puzzle = set.puzzles.iter().find(|p| p.depth == 1).unwrap();
        let out = cli_with_input(
            &["puzzle", kind.key(), "--id", &puzzle.id],
            &format!("{}\n", puzzle.line[0]),
        );
        let shown = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(shown.contains("to play and win in this turn"), "{shown}");
        assert!(shown.contains("Solved!"), "{kind:?}: {shown}");
    }
}

#[test]
fn a_wrong_turn_is_refuted_and_show_gives_the_answer() {
    let set = puzzles_for(GameKind::Adamas).unwrap();
    let puzzle = set.puzzles.iter().find(|p| p.depth >= 2).unwrap();
    // Moving one piece somewhere quiet: find a first turn that is not among the wins.
    let game = puzzle
        .position::<tabula_session::rules::adamas::Adamas>()
        .unwrap();
    let wrong = tabula_learn::solve::turns(&game, &mut tabula_learn::solve::Work(1_000_000))
        .unwrap()
        .into_iter()
        .map(|t| t.text(&game))
        .find(|t| !puzzle.wins.contains(t))
        .unwrap();
    let out = cli_with_input(
        &["puzzle", "adamas", "--id", &puzzle.id],
        &format!("{wrong}\nshow\n"),
    );
    let shown = text(&out.stdout);
    assert!(
        shown.contains(&format!("win in {} turns", puzzle.depth)),
        "{shown}"
    );
    assert!(shown.contains("Not this"), "{shown}");
    assert!(
        shown.contains(&format!("The answer: {}", puzzle.wins.join(" or "))),
        "{shown}"
    );
}

#[test]
fn puzzles_are_generated_selected_and_proved() {
    let dir = tempfile::tempdir().unwrap();
    let made = dir.path().join("made.ron");
    let made = made.to_str().unwrap();
    let out = cli_with_input(
        &[
            "puzzles", "generate", "adamas", "--out", made, "--count", "3", "--seed", "7",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("adamas: 3 new puzzles (3 in all)"),
        "{}",
        text(&out.stdout)
    );
    let chosen = dir.path().join("chosen.ron");
    let chosen = chosen.to_str().unwrap();
    let out = cli_with_input(
        &["puzzles", "select", made, "--out", chosen, "--count", "2"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = cli_with_input(&["puzzles", "prove", chosen], "");
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("puzzles proved"),
        "{}",
        text(&out.stdout)
    );
    // A puzzle edited by hand no longer proves, and the verb says which.
    let edited = std::fs::read_to_string(chosen)
        .unwrap()
        .replacen("depth: 1", "depth: 3", 1);
    std::fs::write(chosen, edited).unwrap();
    let out = cli_with_input(&["puzzles", "prove", chosen], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("wins sooner"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn tactics_tables_the_share_each_bot_solves() {
    // Four puzzles spread over Adomoc's set: two wins in one, then two in two turns.
    let out = cli_with_input(
        &[
            "puzzles",
            "tactics",
            "adomoc",
            "--bots",
            "level:2,random",
            "--count",
            "4",
            "--jobs",
            "2",
        ],
        "",
    );
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shipped = puzzles_for(GameKind::Adomoc).unwrap().puzzles.len();
    assert!(
        shown.contains(&format!("4 of the {shipped} shipped puzzles")),
        "{shown}"
    );
    // Every level takes a win in one.
    let solved: usize = shown
        .lines()
        .find_map(|line| line.strip_prefix("level:2: "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no count for level 2: {shown}"));
    assert!(solved >= 2, "{shown}");
    assert!(
        shown.contains("| turns | theme | puzzles | level:2 | random |"),
        "{shown}"
    );
    assert!(shown.contains("| all | all | 4 |"), "{shown}");
    for wrong in [
        vec!["puzzles", "tactics", "adomoc", "--bots", "level:99"],
        vec!["puzzles", "tactics", "adomoc", "--jobs", "0"],
        vec!["puzzles", "tactics", "chess"],
    ] {
        let out = cli_with_input(&wrong, "");
        assert!(!out.status.success(), "{wrong:?} was taken");
        assert!(!text(&out.stderr).is_empty(), "{wrong:?} said nothing");
    }
}
