//! The rating against the bots in the headless app: a win against a bot level raises the
//! game's rating and a loss lowers it, each game counts once, and a game the analysis board
//! was opened in before its end is not rated.

mod common;

use bevy::prelude::*;
use common::{headless_app, moves_to_a_win_in_one, settle, start};
use tabula::bot::BotRunner;
use tabula::config::Settings;
use tabula::current_game::{CurrentGame, Seat};
use tabula::rating::RatingChange;
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::{PlayerInput, Travel};
use tabula_session::new_match;

/// Two people play `moves`; then the seat to move is `mover` and the other a level-1 bot.
fn game_before_the_end(moves: &[String], mover: Seat) -> App {
    let mut app = headless_app(BotRunner::Background, Storage::default());
    start(&mut app, GameKind::Adaptoid, vec![Seat::Human, Seat::Human]);
    for text in moves {
        app.world_mut()
            .write_message(PlayerInput::Notation(text.clone()));
        app.update();
        settle(&mut app);
    }
    let mut game = app.world_mut().resource_mut::<CurrentGame>();
    let to_move = game.table.as_match().to_move();
    let other = if mover == Seat::Human {
        Seat::Bot(1)
    } else {
        Seat::Human
    };
    game.seats = vec![other.clone(), other];
    game.seats[to_move] = mover;
    app.update();
    app
}

fn rating(app: &App) -> Option<tabula_session::Rating> {
    app.world()
        .resource::<Settings>()
        .ratings
        .get("adaptoid")
        .copied()
}

/// Redo, to the end of the game again.
fn replay_the_last_move(app: &mut App) {
    assert!(!app.world().resource::<CurrentGame>().is_over());
    app.world_mut().write_message(Travel::Redo);
    app.update();
    run_until_over(app);
    assert!(app.world().resource::<CurrentGame>().is_over());
}

fn run_until_over(app: &mut App) {
    for _ in 0..5_000 {
        if app.world().resource::<CurrentGame>().is_over() {
            break;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    settle(app);
    app.update();
}

#[test]
fn a_win_against_a_bot_raises_the_rating_once() {
    let (moves, win) = moves_to_a_win_in_one();
    let mut app = game_before_the_end(&moves, Seat::Human);
    assert_eq!(rating(&app), None);
    app.world_mut().write_message(PlayerInput::Notation(win));
    app.update();
    run_until_over(&mut app);
    let after = rating(&app).expect("the win is rated");
    assert!(after.rating > 1000.0, "{after:?}");
    assert_eq!(after.games, 1);
    let change = *app.world().resource::<RatingChange>();
    assert_eq!(change.after, after);
    assert_eq!(change.before.rating, 1000.0);
    // Looking back and replaying the last move ends the game again: it is not rated twice.
    app.world_mut().write_message(Travel::Undo);
    app.update();
    settle(&mut app);
    assert!(!app.world().resource::<CurrentGame>().is_over());
    replay_the_last_move(&mut app);
    assert_eq!(rating(&app), Some(after));
}

#[test]
fn a_loss_against_a_bot_lowers_the_rating() {
    let (moves, _) = moves_to_a_win_in_one();
    // The bot has the move, and every level takes a win in one.
    let mut app = game_before_the_end(&moves, Seat::Bot(1));
    run_until_over(&mut app);
    let after = rating(&app).expect("the loss is rated");
    assert!(after.rating < 1000.0, "{after:?}");
}

#[test]
fn a_game_analysed_before_its_end_is_not_rated() {
    let (moves, win) = moves_to_a_win_in_one();
    let mut app = game_before_the_end(&moves, Seat::Human);
    app.world_mut().write_message(Travel::Analyse(true));
    app.update();
    app.world_mut().write_message(Travel::Analyse(false));
    app.update();
    settle(&mut app);
    app.world_mut().write_message(PlayerInput::Notation(win));
    app.update();
    run_until_over(&mut app);
    assert_eq!(rating(&app), None);
}

/// A finished game loaded from its record, looked back at and replayed to its end, is not
/// rated: its last move was not played here.
#[test]
fn a_finished_game_loaded_and_replayed_is_not_rated() {
    let (mut moves, win) = moves_to_a_win_in_one();
    let mut game = new_match(GameKind::Adaptoid, &[]).unwrap();
    for text in &moves {
        game.play_notation(text).unwrap();
    }
    // The person has the winning move; the other seat is a bot.
    let mut seats = vec![Seat::Bot(1), Seat::Bot(1)];
    seats[game.to_move()] = Seat::Human;
    game.play_notation(&win).unwrap();
    moves.push(win);
    let record = tabula_session::Record::of(game.as_ref(), &seats);
    let mut app = headless_app(BotRunner::Background, Storage::default());
    app.world_mut()
        .write_message(tabula::saving::LoadRecord(record));
    app.update();
    app.update();
    settle(&mut app);
    assert!(app.world().resource::<CurrentGame>().is_over());
    app.world_mut().write_message(Travel::GoTo(moves.len() - 1));
    app.update();
    settle(&mut app);
    assert!(!app.world().resource::<CurrentGame>().is_over());
    replay_the_last_move(&mut app);
    assert_eq!(rating(&app), None);
}
