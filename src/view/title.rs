//! The title screen: the four games, play online, resume the game left, load a saved
//! one, quit.

use super::records::Keeping;
use super::style::{ERROR_COLOUR, QUIT_OFFERED, counted};
use crate::config::{ConfigProblems, Settings};
use crate::saving::LoadRecord;
use crate::screens::{NewGameForm, Screen};
use crate::table::GameKind;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        title_screen.run_if(in_state(Screen::Title)),
    );
}

fn title_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    problems: Res<ConfigProblems>,
    mut form: ResMut<NewGameForm>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut keeping: Keeping,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Tabula")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.heading("Four abstract strategy games");
            ui.add_space(8.0);
            for kind in GameKind::ALL {
                ui.horizontal(|ui| {
                    if ui
                        .add_sized([140.0, 32.0], egui::Button::new(kind.title()))
                        .clicked()
                    {
                        *form = NewGameForm::for_game(kind, &settings);
                        next.set(Screen::NewGame);
                    }
                    ui.label(kind.tagline());
                });
            }
            ui.add_space(8.0);
            if ui
                .add_sized([140.0, 32.0], egui::Button::new("Play online"))
                .on_hover_text("With a friend elsewhere, through a Tabula server")
                .clicked()
            {
                next.set(Screen::Online);
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if let Some(record) = &keeping.resumable.0 {
                    let title = record.kind().map_or("the game", |k| k.title());
                    let moves = record.at.unwrap_or(record.moves.len());
                    if ui
                        .button(format!("Resume {title} ({})", counted(moves, "move")))
                        .on_hover_text("The game you left, as it was")
                        .clicked()
                    {
                        keeping.load.write(LoadRecord(record.clone()));
                    }
                }
                if ui.button("Load a game…").clicked() {
                    keeping.windows.open_load(&keeping.storage, None);
                }
            });
            if let Some(Err(error)) = &keeping.message.0
                && keeping.windows.load.is_none()
            {
                ui.colored_label(ERROR_COLOUR, error);
            }
            for problem in &problems.0 {
                ui.colored_label(ERROR_COLOUR, problem);
            }
            if QUIT_OFFERED && ui.button("Quit").clicked() {
                exit.write(AppExit::Success);
            }
        });
    Ok(())
}
