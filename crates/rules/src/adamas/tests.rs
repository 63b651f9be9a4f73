//! The test positions of adamas.md §9, and the move-count table of §4.6.

use super::*;
use crate::{DrawReason, Game, MoveBuilder, WinReason};

fn options(pairs: &[(&str, &str)]) -> AdamasOptions {
    let mut options = AdamasOptions::default();
    for (key, value) in pairs {
        Adamas::set_option(&mut options, key, value).unwrap();
    }
    options
}

/// A position from `cell:owner×height` items such as `c4:o4 e2:o4`.
fn position(size: usize, stacks: &str, mover: char, ply: u32, opts: AdamasOptions) -> Adamas {
    let grid = hex_grid(size);
    let mut cells = vec![".".to_string(); grid.len()];
    let mut players = 2;
    for item in stacks.split_whitespace() {
        let (cell, stack) = item.split_once(':').unwrap();
        cells[grid.parse_label(cell).unwrap()] = stack.to_string();
        if stack.starts_with('y') {
            players = 3;
        }
    }
    let rows: Vec<String> = (0..grid.rows())
        .map(|r| grid.row(r).map(|c| cells[c].clone()).collect())
        .collect();
    let seats = if players == 3 { "oxy" } else { "ox" };
    let text = format!("{} {mover} {seats} {ply} 0", rows.join("/"));
    Adamas::from_position(opts, &text).unwrap()
}

fn cell(game: &Adamas, label: &str) -> usize {
    game.grid().parse_label(label).unwrap()
}

fn labels(game: &Adamas, set: crate::CellSet) -> Vec<String> {
    set.iter().map(|c| game.label(c)).collect()
}

fn play(game: &mut Adamas, text: &str) -> Vec<AdamasEvent> {
    let mv = game.parse_move(text).unwrap();
    game.apply(&mv)
        .unwrap_or_else(|e| panic!("{text} should be legal: {e}"))
}

/// Splits and merges counted by enumeration.
fn enumerate(game: &Adamas) -> (u64, u64) {
    let mut counts = (0, 0);
    for mv in game.legal_moves() {
        assert!(game.check_move(&mv).is_ok(), "{}", game.format_move(&mv));
        match mv {
            AdamasMove::Split { .. } => counts.0 += 1,
            AdamasMove::Merge { .. } => counts.1 += 1,
        }
    }
    counts
}

fn count(game: &Adamas) -> u128 {
    game.count_moves().to_u128().unwrap()
}

#[test]
fn start_move_counts_match_the_table() {
    let default = Adamas::new(AdamasOptions::default()).unwrap();
    assert_eq!(count(&default), 6_434);
    assert_eq!(enumerate(&default), (6_434, 0));
    let size4 = Adamas::new(options(&[("size", "4")])).unwrap();
    assert_eq!(count(&size4), 1_352_077);
    let three = Adamas::new(options(&[("players", "3")])).unwrap();
    assert_eq!(count(&three), 2_704_155);
}

#[test]
#[ignore = "enumerates 1.35 million moves; run with --ignored"]
fn size_four_start_enumeration_agrees_with_the_count() {
    let size4 = Adamas::new(options(&[("size", "4")])).unwrap();
    assert_eq!(size4.legal_moves().count(), 1_352_077);
}

#[test]
fn worked_example_one_opening_threat_and_retreat() {
    let mut game = Adamas::new(AdamasOptions::default()).unwrap();
    assert_eq!(game.position_string(), ".../..../o8...x8/..../... o ox 0 0");
    assert_eq!(game.visible_enemy_count(cell(&game, "c1")), Some(8));
    assert!(game.threatened().is_empty());
    for banned in ["8xc1-c5", "c1-c5"] {
        let mv = game.parse_move(banned).unwrap();
        let err = game.check_move(&mv).unwrap_err();
        assert!(err.reason.contains("first move"), "{banned}: {err}");
    }

    play(&mut game, "c1-a1,c2,4xc3,e1");
    assert_eq!(
        game.position_string(),
        "o1../..../o1o1o4.x8/..../o1.. x ox 1 1"
    );
    assert!(game.threatened_stacks().is_empty());
    assert_eq!(enumerate(&game), (1_286, 0));
    assert_eq!(count(&game), 1_286);

    play(&mut game, "c5-c4,3xe3");
    assert_eq!(
        labels(&game, game.threatened_stacks()),
        ["c3"],
        "only O's c3 is threatened"
    );
    assert_eq!(game.visible_enemy_count(cell(&game, "e1")), Some(3));
    assert_eq!(game.visible_enemy_count(cell(&game, "c4")), Some(4));
    assert_eq!(game.visible_enemy_count(cell(&game, "e3")), Some(5));
    assert_eq!(game.visible_enemy_count(cell(&game, "c5")), Some(0));
    assert_eq!(enumerate(&game), (518, 60));
    assert_eq!(count(&game), 578);

    play(&mut game, "3xc3,a1,c2-b2");
    assert_eq!(game.stack(cell(&game, "b2")), Some((Player(0), 5)));
    assert_eq!(labels(&game, game.threatened_stacks()), ["c4"]);
    // c4 is X's own stack, so X (to move) has nothing to capture.
    assert!(game.threatened().is_empty());
}

