//! The test positions of absorption.md §8, and the rules around them.

use super::squares::parse_label;
use super::*;
use crate::{DrawReason, WinReason};

fn sq(label: &str) -> u8 {
    parse_label(label).unwrap()
}

fn position(text: &str) -> Absorption {
    Absorption::from_position(AbsorptionOptions::default(), text).unwrap()
}

fn with(options: AbsorptionOptions, text: &str) -> Absorption {
    Absorption::from_position(options, text).unwrap()
}

fn play(game: &mut Absorption, text: &str) -> Vec<AbsorptionEvent> {
    let mv = game.parse_move(text).unwrap();
    game.apply(&mv)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.ascii()))
}

fn moves(game: &Absorption) -> Vec<String> {
    game.legal_moves().map(|m| game.format_move(&m)).collect()
}

fn stack(game: &Absorption, label: &str) -> Option<(Player, u8)> {
    game.stack(sq(label))
}

#[test]
fn setup_counts() {
    let game = Absorption::new(AbsorptionOptions::default()).unwrap();
    assert_eq!(
        game.position_string(),
        "D3D3D32D3D3D3/8/8/8/8/8/8/L3L3L32L3L3L3 l a 1 0"
    );
    assert_eq!(game.to_move(), LIGHT);
    let all = moves(&game);
    assert_eq!(all.len(), 50);
    assert!(
        all.iter().all(|m| m.contains('/')),
        "no merges at the start"
    );
    let from = |square: &str| {
        all.iter()
            .filter(|m| m.starts_with(&format!("{square}/")))
            .cloned()
            .collect::<Vec<_>>()
    };
    let c1 = from("c1");
    assert_eq!(
        c1.iter().filter(|m| m.matches(':').count() == 2).count(),
        12
    );
    assert_eq!(c1.iter().filter(|m| m.matches(':').count() == 3).count(), 4);
    let per_stack: Vec<usize> = ["a1", "b1", "c1", "f1", "g1", "h1"]
        .iter()
        .map(|s| from(s).len())
        .collect();
    assert_eq!(per_stack, [2, 7, 16, 16, 7, 2]);
    assert_eq!(game.count_moves().to_u64(), Some(50));

    let dark_first = AbsorptionOptions {
        dark_first: true,
        ..AbsorptionOptions::default()
    };
    assert_eq!(Absorption::new(dark_first).unwrap().to_move(), DARK);
}

/// Fig. 5/6: a Medium bordered by three Smalls, with 6 ways to place its pieces.
#[test]
fn medium_absorbed_by_three_smalls() {
    let text = "6D3D3/8/8/3L14/2L1D2L13/8/8/L37 l b:-:-:- 5 20";
    let mut game = position(text);
    play(&mut game, "pass");
    assert_eq!(game.phase(), Phase::Absorb { absorber: LIGHT });
    assert_eq!(game.absorbable(), squares::bit(sq("d4")));
    let mut options = moves(&game);
    options.sort();
    assert_eq!(
        options,
        [
            "xd4[c4:1,d5:1]",
            "xd4[c4:1,e4:1]",
            "xd4[c4:2]",
            "xd4[d5:2]",
            "xd4[e4:1,d5:1]",
            "xd4[e4:2]"
        ]
    );
    // Passing is not allowed: the absorption is mandatory.
    assert!(game.check_move(&AbsorptionMove::Pass).is_err());

    let mut a = game.clone();
    let events = play(&mut a, "xd4[c4:1,e4:1]");
    assert_eq!(stack(&a, "c4"), Some((LIGHT, 2)));
    assert_eq!(stack(&a, "e4"), Some((LIGHT, 2)));
    assert_eq!(stack(&a, "d5"), Some((LIGHT, 1)));
    assert_eq!(stack(&a, "d4"), None);
    assert_eq!(a.pieces_of(DARK), 6);
    assert_eq!(
        events.last(),
        Some(&AbsorptionEvent::TurnEnded { next: DARK })
    );
    assert_eq!(a.to_move(), DARK);
    assert_eq!(a.turn(), 6);

    let mut b = game.clone();
    play(&mut b, "xd4[c4:2]");
    assert_eq!(stack(&b, "c4"), Some((LIGHT, 3)));
    assert_eq!(stack(&b, "e4"), Some((LIGHT, 1)));
}

