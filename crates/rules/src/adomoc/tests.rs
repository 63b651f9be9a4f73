//! The test positions of adomoc.md §11, and the rules around them.

use super::geometry::{label, parse_label, space_at};
use super::*;
use crate::{DrawReason, WinReason};

/// A position from placements written as in §11: `("c3", "L-F^")`.
fn setup_with(options: AdomocOptions, placements: &[(&str, &str)], mover: char) -> Adomoc {
    let token = |space: u8| -> String {
        match placements
            .iter()
            .find(|(l, _)| parse_label(l) == Some(space))
        {
            None => ".".into(),
            Some((_, code)) => {
                let (colour, piece) = code.split_once('-').unwrap();
                let letter = &piece[..1];
                let letter = if colour == "L" {
                    letter.to_string()
                } else {
                    letter.to_lowercase()
                };
                format!("{letter}{}", &piece[1..])
            }
        }
    };
    let mut rows: Vec<String> = (1..=8u8)
        .map(|k| (0..10u8).map(|c| token(space_at(c, k))).collect())
        .collect();
    rows.push(token(CENTRE));
    let text = format!("{} {mover} 0 -", rows.join("/"));
    Adomoc::from_position(options, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn setup(placements: &[(&str, &str)], mover: char) -> Adomoc {
    setup_with(AdomocOptions::default(), placements, mover)
}

fn mode(spirals: SpiralMode) -> AdomocOptions {
    AdomocOptions {
        spirals,
        ..AdomocOptions::default()
    }
}

fn moves(game: &Adomoc) -> Vec<String> {
    game.legal_moves().map(|m| game.format_move(&m)).collect()
}

/// The end spaces of the legal moves from `from`, sorted.
fn destinations(game: &Adomoc, from: &str) -> Vec<String> {
    let from = parse_label(from).unwrap();
    let mut ends: Vec<String> = game
        .legal_moves()
        .filter(|m| m.from == from)
        .map(|m| label(m.to))
        .collect();
    ends.sort();
    ends.dedup();
    ends
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    list.sort();
    list
}

fn play(game: &mut Adomoc, text: &str) -> Vec<AdomocEvent> {
    let mv = game.parse_move(text).unwrap();
    game.apply(&mv)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.ascii()))
}

fn refused(game: &Adomoc, text: &str) -> String {
    let mv = game.parse_move(text).unwrap();
    game.check_move(&mv).unwrap_err().reason
}

#[test]
fn start_has_23_moves_in_every_spiral_mode() {
    for spirals in [
        SpiralMode::Both,
        SpiralMode::CcwInward,
        SpiralMode::CwInward,
    ] {
        let game = Adomoc::new(mode(spirals)).unwrap();
        let all = moves(&game);
        assert_eq!(all.len(), 23, "{spirals:?}");
        assert!(all.iter().all(|m| m.starts_with('F')), "{all:?}");
        assert!(all.contains(&"F^c3c6".to_string()));
        assert!(!all.contains(&"F^c3c7".to_string()));
    }
    let game = Adomoc::new(AdomocOptions::default()).unwrap();
    assert_eq!(
        game.position_string(),
        "SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l 0 -"
    );
}

#[test]
fn moon_rays_per_spiral_mode() {
    let expected = [
        (
            SpiralMode::Both,
            sorted(&[
                "d6", "e7", "f8", "b4", "a3", "j2", "i1", "b6", "a7", "j8", "d4", "e3", "f2", "g1",
            ]),
        ),
        (
            SpiralMode::CcwInward,
            sorted(&["d6", "e7", "f8", "b4", "a3", "j2", "i1"]),
        ),
        (
            SpiralMode::CwInward,
            sorted(&["b6", "a7", "j8", "d4", "e3", "f2", "g1"]),
        ),
    ];
    for (spirals, ends) in expected {
        let game = setup_with(mode(spirals), &[("c5", "L-M")], 'l');
        assert_eq!(destinations(&game, "c5"), ends, "{spirals:?}");
    }
}

