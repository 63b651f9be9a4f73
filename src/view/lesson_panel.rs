//! The side panel during a lesson: the step's words, our reading where the step relies on
//! it, the task, how the try went, the move being built, and the way through the course.

use super::practice_panel::{
    PracticeAsks, PracticeBoard, SOLVED_COLOUR, missed_lines, practice_panel, solved_line,
};
use super::rules_help::decision_colour;
use crate::lesson::{Lesson, LessonInput, Verdict};
use crate::screens::InGame;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        lesson_panel.run_if(in_state(InGame).and_then(resource_exists::<Lesson>)),
    );
}

/// Where the panel sends the player's way through the course.
#[derive(SystemParam)]
struct Asks<'w> {
    practice: PracticeAsks<'w>,
    requests: MessageWriter<'w, LessonInput>,
}

fn lesson_panel(
    mut contexts: EguiContexts,
    lesson: Res<Lesson>,
    board: PracticeBoard,
    asks: Asks,
) -> Result {
    let Asks {
        mut practice,
        mut requests,
    } = asks;
    let ctx = contexts.ctx_mut()?;
    let step = lesson.current();
    let heading = format!("Learn {}", lesson.kind().title());
    practice_panel(
        ctx,
        "lesson",
        &heading,
        lesson.kind(),
        &mut practice,
        |ui, practice| {
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
                        .on_hover_text(
                            "Tabula's own decision, where the designer's rules are silent or unclear",
                        );
                    ui.add(egui::Label::new(egui::RichText::new(decision).color(colour)).wrap());
                }
                ui.add_space(6.0);
                let done = matches!(lesson.verdict, Some(Verdict::Solved | Verdict::Shown));
                if let Some(task) = &step.task {
                    ui.separator();
                    ui.label(egui::RichText::new("Your task").strong());
                    ui.add(egui::Label::new(egui::RichText::new(&task.goal).size(15.0)).wrap());
                    ui.add_space(4.0);
                    verdict_line(ui, lesson.verdict.as_ref());
                }
                let open = step.task.is_some() && board.takes_moves() && !done;
                board.moves(ui, open, practice);
            });
            ui.separator();
            course_buttons(ui, &lesson, board.queued.is_playing(), &mut requests);
            board.play_from_here(ui, practice);
        },
    );
    Ok(())
}

fn verdict_line(ui: &mut egui::Ui, verdict: Option<&Verdict>) {
    match verdict {
        None => {}
        Some(Verdict::Solved) => solved_line(ui, "Well done!"),
        Some(Verdict::Shown) => {
            ui.colored_label(SOLVED_COLOUR, "That is one way to do it.");
        }
        Some(Verdict::Missed(why)) => missed_lines(ui, "Not quite.", why),
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
