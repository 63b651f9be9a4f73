//! The test positions of adaptoid.md §7, and the rules around them.

use super::*;
use crate::{DrawReason, WinReason};

const WHITE: Player = Player(0);
const BLACK: Player = Player(1);

/// A standard-board position from `cell:W(legs,pincers)`-style placements.
fn setup(placements: &[(&str, char, u8, u8)], mover: char, captures: (u8, u8)) -> Adaptoid {
    setup_with(AdaptoidOptions::default(), placements, mover, captures)
}

fn setup_with(
    options: AdaptoidOptions,
    placements: &[(&str, char, u8, u8)],
    mover: char,
    captures: (u8, u8),
) -> Adaptoid {
    let board = Board::standard();
    let rows: Vec<String> = board
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .map(
                    |&cell| match placements.iter().find(|p| p.0 == board.label(cell)) {
                        Some(&(_, colour, legs, pincers)) => format!("{colour}{legs}{pincers}"),
                        None => ".".to_string(),
                    },
                )
                .collect()
        })
        .collect();
    let text = format!("{} {mover} {}-{} 0", rows.join("/"), captures.0, captures.1);
    Adaptoid::from_position(options, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(game: &mut Adaptoid, text: &str) -> Vec<AdaptoidEvent> {
    let mv = game.parse_move(text).unwrap();
    game.apply(&mv)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.ascii()))
}

fn refused(game: &Adaptoid, text: &str) -> String {
    let mv = game.parse_move(text).unwrap();
    game.check_move(&mv).unwrap_err().reason
}

fn names(game: &Adaptoid, set: u64) -> Vec<String> {
    board::cells(set)
        .map(|c| game.board().label(c).to_string())
        .collect()
}

fn cell(game: &Adaptoid, label: &str) -> u8 {
    game.board().parse_label(label).unwrap()
}

fn at(game: &Adaptoid, label: &str) -> Option<(Colour, u8, u8)> {
    game.creature(cell(game, label))
        .map(|c| (c.colour, c.legs, c.pincers))
}

#[test]
fn start_has_eight_turns() {
    let game = Adaptoid::new(AdaptoidOptions::default()).unwrap();
    assert_eq!(
        game.position_string(),
        "..../...../....../.W00...B00./....../...../.... w 0-0 0"
    );
    let mut turns: Vec<String> = game.legal_moves().map(|m| game.format_move(&m)).collect();
    turns.sort();
    assert_eq!(
        turns,
        ["+c1", "+c2", "+d1", "+d3", "+e1", "+e2", "d2+L", "d2+P"]
    );
    assert_eq!(game.count_moves().to_u64(), Some(8));
    assert_eq!(game.starving(WHITE) | game.starving(BLACK), 0);
}

#[test]
fn reach_with_two_legs() {
    for blocker in ['W', 'B'] {
        let game = setup(
            &[
                ("d4", 'W', 2, 0),
                ("d3", blocker, 0, 0),
                ("c4", blocker, 0, 0),
                ("e4", blocker, 0, 0),
                ("g4", 'B', 0, 0),
            ],
            'w',
            (0, 0),
        );
        let mut reach = names(&game, game.destinations(cell(&game, "d4")));
        reach.sort();
        assert_eq!(
            reach,
            [
                "b2", "b3", "c2", "c3", "c5", "d5", "d6", "e2", "e3", "e5", "f2", "f3"
            ]
        );
    }
}

fn combat(defender_pincers: u8) -> Adaptoid {
    setup(
        &[
            ("d2", 'W', 2, 2),
            ("d4", 'B', 0, defender_pincers),
            ("a1", 'W', 0, 0),
            ("g4", 'B', 0, 0),
        ],
        'w',
        (0, 0),
    )
}