/// The seed's own example: two Mediums outweigh a Large but cannot hold it.
#[test]
fn capacity_blocks_absorption() {
    let mut game = position("6D3D3/8/8/8/2L2D3L23/8/8/L37 l b:-:-:- 1 0");
    assert_eq!(game.threatened(), 0);
    let events = play(&mut game, "pass");
    assert_eq!(
        events,
        [
            AbsorptionEvent::Passed,
            AbsorptionEvent::TurnEnded { next: DARK }
        ]
    );
    assert_eq!(stack(&game, "d4"), Some((DARK, 3)));
}

/// BGG's example: a Large adds to the sum but has no room, so the Small takes both.
#[test]
fn large_helps_the_sum_but_has_no_room() {
    let mut game = position("6D3D3/8/8/8/2L3D2L13/8/8/L37 l b:-:-:- 1 0");
    let events = play(&mut game, "pass");
    let gifts = Allotment::new(&[(sq("e4"), 2)]).unwrap();
    assert_eq!(
        events[1],
        AbsorptionEvent::Absorbed {
            absorber: LIGHT,
            target: sq("d4"),
            owner: DARK,
            height: 2,
            gifts
        }
    );
    assert_eq!(stack(&game, "e4"), Some((LIGHT, 3)));
    assert_eq!(stack(&game, "c4"), Some((LIGHT, 3)));
    assert_eq!(game.to_move(), DARK);

    // Two Mediums: sum 4 > 2 and one free place each, so one piece to each.
    let mut game = position("6D3D3/8/8/8/2L2D2L23/8/8/L37 l b:-:-:- 1 0");
    play(&mut game, "pass");
    assert_eq!(stack(&game, "c4"), Some((LIGHT, 3)));
    assert_eq!(stack(&game, "e4"), Some((LIGHT, 3)));
    assert_eq!(stack(&game, "d4"), None);
}

#[test]
fn diagonals_do_not_count() {
    let mut game = position("6D3D3/8/8/2L11L13/3D14/2L1L14/8/L37 l b:-:-:- 1 0");
    assert_eq!(game.threatened(), 0);
    play(&mut game, "pass");
    assert_eq!(stack(&game, "d4"), Some((DARK, 1)));
    assert_eq!(game.to_move(), DARK);
}

/// One absorption can make another possible, depending on where the pieces go.
#[test]
fn cascade() {
    let text = "L35D3D3/8/8/8/8/8/L1D16/1L1D2L14 l c 1 0";
    let game = position(text);
    let mut first = moves(&game);
    first.sort();
    assert_eq!(first, ["xb2[a2:1]", "xb2[b1:1]"]);

    let mut onto_b1 = game.clone();
    play(&mut onto_b1, "xb2[b1:1]");
    assert_eq!(onto_b1.to_move(), LIGHT, "c1 must now be absorbed");
    let mut second = moves(&onto_b1);
    second.sort();
    assert_eq!(second, ["xc1[b1:1,d1:1]", "xc1[d1:2]"]);
    play(&mut onto_b1, "xc1[d1:2]");
    assert_eq!(stack(&onto_b1, "d1"), Some((LIGHT, 3)));
    assert_eq!(stack(&onto_b1, "c1"), None);
    assert_eq!(onto_b1.to_move(), DARK);

    let mut onto_a2 = game.clone();
    play(&mut onto_a2, "xb2[a2:1]");
    assert_eq!(stack(&onto_a2, "c1"), Some((DARK, 2)));
    assert_eq!(onto_a2.to_move(), DARK);
}