#[test]
fn attraction() {
    // A light sun on j1 keeps Light from forfeiting; it blocks none of the foot's lines.
    let game = setup(&[("a5", "L-F"), ("b5", "D-S"), ("j1", "L-S")], 'l');
    assert!(destinations(&game, "a5").is_empty());
    assert!(refused(&game, "Fa5a6").contains("attracted"));
    for (spirals, free) in [
        (SpiralMode::Both, false),
        (SpiralMode::CcwInward, false),
        (SpiralMode::CwInward, true),
    ] {
        let game = setup_with(
            mode(spirals),
            &[("a5", "L-F"), ("b6", "D-S"), ("j1", "L-S")],
            'l',
        );
        let ends = destinations(&game, "a5");
        assert_eq!(!ends.is_empty(), free, "{spirals:?}");
        if free {
            assert_eq!(ends.len(), 16, "{ends:?}");
        }
    }
}

#[test]
fn origination_with_a_choice() {
    let game = setup(
        &[
            ("d4", "L-S"),
            ("d6", "D-M"),
            ("f2", "D-M"),
            ("g2", "D-M"),
            ("h2", "D-M^"),
        ],
        'l',
    );
    let mut landings: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.contains('o'))
        .collect();
    landings.sort();
    assert_eq!(landings, ["Sd4d6oi2", "Sd4d6oj2", "Sd4f2oi2", "Sd4f2oj2"]);
    assert!(refused(&game, "Sd4d6og2").contains("not an empty origin space"));
    assert!(refused(&game, "Sd4d6").contains("originates it"));
}

#[test]
fn prime_protection() {
    let game = setup(&[("d4", "L-S"), ("d6", "D-F^")], 'l');
    assert!(!destinations(&game, "d4").contains(&"d6".to_string()));
    assert!(refused(&game, "Sd4d6of3").contains("only by a prime or a moon"));
    let game = setup(&[("b4", "L-M"), ("d6", "D-F^")], 'l');
    let mut origins: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.starts_with("Mb4d6o"))
        .collect();
    origins.sort();
    assert_eq!(
        origins,
        ["Mb4d6of3", "Mb4d6og3", "Mb4d6oh3", "Mb4d6oi3", "Mb4d6oj3"]
    );
    let game = setup(&[("b4", "L-M"), ("d6", "D-M^")], 'l');
    assert!(!destinations(&game, "b4").contains(&"d6".to_string()));
}

#[test]
fn consumption() {
    let mut game = setup(&[("c3", "L-F^"), ("c5", "D-F"), ("j8", "D-S")], 'l');
    let events = play(&mut game, "F^c3c5x");
    assert!(matches!(events[1], AdomocEvent::Consumed { .. }));
    assert_eq!(
        game.piece_at(parse_label("c5").unwrap()),
        Some(Piece {
            owner: LIGHT,
            kind: Kind::Foot,
            prime: true
        })
    );
    assert_eq!(game.pieces_of(DARK), 1);
    for other in ["L-F", "D-F^"] {
        let game = setup(&[("c3", "L-F^"), ("c5", other)], 'l');
        assert!(!destinations(&game, "c3").contains(&"c5".to_string()));
        assert!(refused(&game, "F^c3c5x").contains("may not land"));
    }
    let infinite = AdomocOptions {
        infinite: true,
        ..AdomocOptions::default()
    };
    let game = setup_with(infinite, &[("c3", "L-F^"), ("c5", "D-F")], 'l');
    assert!(!destinations(&game, "c3").contains(&"c5".to_string()));
}

