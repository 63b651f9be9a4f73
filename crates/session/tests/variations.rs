//! Variations: an analysis board's side lines, kept in the match's tree, promoted, deleted
//! and returned from, and carried through records (format 2) while format 1 still loads.

mod common;

use common::random_any;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_bot::BotSpec;
use tabula_session::{AnyMatch, GameKind, Loaded, MoveTree, Record, Seat, Variation, new_match};

fn strings(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// A legal move other than the next one of the line, if the position has one.
fn other_move(game: &dyn AnyMatch, rng: &mut SmallRng) -> Option<String> {
    let next = game.line().get(game.record().len()).cloned();
    let (moves, _) = game.legal_moves(200);
    let others: Vec<String> = moves
        .into_iter()
        .filter(|m| Some(m) != next.as_ref())
        .collect();
    (!others.is_empty()).then(|| others[rng.random_range(0..others.len())].clone())
}

fn random_move(game: &dyn AnyMatch, seed: u64) -> Option<String> {
    game.thinker(&BotSpec::Random, seed).best_move()
}

/// An Absorption game of 6 moves with a variation of 3 at ply 2 and one of 1 inside it.
fn explored() -> (Box<dyn AnyMatch>, Vec<String>) {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut game = random_any(GameKind::Absorption, &mut rng, 6);
    let main = game.line().to_vec();
    assert_eq!(main.len(), 6);
    game.set_exploring(true);
    game.go_to(2).unwrap();
    for _ in 0..3 {
        let mv = other_move(game.as_ref(), &mut rng).unwrap();
        game.play_notation(&mv).unwrap();
    }
    game.go_to(3).unwrap();
    let mv = other_move(game.as_ref(), &mut rng).unwrap();
    game.play_notation(&mv).unwrap();
    (game, main)
}

#[test]
fn a_move_that_leaves_the_line_while_exploring_starts_a_variation() {
    let (game, main) = explored();
    assert_eq!(game.main_line(), main, "the game's own line is unchanged");
    assert!(!game.on_main_line());
    assert_eq!(game.record().len(), 4);
    assert_eq!(game.main_line_ply(), 2);
    let variations = game.variations();
    assert_eq!(variations.len(), 2);
    assert_eq!((variations[0].of, variations[0].ply), (0, 2));
    assert_eq!(variations[0].moves.len(), 3);
    // The inner side line leaves the first one (number 1) at its second move.
    assert_eq!((variations[1].of, variations[1].ply), (1, 3));
    assert_eq!(variations[1].moves.len(), 1);
    assert_eq!(
        game.record()[..3],
        variations[0].moves[..1]
            .iter()
            .fold(main[..2].to_vec(), |mut line, mv| {
                line.push(mv.clone());
                line
            })[..]
    );

    // The rows read main move, then the variation played instead of it, indented.
    let rows = game.tree().rows();
    let shown: Vec<(usize, usize, bool)> = rows
        .iter()
        .map(|r| (r.ply, r.depth, r.starts_variation))
        .collect();
    assert_eq!(
        shown,
        [
            (1, 0, false),
            (2, 0, false),
            (3, 0, false),
            (3, 1, true),
            (4, 1, false),
            (4, 2, true),
            (5, 1, false),
            (4, 0, false),
            (5, 0, false),
            (6, 0, false),
        ]
    );
}

#[test]
fn going_to_a_move_follows_its_line_and_returning_goes_back_where_it_left() {
    let (mut game, main) = explored();
    let variation = game.variations()[0].clone();
    let rows = game.tree().rows();
    // The variation's last move: the position after it is the variation's line.
    let last = rows
        .iter()
        .find(|r| r.ply == 5 && r.depth == 1)
        .unwrap()
        .node;
    game.go_to_node(last).unwrap();
    let mut expected = main[..2].to_vec();
    expected.extend(variation.moves.iter().cloned());
    assert_eq!(game.record(), expected);
    let mut replayed = new_match(GameKind::Absorption, &[]).unwrap();
    for mv in &expected {
        replayed.play_notation(mv).unwrap();
    }
    assert_eq!(game.position_string(), replayed.position_string());

    game.return_from_variation().unwrap();
    assert_eq!(game.record(), &main[..2]);
    assert_eq!(game.line(), main, "back on the line it left");
    assert!(game.on_main_line());
    assert_eq!(
        game.return_from_variation().unwrap_err(),
        "this is the main line"
    );

    // Replaying a variation's move by hand follows it rather than adding it again.
    game.play_notation(&variation.moves[0]).unwrap();
    assert_eq!(game.variations()[0], variation);
}

#[test]
fn promoting_and_deleting_change_the_tree_not_the_game_position() {
    let (mut game, main) = explored();
    let here = game.position_string();
    let inner = game.node();
    assert!(
        game.promote(inner),
        "the inner variation becomes its line's own"
    );
    assert_eq!(game.position_string(), here);
    let variations = game.variations();
    assert_eq!(
        variations[0].moves.len(),
        2,
        "its old continuation is now inside it"
    );
    assert_eq!((variations[1].of, variations[1].ply), (1, 3));
    assert!(game.promote(inner), "and then the main line");
    assert_eq!(game.main_line().len(), 4);
    assert!(game.on_main_line());
    assert!(!game.promote(inner), "nothing is above the main line");
    assert_eq!(game.main_line_ply(), 4);

    // The old main line is a variation now: delete it and the game is the new line.
    let old = game
        .tree()
        .rows()
        .iter()
        .find(|r| r.starts_variation && r.ply == 3)
        .unwrap()
        .node;
    assert_eq!(game.tree().text(old), main[2]);
    game.delete_variation(old).unwrap();
    assert!(!game.tree().contains(old));
    assert_eq!(game.position_string(), here);
    assert!(game.delete_variation(old).is_err());
    let main_move = game.path()[0];
    assert_eq!(
        game.delete_variation(main_move).unwrap_err(),
        "the main line is the game itself and is not deleted"
    );
}

#[test]
fn deleting_the_variation_the_position_is_in_goes_back_to_where_it_began() {
    let (mut game, main) = explored();
    let start = game.tree().variation_start(game.node()).unwrap();
    let outer = game
        .tree()
        .variation_start(game.tree().parent(start).unwrap())
        .unwrap();
    game.delete_variation(outer).unwrap();
    assert_eq!(game.record(), &main[..2]);
    assert_eq!(game.line(), main);
    assert!(game.variations().is_empty());
    assert!(!game.tree().has_variations());
}

#[test]
fn a_game_not_exploring_replaces_the_moves_after_it_as_before() {
    let mut rng = SmallRng::seed_from_u64(9);
    for kind in GameKind::ALL {
        let mut game = random_any(kind, &mut rng, 8);
        game.go_to(3).unwrap();
        let mv = other_move(game.as_ref(), &mut rng).unwrap();
        game.play_notation(&mv).unwrap();
        assert_eq!(game.line().len(), 4, "{kind:?}");
        assert_eq!(game.main_line(), game.line());
        assert!(game.variations().is_empty(), "{kind:?}");
    }
}

#[test]
fn records_keep_variations_and_write_format_1_without_them() {
    let (game, main) = explored();
    let record = Record::of(game.as_ref(), &[]);
    assert_eq!(record.tabula_record, 2);
    assert_eq!(record.moves, main);
    assert_eq!(
        record.at,
        Some(2),
        "the position's variation leaves the main line at ply 2"
    );
    let text = record.to_ron();
    assert!(text.contains("variations:"), "{text}");
    let read = Record::parse(&text).unwrap();
    assert_eq!(read, record);
    let loaded = read.load().unwrap();
    assert_eq!(loaded.game.variations(), game.variations());
    assert_eq!(loaded.game.main_line(), main);
    assert_eq!(loaded.game.record(), &main[..2]);
    assert!(
        !loaded.game.is_exploring(),
        "a loaded game plays on as a game"
    );

    let plain = new_match(GameKind::Absorption, &[]).unwrap();
    let text = Record::of(plain.as_ref(), &[]).to_ron();
    assert!(text.contains("tabula_record: 1"), "{text}");
    assert!(!text.contains("variations"), "{text}");
}

#[test]
fn records_written_before_variations_still_load() {
    let format_1 = r#"(
    tabula_record: 1,
    game: "adaptoid",
    options: [],
    start: None,
    seats: ["human", "level:3"],
    moves: ["+c1", "+c5"],
    at: Some(1),
    result: None,
)"#;
    let loaded = Record::parse(format_1).unwrap().load().unwrap();
    assert_eq!(loaded.game.line(), strings(&["+c1", "+c5"]));
    assert_eq!(loaded.game.record().len(), 1);
    assert!(loaded.game.variations().is_empty());
    // Its level:3 was the former level 3, played now by the level named for it.
    let former_3 = tabula_bot::Levels::built_in()
        .from_former(loaded.game.kind().key(), 3)
        .unwrap();
    assert_ne!(former_3, 3);
    assert_eq!(loaded.seats[1], Seat::Bot(former_3 as u8));
    written_again_keeps_its_seats(&loaded);
    let error = load_error(&format_1.replace("level:3", "level:7"));
    assert!(error.contains("level:1 to level:5"), "{error}");
}

