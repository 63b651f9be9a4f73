//! The analysis board in the side panel: opening and closing it, the live evaluation
//! (each seat's winning chance and the line the bot expects), and the variation shown
//! (leave, promote, delete); and the move list as a tree of variations.

use super::review_panel::{judged_text, mark_colour};
use super::style::colour32;
use crate::analysis::LiveEvaluation;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::review::GameReview;
use crate::turn::Travel;
use bevy::prelude::*;
use bevy_egui::egui;
use std::collections::HashSet;
use tabula_session::{AnyMatch, NodeId};

/// How far each variation is set in from the line it leaves.
const INDENT: f32 = 14.0;

pub struct AnalysisSection<'a, 'w> {
    pub game: &'a CurrentGame,
    pub live: Option<&'a LiveEvaluation>,
    pub settings: &'a Settings,
    pub animating: bool,
    pub travel: &'a mut MessageWriter<'w, Travel>,
}

impl AnalysisSection<'_, '_> {
    pub fn show(self, ui: &mut egui::Ui) {
        let game = self.game.table.as_match();
        if !self.game.is_analysing() {
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(!self.animating, egui::Button::new("Analysis board"))
                    .on_hover_text(
                        "Play moves for either side, with the bot's evaluation: a move that \
                         leaves the line starts a side line, and one past the game's last \
                         move goes on with the game",
                    )
                    .clicked()
                {
                    self.travel.write(Travel::Analyse(true));
                }
                let rows = game.tree().rows();
                let variations = rows.iter().filter(|row| row.starts_variation).count();
                if variations > 0 {
                    let lines = if variations == 1 { "line" } else { "lines" };
                    ui.weak(format!("{variations} side {lines} kept"));
                }
            });
            return;
        }
        ui.horizontal(|ui| {
            ui.strong("Analysis board");
            if ui
                .add_enabled(!self.animating, egui::Button::new("Back to the game"))
                .on_hover_text(
                    "The main line again, where the side line shown leaves it; bots play again",
                )
                .clicked()
            {
                self.travel.write(Travel::Analyse(false));
            }
        });
        self.evaluation(ui);
        let here = game.node();
        if let Some(start) = game.tree().variation_start(here) {
            ui.horizontal(|ui| {
                ui.label("Side line:");
                let enabled = !self.animating;
                if ui
                    .add_enabled(enabled, egui::Button::new("Leave"))
                    .on_hover_text("Back to the line it left, where it left it")
                    .clicked()
                {
                    self.travel.write(Travel::LeaveVariation);
                }
                if ui
                    .add_enabled(enabled, egui::Button::new("Promote"))
                    .on_hover_text("Make it the line it left (the main line is the game's record)")
                    .clicked()
                {
                    self.travel.write(Travel::Promote(here));
                }
                if ui
                    .add_enabled(enabled, egui::Button::new("Delete"))
                    .on_hover_text("Forget this side line from its first move on")
                    .clicked()
                {
                    self.travel.write(Travel::DeleteVariation(start));
                }
            });
        } else {
            ui.weak("Play a move here for either side: a new move starts a side line.");
        }
    }

    /// Each seat's chance as a coloured share of one bar, then the expected line.
    fn evaluation(&self, ui: &mut egui::Ui) {
        let table = self.game.table.as_ref();
        let Some(live) = self
            .live
            .filter(|live| live.position == self.game.position())
        else {
            return;
        };
        let shown = live.shown();
        if shown.chances.is_empty() {
            ui.horizontal(|ui| {
                ui.add(egui::Spinner::new());
                ui.label("The bot looks at the position…");
            });
            return;
        }
        let palette = table.as_match().kind().max_players();
        let (rect, _) =
            ui.allocate_exact_size(egui::vec2(ui.available_width(), 12.0), egui::Sense::hover());
        let mut left = rect.left();
        for (seat, chance) in shown.chances.iter().enumerate() {
            let width = rect.width() * chance.clamp(0.0, 1.0) as f32;
            let part = egui::Rect::from_min_size(
                egui::pos2(left, rect.top()),
                egui::vec2(width, rect.height()),
            );
            let colour = self.settings.colour(palette, table.colour_of_seat(seat));
            ui.painter().rect_filled(part, 0.0, colour32(colour));
            left += width;
        }
        ui.painter().rect_stroke(
            rect,
            0.0,
            egui::Stroke::new(1.0, ui.visuals().weak_text_color()),
            egui::StrokeKind::Inside,
        );
        let chances: Vec<String> = shown
            .chances
            .iter()
            .enumerate()
            .map(|(seat, chance)| {
                format!(
                    "{} {:.0}%",
                    table.as_match().player_name(seat),
                    100.0 * chance
                )
            })
            .collect();
        ui.horizontal(|ui| {
            ui.label(chances.join(" · "));
            if shown.proved {
                ui.weak("(proved)");
            } else if !shown.done {
                ui.add(egui::Spinner::new().size(12.0));
            }
        })
        .response
        .on_hover_text(format!(
            "Level {}'s search of this position; chances firm up as it searches",
            live.level
        ));
        if !shown.line.is_empty() {
            ui.add(egui::Label::new(format!("Best line: {}", shown.line.join(" "))).wrap());
        }
    }
}

