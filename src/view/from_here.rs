//! "Play the bot from here": a level and a side, then a game against the bot from the
//! position on the table (a lesson's, the analysis board's, a pasted position's).

use crate::current_game::CurrentGame;
use crate::new_game::PlayFromHere;
use bevy::prelude::*;
use bevy_egui::egui;

pub fn plugin(app: &mut App) {
    app.init_resource::<FromHereChoice>();
}

/// The level and side last chosen, kept while the app runs.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FromHereChoice {
    pub level: u8,
    /// The seat the person takes; none means the side to move.
    pub seat: Option<usize>,
}

impl Default for FromHereChoice {
    fn default() -> Self {
        // After a lesson or a puzzle, the gentlest bot first.
        FromHereChoice {
            level: 1,
            seat: None,
        }
    }
}

/// The section: a side, a level and the button; nothing once the game is over.
pub fn from_here_section(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    choice: &mut FromHereChoice,
    requests: &mut MessageWriter<PlayFromHere>,
) {
    let playing = game.table.as_match();
    if game.is_over() {
        return;
    }
    egui::CollapsingHeader::new("Play the bot from here")
        .id_salt("from here")
        .show(ui, |ui| {
            let seat = choice
                .seat
                .filter(|&s| s < playing.num_players())
                .unwrap_or(playing.to_move());
            ui.horizontal(|ui| {
                ui.label("You play");
                egui::ComboBox::from_id_salt("from-here-seat")
                    .selected_text(playing.player_name(seat))
                    .show_ui(ui, |ui| {
                        for each in 0..playing.num_players() {
                            if ui
                                .selectable_label(each == seat, playing.player_name(each))
                                .clicked()
                            {
                                choice.seat = Some(each);
                            }
                        }
                    });
                ui.label("against level");
                // The choice is kept from game to game; a game with fewer levels has its top.
                let top = tabula_bot::Levels::built_in().top_in(playing.kind().key());
                choice.level = choice.level.clamp(1, top as u8);
                egui::ComboBox::from_id_salt("from-here-level")
                    .selected_text(choice.level.to_string())
                    .width(40.0)
                    .show_ui(ui, |ui| {
                        for level in 1..=top as u8 {
                            ui.selectable_value(&mut choice.level, level, level.to_string());
                        }
                    });
            });
            if ui
                .button("Play from this position")
                .on_hover_text("A new game from the position on the board")
                .clicked()
            {
                requests.write(PlayFromHere {
                    seat,
                    level: choice.level,
                });
            }
        });
}