#[test]
fn combat_by_pincers() {
    // a) More pincers: the defender goes, the attacker stands on d4.
    let mut game = combat(1);
    let events = play(&mut game, "d2xd4 a1+L");
    assert!(events.contains(&AdaptoidEvent::Attacked {
        from: cell(&game, "d2"),
        at: cell(&game, "d4"),
        attacker_pincers: 2,
        defender_pincers: 1,
        result: FightResult::AttackerWins,
    }));
    assert_eq!(at(&game, "d4"), Some((Colour::White, 2, 2)));
    assert_eq!(at(&game, "d2"), None);
    assert_eq!((game.captures_of(WHITE), game.captures_of(BLACK)), (1, 0));
    assert_eq!(game.supply_of(BLACK), [11, 12, 12]);
    // b) Equal: both go, both score.
    let mut game = combat(2);
    play(&mut game, "d2xd4 a1+L");
    assert_eq!((at(&game, "d4"), at(&game, "d2")), (None, None));
    assert_eq!((game.captures_of(WHITE), game.captures_of(BLACK)), (1, 1));
    assert_eq!(game.supply_of(WHITE), [11, 11, 12]);
    // c) Fewer: the attack is legal and loses.
    let mut game = combat(3);
    play(&mut game, "d2xd4 a1+L");
    assert_eq!(at(&game, "d4"), Some((Colour::Black, 0, 3)));
    assert_eq!((game.captures_of(WHITE), game.captures_of(BLACK)), (0, 1));
    let cautious = AdaptoidOptions {
        forbid_losing_attacks: true,
        ..AdaptoidOptions::default()
    };
    let barred = setup_with(
        cautious,
        &[("d2", 'W', 2, 2), ("d4", 'B', 0, 3), ("a1", 'W', 0, 0)],
        'w',
        (0, 0),
    );
    assert!(refused(&barred, "d2xd4 a1+L").contains("forbid_losing_attacks"));
    // d) No pincers, no attack; e) the last step onto the enemy counts as a leg.
    let game = setup(&[("d2", 'W', 2, 0), ("d4", 'B', 0, 1)], 'w', (0, 0));
    assert!(refused(&game, "d2xd4 +d3").contains("no pincers"));
    let game = setup(&[("d2", 'W', 1, 1), ("d4", 'B', 0, 1)], 'w', (0, 0));
    assert!(refused(&game, "d2xd4 +d3").contains("within 1 step"));
}

#[test]
fn starvation_of_the_seeds_example() {
    let mut game = setup(
        &[
            ("c3", 'W', 0, 0),
            ("c4", 'W', 1, 0),
            ("d4", 'B', 3, 2),
            ("a1", 'B', 2, 2),
            ("g4", 'B', 0, 0),
        ],
        'w',
        (0, 0),
    );
    let events = play(&mut game, "c3+L");
    let starved: Vec<String> = events
        .iter()
        .filter_map(|e| match *e {
            AdaptoidEvent::Removed {
                cell,
                cause: RemovalCause::Starved,
                scorer,
                ..
            } => {
                assert_eq!(scorer, WHITE);
                Some(game.board().label(cell).to_string())
            }
            _ => None,
        })
        .collect();
    assert_eq!(starved, ["a1", "d4"]);
    assert_eq!(game.captures_of(WHITE), 2);
    assert_eq!(at(&game, "g4"), Some((Colour::Black, 0, 0)));
    assert_eq!(game.supply_of(BLACK), [11, 12, 12]);
}

#[test]
fn the_fork() {
    let placements = [("d4", 'B', 2, 2), ("d3", 'B', 0, 0), ("b3", 'W', 1, 0)];
    let mut game = setup(&placements, 'w', (0, 0));
    play(&mut game, "b3-c4 +c3");
    assert_eq!(at(&game, "d4"), None);
    assert_eq!(at(&game, "d3"), Some((Colour::Black, 0, 0)));
    assert_eq!(game.captures_of(WHITE), 1);
    assert_eq!(game.status(), Status::Ongoing);
    // §7.6 a): the same fork from 4-2 is White's fifth capture.
    let mut game = setup(&placements, 'w', (4, 2));
    play(&mut game, "b3-c4 +c3");
    assert_eq!(
        game.status(),
        Status::Win {
            winner: WHITE,
            reason: WinReason::CaptureTarget
        }
    );
}

#[test]
fn game_end_ties_go_to_the_last_mover() {
    // b) 4-4, an equal fight: both reach 5 and White, the mover, wins.
    let mut game = setup(
        &[
            ("d2", 'W', 2, 2),
            ("d4", 'B', 0, 2),
            ("a1", 'W', 0, 0),
            ("g4", 'B', 0, 0),
        ],
        'w',
        (4, 4),
    );
    play(&mut game, "d2xd4 a1+L");
    assert_eq!((game.captures_of(WHITE), game.captures_of(BLACK)), (5, 5));
    assert_eq!(
        game.status(),
        Status::Win {
            winner: WHITE,
            reason: WinReason::CaptureTarget
        }
    );
    // c) 2-4, a losing attack gives Black its fifth: Black wins in White's turn.
    let mut game = setup(
        &[("d2", 'W', 2, 2), ("d4", 'B', 0, 3), ("a1", 'W', 0, 0)],
        'w',
        (2, 4),
    );
    play(&mut game, "d2xd4 a1+L");
    assert_eq!(
        game.status(),
        Status::Win {
            winner: BLACK,
            reason: WinReason::CaptureTarget
        }
    );
    // d) White's only adaptoid dies in an equal fight: no growth is possible, and Black,
    // with adaptoids left, wins; unless that fight was White's fifth capture.
    for (white_captures, winner, reason) in [
        (0, BLACK, WinReason::NoPiecesLeft),
        (4, WHITE, WinReason::CaptureTarget),
    ] {
        let mut game = setup(
            &[("d2", 'W', 2, 2), ("d4", 'B', 0, 2), ("g4", 'B', 0, 0)],
            'w',
            (white_captures, 0),
        );
        assert!(refused(&game, "d2xd4 +d3").contains("touch one of yours"));
        let events = play(&mut game, "d2xd4");
        assert!(events.contains(&AdaptoidEvent::GrowthSkipped { player: WHITE }));
        assert_eq!(game.status(), Status::Win { winner, reason });
    }
}

