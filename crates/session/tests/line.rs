//! The match's line without any front end: moves and their events, undo, redo, jumps,
//! new lines, the move builder, and undo back to a person against a bot.

mod common;

use common::random_game;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_rules::Game;
use tabula_rules::adomoc::Adomoc;
use tabula_session::{GameKind, Match, Seat, with_game};

/// The first `plies` moves of a seeded random Adomoc game, in notation.
fn adomoc_line(plies: usize) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut game = Adomoc::new(Default::default()).unwrap();
    (0..plies)
        .map(|_| {
            let mv = game.random_move(&mut rng).unwrap();
            let text = game.format_move(&mv);
            game.play_unchecked(&mv);
            text
        })
        .collect()
}

fn adomoc_after(moves: &[String]) -> Match<Adomoc> {
    let mut game = Match::<Adomoc>::start(&[]).unwrap();
    for text in moves {
        game.play_notation(text).unwrap();
    }
    game
}

/// A legal first move other than `text`.
fn another_first_move(text: &str) -> String {
    let game = Adomoc::new(Default::default()).unwrap();
    game.legal_moves()
        .map(|mv| game.format_move(&mv))
        .find(|other| other != text)
        .unwrap()
}

#[test]
fn moves_give_their_events_and_undo_redo_and_jumps_keep_the_line() {
    let line = adomoc_line(2);
    let mut game = adomoc_after(&[]);
    let start = game.game().position_string();
    let events = game.play_notation(&line[0]).unwrap();
    assert!(!events.is_empty());
    game.play_notation(&line[1]).unwrap();
    let after_two = game.game().position_string();
    assert_eq!(game.record(), line);

    let revision = game.revision();
    game.go_to(0).unwrap();
    assert!(game.revision() > revision, "a jump is a new position");
    assert_eq!(game.game().position_string(), start);
    assert!(game.record().is_empty());
    assert_eq!(game.line(), line, "taken-back moves are kept");
    assert!(game.is_looking_back());

    assert!(
        !game.redo().unwrap().is_empty(),
        "a replayed move has its events"
    );
    assert_eq!(game.record(), &line[..1]);
    game.go_to(2).unwrap();
    assert_eq!(game.game().position_string(), after_two);
    assert!(!game.is_looking_back());
    assert!(game.redo().is_err(), "nothing left to replay");
    let revision = game.revision();
    let error = game.go_to(3).unwrap_err();
    assert!(error.contains("no move 3"), "{error}");
    assert_eq!(game.record().len(), 2, "a refused jump changes nothing");
    assert_eq!(game.revision(), revision);
    assert_eq!(game.game().position_string(), after_two);
}

#[test]
fn the_same_move_keeps_the_line_and_another_starts_a_new_one() {
    let line = adomoc_line(3);
    let mut game = adomoc_after(&line);
    game.go_to(1).unwrap();
    game.play_notation(&line[1]).unwrap();
    assert_eq!(game.line(), line, "the line's own next move keeps the line");

    game.go_to(0).unwrap();
    let other = another_first_move(&line[0]);
    game.play_notation(&other).unwrap();
    assert_eq!(
        game.line(),
        std::slice::from_ref(&other),
        "a different move forgets the old line"
    );

    game.go_to(0).unwrap();
    game.discard_later_moves();
    assert!(game.line().is_empty());
    assert!(!game.is_looking_back());
}

#[test]
fn undo_against_a_bot_goes_back_to_the_persons_turn() {
    let seats = [Seat::Human, Seat::Bot(1)];
    let mut game = adomoc_after(&adomoc_line(4));
    assert_eq!(game.to_move(), 0);
    assert!(!game.bot_to_move(&seats));
    // Back over the bot's reply and the person's move before it.
    assert_eq!(game.undo_target(&seats), Some(2));
    game.undo(&seats).unwrap();
    assert_eq!(game.record().len(), 2);
    game.undo(&seats).unwrap();
    assert_eq!(game.record().len(), 0);
    assert!(
        game.undo(&seats).is_err(),
        "nothing of the person's before move 1"
    );

    // A redo goes on through the bot's reply, up to the person's next turn.
    game.redo().unwrap();
    assert!(game.redo_goes_on(&seats));
    game.redo().unwrap();
    assert!(!game.redo_goes_on(&seats));
    assert_eq!(game.record().len(), 2);

    // People on both seats take back one move at a time; bots alone, one move too.
    let people = [Seat::Human, Seat::Human];
    assert_eq!(game.undo_target(&people), Some(1));
    let bots = [Seat::Bot(1), Seat::Custom("random".into())];
    assert_eq!(game.undo_target(&bots), Some(1));
    assert!(!game.redo_goes_on(&bots));
    assert!(game.bot_to_move(&bots));
}

trait ToMove {
    fn to_move(&self) -> usize;
}

impl<G: Game> ToMove for Match<G> {
    fn to_move(&self) -> usize {
        self.game().to_move().index()
    }
}

#[test]
fn the_move_builder_offers_steps_takes_them_back_and_commits() {
    let mut game = Match::<Adomoc>::start(&[]).unwrap();
    let first = game.next_steps().len();
    assert!(first > 0);
    game.choose(0).unwrap();
    assert_eq!(game.steps().len(), 1);
    assert!(game.take_back_step());
    assert!(!game.take_back_step(), "no step left to take back");
    assert_eq!(game.next_steps().len(), first);
    assert!(game.choose(first).is_err(), "there is no such choice");
    assert!(game.commit().is_err(), "nothing built yet");

    // Steps until a move is complete, then play it.
    while game.complete_move().is_none() {
        game.choose(0).unwrap();
    }
    let text = game.game().format_move(&game.complete_move().unwrap());
    game.commit().unwrap();
    assert_eq!(game.record(), [text]);
    assert!(
        game.steps().is_empty(),
        "a move played starts the next one afresh"
    );

    game.choose(0).unwrap();
    game.clear_steps();
    assert!(game.steps().is_empty());
}

#[test]
fn jumps_anywhere_in_random_games_match_a_replay() {
    let mut rng = SmallRng::seed_from_u64(3);
    for kind in GameKind::ALL {
        with_game!(kind, G => {
            let mut game = random_game::<G>(&mut rng, 60);
            let line = game.line().to_vec();
            for target in [line.len() / 3, 0, line.len(), line.len() / 2] {
                game.go_to(target).unwrap();
                let mut replay = Match::<G>::start(&[]).unwrap();
                for text in &line[..target] {
                    replay.play_notation(text).unwrap();
                }
                assert_eq!(game.game().position_string(), replay.game().position_string(), "{kind:?} at {target}");
                assert_eq!(game.line(), line.as_slice());
                assert_eq!(game.to_move_after(target), Some(replay.game().to_move().index()));
            }
        });
    }
}

#[test]
fn a_set_up_game_remembers_its_start() {
    let line = adomoc_line(2);
    let mut source = adomoc_after(&line[..1]);
    let position = source.game().position_string();
    let mut game = Match::<Adomoc>::set_up(&[], &position).unwrap();
    assert_eq!(game.start_position(), Some(position.clone()));
    game.play_notation(&line[1]).unwrap();
    assert_eq!(game.start_position(), Some(position));
    source.play_notation(&line[1]).unwrap();
    assert_eq!(
        game.game().position_string(),
        source.game().position_string()
    );
    assert_eq!(source.start_position(), None);
}