fn double_capture(opts: AdamasOptions) -> Adamas {
    position(3, "a2:x2 c1:x2 c2:x2 e1:x1 e3:x1 c4:o4 e2:o4", 'x', 5, opts)
}

#[test]
fn worked_example_two_double_capture() {
    let mut game = double_capture(AdamasOptions::default());
    assert_eq!(labels(&game, game.threatened()), ["c4", "e2"]);
    assert_eq!(enumerate(&game), (115, 70));
    assert_eq!(count(&game), 185);
    let events = play(&mut game, "c2-c4,e2");
    let captured: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            AdamasEvent::Captured { cell, .. } => Some(*cell),
            _ => None,
        })
        .collect();
    assert_eq!(captured, [cell(&game, "c4"), cell(&game, "e2")]);
    assert_eq!(
        game.status(),
        Status::Win {
            winner: Player(1),
            reason: WinReason::LastPlayerStanding
        }
    );
    assert!(events.contains(&AdamasEvent::Eliminated {
        player: Player(0),
        reason: Elimination::NoPieces,
        removed: vec![]
    }));
    assert_eq!(
        game.position_string(),
        ".x2./..../x2..x1./..../x1x1x1 x -x 6 0"
    );
}

#[test]
fn progressive_capture_keeps_the_double_capture_in_either_order() {
    for order in ["c2-c4,e2", "c2-e2,c4"] {
        let mut game = double_capture(options(&[("prog_cap", "true")]));
        play(&mut game, order);
        assert_eq!(
            game.status(),
            Status::Win {
                winner: Player(1),
                reason: WinReason::LastPlayerStanding
            },
            "{order}"
        );
    }
}

#[test]
fn progressive_capture_enables_a_capture_that_default_mode_forbids() {
    let stacks = "c1:x2 c5:o1 a3:o1";
    let default = position(3, stacks, 'x', 3, AdamasOptions::default());
    assert!(default.threatened().is_empty());
    let mv = default.parse_move("c1-a1,c5").unwrap();
    assert!(default.check_move(&mv).is_err());

    let mut prog = position(3, stacks, 'x', 3, options(&[("prog_cap", "true")]));
    let reverse = prog.parse_move("c1-c5,a1").unwrap();
    assert!(prog.check_move(&reverse).is_err());
    assert!(default.check_move(&reverse).is_err());
    // The generator finds the capture (in the order that makes it legal) and counts it.
    let generated: Vec<String> = prog.legal_moves().map(|m| prog.format_move(&m)).collect();
    assert!(generated.contains(&"c1-a1,c5".to_string()), "{generated:?}");
    assert_eq!(count(&prog) as usize, generated.len());
    play(&mut prog, "c1-a1,c5");
    assert_eq!(prog.stack(cell(&prog, "a1")), Some((Player(1), 1)));
    assert_eq!(prog.stack(cell(&prog, "c5")), Some((Player(1), 1)));
    assert_eq!(prog.stack(cell(&prog, "a3")), Some((Player(0), 1)));
}