#[test]
fn own_adaptoids_starve_only_in_the_opponents_turn() {
    let mut game = setup(
        &[
            ("e3", 'W', 2, 2),
            ("d3", 'B', 0, 0),
            ("d4", 'B', 0, 0),
            ("e2", 'B', 0, 0),
            ("a1", 'W', 0, 0),
        ],
        'w',
        (0, 0),
    );
    assert_ne!(game.starving(WHITE), 0);
    play(&mut game, "+a2");
    assert_eq!(at(&game, "e3"), Some((Colour::White, 2, 2)));
    let events = play(&mut game, "d3+P");
    assert!(events.iter().any(|e| matches!(
        e,
        AdaptoidEvent::Removed {
            cause: RemovalCause::Starved,
            scorer: BLACK,
            ..
        }
    )));
    assert_eq!(at(&game, "e3"), None);
    assert_eq!(game.captures_of(BLACK), 1);
}

/// A Super-Adaptoid board where neither side can grow: nine hubs each linked to seven
/// shared leaves, and sixteen discs touching nothing for the spare bodies.
fn hub_board() -> String {
    let row = "o   ".repeat(8);
    let mut text = format!("# hubs a1-a8 and b1; leaves b2-b8\n{row}\n\n{row}\n\n{row}\n\n{row}\n");
    for hub in (1..=8).map(|i| format!("a{i}")).chain(["b1".to_string()]) {
        for leaf in 2..=8 {
            text.push_str(&format!("link {hub} b{leaf}\n"));
        }
    }
    text
}

#[test]
fn no_growth_pass_and_repetition_on_a_super_board() {
    let options = AdaptoidOptions {
        board: Some(hub_board()),
        ..AdaptoidOptions::default()
    };
    let start = "W33W33W33W33B33B33B33B33/......../W00W00W00W00W00W00W00W00/B00B00B00B00B00B00B00B00 w 0-0 0";
    let mut game = Adaptoid::from_position(options, start).unwrap();
    assert_eq!(game.board().len(), 32);
    assert_eq!(game.supply_of(WHITE), [0, 0, 0]);
    let turns: Vec<String> = game.legal_moves().map(|m| game.format_move(&m)).collect();
    assert!(turns.contains(&"pass".to_string()));
    assert!(turns.contains(&"a1-b1".to_string()));
    // An equal fight returns a body, legs and pincers to the supply, so the attack
    // must grow.
    assert!(turns.iter().any(|t| t.starts_with("a1xa5 +")));
    assert!(!turns.contains(&"a1xa5".to_string()));
    assert!(refused(&game, "a1+L").contains("6 parts"));
    assert!(refused(&game, "c1+L").contains("no legs are left"));
    let mut plies = 0;
    for mv in ["a1-b1", "pass", "b1-a1", "pass"].iter().cycle() {
        play(&mut game, mv);
        plies += 1;
        if game.status() != Status::Ongoing {
            break;
        }
    }
    assert_eq!(plies, 8);
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::Repetition
        }
    );
    // Without the draw the shuffle goes on (a cap is the caller's business).
    let endless = AdaptoidOptions {
        board: Some(hub_board()),
        repetition_draw: false,
        ..AdaptoidOptions::default()
    };
    let mut game = Adaptoid::from_position(endless, start).unwrap();
    for mv in ["a1-b1", "pass", "b1-a1", "pass"].iter().cycle().take(40) {
        play(&mut game, mv);
        game.check_invariants().unwrap();
    }
    assert_eq!(game.status(), Status::Ongoing);
}

