//! The rules of each game in our own words, in a window reachable from the game and the
//! new-game screen. Tabula's own decisions (where the designers' rules are silent or
//! unclear) stand out in their own colour. The texts are `docs/rules/*.md`, built in.

use super::layout::fit_narrow;
use crate::current_game::CurrentGame;
use crate::lesson::{Courses, LessonInput};
use crate::new_game::NewGameForm;
use crate::screens::{InGame, Screen};
use crate::table::GameKind;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use tabula_learn::Course;

/// The game whose rules are shown, if the window is open.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RulesHelp(pub Option<GameKind>);

pub fn plugin(app: &mut App) {
    app.init_resource::<RulesHelp>()
        .add_systems(EguiPrimaryContextPass, rules_window)
        .add_systems(Update, help_key)
        .add_systems(OnEnter(Screen::Title), close);
}

pub fn rules_text(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Absorption => include_str!("../../docs/rules/absorption.md"),
        GameKind::Adamas => include_str!("../../docs/rules/adamas.md"),
        GameKind::Adaptoid => include_str!("../../docs/rules/adaptoid.md"),
        GameKind::Adomoc => include_str!("../../docs/rules/adomoc.md"),
    }
}

/// Amber, darker on the light theme so it stays readable.
pub(super) fn decision_colour(ui: &egui::Ui) -> egui::Color32 {
    if ui.visuals().dark_mode {
        egui::Color32::from_rgb(230, 160, 40)
    } else {
        egui::Color32::from_rgb(160, 90, 0)
    }
}

fn close(mut help: ResMut<RulesHelp>) {
    help.0 = None;
}

/// F1 opens or closes the rules of the game on the table or on the new-game form.
fn help_key(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    game: Option<Res<CurrentGame>>,
    form: Res<NewGameForm>,
    mut help: ResMut<RulesHelp>,
) {
    if !keys.just_pressed(KeyCode::F1) {
        return;
    }
    let kind = match screen.get() {
        Screen::NewGame => Some(form.kind),
        Screen::Playing | Screen::Result => game.map(|g| g.table.as_match().kind()),
        _ => None,
    };
    help.0 = if help.0.is_some() { None } else { kind };
}

fn rules_window(
    mut contexts: EguiContexts,
    mut help: ResMut<RulesHelp>,
    in_match: Option<Res<State<InGame>>>,
    courses: Res<Courses>,
    mut lessons: MessageWriter<LessonInput>,
) -> Result {
    let Some(kind) = help.0 else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    fit_narrow(
        egui::Window::new(format!("Rules of {}", kind.title()))
            .id(egui::Id::new("rules"))
            .default_size([520.0, 560.0])
            .default_pos([40.0, 40.0])
            .open(&mut open),
        ctx,
    )
    .show(ctx, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label("Lines marked");
            let tag = egui::RichText::new("Our decision").strong();
            ui.colored_label(decision_colour(ui), tag);
            ui.label("are Tabula's own reading, where the designers' rules are silent or unclear.");
        });
        if in_match.is_none() {
            ui.horizontal(|ui| {
                for each in GameKind::ALL {
                    ui.selectable_value(&mut help.0, Some(each), each.title());
                }
            });
        }
        ui.separator();
        let course = courses.get(kind).ok();
        egui::ScrollArea::vertical().show(ui, |ui| {
            if let Some(step) = show_rules(ui, rules_text(kind), course) {
                lessons.write(LessonInput::Start { kind, step });
            }
        });
    });
    if !open {
        help.0 = None;
    }
    Ok(())
}

/// Draws the rules' small markup: `##` headings (the `#` title is the window's), `- ` bullets, and lines whose
/// text starts with `Decision: ` in the decision colour. A section the course teaches has
/// "Try it" beside its heading: the step it opens, when clicked.
fn show_rules(ui: &mut egui::Ui, text: &str, course: Option<&Course>) -> Option<usize> {
    let mut try_step = None;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            ui.add_space(4.0);
        } else if line.starts_with("# ") {
            // The window's title already names the game.
        } else if let Some(section) = line.strip_prefix("## ") {
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(section).strong().size(16.0));
                if let Some(step) = course.and_then(|c| c.step_for_rule(section))
                    && ui
                        .small_button("Try it")
                        .on_hover_text("The lesson step that teaches this, on the board")
                        .clicked()
                {
                    try_step = Some(step);
                }
            });
        } else {
            let (bullet, body) = match line.strip_prefix("- ") {
                Some(body) => (true, body),
                None => (false, line),
            };
            let decision = body.strip_prefix("Decision: ");
            ui.horizontal_wrapped(|ui| {
                if bullet {
                    ui.add_space(8.0);
                    ui.label("•");
                }
                match decision {
                    Some(body) => {
                        let colour = decision_colour(ui);
                        let tag = egui::RichText::new("Our decision:").strong();
                        ui.colored_label(colour, tag);
                        ui.add(egui::Label::new(egui::RichText::new(body).color(colour)).wrap());
                    }
                    None => {
                        ui.add(egui::Label::new(body).wrap());
                    }
                }
            });
        }
    }
    try_step
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_rules_with_its_decisions_marked() {
        for kind in GameKind::ALL {
            let text = rules_text(kind);
            assert!(text.starts_with(&format!("# {}", kind.title())), "{kind:?}");
            let decisions = text.matches("Decision: ").count();
            assert!(decisions >= 5, "{kind:?} marks {decisions} decisions");
            for section in ["## Goal", "## Board", "## End of the game", "## Notation"] {
                assert!(text.contains(section), "{kind:?} lacks {section}");
            }
        }
    }
}
