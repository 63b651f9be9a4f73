//! The verbs as a person or a script uses them: output forms and exit codes.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
        .args(args)
        .output()
        .expect("tabula-cli runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs the verb, which must succeed (else its standard error says why), for its output.
fn succeeded(args: &[&str]) -> String {
    let out = cli(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(&out)
}

/// Runs `play GAME --position POSITION --seats human,random` with `input` on stdin.
fn play_with_input(game: &str, position: &str, input: &[u8]) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
        .args([
            "play",
            game,
            "--position",
            position,
            "--seats",
            "human,random",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    stdout(&child.wait_with_output().unwrap())
}

#[test]
fn moves_count_prints_one_line() {
    let out = cli(&["moves", "adamas", "--count"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "6434 moves\n");
    let out = cli(&["moves", "adamas", "--option", "size=4", "--count"]);
    assert_eq!(stdout(&out), "1352077 moves\n");
}

#[test]
fn moves_lists_every_move_then_the_total() {
    let out = cli(&["moves", "adamas", "--record", "c1-a1,c2,4xc3,e1 c5-c4,3xe3"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 579);
    assert_eq!(lines.last(), Some(&"578 moves"));
    assert!(lines.contains(&"a1,c2,3xc3-b2"));
}

#[test]
fn perft_prints_a_line_per_depth() {
    let out = cli(&["perft", "adamas", "--option", "size=2", "--depth", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines, ["1 34", "2 951", "3 19484"]);
}

#[test]
fn apply_prints_events_and_the_position() {
    let out = cli(&[
        "apply",
        "adamas",
        "--position",
        ".x2./..../x2x2.o4./..../x1o4x1 x ox 5 0",
        "c2-c4,e2",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("captured O's stack of 4 on c4"), "{text}");
    assert!(text.contains("game over: X wins"), "{text}");
    assert!(
        text.ends_with(".x2./..../x2..x1./..../x1x1x1 x -x 6 0\n"),
        "{text}"
    );
}

#[test]
fn illegal_and_malformed_moves_exit_with_status_2_and_a_reason() {
    for (args, needle) in [
        (vec!["apply", "adamas", "8xc1-c5"], "first move"),
        (vec!["apply", "adamas", "c1-q9"], "not a cell"),
        (vec!["show", "adamas", "--position", "nonsense"], "position"),
        (vec!["show", "adamas", "--option", "size=12"], "size"),
        (
            vec!["show", "adamas", "--record", "c1-c2 c1-c3"],
            "record move 2",
        ),
        (vec!["show", "chess"], "unknown game"),
    ] {
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn random_games_check_invariants_and_report_outcomes() {
    let out = cli(&["random", "adamas", "--games", "20", "--seed", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.starts_with("20 random games of adamas (seed 3)"),
        "{text}"
    );
    assert!(text.contains("every invariant held"), "{text}");
    assert!(text.contains(" plies a second"), "{text}");
    // All but the speed, which is the last line.
    let games = |text: &str| {
        text.lines()
            .filter(|l| !l.contains(" s: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let again = cli(&["random", "adamas", "--games", "20", "--seed", "3"]);
    assert_eq!(
        games(&stdout(&again)),
        games(&text),
        "the same seed gives the same games"
    );

    // --plies plays whole games until that many plies are checked.
    let out = cli(&["random", "absorption", "--plies", "500", "--seed", "1"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let plies: u64 = text
        .lines()
        .find_map(|l| l.split_once(" plies checked in "))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(plies >= 500, "{text}");
}

#[test]
fn play_reads_moves_until_the_game_ends_or_input_does() {
    // X's a3 and O's e1 see each other along a diagonal: O captures and wins.
    let text = play_with_input(
        "adamas",
        "..x1/..../...../..../o1.. o ox 9 0",
        b"moves\ne1-q1\ne1-a3\n",
    );
    assert!(text.contains("cannot read move"), "{text}");
    assert!(text.contains("O plays e1-a3"), "{text}");
    assert!(text.contains("O wins"), "{text}");
    assert!(text.contains("Position:"), "{text}");
}

#[test]
fn play_asks_again_after_a_line_that_is_not_utf8() {
    // Before, such a line read as the end of input and the game was left unfinished.
    let text = play_with_input(
        "adamas",
        "..x1/..../...../..../o1.. o ox 9 0",
        b"\xff\xfe\ne1-a3\n",
    );
    assert!(text.contains("not UTF-8 text"), "{text}");
    assert!(text.contains("O plays e1-a3"), "{text}");
    assert!(text.contains("O wins"), "{text}");
}

#[test]
fn absorption_verbs() {
    let out = cli(&["moves", "absorption", "--count"]);
    assert_eq!(stdout(&out), "50 moves\n");
    let out = cli(&["perft", "absorption", "--depth", "3"]);
    assert_eq!(stdout(&out), "1 50\n2 554\n3 20628\n");

    // A whole turn in one record, phases separated by ';' as in absorption.md §6.
    let out = cli(&["apply", "absorption", "c1/b2:2,c2:1", "c2>c4", "pass"]);
    assert!(
        !out.status.success(),
        "the follow-up ended the turn; pass is illegal"
    );
    let out = cli(&[
        "show",
        "absorption",
        "--record",
        "c1/b2:2,c2:1 c2>c4; f8/e7:2,f7:1 pass",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("4  .  . L1"), "{text}");
    assert!(text.contains("Light must split or merge"), "{text}");
    assert!(
        text.contains("Position: D3D3D33D3D3/4D2D12/8/8/2L15/8/1L26/L3L33L3L3L3 l a 3 4"),
        "{text}"
    );

    let out = cli(&["apply", "absorption", "c1/b2:2,c2:9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("count from 1 to 2"));
    let out = cli(&["random", "absorption", "--games", "5", "--seed", "4"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("every invariant held"));
}

#[test]
fn play_absorption_a_turn_per_line() {
    let text = play_with_input(
        "absorption",
        "7D3/8/8/8/2L3D2L13/8/8/L3L3L3L3L3L3L3L3 l b:-:-:- 9 40",
        b"help\npass\n",
    );
    assert!(text.contains("absorb xd4[c4:1,e4:1]"), "{text}");
    assert!(
        text.contains("Light absorbed Dark's stack of 2 on d4: 2 to e4"),
        "{text}"
    );
    assert!(
        text.contains("Light wins (the opponent controls 3 pieces or fewer)"),
        "{text}"
    );
}

#[test]
fn adaptoid_verbs() {
    let out = cli(&["moves", "adaptoid", "--count"]);
    assert_eq!(stdout(&out).trim(), "8 moves");
    // A record's turns: a move and its growth together, or a growth alone.
    let out = cli(&[
        "show",
        "adaptoid",
        "--record",
        "d2+L d6+L d2-d3 +d2 d6-d5 d5+P",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("Position: ..../...../....../.W00W10.B11../....../...../.... w 0-0 4"),
        "{text}"
    );
    let out = cli(&["apply", "adaptoid", "d2-d4 +d3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no legs"));
    // A Super-Adaptoid board read from a file.
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../boards/super-adaptoid-example.txt"
    );
    let out = cli(&["show", "adaptoid", "--option", &format!("board=@{board}")]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("c1  c2  c3"), "{}", stdout(&out));
    let out = cli(&["show", "adaptoid", "--option", "board=@/no/such/board"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read \"/no/such/board\""));
    let out = cli(&["random", "adaptoid", "--games", "5", "--seed", "4"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("every invariant held"));
}

#[test]
fn play_adaptoid_the_fork() {
    let text = play_with_input(
        "adaptoid",
        "..../..W10../....../..B00B22.../....../...../.... w 4-2 0",
        b"help\nb3-c4 +c3\n",
    );
    assert!(text.contains("add a leg d4+L"), "{text}");
    assert!(
        text.contains("Black's adaptoid on d4 (2 leg(s), 2 pincer(s)) starved"),
        "{text}"
    );
    assert!(
        text.contains("White wins (reached the capture target)"),
        "{text}"
    );
}

#[test]
fn adomoc_verbs() {
    let out = cli(&["moves", "adomoc", "--count"]);
    assert_eq!(stdout(&out).trim(), "23 moves");
    let out = cli(&["show", "adomoc", "--record", "Fa3a6 Ff3f5 Fa6a8"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("  8    F   .   .   .   . |  .   .   .   .   ."),
        "{text}"
    );
    let out = cli(&["apply", "adomoc", "Mb2c3oa3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no origin space on cycle 3"));
    let out = cli(&[
        "random",
        "adomoc",
        "--games",
        "2",
        "--seed",
        "4",
        "--max-plies",
        "300",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("every invariant held"));
}

#[test]
fn play_adomoc_the_winning_move() {
    let text = play_with_input(
        "adomoc",
        "........s./........../........../........../........../S^........./........../..F^....m^../. l 0 -",
        b"help\nS^a6o9*\n",
    );
    assert!(text.contains("Mc7a5oa3"), "{text}");
    assert!(text.contains("Light is in a state of primes"), "{text}");
    assert!(
        text.contains("Light wins (the prime sun reached the centre in a state of primes)"),
        "{text}"
    );
}

#[test]
fn match_plays_rotating_seats_and_reports_the_score() {
    let text = succeeded(&[
        "match",
        "adaptoid",
        "--bots",
        "mcts:iters=40,random",
        "--games",
        "2",
        "--seed",
        "3",
    ]);
    assert!(text.contains("game   1 (bot 1 v bot 2)"), "{text}");
    assert!(text.contains("game   2 (bot 2 v bot 1)"), "{text}");
    let score = |bot: &str| {
        let line = text.lines().find(|l| l.starts_with(bot)).unwrap();
        let numbers: Vec<u64> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        (numbers[1], numbers[2], numbers[3])
    };
    let (w1, d1, l1) = score("bot 1:");
    let (w2, d2, l2) = score("bot 2:");
    assert_eq!((w1 + d1 + l1, w1, d1), (2, l2, d2), "{text}");
    assert_eq!(l1, w2);
    assert!(text.contains("Elo difference, bot 1 over bot 2:"), "{text}");
}

/// A match stopped early is finished with `--from-game`: the same games as the whole
/// match's last ones, seats and results alike.
#[test]
fn match_from_a_game_plays_the_whole_matchs_last_games() {
    let games = |extra: &[&str]| {
        let mut words = vec![
            "match",
            "adaptoid",
            "--bots",
            "mcts:iters=40,random",
            "--games",
            "4",
            "--seed",
            "3",
        ];
        words.extend_from_slice(extra);
        let text = succeeded(&words);
        let lines: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with("game "))
            .map(str::to_string)
            .collect();
        (text, lines)
    };
    let (_, whole) = games(&[]);
    let (text, last) = games(&["--from-game", "3"]);
    assert!(text.contains("games 3 to 4"), "{text}");
    assert_eq!(whole.len(), 4, "{whole:?}");
    assert_eq!(last, whole[2..], "{text}");

    let out = cli(&[
        "match",
        "adaptoid",
        "--bots",
        "random,random",
        "--games",
        "4",
        "--from-game",
        "5",
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--from-game 5 is past the match's last game, 4"),
        "{out:?}"
    );
}

#[test]
fn hint_names_a_legal_move_and_its_evaluation() {
    let text = succeeded(&["hint", "adomoc", "--bot", "mcts:iters=300", "--seed", "2"]);
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("best move: "))
        .unwrap_or_else(|| panic!("{text}"));
    let mv = best.split_whitespace().next().unwrap();
    assert!(
        best.contains("win chance") && best.contains("300 iterations"),
        "{text}"
    );
    // The move it names is legal at the start.
    let applied = cli(&["apply", "adomoc", mv]);
    assert!(applied.status.success(), "{mv}: {}", stdout(&applied));
}

#[test]
fn bad_bot_specs_exit_with_status_2_and_a_reason() {
    let out = cli(&["match", "adaptoid", "--bots", "level:17,random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("level:N must be 1 to 16, not \"17\""));
    // A level another game has but this one does not: named where the game is known.
    let out = cli(&["match", "adaptoid", "--bots", "level:14,random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("level:14: adaptoid has levels 1 to 13"));
    let out = cli(&["play", "adaptoid", "--seats", "human,level:14"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--seats: level:14: adaptoid has levels")
    );
    let out = cli(&["hint", "adamas", "--bot", "level:16"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("level:16: adamas has levels 1 to 11"));
    let out = cli(&["hint", "adamas", "--bot", "uct"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a budget"));
    let out = cli(&["match", "adamas", "--bots", "random"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 to 2"));
}

#[test]
fn options_lists_every_option_with_its_origin() {
    for (game, keys) in [
        (
            "adamas",
            &["size", "pieces", "players", "prog_cap", "capture_cap"][..],
        ),
        ("absorption", &["dark_first", "turn_cap"][..]),
        ("adaptoid", &["pie_start", "board"][..]),
        ("adomoc", &["spirals", "infinite", "ply_cap"][..]),
    ] {
        let out = cli(&["options", game]);
        assert!(out.status.success(), "{out:?}");
        let text = stdout(&out);
        for key in keys {
            assert!(
                text.contains(&format!("\n{key} (")) || text.starts_with(&format!("{key} (")),
                "{game} {key}: {text}"
            );
        }
        assert!(text.contains("a Tabula addition"), "{text}");
    }
    let text = stdout(&cli(&["options", "adamas"]));
    assert!(
        text.contains("default: 3, or 4 with three players"),
        "{text}"
    );
}

#[test]
fn review_prints_a_line_a_move_then_a_summary_a_player() {
    // A game between random players, as `play` prints it.
    let played = stdout(&cli(&[
        "play",
        "adaptoid",
        "--seats",
        "random,random",
        "--seed",
        "3",
    ]));
    let moves: Vec<&str> = played
        .lines()
        .filter_map(|l| l.split_once(" plays ").map(|(_, mv)| mv))
        .take(16)
        .collect();
    assert_eq!(moves.len(), 16, "{played}");
    let record = moves.join(";");
    let out = cli(&[
        "review",
        "adaptoid",
        "--record",
        &record,
        "--bot",
        "mcts:iters=100",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("review by "), "{text}");
    assert!(
        lines[1].contains("before") && lines[1].contains("better"),
        "{text}"
    );
    for (i, mv) in moves.iter().enumerate() {
        let line = lines[2 + i];
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[0], (i + 1).to_string(), "{line}");
        assert!(line.contains(mv), "{line} should show {mv}");
        assert_eq!(line.matches('%').count(), 2, "{line}");
    }
    let summaries = &lines[2 + moves.len()..];
    assert_eq!(summaries.len(), 2, "{text}");
    for line in summaries {
        assert!(
            line.contains(": ") && line.contains("average loss") && line.ends_with('%'),
            "{line}"
        );
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("reviewed 17 positions"));
}

#[test]
fn review_studies_on_the_jobs_and_a_budget_of_iterations_on_its_own_threads() {
    let first = stdout(&cli(&["moves", "adaptoid"]));
    let first = first.lines().next().unwrap().to_string();
    // The table on stdout, the last word on stderr.
    let review = |extra: &[&str]| {
        let mut words = vec!["review", "adaptoid", "--record", &first];
        words.extend_from_slice(extra);
        let out = cli(&words);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{err}");
        (stdout(&out), err)
    };
    // A search for time: each move played studied on the jobs (the search on one thread).
    let (_, err) = review(&["--bot", "mcts:ms=50", "--jobs", "2"]);
    assert!(err.contains("studied on 2 threads;"), "{err}");
    let (_, err) = review(&["--bot", "mcts:ms=50", "--jobs", "1"]);
    assert!(err.contains("studied on 1 thread;"), "{err}");
    // Iterations are a level's measured strength: they keep one thread, and the review its
    // seed's judgement, whatever the jobs.
    let (counted, err) = review(&["--bot", "mcts:iters=200", "--jobs", "1"]);
    assert!(err.contains("studied on 1 thread;"), "{err}");
    let (again, err) = review(&["--bot", "mcts:iters=200", "--jobs", "2"]);
    assert!(err.contains("studied on 1 thread;"), "{err}");
    assert_eq!(again, counted);
}

#[test]
fn review_needs_moves_and_a_bot_that_searches() {
    let out = cli(&["review", "adomoc"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--record"));
    let out = cli(&["review", "adomoc", "--record", "", "--bot", "mcts:iters=10"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no moves"));
    let first = stdout(&cli(&["moves", "adomoc"]));
    let first = first.lines().next().unwrap();
    let out = cli(&["review", "adomoc", "--record", first, "--bot", "random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("searches"));
}
