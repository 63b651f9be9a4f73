//! The title screen, over the showcase game on the board: the four games as cards,
//! "Continue" for the game left, play online, load a saved game, quit.

use super::cards::{CARD_WIDTH, GamePictures, game_card};
use super::layout::{THUMB_HEIGHT, fit_narrow, is_narrow};
use super::records::Keeping;
use super::style::{ERROR_COLOUR, MENU_ANCHOR, QUIT_OFFERED, counted, menu_height};
use crate::TapTarget;
use crate::config::{ConfigProblems, Settings};
use crate::lesson::{Courses, LessonInput};
use crate::new_game::NewGameForm;
use crate::online::{NextGame, YourTurns};
use crate::puzzle::PuzzleInput;
use crate::saving::LoadRecord;
use crate::screens::Screen;
use crate::showcase::Showcase;
use crate::table::GameKind;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        title_screen.run_if(in_state(Screen::Title)),
    );
}

/// Where the title's buttons lead: a game's new-game form, the online screen, or away.
#[derive(SystemParam)]
struct TitleWays<'w> {
    form: ResMut<'w, NewGameForm>,
    next: ResMut<'w, NextState<Screen>>,
    courses: Res<'w, Courses>,
    lessons: MessageWriter<'w, LessonInput>,
    puzzles: MessageWriter<'w, PuzzleInput>,
    exit: MessageWriter<'w, AppExit>,
    turns: Res<'w, YourTurns>,
    next_game: MessageWriter<'w, NextGame>,
}

/// The space between the cards, and between the rows of them.
const CARD_GAP: f32 = 10.0;

fn title_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    problems: Res<ConfigProblems>,
    pictures: Res<GamePictures>,
    showcase: Option<ResMut<Showcase>>,
    mut ways: TitleWays,
    mut keeping: Keeping,
) -> Result {
    // The game behind waits while the load window is open.
    if let Some(mut showcase) = showcase {
        let paused = keeping.windows.load.is_some();
        if showcase.paused != paused {
            showcase.paused = paused;
        }
    }
    let ctx = contexts.ctx_mut()?;
    let height = menu_height(ctx);
    let window = egui::Window::new("Tabula")
        .title_bar(false)
        .anchor(MENU_ANCHOR.0, MENU_ANCHOR.1)
        .resizable(false)
        .default_height(height)
        .max_height(height);
    fit_narrow(window, ctx).show(ctx, |ui| {
        // On a small screen the menu scrolls.
        egui::ScrollArea::vertical().show(ui, |ui| {
            // Two cards a row, as wide as they may be up to their full width.
            let card = ((ui.available_width() - CARD_GAP) / 2.0).min(CARD_WIDTH);
            ui.add_space(4.0);
            ui.label(egui::RichText::new("Tabula").size(34.0).strong());
            ui.label("Four abstract strategy games");
            ui.add_space(10.0);
            continue_button(ui, card, &mut keeping);
            egui::Grid::new("games")
                .num_columns(2)
                .spacing([CARD_GAP, CARD_GAP])
                .show(ui, |ui| {
                    for (i, kind) in GameKind::ALL.into_iter().enumerate() {
                        if game_card(ui, kind, card, &pictures, &settings)
                            .tap_target(format_args!("card {}", kind.title()))
                            .on_hover_text(format!("A new game of {}", kind.title()))
                            .clicked()
                        {
                            *ways.form = NewGameForm::for_game(kind, &settings);
                            ways.next.set(Screen::NewGame);
                        }
                        if i % 2 == 1 {
                            ui.end_row();
                        }
                    }
                });
            ui.add_space(10.0);
            learn_row(ui, card, &ways.courses, &settings, &mut ways.lessons);
            ui.add_space(6.0);
            puzzles_row(ui, card, &settings, &mut ways.puzzles);
            ui.add_space(10.0);
            let tall = if is_narrow(ui.ctx()) {
                THUMB_HEIGHT
            } else {
                30.0
            };
            ui.horizontal(|ui| {
                if ui
                    .add_sized([120.0, tall], egui::Button::new("Play online"))
                    .tap_target("Play online")
                    .on_hover_text("With a friend elsewhere, through a Tabula server")
                    .clicked()
                {
                    ways.next.set(Screen::Online);
                }
                if ui
                    .add_sized([120.0, tall], egui::Button::new("Load a game…"))
                    .clicked()
                {
                    keeping.windows.open_load(&keeping.storage, None);
                }
                if QUIT_OFFERED
                    && ui
                        .add_sized([80.0, tall], egui::Button::new("Quit"))
                        .clicked()
                {
                    ways.exit.write(AppExit::Success);
                }
            });
            your_turns(ui, tall, &ways.turns, &mut ways.next_game);
            if let Some(Err(error)) = &keeping.message.0
                && keeping.windows.load.is_none()
            {
                ui.colored_label(ERROR_COLOUR, error);
            }
            for problem in &problems.0 {
                ui.colored_label(ERROR_COLOUR, problem);
            }
        });
    });
    Ok(())
}

