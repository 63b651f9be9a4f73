//! Undo, redo, replay and keeping games in the headless app: the board follows every
//! jump, undo against a bot goes back to the person's turn even while the bot thinks,
//! a finished game replays move by move, and the autosave brings a game back.

mod common;

use bevy::prelude::*;
use common::{headless_app, screen, settle, shown_pieces, to_title};
use tabula::animation::AnimationLog;
use tabula::bot::{BotRunner, Thinking};
use tabula::config::ConfigProblems;
use tabula::current_game::{CurrentGame, Seat};
use tabula::pieces::pieces_match;
use tabula::record::Record;
use tabula::saving::{AutosaveProblem, LoadRecord, Resumable, SaveGame, SaveMessage};
use tabula::screens::Screen;
use tabula::storage::{AUTOSAVE, Storage};
use tabula::table::{GameKind, new_table};
use tabula::turn::{PlayerInput, Travel};
use tabula_bot::BotSpec;

fn app_with(storage: Storage) -> App {
    headless_app(BotRunner::FrameSlices, storage)
}

fn start(app: &mut App, kind: GameKind, seats: Vec<Seat>) {
    common::start(app, kind, seats);
    assert_eq!(screen(app), Screen::Playing);
}

fn game(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

/// (moves played, moves in the line)
fn plies(app: &App) -> (usize, usize) {
    let table = &game(app).table;
    (
        table.as_match().record().len(),
        table.as_match().line().len(),
    )
}

fn send(app: &mut App, message: impl Message) {
    app.world_mut().write_message(message);
    app.update();
    settle(app);
}

/// The pieces on the board are the rules' pieces.
fn board_follows(app: &mut App, what: &str) {
    let shown = shown_pieces(app);
    pieces_match(game(app), &shown).unwrap_or_else(|e| panic!("{what}: {e}"));
}

/// A legal move for the side to move, in notation.
fn some_move(app: &App, seed: u64) -> String {
    game(app)
        .table
        .as_match()
        .thinker(&BotSpec::Random, seed)
        .best_move()
        .expect("the game goes on")
}

fn play_moves(app: &mut App, count: usize) {
    for i in 0..count {
        let text = some_move(app, i as u64);
        send(app, PlayerInput::Notation(text));
    }
}

#[test]
fn undo_redo_and_jumps_move_the_board_with_the_rules() {
    let mut app = app_with(Storage::default());
    start(&mut app, GameKind::Adaptoid, vec![Seat::Human, Seat::Human]);
    play_moves(&mut app, 4);
    assert_eq!(plies(&app), (4, 4));
    let after_four = game(&app).table.as_match().position_string();

    send(&mut app, Travel::Undo);
    assert_eq!(plies(&app), (3, 4));
    board_follows(&mut app, "after an undo");

    let events_before = app.world().resource::<AnimationLog>().events_received;
    send(&mut app, Travel::Redo);
    assert_eq!(plies(&app), (4, 4));
    assert_eq!(game(&app).table.as_match().position_string(), after_four);
    assert!(
        app.world().resource::<AnimationLog>().events_received > events_before,
        "a redone move animates"
    );
    board_follows(&mut app, "after a redo");

    send(&mut app, Travel::GoTo(0));
    assert_eq!(plies(&app), (0, 4));
    board_follows(&mut app, "at the start");
    send(&mut app, Travel::GoTo(2));
    assert_eq!(plies(&app), (2, 4));
    board_follows(&mut app, "after jumping to move 2");
    send(&mut app, Travel::GoTo(9));
    assert_eq!(plies(&app), (2, 4), "a jump past the line is refused");

    // A different move starts a new line; the same move keeps the old one.
    let next = game(&app).table.as_match().line()[2].clone();
    send(&mut app, PlayerInput::Notation(next));
    assert_eq!(plies(&app), (3, 4));
    send(&mut app, Travel::PlayOn);
    assert_eq!(plies(&app), (3, 3));
    send(&mut app, Travel::Undo);
    let other = (0..50)
        .map(|seed| some_move(&app, seed))
        .find(|text| *text != game(&app).table.as_match().line()[2])
        .expect("another move");
    send(&mut app, PlayerInput::Notation(other));
    assert_eq!(plies(&app), (3, 3));
    board_follows(&mut app, "after a new move");
}

#[test]
fn undo_against_a_bot_goes_back_to_the_person_even_while_it_thinks() {
    let mut app = app_with(Storage::default());
    let top = tabula_bot::Levels::built_in().top_in("adomoc") as u8;
    start(
        &mut app,
        GameKind::Adomoc,
        vec![Seat::Human, Seat::Bot(top)],
    );
    play_moves(&mut app, 1);
    // The bot thinks in frame slices for its 1.9 s, then replies.
    for _ in 0..5_000 {
        if plies(&app).0 == 2 {
            break;
        }
        app.update();
    }
    assert_eq!(plies(&app), (2, 2), "the bot replied");
    settle(&mut app);

    // Undo takes back the bot's reply and the person's move; redo replays both.
    send(&mut app, Travel::Undo);
    assert_eq!(plies(&app), (0, 2));
    assert_eq!(game(&app).table.as_match().to_move(), 0);
    board_follows(&mut app, "after undo against a bot");
    send(&mut app, Travel::Redo);
    settle(&mut app);
    assert_eq!(plies(&app), (2, 2), "redo goes on to the person's turn");
    board_follows(&mut app, "after redo against a bot");

    // Another first move, then undo while the bot thinks: the search stops, and the
    // bot waits while the person looks back.
    send(&mut app, Travel::Undo);
    let first = game(&app).table.as_match().line()[0].clone();
    let other = (0..50)
        .map(|seed| some_move(&app, seed))
        .find(|text| *text != first)
        .expect("another move");
    send(&mut app, PlayerInput::Notation(other));
    assert_eq!(plies(&app), (1, 1));
    assert!(
        app.world().get_resource::<Thinking>().is_some(),
        "the bot thinks"
    );
    send(&mut app, Travel::Undo);
    assert_eq!(plies(&app), (0, 1));
    for _ in 0..50 {
        app.update();
    }
    assert!(app.world().get_resource::<Thinking>().is_none());
    assert_eq!(
        plies(&app),
        (0, 1),
        "the bot waits while the person looks back"
    );
    board_follows(&mut app, "after undo while the bot thought");
}

/// A finished game of Adaptoid between random players, as a record.
fn finished_record() -> Record {
    let mut table = new_table(GameKind::Adaptoid, &[]).unwrap();
    for seed in 0..2_000 {
        if table.as_match().status().is_over() {
            break;
        }
        let text = table
            .as_match()
            .thinker(&BotSpec::Random, seed)
            .best_move()
            .unwrap();
        table.play_notation(&text).unwrap();
    }
    assert!(table.as_match().status().is_over());
    tabula::record::record_of(table.as_ref(), &[Seat::Human, Seat::Human])
}

#[test]
fn a_finished_game_replays_move_by_move() {
    let mut app = app_with(Storage::default());
    let record = finished_record();
    let length = record.moves.len();
    send(&mut app, LoadRecord(record));
    settle(&mut app);
    assert_eq!(screen(&app), Screen::Result);
    assert_eq!(plies(&app), (length, length));
    board_follows(&mut app, "a loaded game");

    send(&mut app, Travel::GoTo(0));
    assert_eq!(screen(&app), Screen::Playing);
    board_follows(&mut app, "the replay's start");
    for ply in 1..=length.min(12) {
        send(&mut app, Travel::Redo);
        assert_eq!(plies(&app), (ply, length));
        board_follows(&mut app, &format!("replay move {ply}"));
    }
    send(&mut app, Travel::GoTo(length));
    settle(&mut app);
    assert_eq!(screen(&app), Screen::Result);
    board_follows(&mut app, "the replay's end");
}

#[test]
fn the_autosave_brings_each_game_back_and_a_damaged_one_is_kept() {
    let dir = std::env::temp_dir().join(format!("tabula-autosave-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let storage = Storage::at(&dir);
    for kind in GameKind::ALL {
        let mut app = app_with(storage.clone());
        start(&mut app, kind, vec![Seat::Human, Seat::Bot(2)]);
        play_moves(&mut app, 1);
        let saved = Record::parse(&storage.read(AUTOSAVE).unwrap().unwrap()).unwrap();
        assert_eq!(saved.game, kind.key());
        assert_eq!(saved.seats[..2], ["human", "level:2"]);
        assert!(!saved.moves.is_empty());
        let position = game(&app).table.as_match().position_string();
        let record_then = game(&app).table.as_match().record().to_vec();
        let seats_then = game(&app).seats.clone();

        // A new launch offers it; resuming gives the same game and seats.
        let mut app = app_with(storage.clone());
        let offered = app.world().resource::<Resumable>().0.clone();
        let offered = offered.unwrap_or_else(|| panic!("{kind:?}: the game is offered"));
        send(&mut app, LoadRecord(offered));
        assert_eq!(screen(&app), Screen::Playing);
        // The bot may already have answered when it has the turn.
        let record_now = game(&app).table.as_match().record();
        assert_eq!(record_now[..record_then.len()], record_then, "{kind:?}");
        if record_now.len() == record_then.len() {
            assert_eq!(
                game(&app).table.as_match().position_string(),
                position,
                "{kind:?}"
            );
        }
        assert_eq!(game(&app).seats, seats_then, "{kind:?}");
    }

    // Each new game kept the unfinished one before it (three of them); resuming, being
    // the same game, kept no copy.
    assert_eq!(storage.list(tabula::storage::RECORDS).len(), 3);

    // A damaged autosave is moved aside and reported; the autosave before it (the last
    // game, which the write below keeps as its backup) is offered in its place.
    let last_game = storage.read(AUTOSAVE).unwrap().unwrap();
    storage
        .write(
            AUTOSAVE,
            "(tabula_record: 1, game: \"absorption\", moves: [\"zz\"])",
        )
        .unwrap();
    let app = app_with(storage.clone());
    let offered = app.world().resource::<Resumable>().0.clone();
    assert_eq!(offered.map(|r| r.to_ron()), Some(last_game.clone()));
    let problems = &app.world().resource::<ConfigProblems>().0;
    assert!(
        problems
            .iter()
            .any(|p| p.contains("move 1 (\"zz\")") && p.contains("the autosave before it")),
        "{problems:?}"
    );
    // The earlier game is the autosave again, so the next visit to the title offers it too.
    assert_eq!(storage.read(AUTOSAVE).unwrap(), Some(last_game.clone()));
    let app = app_with(storage.clone());
    let offered = app.world().resource::<Resumable>().0.clone();
    assert_eq!(offered.map(|r| r.to_ron()), Some(last_game));
    let kept = storage.read("autosave.ron.unreadable").unwrap().unwrap();
    assert!(kept.contains("zz"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replaying_the_same_move_against_a_bot_lets_it_think_again() {
    let mut app = app_with(Storage::default());
    start(
        &mut app,
        GameKind::Adaptoid,
        vec![Seat::Human, Seat::Bot(1)],
    );
    play_moves(&mut app, 1);
    for _ in 0..2_000 {
        if plies(&app).0 == 2 {
            break;
        }
        app.update();
    }
    settle(&mut app);
    send(&mut app, Travel::Undo);
    assert_eq!(plies(&app), (0, 2));
    let first = game(&app).table.as_match().line()[0].clone();
    send(&mut app, PlayerInput::Notation(first));
    let (played, line) = plies(&app);
    assert_eq!(
        played, line,
        "the bot's old reply is dropped, not waiting to be redone"
    );
    for _ in 0..2_000 {
        if plies(&app).0 == 2 {
            break;
        }
        app.update();
    }
    assert_eq!(plies(&app), (2, 2), "the bot answers again");
}

#[test]
fn a_game_left_unfinished_is_kept_when_another_replaces_the_autosave() {
    let dir = std::env::temp_dir().join(format!("tabula-replaced-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let storage = Storage::at(&dir);
    let mut app = app_with(storage.clone());
    start(&mut app, GameKind::Adomoc, vec![Seat::Human, Seat::Human]);
    play_moves(&mut app, 2);
    let left = game(&app).table.as_match().record().to_vec();

    // A new launch, and a new game instead of resuming.
    let mut app = app_with(storage.clone());
    start(&mut app, GameKind::Adamas, vec![Seat::Human, Seat::Human]);
    let kept = storage.list(tabula::storage::RECORDS);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let record = Record::parse(&std::fs::read_to_string(&kept[0]).unwrap()).unwrap();
    assert_eq!(record.game, "adomoc");
    assert_eq!(record.moves, left);
    let autosave = Record::parse(&storage.read(AUTOSAVE).unwrap().unwrap()).unwrap();
    assert_eq!(autosave.game, "adamas");
    to_title(&mut app);
    let offered = app.world().resource::<Resumable>().0.clone();
    assert!(offered.is_none(), "a game with no moves is not offered");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A data folder that refuses writes (here a folder stands where the autosave's temporary
/// file goes and a file where the records folder goes, which refuse even an administrator,
/// as a read-only or full disk would): play goes on, the autosave keeps its last good game
/// whole, a game it holds is never written over before it is kept, and the player is told.
/// Once writes work again, the next move saves.
#[test]
fn saves_that_cannot_be_written_keep_the_old_files_and_say_so() {
    let dir = std::env::temp_dir().join(format!("tabula-unwritable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let storage = Storage::at(&dir);
    let mut app = app_with(storage.clone());
    start(&mut app, GameKind::Adamas, vec![Seat::Human, Seat::Human]);
    play_moves(&mut app, 2);
    let saved = storage.read(AUTOSAVE).unwrap().unwrap();
    let blocked_autosave = dir.join("autosave.ron.tmp");
    let blocked_records = dir.join(tabula::storage::RECORDS);
    std::fs::create_dir_all(&blocked_autosave).unwrap();
    std::fs::write(&blocked_records, "a file where the records folder goes").unwrap();
    let problems = |app: &App| app.world().resource::<ConfigProblems>().0.clone();

    play_moves(&mut app, 1);
    assert_eq!(
        game(&app).table.as_match().record().len(),
        3,
        "play goes on"
    );
    assert_eq!(storage.read(AUTOSAVE).unwrap().unwrap(), saved);
    let said = problems(&app);
    assert!(
        said.iter()
            .any(|p| p.starts_with("The game could not be autosaved")),
        "{said:?}"
    );
    let shown = app.world().resource::<AutosaveProblem>().0.clone();
    assert!(shown.is_some_and(|p| p.starts_with("The game could not be autosaved")));
    send(&mut app, SaveGame);
    let message = app.world().resource::<SaveMessage>().0.clone();
    assert!(matches!(message, Some(Err(_))), "{message:?}");

    // Another game would replace the autosave, but the one it holds cannot be kept first.
    let mut app = app_with(storage.clone());
    start(
        &mut app,
        GameKind::Absorption,
        vec![Seat::Human, Seat::Human],
    );
    play_moves(&mut app, 1);
    assert_eq!(storage.read(AUTOSAVE).unwrap().unwrap(), saved);
    let said = problems(&app);
    assert!(
        said.iter()
            .any(|p| p.starts_with("The game left unfinished could not be kept")),
        "{said:?}"
    );

    std::fs::remove_dir(&blocked_autosave).unwrap();
    std::fs::remove_file(&blocked_records).unwrap();
    play_moves(&mut app, 1);
    let autosave = Record::parse(&storage.read(AUTOSAVE).unwrap().unwrap()).unwrap();
    assert_eq!(autosave.game, "absorption");
    assert_eq!(app.world().resource::<AutosaveProblem>().0, None);
    let kept = storage.list(tabula::storage::RECORDS);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), saved);
    std::fs::remove_dir_all(&dir).unwrap();
}