#[test]
fn split_follow_up() {
    let text = "6D3D3/8/8/8/3L34/8/8/L17 l a 1 0";
    let mut game = position(text);
    play(&mut game, "d4/c3:1,d3:1,e3:1");
    assert!(matches!(game.phase(), Phase::Move { follow, .. } if follow.count_ones() == 3));
    let mut after = game.clone();
    play(&mut after, "c3>a3");
    assert_eq!(stack(&after, "a3"), Some((LIGHT, 1)));
    let back = after.parse_move("d3>d4").unwrap();
    let reason = after.check_move(&back).unwrap_err().reason;
    assert!(reason.contains("back onto d4"), "{reason}");
    // c3 has moved once already.
    assert!(
        after
            .check_move(&after.parse_move("a3>a4").unwrap())
            .is_err()
    );

    let over = game.parse_move("c3>e5").unwrap();
    assert!(game.check_move(&over).is_ok());
    let strict = AbsorptionOptions {
        forbid_pass_over_origin: true,
        ..AbsorptionOptions::default()
    };
    let mut strict_game = with(strict, text);
    play(&mut strict_game, "d4/c3:1,d3:1,e3:1");
    assert!(strict_game.check_move(&over).is_err());
    assert!(!moves(&strict_game).contains(&"c3>e5".to_string()));
    assert!(moves(&game).contains(&"c3>e5".to_string()));

    // Split Smalls may not make a phase B move, and a B move ends the follow-ups.
    assert!(game.check_move(&game.parse_move("c3-b4").unwrap()).is_err());
    play(&mut game, "a1-b2");
    assert_eq!(game.to_move(), DARK);
}

#[test]
fn merged_stack_cannot_move_in_phase_b() {
    let mut game = position("6D3D3/8/8/8/8/2L15/2L12L12/L37 l a 1 0");
    play(&mut game, "c2+c3>c3");
    assert_eq!(stack(&game, "c3"), Some((LIGHT, 2)));
    let reason = game
        .check_move(&game.parse_move("c3-c4").unwrap())
        .unwrap_err()
        .reason;
    assert!(reason.contains("took part"), "{reason}");
    let all = moves(&game);
    assert!(all.iter().all(|m| !m.starts_with("c3")));
    assert!(all.contains(&"f2-f4".to_string()));
    assert!(all.contains(&"pass".to_string()));
}

#[test]
fn forfeit_without_split_or_merge() {
    let game = position("D3D3D3D3D3D3D3D3/D3D3D25/8/8/8/8/8/L11L11L11L11 l a 9 40");
    assert_eq!(game.pieces_of(LIGHT), 4);
    assert_eq!(game.pieces_of(DARK), 32);
    assert_eq!(
        game.status(),
        Status::Win {
            winner: DARK,
            reason: WinReason::Forfeit
        }
    );
    assert_eq!(game.legal_moves().count(), 0);
}

#[test]
fn win_by_reduction() {
    let mut game = position("7D3/8/8/8/2L3D2L13/8/8/L3L3L3L3L3L3L3L3 l b:-:-:- 9 40");
    assert_eq!(game.pieces_of(DARK), 5);
    let events = play(&mut game, "pass");
    assert_eq!(game.pieces_of(DARK), 3);
    let won = Status::Win {
        winner: LIGHT,
        reason: WinReason::Reduction,
    };
    assert_eq!(game.status(), won);
    assert_eq!(
        events.last(),
        Some(&AbsorptionEvent::GameOver { status: won })
    );
    // The finished position reads back as finished.
    assert_eq!(position(&game.position_string()).status(), won);
}

#[test]
fn merges_star_and_connected() {
    // Three Smalls in a line a3-b3-c3 (and nothing else mergeable).
    let text = "7D3/7D3/8/8/8/L1L1L15/8/7L3 l a 1 0";
    let star = moves(&position(text));
    let three: Vec<&String> = star
        .iter()
        .filter(|m| m.matches('+').count() == 2)
        .collect();
    assert_eq!(three, ["a3+b3+c3>b3"]);
    let connected = AbsorptionOptions {
        merge_connected: true,
        ..AbsorptionOptions::default()
    };
    let game = with(connected, text);
    let mut chains: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.matches('+').count() == 2)
        .collect();
    chains.sort();
    assert_eq!(chains, ["a3+b3+c3>a3", "a3+b3+c3>b3", "a3+b3+c3>c3"]);
    assert!(
        game.check_move(&game.parse_move("a3+b3+c3>a3").unwrap())
            .is_ok()
    );
    let plain = position(text);
    assert!(
        plain
            .check_move(&plain.parse_move("a3+b3+c3>a3").unwrap())
            .is_err()
    );
    // A triangle under the connected rule is listed once per destination.
    let triangle = with(connected_options(), "7D3/7D3/8/8/8/L1L16/L17/7L3 l a 1 0");
    let mut listed: Vec<String> = moves(&triangle)
        .into_iter()
        .filter(|m| m.matches('+').count() == 2)
        .collect();
    listed.sort();
    assert_eq!(listed, ["a2+a3+b3>a2", "a2+a3+b3>a3", "a2+a3+b3>b3"]);
}