/// The online games waiting for the player's move, and a way to the one waiting longest.
fn your_turns(ui: &mut egui::Ui, tall: f32, turns: &YourTurns, next: &mut MessageWriter<NextGame>) {
    if turns.games.is_empty() {
        return;
    }
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        // As tall as the button first, so the words stand level with it.
        ui.set_min_height(tall);
        ui.strong(format!(
            "Your move in {} online",
            counted(turns.games.len(), "game")
        ));
        if ui
            .add_sized([100.0, tall], egui::Button::new("Next game"))
            .on_hover_text("The game that has waited longest for your move")
            .clicked()
        {
            next.write(NextGame { besides: None });
        }
    });
}

/// "Learn": each game's course, with how far the player got; a course goes on where it
/// was left, and a finished one starts again.
fn learn_row(
    ui: &mut egui::Ui,
    card: f32,
    courses: &Courses,
    settings: &Settings,
    lessons: &mut MessageWriter<LessonInput>,
) {
    ui.label(egui::RichText::new("Learn").strong().size(16.0))
        .on_hover_text("A short course for each game, played on the board");
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = egui::vec2(CARD_GAP, CARD_GAP / 2.0);
        for kind in GameKind::ALL {
            let Ok(course) = courses.get(kind) else {
                continue;
            };
            let steps = course.steps.len();
            let done = settings
                .lessons
                .get(kind.key())
                .copied()
                .unwrap_or(0)
                .min(steps);
            let label = if done >= steps {
                format!("{} ✔", kind.title())
            } else if done > 0 {
                format!("{} {done}/{steps}", kind.title())
            } else {
                kind.title().to_string()
            };
            if ui
                .add_sized([card, row_height(ui)], egui::Button::new(label))
                .on_hover_text(format!(
                    "{} {steps} steps, about {} minutes.",
                    course.about,
                    course.minutes()
                ))
                .clicked()
            {
                let step = if done >= steps { 0 } else { done };
                lessons.write(LessonInput::Start { kind, step });
            }
        }
    });
    if let Err(problem) = &courses.0 {
        ui.colored_label(ERROR_COLOUR, problem);
    }
}

/// "Puzzles": each game's puzzles, with the player's rating in it.
fn puzzles_row(
    ui: &mut egui::Ui,
    card: f32,
    settings: &Settings,
    puzzles: &mut MessageWriter<PuzzleInput>,
) {
    ui.label(egui::RichText::new("Puzzles").strong().size(16.0))
        .on_hover_text("Win by force in one to three turns, each puzzle proved by the solver");
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = egui::vec2(CARD_GAP, CARD_GAP / 2.0);
        for kind in GameKind::ALL {
            let record = settings
                .puzzles
                .get(kind.key())
                .cloned()
                .unwrap_or_default();
            let label = format!("{} {:.0}", kind.title(), record.rating.rating);
            if ui
                .add_sized([card, row_height(ui)], egui::Button::new(label))
                .on_hover_text(format!(
                    "Your {} puzzle rating; streak {}, best {}",
                    kind.title(),
                    record.streak,
                    record.best_streak
                ))
                .clicked()
            {
                puzzles.write(PuzzleInput::Start { kind, daily: false });
            }
        }
    });
}

/// The height of the learn and puzzle buttons: a thumb's on a phone.
fn row_height(ui: &egui::Ui) -> f32 {
    if is_narrow(ui.ctx()) {
        THUMB_HEIGHT
    } else {
        28.0
    }
}

/// "Continue" the game left, as wide as two `card`s, with which game and how far it went.
fn continue_button(ui: &mut egui::Ui, card: f32, keeping: &mut Keeping) {
    let Some(record) = &keeping.resumable.0 else {
        return;
    };
    let title = record.kind().map_or("the game", |k| k.title());
    let moves = record.at.unwrap_or(record.moves.len());
    let text = egui::RichText::new(format!("Continue  ·  {title}, {}", counted(moves, "move")))
        .size(16.0)
        .strong();
    if ui
        .add_sized(
            [card * 2.0 + CARD_GAP, row_height(ui).max(36.0)],
            egui::Button::new(text),
        )
        .on_hover_text("The game you left, as it was")
        .clicked()
    {
        keeping.load.write(LoadRecord(record.clone()));
    }
    ui.add_space(10.0);
}
