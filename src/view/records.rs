//! The windows for keeping games: load a saved record or pasted text (from the title
//! screen, where a game can start), and export the
//! game on the table (record, move list, position string) to the clipboard.

use super::layout::fit_narrow;
use crate::current_game::CurrentGame;
use crate::new_game::NewGameForm;
use crate::record::{Record, move_list, record_of};
use crate::saving::{LoadRecord, Resumable, SaveGame, SaveMessage, read_record};
use crate::screens::{InGame, Screen};
use crate::storage::{RECORDS, Storage};
use crate::table::GameKind;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::PathBuf;

/// What the title screen and the pause menu need to keep games.
#[derive(SystemParam)]
pub struct Keeping<'w> {
    pub resumable: Res<'w, Resumable>,
    pub storage: Res<'w, Storage>,
    pub windows: ResMut<'w, RecordWindows>,
    pub load: MessageWriter<'w, LoadRecord>,
    pub save: MessageWriter<'w, SaveGame>,
    pub message: Res<'w, SaveMessage>,
}

/// Which of the two windows is open; the load window keeps the files it listed.
#[derive(Resource, Default)]
pub struct RecordWindows {
    pub load: Option<Vec<PathBuf>>,
    pub export: bool,
    pasted: String,
    /// The game pasted moves or positions belong to (the form's game if not chosen).
    paste_kind: Option<GameKind>,
}

impl RecordWindows {
    /// Opens the load window with the saved records, newest first; pasted moves are
    /// read as `kind`'s, if given.
    pub fn open_load(&mut self, storage: &Storage, kind: Option<GameKind>) {
        self.load = Some(storage.list(RECORDS));
        self.paste_kind = kind.or(self.paste_kind);
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<RecordWindows>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                load_window.run_if(in_state(Screen::Title)),
                export_window.run_if(in_state(InGame)),
            ),
        )
        .add_systems(OnEnter(InGame), close_load)
        .add_systems(OnExit(InGame), close_export);
}

fn close_export(mut windows: ResMut<RecordWindows>) {
    windows.export = false;
}

fn load_window(
    mut contexts: EguiContexts,
    mut windows: ResMut<RecordWindows>,
    form: Res<NewGameForm>,
    storage: Res<Storage>,
    mut message: ResMut<SaveMessage>,
    mut load: MessageWriter<LoadRecord>,
) -> Result {
    let Some(files) = windows.load.clone() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut chosen: Option<std::result::Result<Record, String>> = None;
    fit_narrow(
        egui::Window::new("Load a game")
            .collapsible(false)
            .default_width(460.0)
            .open(&mut open),
        ctx,
    )
    .show(ctx, |ui| {
        match storage.describe(RECORDS) {
            Some(place) => ui.label(format!("Saved games in {place}")),
            None => ui.label("There is no place for saved games here."),
        };
        egui::ScrollArea::vertical()
            .max_height(200.0)
            .show(ui, |ui| {
                if files.is_empty() {
                    ui.weak("No saved games yet: \"Save game\" in the game's menu.");
                }
                for path in &files {
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    if ui.button(name).clicked() {
                        chosen = Some(read_record(&storage, path));
                    }
                }
            });
        ui.separator();
        let mut kind = windows.paste_kind.unwrap_or(form.kind);
        ui.horizontal(|ui| {
            ui.label("Or paste a record, or a move list or position string of");
            egui::ComboBox::from_id_salt("paste-kind")
                .selected_text(kind.title())
                .show_ui(ui, |ui| {
                    for each in GameKind::ALL {
                        ui.selectable_value(&mut kind, each, each.title());
                    }
                });
        });
        windows.paste_kind = Some(kind);
        ui.add(
            egui::TextEdit::multiline(&mut windows.pasted)
                .desired_rows(5)
                .desired_width(f32::INFINITY)
                .code_editor(),
        );
        ui.horizontal(|ui| {
            let text = windows.pasted.trim().to_string();
            let any = !text.is_empty();
            if ui.add_enabled(any, egui::Button::new("Record")).clicked() {
                chosen = Some(Record::parse(&text));
            }
            if ui.add_enabled(any, egui::Button::new("Moves")).clicked() {
                chosen = Some(Record::pasted(kind, &text, false));
            }
            if ui.add_enabled(any, egui::Button::new("Position")).clicked() {
                chosen = Some(Record::pasted(kind, &text, true));
            }
        });
        ui.small(
            "Moves and positions start a game between people, with the game's default options.",
        );
        if let Some(Err(error)) = &message.0 {
            ui.colored_label(egui::Color32::from_rgb(240, 120, 90), error);
        }
    });
    match chosen {
        Some(Ok(record)) => {
            // The load system reports a record that does not replay; the window closes
            // once the game starts.
            load.write(LoadRecord(record));
            message.0 = None;
        }
        Some(Err(error)) => message.0 = Some(Err(error)),
        None => {}
    }
    if !open {
        windows.load = None;
    }
    Ok(())
}

fn export_window(
    mut contexts: EguiContexts,
    mut windows: ResMut<RecordWindows>,
    game: Res<CurrentGame>,
) -> Result {
    if !windows.export {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let table = game.table.as_ref();
    fit_narrow(
        egui::Window::new("Export")
            .collapsible(false)
            .default_width(460.0)
            .open(&mut open),
        ctx,
    )
    .show(ctx, |ui| {
        let record = record_of(table, game.game_seats()).to_ron();
        let moves = move_list(table);
        let position = table.as_match().position_string();
        for (what, text) in [
            ("Position string", position),
            ("Moves", moves),
            ("Record", record),
        ] {
            ui.horizontal(|ui| {
                ui.strong(what);
                if ui.button("Copy").clicked() {
                    ui.ctx().copy_text(text.clone());
                }
            });
            egui::ScrollArea::vertical()
                .id_salt(what)
                .max_height(120.0)
                .show(ui, |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(text).monospace()).wrap());
                });
            ui.separator();
        }
    });
    windows.export = open;
    Ok(())
}

/// Closes the load window when a game starts from it.
fn close_load(mut windows: ResMut<RecordWindows>) {
    windows.load = None;
}
