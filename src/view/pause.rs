//! The pause menu (Esc): animation speed, labels, appearance, keeping games, new game,
//! title screen, quit. While it is open the board takes no clicks and bots wait.

use super::layout::fit_narrow;
use super::records::Keeping;
use super::style::{ERROR_COLOUR, QUIT_OFFERED, appearance};
use crate::TapTarget;
use crate::config::{Keys, Settings};
use crate::current_game::CurrentGame;
use crate::phase::Pause;
use crate::saving::SaveGame;
use crate::screens::{InGame, Screen};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        pause_menu.run_if(in_state(Pause::Paused)),
    )
    .add_systems(Update, pause_key.run_if(in_state(InGame)));
}

fn pause_menu(
    mut contexts: EguiContexts,
    mut pause: ResMut<NextState<Pause>>,
    mut settings: ResMut<Settings>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut keeping: Keeping,
    game: Res<CurrentGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    fit_narrow(egui::Window::new("Paused")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false), ctx)
        .show(ctx, |ui| {
            if ui.button("Resume (Esc)").tap_target("Resume").clicked() {
                pause.set(Pause::Running);
            }
            ui.add(
                egui::Slider::new(&mut settings.animation_speed, 0.0..=4.0).text("animation speed"),
            );
            ui.horizontal(|ui| {
                let mut sound = !settings.sound_muted;
                if ui.checkbox(&mut sound, "sound").changed() {
                    settings.sound_muted = !sound;
                }
                ui.add_enabled(
                    sound,
                    egui::Slider::new(&mut settings.sound_volume, 0.0..=1.0).text("volume"),
                );
            });
            ui.checkbox(&mut settings.show_labels, "cell labels (L)");
            ui.checkbox(&mut settings.confirm_moves, "confirm every move");
            let levels = tabula_bot::Levels::built_in().top() as u8;
            // One level serves every game; say which this game plays when it has fewer.
            let here = tabula_bot::Levels::built_in().number_in(
                game.table.as_match().kind().key(),
                usize::from(settings.review_level),
            );
            let text = match here == usize::from(settings.review_level) {
                true => "review bot level".to_string(),
                false => format!("review bot level (here {here}, its top)"),
            };
            ui.add(egui::Slider::new(&mut settings.review_level, 1..=levels).text(text))
            .on_hover_text(format!(
                "The level whose search judges a game review; {levels}, the top in every \
                 game (a game with fewer levels reviews at its own top), looks at each \
                 position for a third of its 1.9 s, and for the rest where a move is in doubt"
            ));
            search_threads(ui, &mut settings);
            appearance(ui, &mut settings);
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(
                        keeping.storage.dir.is_some(),
                        egui::Button::new("Save game"),
                    )
                    .clicked()
                {
                    keeping.save.write(SaveGame);
                }
                if ui.button("Export…").clicked() {
                    keeping.windows.export = true;
                    pause.set(Pause::Running);
                }
                if ui
                    .button("Load a game…")
                    .on_hover_text("This game stays autosaved, and goes to your saved games if another replaces it")
                    .clicked()
                {
                    keeping
                        .windows
                        .open_load(&keeping.storage, Some(game.table.as_match().kind()));
                    next.set(Screen::Title);
                }
            });
            match &keeping.message.0 {
                Some(Ok(text)) => {
                    ui.label(text);
                }
                Some(Err(text)) => {
                    ui.colored_label(ERROR_COLOUR, text);
                }
                None => {}
            }
            ui.separator();
            if ui.button("New game").clicked() {
                next.set(Screen::NewGame);
            }
            if ui.button("Title screen").clicked() {
                next.set(Screen::Title);
            }
            if QUIT_OFFERED && ui.button("Quit").clicked() {
                exit.write(AppExit::Success);
            }
        });
    Ok(())
}

fn pause_key(
    keys: Res<ButtonInput<KeyCode>>,
    bindings: Res<Keys>,
    pause: Res<State<Pause>>,
    mut next: ResMut<NextState<Pause>>,
) {
    if keys.just_pressed(bindings.pause) {
        next.set(match pause.get() {
            Pause::Running => Pause::Paused,
            Pause::Paused => Pause::Running,
        });
    }
}

/// The threads a search of time alone runs on, offered where the machine has more than one
/// core to give (not the web: its search worker has one thread).
fn search_threads(ui: &mut egui::Ui, settings: &mut Settings) {
    let cores = crate::config::machine_cores();
    if cfg!(target_arch = "wasm32") || cores < 2 {
        return;
    }
    let mut threads = settings.search_threads();
    let slider = egui::Slider::new(&mut threads, 1..=cores).text("search threads");
    if ui
        .add(slider)
        .on_hover_text(
            "Cores the top level's bot and the analysis board search on, in the same time; \
             a top-level review studies the moves played on them, sooner",
        )
        .changed()
    {
        settings.search_threads = Some(threads as u8);
    }
}
