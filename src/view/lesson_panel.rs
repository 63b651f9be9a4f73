//! The side panel during a lesson: the step's words, our reading where the step relies on
//! it, the task, how the try went, the move being built, and the way through the course.

use super::board::HoveredCell;
use super::from_here::{FromHereChoice, from_here_section};
use super::move_builder::move_builder;
use super::rules_help::{RulesHelp, decision_colour};
use super::style::ERROR_COLOUR;
use crate::current_game::CurrentGame;
use crate::lesson::{Lesson, LessonInput, Verdict};
use crate::new_game::PlayFromHere;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::queued_moves::QueuedMoves;
use crate::screens::InGame;
use crate::turn::{CellMenu, PlayerInput, TurnMessage};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        lesson_panel.run_if(in_state(InGame).and_then(resource_exists::<Lesson>)),
    );
}

const SOLVED_COLOUR: egui::Color32 = egui::Color32::from_rgb(110, 200, 120);

/// What the panel reads of the board and the turn.
#[derive(SystemParam)]
struct Board<'w> {
    game: Res<'w, CurrentGame>,
    shows: Res<'w, BoardShows>,
    menu: Res<'w, CellMenu>,
    message: Res<'w, TurnMessage>,
    hovered: Res<'w, HoveredCell>,
}

/// Where the panel sends what the player asks for.
#[derive(SystemParam)]
struct Asks<'w> {
    input: MessageWriter<'w, PlayerInput>,
    requests: MessageWriter<'w, LessonInput>,
    rules_help: ResMut<'w, RulesHelp>,
    from_here: ResMut<'w, FromHereChoice>,
    play_from_here: MessageWriter<'w, PlayFromHere>,
}

fn lesson_panel(
    mut contexts: EguiContexts,
    lesson: Res<Lesson>,
    queued: Res<QueuedMoves>,
    board: Board,
    asks: Asks,
) -> Result {
    let Asks {
        mut input,
        mut requests,
        mut rules_help,
        mut from_here,
        mut play_from_here,
    } = asks;
    let ctx = contexts.ctx_mut()?;
    let table = board.game.table.as_ref();
    let step = lesson.current();
    let phase = phase_now(&board.game, &board.shows);
    let mut root = egui::Ui::new(
        ctx.clone(),
        "lesson".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::right("lesson side")
        .exact_size(330.0)
        .show(&mut root, |ui| {
            ui.horizontal(|ui| {
                ui.heading(format!("Learn {}", lesson.kind().title()));
                if ui.button("Rules").clicked() {
                    rules_help.0 = Some(lesson.kind());
                }
            });
            let count = lesson.course.steps.len();
            ui.add(
                egui::ProgressBar::new((lesson.step + 1) as f32 / count as f32)
                    .text(format!("Step {} of {count}", lesson.step + 1)),
            );
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(ui.available_height() - 120.0)
                .show(ui, |ui| {
                    ui.label(egui::RichText::new(&step.title).strong().size(18.0));
                    ui.add_space(4.0);
                    for paragraph in &step.text {
                        ui.add(egui::Label::new(egui::RichText::new(paragraph).size(15.0)).wrap());
                        ui.add_space(3.0);
                    }
                    if let Some(decision) = &step.decision {
                        let colour = decision_colour(ui);
                        ui.add_space(2.0);
                        ui.colored_label(colour, egui::RichText::new("Our reading").strong())
                            .on_hover_text("Tabula's own decision, where the designer's rules are silent or unclear");
                        ui.add(egui::Label::new(egui::RichText::new(decision).color(colour)).wrap());
                    }
                    ui.add_space(6.0);
                    if let Some(task) = &step.task {
                        ui.separator();
                        ui.label(egui::RichText::new("Your task").strong());
                        ui.add(egui::Label::new(egui::RichText::new(&task.goal).size(15.0)).wrap());
                        ui.add_space(4.0);
                        verdict_line(ui, lesson.verdict.as_ref());
                        let open = phase == TurnPhase::PersonToMove
                            && !queued.is_playing()
                            && !matches!(lesson.verdict, Some(Verdict::Solved | Verdict::Shown));
                        if open {
                            move_builder(ui, table, &board.menu, &mut input);
                        }
                        if let Some(text) = &board.message.0 {
                            ui.colored_label(ERROR_COLOUR, text);
                        }
                    }
                    if let Some(hint) = board.hovered.0.and_then(|cell| table.cell_hint(cell)) {
                        ui.small(hint);
                    }
                });
            ui.separator();
            course_buttons(ui, &lesson, queued.is_playing(), &mut requests);
            if !queued.is_playing() {
                from_here_section(ui, &board.game, &mut from_here, &mut play_from_here);
            }
        });
    Ok(())
}

fn verdict_line(ui: &mut egui::Ui, verdict: Option<&Verdict>) {
    match verdict {
        None => {}
        Some(Verdict::Solved) => {
            ui.colored_label(
                SOLVED_COLOUR,
                egui::RichText::new("Well done!").strong().size(16.0),
            );
        }
        Some(Verdict::Shown) => {
            ui.colored_label(SOLVED_COLOUR, "That is one way to do it.");
        }
        Some(Verdict::Missed(why)) => {
            ui.colored_label(ERROR_COLOUR, egui::RichText::new("Not quite.").strong());
            ui.add(egui::Label::new(egui::RichText::new(why).color(ERROR_COLOUR)).wrap());
        }
    }
}

/// Back, again, show me, next; at the end, a game against the first level.
fn course_buttons(
    ui: &mut egui::Ui,
    lesson: &Lesson,
    playing: bool,
    requests: &mut MessageWriter<LessonInput>,
) {
    let has_task = lesson.current().task.is_some();
    let done = !has_task || matches!(lesson.verdict, Some(Verdict::Solved | Verdict::Shown));
    ui.horizontal(|ui| {
        if ui
            .add_enabled(lesson.step > 0, egui::Button::new("◀ Back"))
            .clicked()
        {
            requests.write(LessonInput::Back);
        }
        if has_task {
            if ui
                .button("Again")
                .on_hover_text("Set the step up again")
                .clicked()
            {
                requests.write(LessonInput::Again);
            }
            if ui
                .add_enabled(!playing, egui::Button::new("Show me"))
                .on_hover_text("Play a solution on the board")
                .clicked()
            {
                requests.write(LessonInput::ShowMe);
            }
        }
        if !lesson.is_last() {
            let next = egui::RichText::new("Next ▶");
            let next = if done { next.strong() } else { next };
            if ui
                .add(egui::Button::new(next))
                .on_hover_text(if done {
                    "The next step"
                } else {
                    "Skip this step"
                })
                .clicked()
            {
                requests.write(LessonInput::Next);
            }
        }
    });
    ui.horizontal(|ui| {
        if lesson.is_last()
            && ui
                .add(egui::Button::new(
                    egui::RichText::new("Play the first level").strong(),
                ))
                .on_hover_text("A game against the gentlest bot")
                .clicked()
        {
            requests.write(LessonInput::PlayLevelOne);
        }
        if ui.button("Leave the course").clicked() {
            requests.write(LessonInput::Leave);
        }
    });
}
