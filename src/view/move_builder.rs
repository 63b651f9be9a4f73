//! The move being built, in the side panel: the steps chosen, every legal next step as a
//! button (a clicked cell's choices first), and play, step back and cancel.

use crate::TapTarget;
use crate::table::Table;
use crate::turn::{CellMenu, PlayerInput};
use bevy::prelude::*;
use bevy_egui::egui;

/// The move being built: what is chosen, then every legal next step as a button.
pub fn move_builder(
    ui: &mut egui::Ui,
    table: &dyn Table,
    menu: &CellMenu,
    input: &mut MessageWriter<PlayerInput>,
) {
    if let Some(draft) = table.draft_text() {
        ui.label(draft);
    }
    let chosen = table.chosen();
    if !chosen.is_empty() {
        ui.label(format!("Chosen: {}", chosen.join(", ")));
    }
    let choices = table.choices();
    // A click on a cell with several choices lists just those first.
    let mut order: Vec<usize> = (0..choices.len()).collect();
    if let Some(cell) = menu.0 {
        order.sort_by_key(|&i| choices[i].cell != Some(cell));
        ui.strong(format!(
            "Choose for {}:",
            table
                .layout()
                .cells
                .get(cell)
                .map_or("?", |c| c.label.as_str())
        ));
    } else if choices.is_empty() {
        ui.label("Nothing more to choose.");
    } else {
        ui.label("Pick a lit cell, or choose:");
    }
    // On a phone the panel below the board is short: Play move comes before the list, so
    // it is in sight however long the list is, and the list is shorter.
    let narrow = super::layout::is_narrow(ui.ctx());
    let list_height = if narrow { 136.0 } else { 220.0 };
    if narrow {
        move_actions(ui, table, !chosen.is_empty(), input);
    }
    egui::ScrollArea::vertical()
        .id_salt("choices")
        .max_height(list_height)
        .show(ui, |ui| {
            for (shown, index) in order.into_iter().enumerate() {
                let choice = &choices[index];
                let in_menu = menu.0.is_some() && choice.cell == menu.0;
                let button = egui::Button::new(&choice.text).selected(in_menu);
                if ui
                    .add(button)
                    .tap_target(format_args!("choice {shown}"))
                    .clicked()
                {
                    input.write(PlayerInput::Choose(index));
                }
            }
        });
    if !narrow {
        move_actions(ui, table, !chosen.is_empty(), input);
    }
}

/// Play move, and Step back and Cancel once a step is `chosen`.
fn move_actions(
    ui: &mut egui::Ui,
    table: &dyn Table,
    chosen: bool,
    input: &mut MessageWriter<PlayerInput>,
) {
    ui.horizontal(|ui| {
        let complete = table.complete_move();
        if ui
            .add_enabled(complete.is_some(), egui::Button::new("Play move"))
            .tap_target("Play move")
            .on_hover_text(complete.clone().unwrap_or_default())
            .clicked()
        {
            input.write(PlayerInput::Confirm);
        }
        if ui
            .add_enabled(chosen, egui::Button::new("Step back"))
            .clicked()
        {
            input.write(PlayerInput::TakeBackStep);
        }
        if ui
            .add_enabled(chosen, egui::Button::new("Cancel"))
            .tap_target("Cancel")
            .clicked()
        {
            input.write(PlayerInput::Cancel);
        }
    });
}
