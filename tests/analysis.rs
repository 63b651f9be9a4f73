//! The analysis board in the headless app: against a bot, opening it seats people
//! everywhere and no bot moves; a move off the line starts a variation and keeps the
//! game's line; the live evaluation follows the position (on a background task and in
//! frame slices); closing it goes back to the game, whose bot plays on; the variations
//! are saved with the game.

mod common;

use bevy::prelude::*;
use common::{headless_app, run_until, settle, start};
use tabula::analysis::LiveEvaluation;
use tabula::bot::BotRunner;
use tabula::config::Settings;
use tabula::current_game::{CurrentGame, Seat};
use tabula::record::record_of;
use tabula::review::{GameReview, StartReview};
use tabula::storage::Storage;
use tabula::table::GameKind;
use tabula::turn::{PlayerInput, Travel};

fn game(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

/// A person's random move, played and settled.
fn play_random(app: &mut App, seed: u64) -> String {
    let text = game(app)
        .table
        .as_match()
        .thinker(&tabula_bot::BotSpec::Random, seed)
        .best_move()
        .unwrap();
    app.world_mut()
        .write_message(PlayerInput::Notation(text.clone()));
    app.update();
    settle(app);
    text
}

/// A random legal move that is not the line's next one.
fn another_move(app: &App, seed: u64) -> String {
    let table = &game(app).table;
    let next = table
        .as_match()
        .line()
        .get(table.as_match().record().len())
        .cloned();
    let (moves, _) = table.as_match().legal_moves(500);
    let others: Vec<String> = moves
        .into_iter()
        .filter(|m| Some(m) != next.as_ref())
        .collect();
    others[seed as usize % others.len()].clone()
}

fn evaluated(app: &App) -> bool {
    app.world()
        .get_resource::<LiveEvaluation>()
        .is_some_and(|live| live.position == game(app).position() && live.shown().done)
}

fn check_analysis(runner: BotRunner) {
    let mut app = headless_app(runner, Storage::default());
    app.world_mut().resource_mut::<Settings>().review_level = 2;
    start(
        &mut app,
        GameKind::Adaptoid,
        vec![Seat::Human, Seat::Bot(1)],
    );
    // The person moves, the bot answers: four moves of a game.
    for seed in 0..2 {
        play_random(&mut app, seed);
        run_until(&mut app, "the bot's move", |app| {
            game(app).table.as_match().record().len() as u64 == 2 * seed + 2
        });
        settle(&mut app);
    }
    let main: Vec<String> = game(&app).table.as_match().line().to_vec();
    assert_eq!(main.len(), 4);

    app.world_mut().write_message(Travel::Analyse(true));
    app.update();
    assert!(game(&app).is_analysing());
    assert_eq!(game(&app).seats, [Seat::Human, Seat::Human]);
    assert_eq!(game(&app).game_seats(), [Seat::Human, Seat::Bot(1)]);
    run_until(&mut app, "the evaluation of the position", evaluated);
    let live = app.world().resource::<LiveEvaluation>();
    assert_eq!(live.runs_in_frames(), runner == BotRunner::FrameSlices);
    assert_eq!(live.shown().chances.len(), 2);
    assert!((live.shown().chances.iter().sum::<f64>() - 1.0).abs() < 1e-6);
    assert!(!live.shown().line.is_empty(), "the search expects a line");

    // Back two moves, and a different move for the bot's seat: a side line.
    app.world_mut().write_message(Travel::GoTo(1));
    app.update();
    settle(&mut app);
    let side = another_move(&app, 3);
    app.world_mut()
        .write_message(PlayerInput::Notation(side.clone()));
    app.update();
    settle(&mut app);
    let table = &game(&app).table;
    assert_eq!(table.as_match().record(), [main[0].clone(), side.clone()]);
    assert_eq!(
        table.as_match().main_line(),
        main,
        "the game's line is kept"
    );
    assert!(!table.as_match().on_main_line());
    // Nobody answers for the bot on the analysis board.
    for _ in 0..50 {
        app.update();
    }
    assert_eq!(game(&app).table.as_match().record().len(), 2);
    run_until(&mut app, "the side line's evaluation", evaluated);

    // The game is saved with its side line and its own seats.
    let record = record_of(game(&app).table.as_ref(), game(&app).game_seats());
    assert_eq!(record.moves, main);
    assert_eq!(record.variations.len(), 1);
    assert_eq!(record.variations[0].moves, std::slice::from_ref(&side));
    assert_eq!(record.seats, ["human", "level:1"]);

    // Back to the game: the main line at the move the side line left, the bot seated.
    app.world_mut().write_message(Travel::Analyse(false));
    app.update();
    settle(&mut app);
    let game_now = game(&app);
    assert!(!game_now.is_analysing());
    assert_eq!(game_now.seats, [Seat::Human, Seat::Bot(1)]);
    assert_eq!(game_now.table.as_match().record(), &main[..1]);
    assert_eq!(game_now.table.as_match().line(), main);
    assert!(app.world().get_resource::<LiveEvaluation>().is_none());

    // A click on the side line's move opens the board again and goes there.
    let node = game(&app)
        .table
        .as_match()
        .tree()
        .rows()
        .iter()
        .find(|row| row.starts_variation)
        .unwrap()
        .node;
    app.world_mut().write_message(Travel::ToNode(node));
    app.update();
    settle(&mut app);
    assert!(game(&app).is_analysing());
    assert_eq!(
        game(&app).table.as_match().record(),
        [main[0].clone(), side.clone()]
    );

    // Deleted, the side line is gone and the position is where it began.
    app.world_mut().write_message(Travel::DeleteVariation(node));
    app.update();
    settle(&mut app);
    assert_eq!(game(&app).table.as_match().record(), &main[..1]);
    assert!(game(&app).table.as_match().variations().is_empty());
}

#[test]
fn the_analysis_board_explores_side_lines_on_a_background_task() {
    check_analysis(BotRunner::Background);
}

#[test]
fn the_analysis_board_explores_side_lines_in_the_search_worker() {
    check_analysis(BotRunner::Worker);
}

#[test]
fn the_analysis_board_explores_side_lines_in_frame_slices() {
    check_analysis(BotRunner::FrameSlices);
}

/// A review is of the game's main line: exploring a side line keeps it, and its marks.
#[test]
fn a_review_outlives_a_side_line() {
    let mut app = headless_app(BotRunner::Background, Storage::default());
    app.world_mut().resource_mut::<Settings>().review_level = 2;
    start(&mut app, GameKind::Adomoc, vec![Seat::Human, Seat::Human]);
    for seed in 0..6 {
        play_random(&mut app, seed);
    }
    app.world_mut().write_message(StartReview);
    app.update();
    run_until(&mut app, "the review", |app| {
        app.world()
            .get_resource::<GameReview>()
            .is_some_and(|r| !r.is_running())
    });
    app.world_mut().write_message(Travel::Analyse(true));
    app.update();
    app.world_mut().write_message(Travel::GoTo(3));
    app.update();
    settle(&mut app);
    let side = another_move(&app, 1);
    app.world_mut().write_message(PlayerInput::Notation(side));
    app.update();
    settle(&mut app);
    assert!(!game(&app).table.as_match().on_main_line());
    for _ in 0..5 {
        app.update();
    }
    let review = app
        .world()
        .get_resource::<GameReview>()
        .expect("the review of the main line is kept");
    assert!(review.fits(game(&app)));
    assert_eq!(review.shown().moves.len(), 6);
}

/// Side lines are reshaped only on the analysis board: in a game, promoting one would
/// leave the game going on in a side line.
#[test]
fn side_lines_are_not_promoted_or_deleted_outside_the_analysis_board() {
    let mut app = headless_app(BotRunner::Background, Storage::default());
    start(&mut app, GameKind::Adomoc, vec![Seat::Human, Seat::Human]);
    for seed in 0..4 {
        play_random(&mut app, seed);
    }
    let main = game(&app).table.as_match().line().to_vec();
    app.world_mut().write_message(Travel::Analyse(true));
    app.update();
    app.world_mut().write_message(Travel::GoTo(2));
    app.update();
    settle(&mut app);
    let side = another_move(&app, 2);
    app.world_mut().write_message(PlayerInput::Notation(side));
    app.update();
    settle(&mut app);
    let node = game(&app).table.as_match().node();
    app.world_mut().write_message(Travel::Analyse(false));
    app.update();
    settle(&mut app);
    for travel in [Travel::Promote(node), Travel::DeleteVariation(node)] {
        app.world_mut().write_message(travel);
        app.update();
        settle(&mut app);
        let table = &game(&app).table;
        assert_eq!(table.as_match().main_line(), main);
        assert_eq!(table.as_match().variations().len(), 1);
        assert_eq!(
            app.world()
                .resource::<tabula::turn::TurnMessage>()
                .0
                .as_deref(),
            Some("open the analysis board to change side lines")
        );
    }
}