#[test]
fn a_board_given_as_text_is_judged_by_its_shape() {
    let options = AdaptoidOptions {
        board: Some(format!(
            "# the standard board, written out\n{STANDARD_BOARD}"
        )),
        ..AdaptoidOptions::default()
    };
    let game = Adaptoid::new(options).unwrap();
    assert_eq!(
        game.position_string(),
        "..../...../....../.W00...B00./....../...../.... w 0-0 0"
    );
    // More parts than a supply holds are refused before they are counted.
    let wide = AdaptoidOptions {
        board: Some("o ".repeat(60)),
        ..AdaptoidOptions::default()
    };
    let crowded = format!("{} w 0-0 0", "W60".repeat(43) + &".".repeat(17));
    let err = Adaptoid::from_position(wide, &crowded).unwrap_err();
    assert!(err.message.contains("more than 12 legs"), "{err}");
}

#[test]
fn pie_start() {
    let options = AdaptoidOptions {
        pie_start: true,
        ..AdaptoidOptions::default()
    };
    let mut game = Adaptoid::new(options.clone()).unwrap();
    assert_eq!(game.count_moves().to_u64(), Some(37 * 36));
    assert_eq!(game.to_move(), WHITE);
    assert!(refused(&game, "W:d2 B:d2").contains("two different cells"));
    assert_eq!(game.player_name(WHITE), "First player");
    // Either order of the two placements reads the same.
    assert_eq!(game.parse_move("B:e3 W:c3"), game.parse_move("W:c3 B:e3"));
    play(&mut game, "W:c3 B:e3");
    assert_eq!(game.to_move(), BLACK);
    assert!(game.position_string().ends_with(" choose"));
    // The second player takes White, so the White pieces (c3) are theirs and they move.
    play(&mut game, "white");
    assert_eq!(game.to_move(), BLACK);
    assert_eq!(game.player_name(BLACK), "White");
    assert_eq!(game.creature(cell(&game, "c3")).unwrap().owner, BLACK);
    let text = game.position_string();
    assert!(text.ends_with(" w 0-0 2 swapped"), "{text}");
    let again = Adaptoid::from_position(options, &text).unwrap();
    assert_eq!(again.hash(), game.hash());
    assert_eq!(again.to_move(), BLACK);
}

#[test]
fn malformed_input_is_refused_clearly() {
    let game = Adaptoid::new(AdaptoidOptions::default()).unwrap();
    for (text, expected) in [
        ("", "empty move"),
        ("z9-d4", "not a cell"),
        ("d2-", "expected a cell"),
        ("d2?d4", "expected - (a move)"),
        ("d2+Q", "+L (a leg)"),
        ("+d2x", "unexpected text"),
        ("d2-d4 +d3 d4+L", "at most a move and a growth"),
        ("W:d2 B:", "expected a cell"),
        ("é", "ASCII"),
    ] {
        let err = game.parse_move(text).unwrap_err();
        assert!(err.to_string().contains(expected), "{text}: {err}");
    }
    for (text, field) in [
        ("", "fields"),
        ("..../...../....../.W00...B00. w 0-0 0", "board"),
        (
            "..../...../....../.W00...B00../....../...../.... w 0-0 0",
            "row d",
        ),
        (
            "..../...../....../.W0...B00./....../...../.... w 0-0 0",
            "row d",
        ),
        (
            "..../...../....../.W43...B00./....../...../.... w 0-0 0",
            "row d",
        ),
        (
            "..../...../....../.X00...B00./....../...../.... w 0-0 0",
            "row d",
        ),
        (
            "..../...../....../.W00...B00./....../...../.... x 0-0 0",
            "mover",
        ),
        (
            "..../...../....../.W00...B00./....../...../.... w 0:0 0",
            "captures",
        ),
        (
            "..../...../....../.W00...B00./....../...../.... w 0-0 -1",
            "ply",
        ),
        (
            "..../...../....../.W00...B00./....../...../.... w 0-0 0 place",
            "setup",
        ),
        (
            "W66W66W66W66/...../....../.W00...B00./....../...../.... w 0-0 0",
            "row a",
        ),
        (
            "W33W33W33W33/W33..../....../.W00...B00./....../...../.... w 0-0 0",
            "board",
        ),
    ] {
        let err = Adaptoid::from_position(AdaptoidOptions::default(), text).unwrap_err();
        assert!(err.field.contains(field), "{text}: {err}");
    }
    let mut options = AdaptoidOptions::default();
    assert!(Adaptoid::set_option(&mut options, "pie_start", "maybe").is_err());
    let err = Adaptoid::set_option(&mut options, "board", "o o\no x\n").unwrap_err();
    assert!(err.to_string().contains("board line 2"), "{err}");
    assert!(Adaptoid::set_option(&mut options, "size", "3").is_err());
}