#[test]
fn two_single_pieces_out_of_sight_draw() {
    // Reached by a move: X's c3, which sees O's a1, steps to e1, out of its sight.
    let mut game = position(3, "a1:o1 c3:x1", 'x', 9, AdamasOptions::default());
    assert_eq!(game.status(), Status::Ongoing);
    play(&mut game, "c3-e1");
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::TwoPieceTie
        }
    );

    let seeing = position(3, "a1:o1 e3:x1", 'o', 9, AdamasOptions::default());
    assert_eq!(seeing.status(), Status::Ongoing);
    assert_eq!(labels(&seeing, seeing.threatened()), ["e3"]);

    let mut capture = position(3, "a1:o1 a3:x1", 'o', 9, AdamasOptions::default());
    play(&mut capture, "a1-a3");
    assert_eq!(
        capture.status(),
        Status::Win {
            winner: Player(0),
            reason: WinReason::LastPlayerStanding
        }
    );
}

#[test]
fn three_players_start_and_mixed_colour_threat() {
    let game = Adamas::new(options(&[("players", "3")])).unwrap();
    assert_eq!(game.grid().side(), 4);
    for (label, p) in [("d1", 0), ("a4", 1), ("g4", 2)] {
        assert_eq!(game.stack(cell(&game, label)), Some((Player(p), 12)));
        assert_eq!(game.visible_enemy_count(cell(&game, label)), Some(0));
    }
    assert_eq!(count(&game), 2_704_155);

    let mut mixed = position(4, "d4:o3 d2:x1 d6:y2", 'x', 7, AdamasOptions::default());
    assert_eq!(mixed.visible_enemy_count(cell(&mixed, "d4")), Some(3));
    assert_eq!(labels(&mixed, mixed.threatened()), ["d4"]);
    let events = play(&mut mixed, "d2-d4");
    assert!(events.iter().any(|e| matches!(
        e,
        AdamasEvent::Eliminated {
            player: Player(0),
            reason: Elimination::NoPieces,
            ..
        }
    )));
    assert_eq!(mixed.status(), Status::Ongoing);
    assert_eq!(mixed.to_move(), Player(2));
    assert!(mixed.position_string().ends_with(" y -xy 8 0"));
}

#[test]
fn a_player_without_moves_is_removed_with_their_pieces() {
    // Y's single piece in the a1 corner is walled in by unthreatened enemy stacks.
    let mut game = position(
        4,
        "a1:y1 a2:o5 b1:o5 b2:x5 g4:x3 d4:o1",
        'x',
        4,
        AdamasOptions::default(),
    );
    let events = play(&mut game, "g4-g3");
    assert!(events.iter().any(|e| matches!(
        e,
        AdamasEvent::Eliminated {
            player: Player(2),
            reason: Elimination::NoLegalMove,
            ..
        }
    )));
    assert_eq!(game.stack(cell(&game, "a1")), None);
    assert_eq!(game.to_move(), Player(0));
}

#[test]
fn threefold_repetition_draws() {
    let mut game = position(
        3,
        "a1:o1 a3:o1 e1:x1 e3:x1",
        'o',
        4,
        AdamasOptions::default(),
    );
    for _ in 0..2 {
        play(&mut game, "a1-b1");
        play(&mut game, "e1-d1");
        play(&mut game, "b1-a1");
        play(&mut game, "d1-e1");
    }
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::Repetition
        }
    );
}

#[test]
fn the_capture_cap_draws_when_set() {
    let mut game = Adamas::new(options(&[("capture_cap", "2")])).unwrap();
    play(&mut game, "c1-c2");
    assert_eq!(game.status(), Status::Ongoing);
    play(&mut game, "c5-c4");
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::NoCaptureCap
        }
    );
}

#[test]
fn notation_examples_of_the_help_file_read_and_write() {
    let game = Adamas::new(options(&[("size", "4")])).unwrap();
    for (text, canonical) in [
        ("d1-d3", "d1-d3"),
        ("9xd1-d3", "9xd1-d3"),
        ("12xd1-d3", "12xd1-d3"),
        ("d1-2xd3,e1,3xf1", "d1-2xd3,e1,3xf1"),
        ("2xd1,3xa4-d4", "2xd1,3xa4-d4"),
        ("d1-9xd3", "9xd1-d3"),
        ("D1-D3", "d1-d3"),
        (" d1 - 2xd3 , e1 ", "d1-2xd3,e1"),
    ] {
        let mv = game.parse_move(text).unwrap();
        assert_eq!(game.format_move(&mv), canonical, "{text}");
    }
    assert!(
        game.check_move(&game.parse_move("12xd1-d3").unwrap())
            .is_ok()
    );
    assert!(
        game.check_move(&game.parse_move("d1-2xd3,e1,3xf1").unwrap())
            .is_ok()
    );
}

