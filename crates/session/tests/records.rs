//! Records (RON) and plain move lists: every game round-trips, set-up positions and
//! options are kept, and bad or damaged records are refused with a reason.

mod common;

use common::random_any;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_bot::BotSpec;
use tabula_session::testing::damage;
use tabula_session::{AnyMatch, GameKind, Record, Seat, import_moves, match_at, new_match};

fn seats_for(game: &dyn AnyMatch) -> Vec<Seat> {
    (0..game.num_players())
        .map(|i| if i == 0 { Seat::Human } else { Seat::Bot(3) })
        .collect()
}

fn play_random(game: &mut dyn AnyMatch, seed: u64) {
    let text = game.thinker(&BotSpec::Random, seed).best_move().unwrap();
    game.play_notation(&text).unwrap();
}

#[test]
fn random_games_round_trip_through_records_and_move_lists() {
    let mut rng = SmallRng::seed_from_u64(11);
    for kind in GameKind::ALL {
        for (game_index, plies) in [5, 40, 120, 400].into_iter().enumerate() {
            let mut game = random_any(kind, &mut rng, plies);
            let seats = seats_for(game.as_ref());
            if game_index == 2 {
                // Leave the game some moves back: the taken-back moves are kept.
                game.go_to(game.line().len() / 2).unwrap();
            }
            let record = Record::of(game.as_ref(), &seats);
            let text = record.to_ron();
            let read = Record::parse(&text).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            assert_eq!(read, record, "{kind:?}: {text}");
            let loaded = read
                .load()
                .unwrap_or_else(|e| panic!("{kind:?}: {e}\n{text}"));
            assert_eq!(loaded.seats, seats);
            assert_eq!(loaded.game.line(), game.line());
            assert_eq!(loaded.game.record(), game.record());
            assert_eq!(loaded.game.position_string(), game.position_string());
            assert_eq!(loaded.game.status(), game.status());

            let list = game.move_list();
            let imported =
                import_moves(kind, &[], &list).unwrap_or_else(|e| panic!("{kind:?}: {e}\n{list}"));
            assert_eq!(imported.record(), game.record(), "{kind:?}:\n{list}");
            assert_eq!(imported.position_string(), game.position_string());
        }
    }
}

#[test]
fn adaptoid_move_lists_end_each_turn() {
    let mut game = new_match(GameKind::Adaptoid, &[]).unwrap();
    game.play_notation("d2+L").unwrap();
    game.play_notation("d6+L").unwrap();
    assert_eq!(game.move_list(), "d2+L;\nd6+L;\n");
}

#[test]
fn a_set_up_position_with_options_round_trips() {
    let mut rng = SmallRng::seed_from_u64(5);
    let settings = vec![("players".to_string(), "3".to_string())];
    let mut source = new_match(GameKind::Adamas, &settings).unwrap();
    for _ in 0..6 {
        play_random(source.as_mut(), rng.random());
    }
    let mut game = match_at(GameKind::Adamas, &settings, &source.position_string()).unwrap();
    play_random(game.as_mut(), 3);
    let seats = [Seat::Human, Seat::Bot(1), Seat::Custom("uct:ms=20".into())];
    let record = Record::of(game.as_ref(), &seats);
    // Three players also fix the board size; both are written.
    assert!(
        record.options.contains(&settings[0]) && record.options.iter().any(|(k, _)| k == "size"),
        "{:?}",
        record.options
    );
    assert_eq!(
        record.start.as_deref(),
        Some(source.position_string().as_str())
    );
    let loaded = Record::parse(&record.to_ron()).unwrap().load().unwrap();
    assert_eq!(loaded.game.position_string(), game.position_string());
    assert_eq!(loaded.seats, seats);
}

#[test]
fn a_super_adaptoid_board_round_trips() {
    let board = include_str!("../../../boards/super-adaptoid-example.txt");
    let settings = vec![("board".to_string(), board.to_string())];
    let mut game = new_match(GameKind::Adaptoid, &settings).unwrap();
    for seed in 0..6 {
        play_random(game.as_mut(), seed);
    }
    let record = Record::of(game.as_ref(), &[Seat::Human, Seat::Human]);
    assert_eq!(record.options.len(), 1, "{:?}", record.options);
    let loaded = Record::parse(&record.to_ron()).unwrap().load().unwrap();
    assert_eq!(loaded.game.position_string(), game.position_string());
    assert_eq!(loaded.game.settings(), game.settings());
}