#[test]
fn records_of_the_shared_ladder_keep_their_opponents() {
    // Format 3: every game had one ladder of twelve; level:12 was Absorption's top and
    // level:8 its 256 learned iterations ("Advanced").
    let format_3 = r#"(
    tabula_record: 3,
    game: "absorption",
    seats: ["level:12", "level:8"],
    moves: [],
)"#;
    let loaded = Record::parse(format_3).unwrap().load().unwrap();
    let levels = tabula_bot::Levels::built_in();
    assert_eq!(
        loaded.seats[0],
        Seat::Bot(levels.top_in("absorption") as u8)
    );
    let Seat::Bot(advanced) = loaded.seats[1] else {
        panic!("{:?}", loaded.seats)
    };
    assert_eq!(
        levels.get("absorption", advanced as usize).unwrap().name,
        "Advanced"
    );
    written_again_keeps_its_seats(&loaded);
    let error = load_error(&format_3.replace("level:8", "level:13"));
    assert!(error.contains("level:1 to level:12"), "{error}");
}

/// A loaded record with a level seat, written again, is of the newest format (levels on
/// the game's own ladder) and reads back the same seats.
fn written_again_keeps_its_seats(loaded: &Loaded) {
    let written = Record::of(loaded.game.as_ref(), &loaded.seats);
    assert_eq!(
        written.tabula_record, 4,
        "a level seat is written on the ladder"
    );
    let again = Record::parse(&written.to_ron()).unwrap().load().unwrap();
    assert_eq!(again.seats, loaded.seats);
}