/// The moves as a tree: the line shown and its variations, each indented under the move it
/// is played instead of. A click goes to a move; a right click promotes or deletes.
pub struct MoveList<'a, 'w> {
    pub game: &'a CurrentGame,
    /// A review of this game's main line.
    pub review: Option<&'a GameReview>,
    pub animating: bool,
    pub travel: &'a mut MessageWriter<'w, Travel>,
    /// The game and position the list last scrolled to.
    pub scrolled_to: &'a mut Option<(u64, u64)>,
}

impl MoveList<'_, '_> {
    pub fn show(self, ui: &mut egui::Ui) {
        let game: &dyn AnyMatch = self.game.table.as_match();
        let tree = game.tree();
        let ply = game.record().len();
        let played: HashSet<NodeId> = game.path()[..ply].iter().copied().collect();
        let here = game.node();
        // The list follows the position when it changes, and is the reader's to scroll
        // in between; it waits for the pieces to stop, as the move builder then takes back
        // its room above the list.
        let position = self.game.position();
        let follow = !self.animating && *self.scrolled_to != Some(position);
        if follow {
            *self.scrolled_to = Some(position);
        }
        egui::ScrollArea::vertical()
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for row in tree.rows() {
                    let text = format!("{:>3}. {}", row.ply, tree.text(row.node));
                    let mut text = egui::RichText::new(text).monospace();
                    if row.node == here {
                        text = text.strong();
                    } else if !played.contains(&row.node) {
                        // Taken back, or in a line not shown.
                        text = text.weak();
                    }
                    if row.depth > 0 {
                        text = text.italics();
                    }
                    let judged = self
                        .review
                        .filter(|_| row.depth == 0)
                        .and_then(|r| r.move_from(row.ply - 1));
                    ui.horizontal(|ui| {
                        ui.add_space(INDENT * row.depth as f32);
                        let label = egui::Label::new(text).sense(egui::Sense::click());
                        let response = ui.add(label);
                        if follow && (row.node == here || (ply == 0 && row.ply == 1)) {
                            response.scroll_to_me(Some(egui::Align::Center));
                        }
                        let mut clicked = response.clicked();
                        if row.depth > 0 && self.game.is_analysing() {
                            response.context_menu(|ui| {
                                if ui.button("Promote this side line").clicked() {
                                    self.travel.write(Travel::Promote(row.node));
                                    ui.close();
                                }
                                if ui.button("Delete from this move on").clicked() {
                                    self.travel.write(Travel::DeleteVariation(row.node));
                                    ui.close();
                                }
                            });
                        }
                        if let Some(judged) = judged
                            && let Some(mark) = judged.mark
                        {
                            let symbol = egui::RichText::new(mark.symbol())
                                .monospace()
                                .strong()
                                .color(mark_colour(mark));
                            let label = egui::Label::new(symbol).sense(egui::Sense::click());
                            let response = ui.add(label).on_hover_text(judged_text(judged));
                            clicked |= response.clicked();
                        }
                        if clicked && !self.animating {
                            self.travel.write(Travel::ToNode(row.node));
                        }
                    });
                }
            });
    }
}