#[test]
fn bad_records_name_what_is_wrong() {
    let mut game = new_match(GameKind::Adomoc, &[]).unwrap();
    game.play_notation("Fa3a6").unwrap();
    let good = Record::of(game.as_ref(), &[Seat::Human, Seat::Bot(2)]).to_ron();
    let cases = [
        (good.replace("adomoc", "chess"), "game:"),
        (good.replace("Fa3a6", "Fa3a9"), "move 1 (\"Fa3a9\")"),
        (good.replace("level:2", "level:17"), "seats[1]"),
        (good.replace("level:2", "grandmaster"), "seats[1]"),
        (
            good.replace("tabula_record: 4", "tabula_record: 7"),
            "format 7",
        ),
        (good.replace("moves:", "mooves:"), "line "),
        (good[..good.len() / 2].to_string(), "line "),
        ("".to_string(), "line "),
        ("hello".to_string(), "line 1"),
    ];
    for (text, expected) in cases {
        let error = Record::parse(&text).and_then(|r| r.load().map(|_| ()));
        let error = error.err().unwrap_or_else(|| panic!("{text} loaded"));
        assert!(error.contains(expected), "{expected:?} not in {error:?}");
    }
    let wrong_result = Record {
        result: Some("Light wins".to_string()),
        at: None,
        ..Record::parse(&good).unwrap()
    };
    assert!(wrong_result.load().err().unwrap().starts_with("result:"));
    let too_far = Record {
        at: Some(5),
        ..Record::parse(&good).unwrap()
    };
    assert!(too_far.load().err().unwrap().starts_with("at:"));
    let too_many_seats = Record {
        seats: vec!["human".into(); 3],
        ..Record::parse(&good).unwrap()
    };
    assert!(too_many_seats.load().err().unwrap().starts_with("seats:"));
    let bad_move = import_moves(GameKind::Adomoc, &[], "Fa3a6 Zz9")
        .err()
        .unwrap();
    assert!(bad_move.contains("move 2"), "{bad_move}");
    assert!(import_moves(GameKind::Adomoc, &[], " \n").is_err());
}

#[test]
fn pasted_moves_and_positions_become_records() {
    let mut source = new_match(GameKind::Adomoc, &[]).unwrap();
    play_random(source.as_mut(), 1);
    play_random(source.as_mut(), 2);
    let moves = Record::pasted(GameKind::Adomoc, &source.move_list(), false).unwrap();
    assert_eq!(moves.moves, source.record());
    let loaded = moves.load().unwrap();
    assert_eq!(loaded.game.position_string(), source.position_string());
    assert!(Record::pasted(GameKind::Adomoc, "  ", false).is_err());

    let source = new_match(GameKind::Absorption, &[]).unwrap();
    let position = Record::pasted(GameKind::Absorption, &source.position_string(), true).unwrap();
    let loaded = position.load().unwrap();
    assert_eq!(loaded.game.position_string(), source.position_string());
    assert_eq!(loaded.seats, [Seat::Human, Seat::Human]);
    let nonsense = Record::pasted(GameKind::Absorption, "not a board", true).unwrap();
    assert!(
        nonsense
            .load()
            .err()
            .unwrap()
            .starts_with("options or start:")
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    #[test]
    fn damaged_records_are_refused_with_a_reason_or_read(
        cut in 0usize..4_000,
        edits in proptest::collection::vec((0usize..4_000, proptest::prelude::any::<u8>()), 0..4),
        kind in 0usize..4,
    ) {
        let kind = GameKind::ALL[kind];
        let mut rng = SmallRng::seed_from_u64(kind as u64);
        let game = random_any(kind, &mut rng, 30);
        let good = Record::of(game.as_ref(), &seats_for(game.as_ref())).to_ron();
        let text = damage(&good, cut, &edits);
        if let Err(error) = Record::parse(&text).and_then(|record| record.load().map(|_| ())) {
            proptest::prop_assert!(!error.is_empty());
        }
    }

    #[test]
    fn arbitrary_text_never_panics_as_a_record_or_a_paste(text in "\\PC{0,200}", kind in 0usize..4) {
        let kind = GameKind::ALL[kind];
        let _ = Record::parse(&text).and_then(|record| record.load().map(|_| ()));
        for as_position in [false, true] {
            let _ = Record::pasted(kind, &text, as_position).and_then(|record| record.load().map(|_| ()));
        }
    }
}
