//! The puzzles: the shipped sets read and (a sample of them here, all of them in CI's
//! `puzzles prove`) prove again; a generated puzzle proves and a tampered one does not;
//! a try is judged by the solver, a wrong one refuted.

use std::collections::HashSet;
use tabula_learn::solve::{PROOF_WORK, Work, turns, wins_after};
use tabula_learn::{
    Puzzle, PuzzleProgress, generate, judge_puzzle, prove, puzzles_for, read_puzzles, select,
    write_puzzles, wrong_first_turn,
};
use tabula_session::GameKind;
use tabula_session::rules::Game;
use tabula_session::rules::adamas::Adamas;

/// Puzzles of each game proved in this test; CI proves every one (`puzzles prove`).
const SAMPLE: usize = 6;

#[test]
fn the_shipped_puzzles_read_and_a_sample_proves() {
    for kind in GameKind::ALL {
        let set = puzzles_for(kind).unwrap();
        assert_eq!(set.game, kind);
        assert!(
            set.puzzles.len() >= 300,
            "{kind:?}: {} puzzles",
            set.puzzles.len()
        );
        let ids: HashSet<&str> = set.puzzles.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), set.puzzles.len(), "{kind:?}: ids are unique");
        let step = (set.puzzles.len() / SAMPLE).max(1);
        for puzzle in set.puzzles.iter().step_by(step).take(SAMPLE) {
            prove(kind, puzzle).unwrap_or_else(|e| panic!("{}: {e}", puzzle.id));
        }
    }
}

/// Where a puzzle's moves lead, as a position string.
trait Replayed {
    fn replayed_position(&self) -> String;
}

impl Replayed for Puzzle {
    fn replayed_position(&self) -> String {
        let mut game = Adamas::new(Default::default()).unwrap();
        for text in &self.moves {
            let mv = game.parse_move(text).unwrap();
            game.apply(&mv).unwrap();
        }
        game.position_string()
    }
}

fn first_adamas_puzzle() -> Puzzle {
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    let run = generate::<Adamas>(&[], 1, 5, &mut seen, &mut |_| true, &mut |p| {
        found.push(p.clone())
    })
    .unwrap();
    assert_eq!(run.puzzles, found);
    run.puzzles.into_iter().next().unwrap()
}

#[test]
fn a_generated_puzzle_proves_and_a_tampered_one_does_not() {
    let puzzle = first_adamas_puzzle();
    prove(GameKind::Adamas, &puzzle).unwrap();
    // Written and read back as the shipped files are.
    let set = tabula_learn::PuzzleSet {
        game: GameKind::Adamas,
        puzzles: vec![puzzle.clone()],
    };
    assert_eq!(read_puzzles(&write_puzzles(&set)).unwrap(), set);

    let mut fewer = puzzle.clone();
    fewer.wins.pop();
    assert!(
        prove(GameKind::Adamas, &fewer)
            .unwrap_err()
            .contains("winning first turns")
    );
    let mut deeper = puzzle.clone();
    deeper.depth = 2;
    assert!(
        prove(GameKind::Adamas, &deeper)
            .unwrap_err()
            .contains("wins sooner")
    );
    let mut elsewhere = puzzle.clone();
    elsewhere.moves.pop();
    assert!(
        prove(GameKind::Adamas, &elsewhere)
            .unwrap_err()
            .contains("not to its position")
    );
    // As generated before positions were kept: its moves lead to it.
    let mut older = puzzle.clone();
    older.position.clear();
    prove(GameKind::Adamas, &older).unwrap();
    // As shipped: its position alone proves; another position does not.
    let mut shipped = puzzle.clone();
    shipped.moves.clear();
    prove(GameKind::Adamas, &shipped).unwrap();
    shipped.position = elsewhere.replayed_position();
    assert!(prove(GameKind::Adamas, &shipped).is_err());
    shipped.position = "not a position".into();
    assert!(
        prove(GameKind::Adamas, &shipped)
            .unwrap_err()
            .contains("position \"not a position\"")
    );
}

#[test]
fn a_try_is_judged_by_the_solver_and_a_wrong_one_refuted() {
    let puzzle = first_adamas_puzzle();
    let moves: Vec<String> = puzzle.line[..1].to_vec();
    assert_eq!(
        judge_puzzle(GameKind::Adamas, &puzzle, &moves),
        PuzzleProgress::Solved
    );
    // A first turn that does not win: the solver names an answer after which it does not.
    let wrong = wrong_first_turn(GameKind::Adamas, &puzzle).unwrap();
    let progress = judge_puzzle(GameKind::Adamas, &puzzle, &[wrong]);
    assert!(
        matches!(&progress, PuzzleProgress::Wrong { refutation: Some(answer) } if !answer.is_empty()),
        "{progress:?}"
    );
    assert!(matches!(
        judge_puzzle(GameKind::Adamas, &puzzle, &["z9-a1".into()]),
        PuzzleProgress::Illegal(_)
    ));
}

