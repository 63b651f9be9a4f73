//! The title's showcase game in the headless app: bots play it behind the menus, one game
//! after another; nothing of it is saved, rated or heard; it waits while another screen
//! is up; and a game started takes its place with a board of its own.

mod common;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use common::{run_until, screen, settle, shown_pieces, start, to_title};
use std::time::Duration;
use tabula::animation::AnimationLog;
use tabula::config::Settings;
use tabula::current_game::{CurrentGame, Seat};
use tabula::new_game::StartGame;
use tabula::pieces::pieces_match;
use tabula::screens::Screen;
use tabula::showcase::Showcase;
use tabula::sound::PlaySound;
use tabula::storage::{AUTOSAVE, Storage};
use tabula::table::{Anim, GameKind, PlayedEvent};
use tabula::turn::RulesEvent;

#[derive(Resource, Default)]
struct Heard(usize);

fn listen(mut plays: MessageReader<PlaySound>, mut heard: ResMut<Heard>) {
    heard.0 += plays.read().count();
}

/// The game's logic and the showcase, 50 ms a frame, files kept in `dir`; on the title.
fn app_with_showcase(dir: &std::path::Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        tabula::logic_plugin,
        tabula::showcase::plugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        50,
    )))
    .insert_resource(Storage::at(dir))
    .init_resource::<Heard>()
    .add_systems(Last, listen);
    app.update();
    to_title(&mut app);
    app
}

fn game(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

fn moves(app: &App) -> usize {
    game(app).table.as_match().record().len()
}

/// The board shows exactly the rules' position.
fn board_shows_the_game(app: &mut App) {
    let pieces = shown_pieces(app);
    if let Err(error) = pieces_match(game(app), &pieces) {
        panic!("{error}");
    }
}

#[test]
fn bots_play_the_showcase_and_nothing_of_it_is_kept_or_heard() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_showcase(dir.path());
    assert!(app.world().contains_resource::<Showcase>());
    let seats = game(&app).seats.clone();
    assert!(
        !seats.is_empty() && seats.iter().all(Seat::is_bot),
        "{seats:?}"
    );
    board_shows_the_game(&mut app);

    run_until(&mut app, "three showcase moves", |app| moves(app) >= 3);
    settle(&mut app);
    board_shows_the_game(&mut app);
    assert_eq!(screen(&app), Screen::Title);
    assert_eq!(
        app.world().resource::<Heard>().0,
        0,
        "the showcase is silent"
    );
    assert!(
        Storage::at(dir.path()).read(AUTOSAVE).unwrap().is_none(),
        "the showcase is not autosaved"
    );
}

#[test]
fn the_showcase_waits_on_other_screens_and_keeps_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_showcase(dir.path());
    run_until(&mut app, "a showcase move", |app| moves(app) >= 1);
    settle(&mut app);
    let (id, played) = (game(&app).id, moves(&app));

    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::NewGame);
    // Ten seconds on the new-game screen: time for five moves on the title.
    for _ in 0..200 {
        app.update();
    }
    assert_eq!(
        moves(&app),
        played,
        "the showcase waits while the form is up"
    );
    assert!(app.world().resource::<Showcase>().paused);

    to_title(&mut app);
    assert_eq!(
        game(&app).id,
        id,
        "back on the title, the same game goes on"
    );
    run_until(&mut app, "the next showcase move", |app| {
        moves(app) > played
    });

    // The title's load window pauses it too (the view sets `paused` while it is open).
    settle(&mut app);
    let played = moves(&app);
    app.world_mut().resource_mut::<Showcase>().paused = true;
    for _ in 0..200 {
        app.update();
    }
    assert_eq!(moves(&app), played, "a paused showcase waits");
}

#[test]
fn a_game_started_takes_the_showcase_place_and_the_title_brings_the_next_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_showcase(dir.path());
    let first = (game(&app).id, game(&app).table.as_match().kind());
    run_until(&mut app, "a showcase move", |app| moves(app) >= 1);

    // Started while the showcase's pieces may still be moving.
    start(&mut app, GameKind::Adamas, vec![Seat::Human, Seat::Human]);
    assert_eq!(screen(&app), Screen::Playing);
    assert!(!app.world().contains_resource::<Showcase>());
    assert_eq!(game(&app).table.as_match().kind(), GameKind::Adamas);
    assert_eq!(game(&app).seats, vec![Seat::Human, Seat::Human]);
    assert_eq!(moves(&app), 0);
    settle(&mut app);
    board_shows_the_game(&mut app);

    to_title(&mut app);
    let next = game(&app);
    let order = GameKind::ALL;
    let at = order.iter().position(|k| *k == first.1).unwrap();
    assert_eq!(next.table.as_match().kind(), order[(at + 1) % order.len()]);
    assert!(next.seats.iter().all(Seat::is_bot));
    board_shows_the_game(&mut app);
}

#[test]
fn a_finished_showcase_game_gives_way_to_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_showcase(dir.path());
    // Instant motions: a game of up to 120 moves in fewer frames.
    app.world_mut().resource_mut::<Settings>().animation_speed = 0.0;
    let (id, kind) = (game(&app).id, game(&app).table.as_match().kind());
    run_until(&mut app, "the next showcase game", |app| game(app).id != id);
    let order = GameKind::ALL;
    let at = order.iter().position(|k| *k == kind).unwrap();
    assert_eq!(
        game(&app).table.as_match().kind(),
        order[(at + 1) % order.len()]
    );
    assert_eq!(moves(&app), 0);
    settle(&mut app);
    board_shows_the_game(&mut app);
    assert_eq!(app.world().resource::<Heard>().0, 0);
    assert!(Storage::at(dir.path()).read(AUTOSAVE).unwrap().is_none());
}

/// From a game to the new-game screen (the menu's "New game"), the showcase comes in
/// waiting, and the app need not wake for it.
#[test]
fn from_a_game_to_the_new_game_screen_the_showcase_waits() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_showcase(dir.path());
    start(&mut app, GameKind::Adaptoid, vec![Seat::Human, Seat::Human]);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::NewGame);
    app.update();
    assert_eq!(screen(&app), Screen::NewGame);
    assert!(app.world().resource::<Showcase>().due().is_none());
    let played = moves(&app);
    for _ in 0..200 {
        app.update();
    }
    assert_eq!(moves(&app), played);
}

/// A move the showcase sent in the frame a game started is not played out on the new
/// game's board: the board shows the new game as it stands.
#[test]
fn a_showcase_move_in_flight_stays_off_the_new_board() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_showcase(dir.path());
    app.world_mut().write_message(StartGame {
        kind: GameKind::Adaptoid,
        settings: Vec::new(),
        seats: vec![Seat::Human, Seat::Human],
    });
    app.update();
    // Sent after the game was asked for, before the screen changes: as the showcase's
    // move in the same frame as the click.
    app.world_mut().write_message(RulesEvent {
        move_number: 1,
        event: PlayedEvent {
            text: "a piece appears".into(),
            anim: Anim::Appear { cell: 0 },
        },
    });
    app.update();
    assert_eq!(screen(&app), Screen::Playing);
    settle(&mut app);
    board_shows_the_game(&mut app);
    assert_eq!(app.world().resource::<AnimationLog>().events_received, 0);
}