#[test]
fn winning_and_the_centre() {
    // a) A state of primes: the prime sun goes home and wins.
    let mut game = setup(&[("a6", "L-S^"), ("c8", "L-F^"), ("h8", "D-M^")], 'l');
    assert!(game.state_of_primes(LIGHT));
    // Dark too: its prime moon is on 8 and so is a prime foot (Light's).
    assert!(game.state_of_primes(DARK));
    assert!(moves(&game).contains(&"S^a6o9*".to_string()));
    play(&mut game, "S^a6o9");
    assert_eq!(
        game.status(),
        Status::Win {
            winner: LIGHT,
            reason: WinReason::Centre
        }
    );
    // b) The prime moon on h7: no state of primes.
    let game = setup(&[("a6", "L-S^"), ("c8", "L-F^"), ("h7", "D-M^")], 'l');
    assert!(!game.state_of_primes(LIGHT));
    assert!(refused(&game, "S^a6o9").contains("state of primes"));
    // c) Through the centre without a state of primes.
    let game = setup(&[("a7", "L-S^"), ("j1", "D-S")], 'l');
    let ends = destinations(&game, "a7");
    assert!(ends.contains(&"f8".to_string()) && ends.contains(&"a8".to_string()));
    assert!(!ends.contains(&"o9".to_string()));
    assert!(!ends.contains(&"f7".to_string()), "three spaces at most");
    // d) Blocked by its own prime foot on a8, which it may originate instead.
    let game = setup(&[("a8", "L-F^"), ("a7", "L-S^"), ("h8", "D-M^")], 'l');
    assert!(game.state_of_primes(LIGHT));
    let ends = destinations(&game, "a7");
    assert!(ends.contains(&"a8".to_string()) && !ends.contains(&"o9".to_string()));
    assert!(refused(&game, "S^a7o9").contains("in the way"));
    assert!(moves(&game).contains(&"S^a7a8oa3".to_string()));
}

#[test]
fn self_origination_frees_a_foot() {
    let mut game = setup(&[("a5", "L-F"), ("b5", "D-S"), ("c7", "L-M")], 'l');
    let mut frees: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.starts_with("Mc7a5"))
        .collect();
    frees.sort();
    assert_eq!(
        frees,
        ["Mc7a5oa3", "Mc7a5ob3", "Mc7a5oc3", "Mc7a5od3", "Mc7a5oe3"]
    );
    play(&mut game, "Mc7a5ob3");
    assert_eq!(game.attracted(), 0);
}

#[test]
fn no_immediate_reverse_origination() {
    let mut game = setup(&[("g7", "L-F"), ("g5", "D-S")], 'l');
    let mut sends: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.starts_with("Fg7g5"))
        .collect();
    sends.sort();
    assert_eq!(
        sends,
        ["Fg7g5of1", "Fg7g5og1", "Fg7g5oh1", "Fg7g5oi1", "Fg7g5oj1"]
    );
    play(&mut game, "Fg7g5og1");
    assert_eq!(game.count_moves().to_u64(), Some(25));
    assert!(refused(&game, "Sg1g5oa3").contains("no immediate reverse origination"));
    let text = game.position_string();
    assert!(text.ends_with(" d 1 g1>g5+0"), "{text}");
    let again = Adomoc::from_position(AdomocOptions::default(), &text).unwrap();
    assert_eq!(again.hash(), game.hash());
    assert_eq!(again.count_moves().to_u64(), Some(25));
    // Without the ban there would be 30 moves.
    let unbanned = setup(&[("g5", "L-F"), ("g1", "D-S")], 'd');
    assert_eq!(unbanned.count_moves().to_u64(), Some(30));
    // A round later the ban has lapsed.
    let mut game = setup(
        &[("g7", "L-F"), ("g5", "D-S"), ("j8", "D-M"), ("a8", "L-M")],
        'l',
    );
    play(&mut game, "Fg7g5og1");
    assert!(refused(&game, "Sg1g5oa3").contains("no immediate reverse origination"));
    play(&mut game, "Mj8i7");
    play(&mut game, "Ma8b7");
    assert!(game.bans().is_empty());
    let mv = game.parse_move("Sg1g5oa3").unwrap();
    assert_eq!(game.check_move(&mv), Ok(()));
}

#[test]
fn a_self_origination_bans_the_owners_next_turn() {
    let mut game = setup(
        &[("a5", "L-F"), ("b5", "D-S"), ("c7", "L-M"), ("j8", "D-M")],
        'l',
    );
    play(&mut game, "Mc7a5oa3");
    // Dark's turn passes; on Light's next turn the foot may not originate the moon.
    play(&mut game, "Mj8i7");
    assert_eq!(game.bans().len(), 1);
    let text = game.position_string();
    assert!(text.ends_with("a3>a5+0"), "{text}");
    assert!(refused(&game, "Fa3a5ob2").contains("no immediate reverse origination"));
}