fn connected_options() -> AbsorptionOptions {
    AbsorptionOptions {
        merge_connected: true,
        ..AbsorptionOptions::default()
    }
}

#[test]
fn symmetric_absorption_lets_the_opponent_absorb() {
    let options = AbsorptionOptions {
        symmetric_absorption: true,
        ..AbsorptionOptions::default()
    };
    // Light's Small on d4 is bordered by Dark c4 and e4 (sum 2 > 1).
    let text = "7D3/8/8/8/2D1L1D13/8/8/L3L36 l b:-:-:- 1 0";
    let mut game = with(options, text);
    play(&mut game, "pass");
    assert_eq!(game.to_move(), DARK, "Dark chooses where d4's piece goes");
    assert_eq!(game.position_string().split(' ').nth(2), Some("c2"));
    play(&mut game, "xd4[c4:1]");
    assert_eq!(stack(&game, "c4"), Some((DARK, 2)));
    assert_eq!(game.turn_player(), DARK);
    // Without the option the Small survives Light's turn.
    let mut plain = position(text);
    play(&mut plain, "pass");
    assert_eq!(stack(&plain, "d4"), Some((LIGHT, 1)));
}

/// A Medium that splits and merges back, for both players, recurs every 8 turns.
#[test]
fn threefold_repetition_draws() {
    let text = "7D3/1D26/8/8/8/8/1L26/7L3 l a 1 0";
    let mut game = position(text);
    let light = ["b2/a1:1,b1:1", "a1+b1>b1", "b1/a1:1,b2:1", "a1+b2>b2"];
    let dark = ["b7/a8:1,b8:1", "a8+b8>b8", "b8/a8:1,b7:1", "a8+b7>b7"];
    let mut turns = 0;
    'outer: for _ in 0..3 {
        for i in 0..4 {
            for (side, script) in [(LIGHT, &light), (DARK, &dark)] {
                assert_eq!(game.to_move(), side);
                play(&mut game, script[i]);
                if game.to_move() == side && game.status() == Status::Ongoing {
                    play(&mut game, "pass");
                }
                turns += 1;
                if game.status() != Status::Ongoing {
                    break 'outer;
                }
            }
        }
    }
    assert_eq!(turns, 16);
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::Repetition
        }
    );
    let no_draw = AbsorptionOptions {
        repetition_draw: false,
        turn_cap: 10,
        ..AbsorptionOptions::default()
    };
    let mut capped = with(no_draw, text);
    let mut plies = 0;
    while capped.status() == Status::Ongoing {
        let step = if capped.phase() == Phase::SplitOrMerge {
            light[(capped.turn() as usize - 1) / 2 % 4]
        } else {
            "pass"
        };
        let step = if capped.to_move() == DARK && step != "pass" {
            dark[(capped.turn() as usize - 1) / 2 % 4]
        } else {
            step
        };
        play(&mut capped, step);
        plies += 1;
    }
    assert_eq!(
        capped.status(),
        Status::Draw {
            reason: DrawReason::TurnCap
        }
    );
    assert_eq!((capped.turn(), plies), (11, 16));
    // Repetition is judged before the cap when both fall at the same turn end.
    let both = AbsorptionOptions {
        turn_cap: 16,
        ..AbsorptionOptions::default()
    };
    let mut game = with(both, text);
    while game.status() == Status::Ongoing {
        let script = if game.to_move() == LIGHT {
            &light
        } else {
            &dark
        };
        let step = if game.phase() == Phase::SplitOrMerge {
            script[(game.turn() as usize - 1) / 2 % 4]
        } else {
            "pass"
        };
        play(&mut game, step);
    }
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::Repetition
        }
    );
    assert_eq!(game.turn(), 17);
}