/// Puzzles of more than one turn: the solver answers a right first turn with its longest
/// defence, and the line played out is solved.
#[test]
fn a_deeper_puzzle_is_answered_turn_by_turn() {
    let (kind, puzzle) = GameKind::ALL
        .into_iter()
        .flat_map(|kind| {
            puzzles_for(kind)
                .unwrap()
                .puzzles
                .into_iter()
                .map(move |p| (kind, p))
        })
        .find(|(_, p)| p.depth >= 2)
        .expect("a puzzle of two turns or more among the shipped ones");
    let mut played: Vec<String> = Vec::new();
    for (i, turn) in puzzle.line.iter().enumerate() {
        played.extend(kind.split_moves(turn));
        let progress = judge_puzzle(kind, &puzzle, &played);
        if i + 1 == puzzle.line.len() {
            assert_eq!(progress, PuzzleProgress::Solved, "{}", puzzle.id);
        } else if i % 2 == 0 {
            assert!(
                matches!(progress, PuzzleProgress::Answer(_)),
                "{}: {progress:?}",
                puzzle.id
            );
        } else {
            assert_eq!(progress, PuzzleProgress::Continue, "{}", puzzle.id);
        }
    }
}

/// In a puzzle of several turns, the answer named as refuting a wrong first turn does
/// refute it: after it the player no longer wins within the turns left.
#[test]
fn the_refutation_of_a_wrong_turn_holds() {
    let set = puzzles_for(GameKind::Adamas).unwrap();
    let puzzle = set.puzzles.iter().find(|p| p.depth == 2).unwrap();
    let game = puzzle.position::<Adamas>().unwrap();
    let mover = game.to_move();
    let wrong = turns(&game, &mut Work(PROOF_WORK))
        .unwrap()
        .into_iter()
        .find(|t| {
            !t.after.status().is_over()
                && !wins_after(&t.after, mover, 1, &mut Work(PROOF_WORK)).unwrap()
        })
        .unwrap();
    let progress = judge_puzzle(GameKind::Adamas, puzzle, &[wrong.text(&game)]);
    let PuzzleProgress::Wrong {
        refutation: Some(answer),
    } = progress
    else {
        panic!("{progress:?}");
    };
    let mut after = wrong.after.clone();
    for text in Adamas::split_moves(&answer) {
        let mv = after.parse_move(&text).unwrap();
        after.apply(&mv).unwrap();
    }
    assert!(
        !wins_after(&after, mover, 1, &mut Work(PROOF_WORK)).unwrap(),
        "{answer}"
    );
}

fn made_up(id: usize, depth: u32, rating: u32) -> Puzzle {
    Puzzle {
        id: format!("p{id}"),
        options: Vec::new(),
        position: format!("p{id}"),
        moves: vec![format!("m{id}")],
        depth,
        wins: vec![format!("w{id}")],
        winning: 1,
        turns: 10,
        line: vec![format!("w{id}")],
        theme: "capture".into(),
        rating,
    }
}

#[test]
fn a_selection_is_half_deeper_puzzles_spread_over_their_ratings() {
    let count_of = |set: &tabula_learn::PuzzleSet, depth: u32| {
        set.puzzles.iter().filter(|p| p.depth == depth).count()
    };
    let mut puzzles: Vec<Puzzle> = (0..40).map(|i| made_up(i, 1, 1000 + i as u32)).collect();
    puzzles.extend((40..100).map(|i| made_up(i, 2, 1300 + i as u32)));
    puzzles.extend((100..103).map(|i| made_up(i, 3, 1700 + i as u32)));
    // A shot of puzzle 5 again, a move on in the same game: passed over.
    let mut again = made_up(5, 1, 1005);
    again.id = "again".into();
    again.moves.push("later".into());
    puzzles.push(again);
    // A win in one that is a deeper puzzle's shot a few moves on: passed over too.
    let mut follow_up = made_up(50, 1, 999);
    follow_up.id = "follow-up".into();
    follow_up.moves = vec!["m50".into(), "w50".into(), "answer".into()];
    puzzles.push(follow_up);
    let set = tabula_learn::PuzzleSet {
        game: GameKind::Adamas,
        puzzles,
    };
    let chosen = select(&set, 20);
    assert_eq!(chosen.puzzles.len(), 20);
    assert_eq!((count_of(&chosen, 3), count_of(&chosen, 2)), (3, 7));
    assert_eq!(count_of(&chosen, 1), 10);
    assert!(
        chosen
            .puzzles
            .iter()
            .all(|p| p.id != "again" && p.id != "follow-up")
    );
    assert!(chosen.puzzles.is_sorted_by_key(|p| p.rating));
    // Shipped without the moves that led there.
    assert!(chosen.puzzles.iter().all(|p| p.moves.is_empty()));
    // The wins in one chosen run from the easiest to near the hardest.
    let ones: Vec<u32> = chosen
        .puzzles
        .iter()
        .filter(|p| p.depth == 1)
        .map(|p| p.rating)
        .collect();
    assert_eq!(ones.first(), Some(&1000));
    assert!(*ones.last().unwrap() >= 1030, "{ones:?}");

    // Few wins in one: the deeper ones fill the room.
    let few = tabula_learn::PuzzleSet {
        game: GameKind::Adamas,
        puzzles: set
            .puzzles
            .iter()
            .filter(|p| p.depth > 1 || p.rating < 1003)
            .cloned()
            .collect(),
    };
    let chosen = select(&few, 20);
    assert_eq!((count_of(&chosen, 1), chosen.puzzles.len()), (3, 20));
}