#[test]
fn forfeit_and_draws() {
    // Light's only piece is an attracted foot: no move, so Light forfeits.
    let game = setup(&[("a5", "L-F"), ("b5", "D-S")], 'l');
    assert_eq!(
        game.status(),
        Status::Win {
            winner: DARK,
            reason: WinReason::Forfeit
        }
    );
    // Two suns shuffling: the third occurrence draws.
    let mut game = setup(&[("a1", "L-S"), ("f1", "D-S")], 'l');
    let mut plies = 0;
    for mv in ["Sa1a2", "Sf1f2", "Sa2a1", "Sf2f1"].iter().cycle() {
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
    let capped = AdomocOptions {
        repetition_draw: false,
        ply_cap: 5,
        ..AdomocOptions::default()
    };
    let mut game = setup_with(capped, &[("a1", "L-S"), ("f1", "D-S")], 'l');
    for mv in ["Sa1a2", "Sf1f2", "Sa2a1", "Sf2f1", "Sa1a2"] {
        play(&mut game, mv);
    }
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::TurnCap
        }
    );
    // A position read from text past the cap is drawn just the same.
    let capped = AdomocOptions {
        ply_cap: 5,
        ..AdomocOptions::default()
    };
    let read = Adomoc::from_position(capped, &game.position_string()).unwrap();
    assert_eq!(read.status(), game.status());
}

#[test]
fn infinite_keeps_primes_from_moons() {
    let infinite = AdomocOptions {
        infinite: true,
        ..AdomocOptions::default()
    };
    let placements = [("b4", "L-M"), ("d6", "D-F^"), ("j1", "D-S")];
    let game = setup_with(infinite, &placements, 'l');
    assert!(!destinations(&game, "b4").contains(&"d6".to_string()));
    assert!(refused(&game, "Mb4d6of3").contains("may not land"));
    // Non-prime targets are still originated.
    let game = setup_with(
        AdomocOptions {
            infinite: true,
            ..AdomocOptions::default()
        },
        &[("b4", "L-M"), ("d6", "D-F"), ("j1", "D-S")],
        'l',
    );
    assert!(moves(&game).contains(&"Mb4d6of3".to_string()));
}

#[test]
fn altogether_equal_scores_draw() {
    let altogether = AdomocOptions {
        altogether: true,
        ..AdomocOptions::default()
    };
    // After the win: Light 9 + 8 = 17, Dark 8 + 8 + 1 = 17.
    let mut game = setup_with(
        altogether,
        &[
            ("a6", "L-S^"),
            ("c8", "L-F^"),
            ("h8", "D-M^"),
            ("j8", "D-S"),
            ("i1", "D-S"),
        ],
        'l',
    );
    play(&mut game, "S^a6o9");
    assert_eq!(
        game.status(),
        Status::Draw {
            reason: DrawReason::EqualScore
        }
    );
}

#[test]
fn altogether_scores_decide() {
    let altogether = AdomocOptions {
        altogether: true,
        ..AdomocOptions::default()
    };
    // Light wins the race home but Dark's pieces stand deeper: 9 + 8 + 3 against 8 + 7 + 7 + 6.
    let mut game = setup_with(
        altogether,
        &[
            ("a6", "L-S^"),
            ("c8", "L-F^"),
            ("c3", "L-M"),
            ("h8", "D-M^"),
            ("g7", "D-F"),
            ("i7", "D-M"),
            ("j6", "D-S"),
        ],
        'l',
    );
    play(&mut game, "S^a6o9");
    assert_eq!(
        game.status(),
        Status::Win {
            winner: DARK,
            reason: WinReason::Score
        }
    );
}