#[test]
fn malformed_input_is_refused_clearly() {
    let game = Absorption::new(AbsorptionOptions::default()).unwrap();
    for (text, expected) in [
        ("", "empty move"),
        ("z9-a1", "expected a square"),
        ("c1/b2:3,c2:1", "count from 1 to 2"),
        ("c1/b2:2", "two or three stacks"),
        ("c1/b2:1,b2:1,c2:1", "each named once"),
        ("b2+c2>d2", "one of the merged squares"),
        ("xd4[c4:1", "expected ']'"),
        ("c1?c2", "expected '/'"),
        ("c1-c2 extra", "unexpected text"),
        ("é", "ASCII"),
    ] {
        let err = game.parse_move(text).unwrap_err();
        assert!(err.to_string().contains(expected), "{text}: {err}");
    }
    for (text, field) in [
        ("", "fields"),
        ("8/8/8/8/8/8/8 l a 1 0", "board"),
        ("9/8/8/8/8/8/8/8 l a 1 0", "rank 8"),
        (
            "8888888888888888888888888888888888/8/8/8/8/8/8/8 l a 1 0",
            "rank 8",
        ),
        ("L4 7/8/8/8/8/8/8/8 l a 1 0", "fields"),
        ("L47/8/8/8/8/8/8/8 l a 1 0", "rank 8"),
        ("D3D3D32D3D3D3/8/8/8/8/8/8/L3L3L32L3L3L3 x a 1 0", "mover"),
        ("D3D3D32D3D3D3/8/8/8/8/8/8/L3L3L32L3L3L3 l q 1 0", "phase"),
        ("D3D3D32D3D3D3/8/8/8/8/8/8/L3L3L32L3L3L3 l a 0 0", "turn"),
        (
            "D3D3D32D3D3D3/8/8/8/8/8/8/L3L3L32L3L3L3 l b:e4:-:- 1 0",
            "phase",
        ),
        (
            "D3D3D3D3D3D3D3D3/D3D3D3D3D3D3D3D3/8/8/8/8/8/L3 l a 1 0",
            "board",
        ),
        // Eight follow-ups once overran the generator's buffer.
        (
            "8/8/8/2L1L1L13/2L11L13/2L1L1L13/8/8 l b:c3,d3,e3,c4,e4,c5,d5,e5:c3,d3,e3,c4,e4,c5,d5,e5:d4 1 0",
            "phase",
        ),
    ] {
        let err = Absorption::from_position(AbsorptionOptions::default(), text).unwrap_err();
        assert!(err.field.contains(field), "{text}: {err}");
    }
    // Counters at their limit stay there instead of overflowing.
    let mut late = position("6D3D3/8/8/3L14/2L1D2L13/8/8/L37 l b:-:-:- 4294967295 4294967295");
    play(&mut late, "pass");
    play(&mut late, "xd4[c4:2]");
    assert_eq!((late.turn(), late.ply()), (u32::MAX, u32::MAX));
    let mut options = AbsorptionOptions::default();
    assert!(Absorption::set_option(&mut options, "merge_connected", "maybe").is_err());
    assert!(Absorption::set_option(&mut options, "size", "3").is_err());
}

#[test]
fn illegal_actions_say_why() {
    let game = Absorption::new(AbsorptionOptions::default()).unwrap();
    for (text, expected) in [
        ("c1/b2:2,d3:1", "not next to"),
        ("c1/b1:2,c2:1", "occupied"),
        ("c1/b2:1,c2:1", "splits into"),
        ("c8/b7:2,c7:1", "belongs to Dark"),
        ("d4/d3:1,d5:1", "no stack"),
        ("c1-c2", "split or a merge"),
        ("a1+b1>b1", "at most 3"),
    ] {
        let mv = game.parse_move(text).unwrap();
        let reason = game.check_move(&mv).unwrap_err().reason;
        assert!(reason.contains(expected), "{text}: {reason}");
    }
    // Moves built in code (or read from a record) can name what notation cannot.
    let smalls = position("7D3/7D3/8/8/8/L1L1L15/8/7L3 l a 1 0");
    for (mv, expected) in [
        (
            AbsorptionMove::Merge {
                dest: sq("b3"),
                others: SquareList::new(&[sq("a3"), sq("b3")]).unwrap(),
            },
            "itself",
        ),
        (
            AbsorptionMove::Merge {
                dest: sq("b3"),
                others: SquareList::new(&[64]).unwrap(),
            },
            "off the board",
        ),
        (
            AbsorptionMove::Split {
                from: 255,
                parts: Allotment::new(&[(0, 1), (1, 1)]).unwrap(),
            },
            "off the board",
        ),
    ] {
        let reason = smalls.check_move(&mv).unwrap_err().reason;
        assert!(reason.contains(expected), "{mv:?}: {reason}");
    }
}

