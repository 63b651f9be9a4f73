//! A scripted game for screenshots and smoke runs, set by environment variables:
//! `TABULA_DEMO=GAME[:MOVES[:SEED]]` starts GAME from the title screen and plays MOVES
//! random moves through the same clicks a player makes (`online` starts nothing and plays
//! the person's seat of the online game the page joins through `?join=CODE`); `TABULA_DEMO_OPTIONS=k=v,k=v`
//! sets options; `TABULA_DEMO_SEATS=human,3` seats people and bot levels (all people by
//! default; the demo clicks only for people); `TABULA_DEMO_REVIEW=LEVEL` then reviews the
//! game at that level (kept as the settings' review level, as the menu would) and opens the
//! analysis board, logging how long the review took (`TABULA_DEMO_REVIEW_SLICE_MS=MS`,
//! `&review_slice=MS` on the web, gives a review run in frame slices that much of each
//! frame; the desktop reviews on a background task and has no slices); `TABULA_SCREENSHOT=FILE.png` saves a
//! screenshot once the board settles (and the review and analysis are done) and then quits.
//! Nothing happens without `TABULA_DEMO`; what was asked for is read in [`request`].

mod request;

#[cfg(target_arch = "wasm32")]
pub(super) use request::is_loopback_origin;
pub use request::requested;

use super::snapshot::Snapshot;
use crate::AppSystems;
use crate::analysis::LiveEvaluation;
use crate::config::Settings;
use crate::current_game::{CurrentGame, Seat};
use crate::new_game::StartGame;
use crate::phase::TurnPhase;
use crate::review::{GameReview, ReviewSlice, StartReview};
use crate::screens::Screen;
use crate::table::GameKind;
use crate::turn::{PlayerInput, Travel};
use bevy::prelude::*;
use rand::Rng;
use rand::rngs::SmallRng;
use web_time::{Duration, Instant};

#[derive(Resource, Debug)]
struct Demo {
    /// The game to start; none for `online`, which plays the person's seat in whatever
    /// game the page joins (an invite link).
    kind: Option<GameKind>,
    options: Vec<(String, String)>,
    seats: Vec<Seat>,
    moves: usize,
    rng: SmallRng,
    /// The screenshot once the game is played (the renderer needs a few frames first).
    snapshot: Snapshot,
    started: bool,
    /// Moves reported so far, for the log a browser test reads.
    reported: usize,
    finished: bool,
    /// The level to review the game at once its moves are played.
    review: Option<u8>,
    /// How much of each frame a sliced review takes, when not the default.
    review_slice: Option<Duration>,
    review_started: Option<Instant>,
    review_reported: bool,
    analysis_reported: bool,
}

pub fn plugin(app: &mut App) {
    match request::demo_from_request() {
        None => {}
        Some(Ok(demo)) => {
            if let Some(slice) = demo.review_slice {
                app.insert_resource(ReviewSlice(slice));
            }
            app.insert_resource(demo).add_systems(
                Update,
                (start_demo, play_demo, review_demo)
                    .chain()
                    .in_set(AppSystems::Think),
            );
        }
        Some(Err(error)) => error!("{error}"),
    }
}

fn start_demo(
    mut demo: ResMut<Demo>,
    screen: Res<State<Screen>>,
    mut start: MessageWriter<StartGame>,
) {
    if !demo.started && *screen.get() == Screen::Title {
        demo.started = true;
        let Some(kind) = demo.kind else {
            return;
        };
        start.write(StartGame {
            kind,
            settings: demo.options.clone(),
            seats: demo.seats.clone(),
        });
    }
}