#[test]
fn illegal_turns_say_why() {
    let game = setup(
        &[
            ("d4", 'W', 1, 0),
            ("d5", 'W', 0, 0),
            ("a1", 'B', 0, 0),
            ("g1", 'W', 3, 3),
        ],
        'w',
        (0, 0),
    );
    for (text, expected) in [
        ("a1-a2 +a3", "Black's"),
        ("d5-d6 +d6", "no legs"),
        ("d4-d5 +c4", "your own"),
        ("d4-b4 +c4", "within 1 step"),
        ("d4-d3", "must grow"),
        ("+a2", "touch one of yours"),
        ("+d5", "occupied"),
        ("g1+L", "6 parts"),
        ("c1+P", "no adaptoid of yours"),
        ("d4-d3 d4+L", "after the move"),
    ] {
        let reason = refused(&game, text);
        assert!(reason.contains(expected), "{text}: {reason}");
    }
    let off_board = AdaptoidMove::Turn {
        step: None,
        growth: Some(Growth::Create(40)),
    };
    assert!(
        game.check_move(&off_board)
            .unwrap_err()
            .reason
            .contains("not on this board")
    );
}

#[test]
fn records_split_into_turns() {
    let split = |text| <Adaptoid as Game>::split_moves(text);
    assert_eq!(split("d2+L d6+P +d3"), ["d2+L", "d6+P", "+d3"]);
    assert_eq!(split("d2-d4 +d3 d6xd4 d4+P"), ["d2-d4 +d3", "d6xd4 d4+P"]);
    assert_eq!(split("d2-d4; +d3 pass"), ["d2-d4", "+d3", "pass"]);
    assert_eq!(
        split("W:d2 B:d6 white d2+L"),
        ["W:d2 B:d6", "white", "d2+L"]
    );
    assert_eq!(split("b:d6 w:d2; black"), ["b:d6 w:d2", "black"]);
}

#[test]
fn builder_offers_the_steps_of_legal_turns() {
    use crate::MoveBuilder;
    let game = setup(&[("d4", 'W', 1, 0), ("a1", 'B', 0, 0)], 'w', (0, 0));
    let mut builder = game.builder();
    let first = builder.legal_steps(&game);
    assert!(first.contains(&AdaptoidStep::From(cell(&game, "d4"))));
    assert!(first.contains(&AdaptoidStep::Stay));
    builder
        .push(&game, AdaptoidStep::From(cell(&game, "d4")))
        .unwrap();
    builder
        .push(&game, AdaptoidStep::To(cell(&game, "d5")))
        .unwrap();
    assert!(builder.complete_move(&game).is_none());
    // Growth refers to the board after the move: the adaptoid is now on d5.
    let grows = builder.legal_steps(&game);
    assert!(grows.contains(&AdaptoidStep::Grow(Growth::Leg(cell(&game, "d5")))));
    assert!(!grows.contains(&AdaptoidStep::Grow(Growth::Leg(cell(&game, "d4")))));
    builder
        .push(&game, AdaptoidStep::Grow(Growth::Pincer(cell(&game, "d5"))))
        .unwrap();
    let turn = builder.complete_move(&game).unwrap();
    assert_eq!(game.format_move(&turn), "d4-d5 d5+P");
}

/// Every step of a turn has a walk: neighbour to neighbour through empty cells to its
/// end, no longer than the adaptoid's legs (the app animates it along the walk).
#[test]
fn every_step_has_a_walk() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
    let mut game = Adaptoid::new(AdaptoidOptions::default()).unwrap();
    let mut walks = 0;
    for _ in 0..120 {
        if game.status() != Status::Ongoing {
            break;
        }
        for mv in game.legal_moves() {
            let AdaptoidMove::Turn {
                step: Some((from, to)),
                ..
            } = mv
            else {
                continue;
            };
            let path = game.walk_path(from, to).expect("a step's walk");
            assert_eq!(path.last(), Some(&to));
            assert!(
                path.len() <= game.pieces.legs[from as usize] as usize,
                "{path:?}"
            );
            let mut at = from;
            for &cell in &path {
                assert_ne!(game.board.neighbours(at) & 1 << cell, 0, "{path:?}");
                at = cell;
            }
            let empty = game.pieces.empty_cells(&game.board);
            assert!(path[..path.len() - 1].iter().all(|&c| empty & 1 << c != 0));
            walks += 1;
        }
        let mv = game.random_move(&mut rng).unwrap();
        game.apply(&mv).unwrap();
    }
    assert!(walks > 200, "{walks} walks");
    assert_eq!(game.walk_path(0, 200), None, "a cell off the board");
    assert_eq!(game.walk_path(3, 3), None);
}