#[test]
fn moves_are_read_from_records_through_the_checked_constructors() {
    let game = Absorption::new(AbsorptionOptions::default()).unwrap();
    let mv = game.parse_move("c1/b2:2,c2:1").unwrap();
    let text = ron::to_string(&mv).unwrap();
    assert_eq!(ron::from_str::<AbsorptionMove>(&text).unwrap(), mv);
    for bad in [
        "Split(from: 2, parts: [(9, 1), (9, 1)])",
        "Split(from: 2, parts: [(9, 1), (10, 1), (11, 1), (12, 1), (13, 1)])",
        "Merge(dest: 2, others: [1, 1])",
        "Merge(dest: 2, others: [1, 3, 4, 5])",
    ] {
        assert!(ron::from_str::<AbsorptionMove>(bad).is_err(), "{bad}");
    }
}

#[test]
fn builder_offers_the_steps_of_legal_actions() {
    use crate::MoveBuilder;
    let game = Absorption::new(AbsorptionOptions::default()).unwrap();
    let mut builder = game.builder();
    let first = builder.legal_steps(&game);
    assert_eq!(
        first
            .iter()
            .filter(|s| matches!(s, AbsorptionStep::Pick(_)))
            .count(),
        6
    );
    builder.push(&game, AbsorptionStep::Pick(sq("c1"))).unwrap();
    builder
        .push(
            &game,
            AbsorptionStep::Place {
                square: sq("b2"),
                height: 2,
            },
        )
        .unwrap();
    assert_eq!(builder.complete_move(&game), None);
    assert!(
        builder
            .push(
                &game,
                AbsorptionStep::Place {
                    square: sq("b2"),
                    height: 1
                }
            )
            .is_err()
    );
    builder
        .push(
            &game,
            AbsorptionStep::Place {
                square: sq("c2"),
                height: 1,
            },
        )
        .unwrap();
    let mv = builder.complete_move(&game).unwrap();
    assert_eq!(game.format_move(&mv), "c1/b2:2,c2:1");
    assert!(builder.pop());
    assert_eq!(builder.complete_move(&game), None);
}

/// absorption.md §6 estimates "about 5,900 distinct full turns" for Light's first turn.
/// We count 25,420 action sequences, 5,898 distinct pairs of phase-A action and resulting
/// position (the follow-ups' order set aside), and 2,962 distinct resulting positions.
#[test]
fn full_turns_from_the_start() {
    use std::collections::HashSet;
    struct Tally {
        sequences: u64,
        turns: HashSet<(String, u64)>,
        results: HashSet<u64>,
    }
    fn walk(game: &Absorption, first: &str, tally: &mut Tally) {
        if game.to_move() == DARK {
            tally.sequences += 1;
            tally.turns.insert((first.to_string(), game.hash()));
            tally.results.insert(game.hash());
            return;
        }
        for mv in game.legal_moves() {
            let mut next = game.clone();
            next.play_unchecked(&mv);
            let first = if first.is_empty() {
                game.format_move(&mv)
            } else {
                first.to_string()
            };
            walk(&next, &first, tally);
        }
    }
    let game = Absorption::new(AbsorptionOptions::default()).unwrap();
    let mut tally = Tally {
        sequences: 0,
        turns: HashSet::new(),
        results: HashSet::new(),
    };
    walk(&game, "", &mut tally);
    assert_eq!(
        (tally.sequences, tally.turns.len(), tally.results.len()),
        (25_420, 5_898, 2_962)
    );
}