fn play_demo(
    mut commands: Commands,
    mut demo: ResMut<Demo>,
    game: Option<Res<CurrentGame>>,
    phase: Option<Res<State<TurnPhase>>>,
    screen: Res<State<Screen>>,
    mut input: MessageWriter<PlayerInput>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(game) = game else {
        return;
    };
    let Some(phase) = phase.map(|phase| *phase.get()) else {
        return;
    };
    if !matches!(screen.get(), Screen::Playing | Screen::Result) || phase == TurnPhase::Animating {
        return;
    }
    let table = &game.table;
    report_progress(&mut demo, &game);
    if table.as_match().record().len() < demo.moves && !game.is_over() {
        // Bots and players elsewhere move for themselves; and someone looking back at
        // earlier moves is left to it.
        if phase != TurnPhase::PersonToMove || table.as_match().is_looking_back() {
            return;
        }
        // One click a frame, chosen among the offered steps.
        let choices = table.choices();
        if table.complete_move().is_some() && (choices.is_empty() || demo.rng.random_bool(0.3)) {
            input.write(PlayerInput::Confirm);
        } else if !choices.is_empty() {
            let index = demo.rng.random_range(0..choices.len());
            input.write(PlayerInput::Choose(index));
        }
        return;
    }
    if demo.review.is_some() && !demo.analysis_reported {
        return;
    }
    demo.snapshot.settled(30, &mut commands, &mut exit);
}

/// With a review asked for: once the moves are played, reviews the game, then opens the
/// analysis board; logs the end of each (`tabula-demo: reviewed …`, `tabula-demo:
/// analysed …`) for the browser test, which times the review by it.
fn review_demo(
    mut demo: ResMut<Demo>,
    mut settings: ResMut<Settings>,
    game: Option<Res<CurrentGame>>,
    (review, live): (Option<Res<GameReview>>, Option<Res<LiveEvaluation>>),
    mut start: MessageWriter<StartReview>,
    mut travel: MessageWriter<Travel>,
) {
    let (Some(level), Some(game)) = (demo.review, game) else {
        return;
    };
    if !demo.finished || demo.analysis_reported {
        return;
    }
    let Some(started) = demo.review_started else {
        if settings.review_level != level {
            settings.review_level = level;
        }
        start.write(StartReview);
        demo.review_started = Some(Instant::now());
        return;
    };
    if !demo.review_reported {
        if let Some(review) = review.filter(|review| !review.is_running()) {
            demo.review_reported = true;
            let searched = review
                .searched_in_slices()
                .map_or(String::new(), |searched| {
                    format!(
                        " (searching {:.1} s of it in frame slices)",
                        searched.as_secs_f64()
                    )
                });
            info!(
                "tabula-demo: reviewed {} moves at level {level} in {:.1} s{searched}{}",
                review.shown().moves.len(),
                started.elapsed().as_secs_f64(),
                review
                    .shown()
                    .failure
                    .as_ref()
                    .map_or(String::new(), |failure| format!(" ({failure})"))
            );
            travel.write(Travel::Analyse(true));
        }
        return;
    }
    if let Some(live) = live.filter(|live| live.position == game.position() && live.shown().done) {
        demo.analysis_reported = true;
        let chances: Vec<String> = live
            .shown()
            .chances
            .iter()
            .map(|chance| format!("{:.0}%", 100.0 * chance))
            .collect();
        info!(
            "tabula-demo: analysed the position: chances {}; best line {}",
            chances.join(" "),
            live.shown().line.join(" ")
        );
    }
}

/// Logs each move and the end of the demo (`tabula-demo: …` lines, which the browser
/// test looks for in the console).
fn report_progress(demo: &mut Demo, game: &CurrentGame) {
    let record = game.table.as_match().record();
    while demo.reported < record.len() {
        demo.reported += 1;
        info!(
            "tabula-demo: move {}: {}",
            demo.reported,
            record[demo.reported - 1]
        );
    }
    let done = record.len() >= demo.moves || game.is_over();
    if done && !demo.finished {
        demo.finished = true;
        info!(
            "tabula-demo: finished after {} moves ({}); position «{}»",
            record.len(),
            game.status_text(),
            game.table.as_match().position_string()
        );
    }
}