#[test]
fn malformed_moves_name_the_problem() {
    let game = Adamas::new(AdamasOptions::default()).unwrap();
    for (text, needle) in [
        ("", "empty"),
        ("c1", "'-'"),
        ("c1-c2-c3", "only one"),
        ("c1-", "missing"),
        ("z9-c2", "not a cell"),
        ("c1-c9", "not a cell"),
        ("0xc1-c2", "1-9"),
        ("99999xc1-c2", "too large"),
        ("2xc1-c2,c3", "single destination"),
        ("2xc1-3xc2", "not both"),
        ("c1,c2-2xc3", "no count"),
        ("c1,c2-c3,c4", "one destination"),
        ("c1-c2,,c3", "missing"),
        ("x2c1-c2", "before the x"),
        ("c1-c2\u{e9}", "not a cell"),
    ] {
        let err = game.parse_move(text).unwrap_err();
        assert!(err.message.contains(needle), "{text:?}: {err}");
    }
}

#[test]
fn illegal_moves_give_reasons() {
    let game = double_capture(AdamasOptions::default());
    for (text, needle) in [
        ("c4-c3", "not a stack of the player"),
        ("c3-d3", "empty"),
        ("3xc1-c3", "holds 2"),
        ("c1-e3", "line of sight"),
        ("a2,c2-c3", "line of sight"),
        ("c1-c2,c2", "twice"),
        ("c2,c1-c2", "both a source"),
        ("e1,e3-e2", ""),
    ] {
        let mv = game.parse_move(text).unwrap();
        let result = game.check_move(&mv);
        if needle.is_empty() {
            assert!(result.is_ok(), "{text}: {result:?}");
        } else {
            let err = result.unwrap_err();
            assert!(err.reason.contains(needle), "{text}: {err}");
        }
    }
}

#[test]
fn malformed_position_strings_name_the_field() {
    for (text, field) in [
        ("", "fields"),
        (".../..../o8...x8/..../... o ox 0", "fields"),
        ("../..../o8...x8/..../... o ox 0 0", "row a"),
        (".../..../o8...x8/.... o ox 0 0", "board"),
        (".../..../o8..q.x8/..../... o ox 0 0", "row c"),
        (".../..../o0...x8/..../... o ox 0 0", "row c"),
        (".../..../o8...x8/..../... z ox 0 0", "player to move"),
        (".../..../o8...x8/..../... o xo 0 0", "seats"),
        (".../..../o8...x8/..../... o ox a 0", "plies"),
        (".../..../o8...x8/..../... o ox 0 5", "plies since capture"),
        (".../..../o8....../..../... o ox 0 0", "row c"),
        (".../..../o8..../..../... o ox 0 0", "seats"),
    ] {
        let err = Adamas::from_position(AdamasOptions::default(), text).unwrap_err();
        assert!(err.field.contains(field), "{text:?}: {err}");
    }
}

#[test]
fn options_out_of_range_are_refused() {
    for (key, value) in [
        ("size", "9"),
        ("size", "1"),
        ("pieces", "0"),
        ("pieces", "100"),
        ("players", "4"),
    ] {
        // Refused when set (the range is known) or when the game is made.
        let mut opts = AdamasOptions::default();
        let refused =
            Adamas::set_option(&mut opts, key, value).is_err() || Adamas::new(opts).is_err();
        assert!(refused, "{key}={value}");
    }
    let mut opts = AdamasOptions::default();
    assert!(Adamas::set_option(&mut opts, "colour", "red").is_err());
    assert!(Adamas::set_option(&mut opts, "size", "big").is_err());
    assert!(Adamas::set_option(&mut opts, "prog_cap", "maybe").is_err());
}

