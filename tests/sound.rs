//! Sounds in the headless app: each move is heard as its animation starts, "your turn"
//! follows a bot's move and only then, the end of a game is heard once, and mute or a
//! volume of 0 silences everything. What reaches the speakers is the platform's part;
//! these check what the game asks it to play.

mod common;
use common::the_match;

use bevy::prelude::*;
use common::{headless_app, moves_to_a_win_in_one, run_until, settle, start};
use tabula::bot::BotRunner;
use tabula::config::Settings;
use tabula::current_game::{CurrentGame, Seat};
use tabula::phase::TurnPhase;
use tabula::sound::{PlaySound, Sound};
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::{PlayerInput, Travel};

/// Every sound the game asked to play, in order.
#[derive(Resource, Default)]
struct Heard(Vec<PlaySound>);

fn listen(mut plays: MessageReader<PlaySound>, mut heard: ResMut<Heard>) {
    heard.0.extend(plays.read().copied());
}

fn app_that_listens() -> App {
    let mut app = headless_app(BotRunner::Background, Storage::default());
    app.init_resource::<Heard>().add_systems(Last, listen);
    app
}

fn heard(app: &mut App) -> Vec<Sound> {
    std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0)
        .into_iter()
        .map(|play| play.sound)
        .collect()
}

fn first_legal_move(app: &App) -> String {
    let game = app.world().resource::<CurrentGame>();
    game.table.as_match().legal_moves(1).0.remove(0)
}

fn person_to_move(app: &App) -> bool {
    common::phase(app) == Some(TurnPhase::PersonToMove)
}

#[test]
fn a_bots_move_is_heard_and_then_your_turn() {
    let mut app = app_that_listens();
    start(
        &mut app,
        GameKind::Adaptoid,
        vec![Seat::Human, Seat::Bot(1)],
    );
    settle(&mut app);
    assert_eq!(heard(&mut app), vec![], "a new game is silent");

    let mine = first_legal_move(&app);
    app.world_mut().write_message(PlayerInput::Notation(mine));
    app.update();
    run_until(&mut app, "the bot's move", |app| {
        the_match(app).record().len() == 2
    });
    settle(&mut app);
    run_until(&mut app, "the person's turn", person_to_move);
    settle(&mut app);
    let sounds = heard(&mut app);
    assert_eq!(sounds.last(), Some(&Sound::YourTurn), "{sounds:?}");
    assert_eq!(
        sounds.iter().filter(|s| **s == Sound::YourTurn).count(),
        1,
        "only after the bot's move: {sounds:?}"
    );
    assert!(sounds.len() >= 3, "each move makes a sound: {sounds:?}");

    // Undo goes back without a sound.
    app.world_mut().write_message(Travel::Undo);
    app.update();
    settle(&mut app);
    assert_eq!(heard(&mut app), vec![]);

    // Redo replays both moves, knocks and all, but it is no new turn.
    app.world_mut().write_message(Travel::Redo);
    app.update();
    run_until(&mut app, "the redo to the person's turn", |app| {
        the_match(app).record().len() == 2 && person_to_move(app)
    });
    settle(&mut app);
    let sounds = heard(&mut app);
    assert!(sounds.len() >= 2, "{sounds:?}");
    assert!(!sounds.contains(&Sound::YourTurn), "{sounds:?}");
}

#[test]
fn people_sharing_a_screen_hear_moves_but_no_your_turn() {
    let mut app = app_that_listens();
    start(&mut app, GameKind::Adamas, vec![Seat::Human, Seat::Human]);
    settle(&mut app);
    for _ in 0..4 {
        let text = first_legal_move(&app);
        app.world_mut().write_message(PlayerInput::Notation(text));
        app.update();
        settle(&mut app);
    }
    let sounds = heard(&mut app);
    assert!(sounds.len() >= 4, "{sounds:?}");
    assert!(!sounds.contains(&Sound::YourTurn), "{sounds:?}");
    assert!(!sounds.contains(&Sound::GameOver), "{sounds:?}");
}

#[test]
fn the_end_of_a_game_is_heard_once() {
    let (moves, win) = moves_to_a_win_in_one();
    let mut app = app_that_listens();
    start(&mut app, GameKind::Adaptoid, vec![Seat::Human, Seat::Human]);
    for text in moves {
        app.world_mut().write_message(PlayerInput::Notation(text));
        app.update();
        settle(&mut app);
    }
    heard(&mut app);
    app.world_mut().write_message(PlayerInput::Notation(win));
    app.update();
    settle(&mut app);
    for _ in 0..10 {
        app.update();
    }
    assert!(app.world().resource::<CurrentGame>().is_over());
    let sounds = heard(&mut app);
    assert_eq!(sounds.last(), Some(&Sound::GameOver), "{sounds:?}");
    assert_eq!(sounds.iter().filter(|s| **s == Sound::GameOver).count(), 1);
}

#[test]
fn mute_and_volume_apply_to_every_sound() {
    let mut app = app_that_listens();
    app.world_mut().resource_mut::<Settings>().sound_volume = 0.5;
    start(
        &mut app,
        GameKind::Absorption,
        vec![Seat::Human, Seat::Human],
    );
    settle(&mut app);
    let text = first_legal_move(&app);
    app.world_mut().write_message(PlayerInput::Notation(text));
    app.update();
    settle(&mut app);
    let plays = std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0);
    assert!(!plays.is_empty());
    assert!(plays.iter().all(|p| p.volume == 0.25), "{plays:?}");

    app.world_mut().resource_mut::<Settings>().sound_muted = true;
    let text = first_legal_move(&app);
    app.world_mut().write_message(PlayerInput::Notation(text));
    app.update();
    settle(&mut app);
    assert_eq!(heard(&mut app), vec![], "muted");
}
