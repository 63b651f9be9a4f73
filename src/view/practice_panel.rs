//! What the lesson and puzzle panels share: the side panel itself, its heading with the
//! rules, the board and turn they read, the move being built, and a game from here.

use super::board::HoveredCell;
use super::from_here::{FromHereChoice, from_here_section};
use super::move_builder::move_builder;
use super::panel_area::PointerOverPanel;
use super::rules_help::RulesHelp;
use super::style::ERROR_COLOUR;
use crate::current_game::CurrentGame;
use crate::new_game::PlayFromHere;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::queued_moves::QueuedMoves;
use crate::table::GameKind;
use crate::turn::{CellMenu, PlayerInput, TurnMessage};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

pub const SOLVED_COLOUR: egui::Color32 = egui::Color32::from_rgb(110, 200, 120);

/// The board and the turn as a practice panel reads them.
#[derive(SystemParam)]
pub struct PracticeBoard<'w> {
    pub game: Res<'w, CurrentGame>,
    shows: Res<'w, BoardShows>,
    menu: Res<'w, CellMenu>,
    message: Res<'w, TurnMessage>,
    hovered: Res<'w, HoveredCell>,
    pub queued: Res<'w, QueuedMoves>,
}

/// Where a practice panel sends the player's moves, the rules window, and a game from here.
#[derive(SystemParam)]
pub struct PracticeAsks<'w> {
    input: MessageWriter<'w, PlayerInput>,
    rules_help: ResMut<'w, RulesHelp>,
    from_here: ResMut<'w, FromHereChoice>,
    play_from_here: MessageWriter<'w, PlayFromHere>,
    over_panel: ResMut<'w, PointerOverPanel>,
}

impl PracticeBoard<'_> {
    /// Whether the person may make a move now: their turn, and nothing being shown.
    pub fn takes_moves(&self) -> bool {
        phase_now(&self.game, &self.shows) == TurnPhase::PersonToMove && !self.queued.is_playing()
    }

    /// The move being built (when `open`), what the rules refused, and the hovered cell.
    pub fn moves(&self, ui: &mut egui::Ui, open: bool, asks: &mut PracticeAsks) {
        let table = self.game.table.as_ref();
        if open {
            move_builder(ui, table, &self.menu, &mut asks.input);
        }
        if let Some(text) = &self.message.0 {
            ui.colored_label(ERROR_COLOUR, text);
        }
        if let Some(hint) = self.hovered.0.and_then(|cell| table.cell_hint(cell)) {
            ui.small(hint);
        }
    }

    /// "Play the bot from here", once nothing is being shown.
    pub fn play_from_here(&self, ui: &mut egui::Ui, asks: &mut PracticeAsks) {
        if !self.queued.is_playing() {
            from_here_section(
                ui,
                &self.game,
                &mut asks.from_here,
                &mut asks.play_from_here,
            );
        }
    }
}

/// A try that did it: `heading` large, in the colour of success.
pub fn solved_line(ui: &mut egui::Ui, heading: &str) {
    ui.colored_label(
        SOLVED_COLOUR,
        egui::RichText::new(heading).strong().size(16.0),
    );
}

/// A try that missed: `heading`, then why, in the colour of errors.
pub fn missed_lines(ui: &mut egui::Ui, heading: &str, why: &str) {
    ui.colored_label(ERROR_COLOUR, egui::RichText::new(heading).strong());
    ui.add(egui::Label::new(egui::RichText::new(why).color(ERROR_COLOUR)).wrap());
}

/// The panel at the right, as the game's own, with a heading and the game's rules button.
pub fn practice_panel(
    ctx: &egui::Context,
    id: &'static str,
    heading: &str,
    kind: GameKind,
    asks: &mut PracticeAsks,
    body: impl FnOnce(&mut egui::Ui, &mut PracticeAsks),
) {
    let mut root = egui::Ui::new(
        ctx.clone(),
        id.into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let panel = super::layout::show_game_panel(format!("{id} side"), &mut root, 330.0, |ui| {
        ui.horizontal(|ui| {
            ui.heading(heading);
            if ui.button("Rules").clicked() {
                asks.rules_help.0 = Some(kind);
            }
        });
        body(ui, asks);
    });
    asks.over_panel.record(ctx, panel.response.rect);
}
