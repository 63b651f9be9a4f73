//! The new-game screen: the game, its options as text, and who sits in each seat.

use super::rules_help::RulesHelp;
use super::style::ERROR_COLOUR;
use crate::config::Settings;
use crate::screens::{NewGameForm, Screen, Seat, StartGame};
use crate::table::GameKind;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        new_game_screen.run_if(in_state(Screen::NewGame)),
    );
}

fn new_game_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut form: ResMut<NewGameForm>,
    mut next: ResMut<NextState<Screen>>,
    mut start: MessageWriter<StartGame>,
    mut help: ResMut<RulesHelp>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("New game")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .min_width(420.0)
        .show(ctx, |ui| {
            game_and_options(ui, &mut form, &settings, &mut help);
            ui.separator();
            ui.label("Seats (people take turns at this screen):");
            let players = form.players();
            egui::Grid::new("seats").num_columns(2).show(ui, |ui| {
                for seat in 0..players {
                    ui.label(format!("Player {}", seat + 1));
                    let current = form.seats[seat].label();
                    egui::ComboBox::from_id_salt(("seat", seat))
                        .selected_text(current)
                        .width(220.0)
                        .show_ui(ui, |ui| {
                            for option in Seat::offered() {
                                let label = option.label();
                                ui.selectable_value(&mut form.seats[seat], option, label);
                            }
                        });
                    ui.end_row();
                }
            });
            if let Some(error) = &form.error {
                ui.colored_label(ERROR_COLOUR, error);
            }
            ui.horizontal(|ui| {
                if ui.button("Back").clicked() {
                    next.set(Screen::Title);
                }
                if ui.button("Start").clicked() {
                    start.write(StartGame {
                        kind: form.kind,
                        settings: form.chosen_settings(),
                        seats: form.seats[..players].to_vec(),
                    });
                }
            });
        });
    Ok(())
}

/// The game tabs, its tagline and rules, and its options as text: shared by the new-game
/// and online screens.
pub(super) fn game_and_options(
    ui: &mut egui::Ui,
    form: &mut NewGameForm,
    settings: &Settings,
    help: &mut RulesHelp,
) {
    ui.horizontal(|ui| {
        for kind in GameKind::ALL {
            if ui
                .selectable_label(form.kind == kind, kind.title())
                .clicked()
                && form.kind != kind
            {
                *form = NewGameForm::for_game(kind, settings);
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label(form.kind.tagline());
        if ui.button("Rules").on_hover_text("F1").clicked() {
            help.0 = Some(form.kind);
        }
    });
    ui.separator();
    ui.label("Options (empty means the rules' default):");
    egui::Grid::new("options").num_columns(2).show(ui, |ui| {
        for (key, value) in form.settings.iter_mut() {
            ui.label(key.as_str());
            if value == "true" || value == "false" {
                let mut on = value == "true";
                if ui.checkbox(&mut on, "").changed() {
                    *value = on.to_string();
                }
            } else {
                ui.add(egui::TextEdit::singleline(value).hint_text("default"));
            }
            ui.end_row();
        }
    });
    if form.kind == GameKind::Adaptoid {
        ui.small(
            "board: a Super-Adaptoid board file as @path, e.g. @boards/super-adaptoid-example.txt",
        );
    }
}