#[test]
fn malformed_input_is_refused_clearly() {
    let game = Adomoc::new(AdomocOptions::default()).unwrap();
    for (text, expected) in [
        ("", "empty move"),
        ("Xa3a4", "F (foot)"),
        ("Fa3", "end space"),
        ("Fa3k4", "end space"),
        ("Fa3a4q", "unexpected text"),
        ("Fa3a4o", "origin space"),
        ("Ma3a4", "holds a foot"),
        ("Fc3c4", "prime foot"),
        ("é", "ASCII"),
    ] {
        let err = game.parse_move(text).unwrap_err();
        assert!(err.to_string().contains(expected), "{text}: {err}");
    }
    for (text, field) in [
        ("", "fields"),
        ("SSS^SSsss^ss l 0 -", "board"),
        (
            "SSS^SSsss^s/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l 0 -",
            "cycle 1",
        ),
        (
            "SSS^SSsss^ssS/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l 0 -",
            "cycle 1",
        ),
        (
            "SSS^SSsss^sq/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l 0 -",
            "cycle 1",
        ),
        (
            "S^S^.......s/........../........../........../........../........../........../........../. l 0 -",
            "board",
        ),
        (
            "SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../F l 0 -",
            "board",
        ),
        (
            "SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. x 0 -",
            "mover",
        ),
        (
            "SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l z -",
            "ply",
        ),
        (
            "SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l 0 a1>a4+0",
            "bans",
        ),
        (
            "SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l 0 a1>a2+5",
            "bans",
        ),
    ] {
        let err = Adomoc::from_position(AdomocOptions::default(), text).unwrap_err();
        assert!(err.field.contains(field), "{text}: {err}");
    }
    let start = "SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../.";
    for (rest, field) in [
        ("l 4294967295 -", "ply"),
        ("l 0 c1>c2+0,c1>c2+0", "bans"),
        ("l 0 c1>c1+0", "bans"),
        ("l 0 h1>c2+0", "bans"),
        ("l 0 c1>h2+1", "bans"),
    ] {
        let text = format!("{start} {rest}");
        let err = Adomoc::from_position(AdomocOptions::default(), &text).unwrap_err();
        assert!(err.field.contains(field), "{text}: {err}");
    }
    assert!(Adomoc::from_position(AdomocOptions::default(), "é").is_err());
    assert!(
        game.parse_move("Fa3a6*")
            .unwrap_err()
            .to_string()
            .contains("winning move")
    );
    let mut options = AdomocOptions::default();
    assert!(Adomoc::set_option(&mut options, "spirals", "both ways").is_err());
    assert!(Adomoc::set_option(&mut options, "size", "3").is_err());
    Adomoc::set_option(&mut options, "spirals", "cw").unwrap();
    assert_eq!(options.spirals, SpiralMode::CwInward);
    let off_board = AdomocMove {
        from: 90,
        to: 0,
        effect: Effect::None,
    };
    assert!(
        game.check_move(&off_board)
            .unwrap_err()
            .reason
            .contains("off the board")
    );
}

/// Every move's path runs along one line, neighbour to neighbour, with nothing in the way
/// before its end, which is the move's `to` (the app animates pieces along it).
#[test]
fn every_move_has_a_line_path() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
    for spirals in [SpiralMode::Both, SpiralMode::CwInward] {
        let options = AdomocOptions {
            spirals,
            ..AdomocOptions::default()
        };
        let mut game = Adomoc::new(options).unwrap();
        let mut paths = 0;
        for _ in 0..150 {
            if game.status() != Status::Ongoing {
                break;
            }
            for mv in game.legal_moves() {
                let path = game.line_path(mv.from, mv.to).expect("a move's line");
                assert_eq!(path.last(), Some(&mv.to));
                let mut at = mv.from;
                let geometry = game.geometry();
                for &space in &path {
                    // Either way round: the centre's own table is only for attraction.
                    let linked = geometry.adjacent(at) & 1 << space != 0
                        || geometry.adjacent(space) & 1 << at != 0;
                    assert!(linked, "{path:?}");
                    at = space;
                }
                assert!(
                    path[..path.len() - 1]
                        .iter()
                        .all(|&s| game.piece_at(s).is_none())
                );
                let mover = game.piece_at(mv.from).unwrap();
                if !(mover.prime && mover.kind == Kind::Sun) {
                    assert!(
                        !path.contains(&CENTRE),
                        "{mover:?} crossed the centre: {path:?}"
                    );
                }
                paths += 1;
            }
            let mv = game.random_move(&mut rng).unwrap();
            game.apply(&mv).unwrap();
        }
        assert!(paths > 1000, "{paths} paths");
    }
    let game = Adomoc::new(AdomocOptions::default()).unwrap();
    assert_eq!(game.line_path(CENTRE, 0), None, "no piece there");
}