#[test]
fn the_builder_offers_exactly_what_makes_the_retreat() {
    let mut game = Adamas::new(AdamasOptions::default()).unwrap();
    play(&mut game, "c1-a1,c2,4xc3,e1");
    play(&mut game, "c5-c4,3xe3");
    let b2 = cell(&game, "b2");
    let mut builder = game.builder();
    assert!(
        builder
            .legal_steps(&game)
            .contains(&AdamasStep::MergeTo(b2))
    );
    builder.push(&game, AdamasStep::MergeTo(b2)).unwrap();
    for label in ["c3", "c3", "c3", "a1"] {
        builder
            .push(&game, AdamasStep::Add(cell(&game, label)))
            .unwrap();
    }
    assert_eq!(
        builder.complete_move(&game).map(|m| game.format_move(&m)),
        Some("3xc3,a1-b2".to_string())
    );
    builder
        .push(&game, AdamasStep::Add(cell(&game, "c2")))
        .unwrap();
    // c2 has one piece: a second one is not offered.
    assert!(
        !builder
            .legal_steps(&game)
            .contains(&AdamasStep::Add(cell(&game, "c2")))
    );
    let mv = builder.complete_move(&game).unwrap();
    assert_eq!(game.format_move(&mv), "3xc3,a1,c2-b2");
    assert!(builder.pop());
    assert_eq!(builder.parts().len(), 2);
}

#[test]
fn every_start_move_can_be_built_step_by_step() {
    let game = Adamas::new(options(&[("size", "2")])).unwrap();
    for mv in game.legal_moves() {
        let mut builder = game.builder();
        let AdamasMove::Split { from, parts } = &mv else {
            panic!("no merges at the start")
        };
        builder
            .push(&game, AdamasStep::SplitFrom(*from as usize))
            .unwrap();
        for part in parts {
            for _ in 0..part.count {
                builder
                    .push(&game, AdamasStep::Add(part.cell as usize))
                    .unwrap();
            }
        }
        assert_eq!(builder.complete_move(&game), Some(mv));
    }
}

/// Issue 22: a 3-player side-8 99-piece game under progressive capture, where the 99-stacks
/// see many enemies. Moves are drawn, checked and counted without unbounded work.
#[test]
fn progressive_capture_on_a_crowded_big_board_stays_bounded() {
    use rand::SeedableRng;
    let opts = options(&[
        ("size", "8"),
        ("pieces", "99"),
        ("players", "3"),
        ("prog_cap", "true"),
    ]);
    let text = "o8x2x1x5x1x8x1x4/o3......x6x6/x1x2.x1...x1x2x8/o4.........x12/o5......x2...x2/........y2...x5/o1......x10....../o1o3o2o4o5o4o1x9y1o3o10o1o2o2o1/o3.....y1y1y2....y1/o3.o5...y1y6....y2/o5...x5..y2...y2/o1o2o1o3..o1y1..y2/o4.x2......y10/o9x3......y4/o2y4y4y38y3y9y1y2 o oxy 6 6";
    let game = Adamas::from_position(opts, text).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..20 {
        let mv = game.random_move(&mut rng).expect("a move");
        assert_eq!(game.check_move(&mv), Ok(()), "{}", game.format_move(&mv));
    }
    // Too much work for a bot's quick question, so "many moves".
    assert_eq!(game.count_moves_within(crate::QUICK_COUNT_WORK), None);
    assert!(!game.has_at_most_moves(1_000));
}

/// Inert parts (on no line through the captured stack) may be needed before a capture, to
/// lighten the source: the order found plays them first and is legal as given.
#[test]
fn progressive_order_lifts_inert_parts_before_the_capture_they_allow() {
    let game = position(3, "c1:o8 c5:x30", 'x', 1, options(&[("prog_cap", "true")]));
    let mv = game.parse_move("c5-c1,22xa3").unwrap();
    assert!(game.check_move(&mv).is_err(), "c1 is not threatened first");
    let legal = game
        .legal_moves()
        .find(|m| {
            let AdamasMove::Split { parts, .. } = m else {
                return false;
            };
            let mut cells: Vec<(u8, u16)> = parts.iter().map(|p| (p.cell, p.count)).collect();
            cells.sort();
            let mut wanted: Vec<(u8, u16)> = match &mv {
                AdamasMove::Split { parts, .. } => {
                    parts.iter().map(|p| (p.cell, p.count)).collect()
                }
                _ => unreachable!(),
            };
            wanted.sort();
            cells == wanted
        })
        .expect("the set is legal in some order");
    assert_eq!(game.format_move(&legal), "c5-22xa3,c1");
}