/// Why a record that parses does not load.
fn load_error(text: &str) -> String {
    Record::parse(text).unwrap().load().err().unwrap()
}

#[test]
fn bad_variations_are_refused_with_the_reason() {
    let base = |variations: &str, format: u32| {
        format!(
            "(tabula_record: {format}, game: \"adaptoid\", moves: [\"+c1\", \"+c5\"], variations: [{variations}])"
        )
    };
    let error = |text: String| {
        Record::parse(&text)
            .and_then(|r| r.load().map(|_| ()))
            .unwrap_err()
    };
    assert_eq!(
        error(base("(ply: 0, moves: [\"+d1\"])", 1)),
        "variations: format 1 has no variations (they came in format 2)"
    );
    assert_eq!(
        error(base("(ply: 2, moves: [\"+d1\"])", 2)),
        "variations: variations[0].ply: 2 is not the ply of a move of its line (0 to 1)"
    );
    assert_eq!(
        error(base("(ply: 0, moves: [])", 2)),
        "variations: variations[0].moves: a side line needs a move"
    );
    assert_eq!(
        error(base(
            "(ply: 1, moves: [\"+c6\"]), (of: 1, ply: 1, moves: [\"+d5\"])",
            2
        )),
        "variations: variations[1].ply: 1 is not the ply of a move of its line (it has none after its first)"
    );
    assert_eq!(
        error(base("(of: 1, ply: 0, moves: [\"+d1\"])", 2)),
        "variations: variations[0].of: 1 is not the main line (0)"
    );
    assert_eq!(
        error(base(
            "(ply: 1, moves: [\"+c6\"]), (of: 2, ply: 0, moves: [\"+d1\"])",
            2
        )),
        "variations: variations[1].of: 2 is not the main line (0) or a side line before it (1 to 1)"
    );
    let illegal = error(base("(ply: 1, moves: [\"+c6\", \"zz\"])", 2));
    assert!(
        illegal.starts_with("variations: move 3 (\"zz\"): "),
        "{illegal}"
    );
    let unknown = error(base("(ply: 0, moves: [\"+d1\"], sideline: 1)", 2));
    assert!(unknown.contains("sideline"), "{unknown}");
    assert_eq!(
        error("(tabula_record: 5, game: \"adaptoid\", moves: [])".to_string()),
        "tabula_record: this is format 5, and this version of Tabula reads formats 1 to 4"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Any tree explored at random (moves on the analysis board and in a game, jumps along
    /// the line and to any move, undo and redo, promotions, deletions, returns, playing on)
    /// keeps the line, the position and the tree in step, and goes through a record and
    /// back unchanged.
    #[test]
    fn explored_trees_stay_whole_and_round_trip_through_records(
        game_index in 0..4usize,
        seed in any::<u64>(),
        actions in prop::collection::vec((0..10u8, any::<u64>()), 1..48),
    ) {
        let kind = GameKind::ALL[game_index];
        let mut game = new_match(kind, &[]).unwrap();
        game.set_exploring(true);
        for (action, pick) in actions {
            let rows = game.tree().rows();
            let row = (!rows.is_empty()).then(|| rows[pick as usize % rows.len()].node);
            match (action, row) {
                (0..=2, _) => {
                    if let Some(mv) = random_move(game.as_ref(), seed ^ pick) {
                        game.play_notation(&mv).unwrap();
                    }
                }
                (3, Some(node)) => game.go_to_node(node).unwrap(),
                (4, Some(node)) => {
                    let _ = game.promote(node);
                    let _ = game.delete_variation(node);
                }
                (5, _) => {
                    let _ = game.return_from_variation();
                }
                (6, _) => {
                    let ply = pick as usize % (game.line().len() + 1);
                    game.go_to(ply).unwrap();
                }
                (7, _) if game.is_looking_back() => {
                    game.redo().unwrap();
                }
                (8, _) => {
                    // A game's move (it replaces the later moves), then exploring again.
                    game.set_exploring(false);
                    if let Some(mv) = random_move(game.as_ref(), seed ^ pick) {
                        game.play_notation(&mv).unwrap();
                    }
                    game.set_exploring(true);
                }
                (9, _) => game.discard_later_moves(),
                _ => {}
            }
            prop_assert_eq!(game.tree().texts(game.path()), game.line());
            prop_assert!(game.path().last().is_none_or(|&last| game.tree().children(last).is_empty()),
                "the line goes on to the end of its continuation");
            let mut replayed = new_match(kind, &[]).unwrap();
            for mv in game.record() {
                replayed.play_notation(mv).unwrap();
            }
            prop_assert_eq!(replayed.position_string(), game.position_string());
        }
        let record = Record::of(game.as_ref(), &[]);
        let loaded = Record::parse(&record.to_ron()).unwrap().load().unwrap();
        prop_assert_eq!(loaded.game.main_line(), game.main_line());
        prop_assert_eq!(loaded.game.variations(), game.variations());
        prop_assert_eq!(loaded.game.record().len(), game.main_line_ply());
        let tree = MoveTree::from_record(&record.moves, &record.variations).unwrap();
        let texts = |tree: &MoveTree| -> Vec<(String, usize, usize)> {
            tree.rows().iter().map(|r| (tree.text(r.node).to_string(), r.ply, r.depth)).collect()
        };
        prop_assert_eq!(texts(&tree), texts(game.tree()));
    }
}

/// Stepping back inside the newest side line and trying another move, again and again,
/// nests side lines deeply; the record stays flat and loads them all.
#[test]
fn deeply_nested_side_lines_round_trip_through_records() {
    let mut rng = SmallRng::seed_from_u64(21);
    let mut game = new_match(GameKind::Absorption, &[]).unwrap();
    game.set_exploring(true);
    for _ in 0..4 {
        let mv = random_move(game.as_ref(), rng.random()).unwrap();
        game.play_notation(&mv).unwrap();
    }
    for _ in 0..150 {
        if game.status().is_over() {
            break;
        }
        let mv = random_move(game.as_ref(), rng.random()).unwrap();
        game.play_notation(&mv).unwrap();
        game.go_to(game.record().len() - 1).unwrap();
        let Some(other) = other_move(game.as_ref(), &mut rng) else {
            break;
        };
        game.play_notation(&other).unwrap();
    }
    let depth = game.tree().rows().iter().map(|r| r.depth).max().unwrap();
    assert!(depth >= 100, "side lines nest {depth} deep");
    let text = Record::of(game.as_ref(), &[]).to_ron();
    let loaded = Record::parse(&text).unwrap().load().unwrap();
    assert_eq!(loaded.game.variations(), game.variations());
    assert_eq!(loaded.game.main_line(), game.main_line());
}

#[test]
fn a_variation_in_the_record_is_a_legal_line_of_its_own() {
    let record = Record {
        variations: vec![Variation {
            of: 0,
            ply: 1,
            moves: strings(&["+c6"]),
        }],
        ..Record::parse("(tabula_record: 2, game: \"adaptoid\", moves: [\"+c1\", \"+c5\"])")
            .unwrap()
    };
    let loaded = record.load().unwrap();
    assert_eq!(loaded.game.variations(), record.variations);
}

#[test]
fn playing_on_from_a_move_forgets_the_side_lines_after_it_and_the_game_stays_the_main_line() {
    let (mut game, main) = explored();
    // Out of the inner side line, then out of the outer one.
    game.return_from_variation().unwrap();
    assert_eq!(game.record().len(), 3);
    game.return_from_variation().unwrap();
    game.set_exploring(false);
    assert_eq!(game.record(), &main[..2]);
    game.discard_later_moves();
    assert!(
        game.variations().is_empty(),
        "the side line at move 3 went with move 3"
    );
    assert_eq!(game.main_line(), &main[..2]);
    let mv = random_move(game.as_ref(), 4).unwrap();
    game.play_notation(&mv).unwrap();
    assert_eq!(game.main_line(), game.line());
    assert!(game.on_main_line());

    // A side line that leaves earlier is kept.
    let (mut game, main) = explored();
    game.set_exploring(false);
    game.go_to_node(game.tree().main_line()[3]).unwrap();
    game.discard_later_moves();
    assert_eq!(game.main_line(), &main[..4]);
    assert_eq!(game.variations().len(), 2, "both leave before move 5");
}
