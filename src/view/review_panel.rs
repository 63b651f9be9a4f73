//! The review in the side panel: start it, its progress, the winning-chance graph (a
//! click goes to that move), each player's marks, and the last and next moves judged;
//! and the marks beside the moves of the move list.

use super::style::colour32;
use crate::config::Settings;
use crate::review::{GameReview, StartReview, StopReview};
use crate::screens::Match;
use crate::turn::Travel;
use bevy::prelude::*;
use bevy_egui::egui;
use tabula_session::{Mark, MoveReview};

const GRAPH_HEIGHT: f32 = 84.0;

/// The colour a mark is shown in: yellow, orange, red as the loss grows.
pub fn mark_colour(mark: Mark) -> egui::Color32 {
    match mark {
        Mark::Inaccuracy => egui::Color32::from_rgb(225, 200, 70),
        Mark::Mistake => egui::Color32::from_rgb(240, 145, 50),
        Mark::Blunder => egui::Color32::from_rgb(235, 70, 60),
    }
}

/// What a judged move did, in words: "61% to 12%, blunder; the bot prefers c3".
pub fn judged_text(judged: &MoveReview) -> String {
    let mut text = format!(
        "{:.0}% to {:.0}%",
        100.0 * judged.before,
        100.0 * judged.after
    );
    if let Some(mark) = judged.mark {
        text.push_str(&format!(", {}", mark.name()));
    }
    if let Some(better) = &judged.preferred {
        text.push_str(&format!("; the bot prefers {better}"));
    }
    text
}

pub struct ReviewPanel<'a, 'w> {
    pub review: Option<&'a GameReview>,
    pub game: &'a Match,
    pub settings: &'a Settings,
    pub animating: bool,
    pub start: &'a mut MessageWriter<'w, StartReview>,
    pub stop: &'a mut MessageWriter<'w, StopReview>,
    pub travel: &'a mut MessageWriter<'w, Travel>,
}

impl ReviewPanel<'_, '_> {
    pub fn show(mut self, ui: &mut egui::Ui) {
        let table = self.game.table.as_ref();
        let fitting = self.review.filter(|r| r.fits(self.game));
        let main_line = table.as_match().main_line();
        let new_moves = fitting.map_or(0, |r| main_line.len() - r.line.len());
        ui.horizontal(|ui| {
            let label = match (self.review, fitting) {
                (None, _) => "Review the game".to_string(),
                (Some(_), Some(_)) if new_moves > 0 => {
                    format!("Review again (+{new_moves})")
                }
                (Some(_), Some(_)) => "Review again".to_string(),
                (Some(_), None) => "Review the game as it is now".to_string(),
            };
            if fitting.is_some_and(|r| r.is_running()) {
                if ui
                    .button("Stop")
                    .on_hover_text("Stop the review and forget it")
                    .clicked()
                {
                    self.stop.write(StopReview);
                }
                return;
            }
            if ui
                .add_enabled(!main_line.is_empty(), egui::Button::new(label))
                .on_hover_text(format!(
                    "The bot (level {}, set in the menu) judges every position; moves that \
                     lowered their player's winning chance most are marked",
                    self.settings.review_level
                ))
                .clicked()
            {
                self.start.write(StartReview);
            }
        });
        let Some(review) = fitting else {
            if self.review.is_some() {
                ui.small("The moves changed since the review.");
            }
            return;
        };
        if review.is_running() {
            ui.horizontal(|ui| {
                ui.add(egui::Spinner::new());
                ui.label(format!(
                    "Judging position {} of {} (level {})…",
                    (review.shown.evaluations.len() + 1).min(review.line.len() + 1),
                    review.line.len() + 1,
                    review.level
                ));
            });
            ui.add(
                egui::ProgressBar::new(review.shown.progress as f32)
                    .desired_width(ui.available_width())
                    .show_percentage(),
            );
        }
        if let Some(failure) = &review.shown.failure {
            ui.colored_label(super::style::ERROR_COLOUR, failure);
        }
        self.graph(ui, review);
        let palette = table.kind().max_players();
        for summary in &review.shown.summary {
            ui.horizontal(|ui| {
                let colour = colour32(
                    self.settings
                        .colour(palette, table.colour_of_seat(summary.seat)),
                );
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().circle_filled(rect.center(), 5.5, colour);
                ui.add(
                    egui::Label::new(format!(
                        "{}: {}",
                        table.player_name(summary.seat),
                        summary.line()
                    ))
                    .wrap(),
                );
            });
        }
        self.around_here(ui, review);
    }

    /// The last move played and the next one, judged; a way to the better move's position.
    fn around_here(&mut self, ui: &mut egui::Ui, review: &GameReview) {
        let table = self.game.table.as_ref();
        let at = table.as_match().main_line_ply();
        if let Some(last) = at.checked_sub(1).and_then(|ply| review.move_from(ply)) {
            ui.horizontal_wrapped(|ui| {
                let text = format!(
                    "Move {}, {} {}: {}",
                    last.ply,
                    table.player_name(last.mover),
                    last.notation,
                    judged_text(last)
                );
                match last.mark {
                    Some(mark) => ui.colored_label(mark_colour(mark), text),
                    None => ui.label(text),
                };
                if last.preferred.is_some()
                    && ui
                        .add_enabled(!self.animating, egui::Button::new("Show").small())
                        .on_hover_text("Back one move: the bot's move shows on the board in violet")
                        .clicked()
                {
                    self.travel.write(Travel::MainLine(at - 1));
                }
            });
        }
        if let Some(next) = review.move_from(at)
            && let Some(better) = &next.preferred
        {
            ui.label(format!(
                "Here the bot prefers {better} (violet) to move {}, {}.",
                next.ply, next.notation
            ));
        }
    }

    /// Each position's winning chance along the game: for two players the first player's
    /// share against the second's, for three a line each. A click goes to that position.
    fn graph(&mut self, ui: &mut egui::Ui, review: &GameReview) {
        let table = self.game.table.as_ref();
        let chances = &review.shown.chances;
        let positions = review.line.len() + 1;
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), GRAPH_HEIGHT),
            egui::Sense::click_and_drag(),
        );
        let painter = ui.painter_at(rect);
        let palette = table.kind().max_players();
        let seat_colour =
            |seat: usize| colour32(self.settings.colour(palette, table.colour_of_seat(seat)));
        let x_of =
            |ply: usize| rect.left() + rect.width() * ply as f32 / (positions - 1).max(1) as f32;
        let y_of = |chance: f64| rect.bottom() - rect.height() * chance as f32;
        let players = table.num_players();
        painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
        if players == 2 && !chances.is_empty() {
            // The second player's share fills the part judged; the first player's rises
            // from below.
            let judged =
                egui::Rect::from_x_y_ranges(rect.left()..=x_of(chances.len() - 1), rect.y_range());
            painter.rect_filled(judged, 0.0, seat_colour(1));
            for (ply, pair) in chances.windows(2).enumerate() {
                let quad = vec![
                    egui::pos2(x_of(ply), rect.bottom()),
                    egui::pos2(x_of(ply), y_of(pair[0][0])),
                    egui::pos2(x_of(ply + 1), y_of(pair[1][0])),
                    egui::pos2(x_of(ply + 1), rect.bottom()),
                ];
                painter.add(egui::Shape::convex_polygon(
                    quad,
                    seat_colour(0),
                    egui::Stroke::NONE,
                ));
            }
            // The border between the shares, for colours close to the background's.
            let border: Vec<egui::Pos2> = chances
                .iter()
                .enumerate()
                .map(|(ply, c)| egui::pos2(x_of(ply), y_of(c[0])))
                .collect();
            painter.add(egui::Shape::line(
                border,
                egui::Stroke::new(1.0, egui::Color32::from_gray(128)),
            ));
        } else if players > 2 {
            for seat in 0..players {
                let points: Vec<egui::Pos2> = chances
                    .iter()
                    .enumerate()
                    .map(|(ply, c)| egui::pos2(x_of(ply), y_of(c[seat])))
                    .collect();
                painter.add(egui::Shape::line(
                    points,
                    egui::Stroke::new(2.0, seat_colour(seat)),
                ));
            }
        }
        // An even share: a half for two players, a third for three.
        let even = 1.0 / players.max(1) as f64;
        painter.line_segment(
            [
                egui::pos2(rect.left(), y_of(even)),
                egui::pos2(rect.right(), y_of(even)),
            ],
            egui::Stroke::new(0.5, ui.visuals().weak_text_color()),
        );
        for judged in &review.shown.moves {
            if let Some(mark) = judged.mark {
                // On the line drawn: the first player's share, or for three the mover's.
                let line = if players == 2 { 0 } else { judged.mover };
                let chance = chances.get(judged.ply).map_or(0.5, |c| c[line]);
                let centre = egui::pos2(x_of(judged.ply), y_of(chance.clamp(0.04, 0.96)));
                painter.circle(
                    centre,
                    3.5,
                    mark_colour(mark),
                    egui::Stroke::new(1.0, egui::Color32::BLACK),
                );
            }
        }
        // Where the board is, unless it is at a move played after the review.
        let at = table.as_match().main_line_ply();
        if at < positions {
            painter.line_segment(
                [
                    egui::pos2(x_of(at), rect.top()),
                    egui::pos2(x_of(at), rect.bottom()),
                ],
                egui::Stroke::new(1.5, ui.visuals().selection.stroke.color),
            );
        }
        let ply_at = |x: f32| {
            let share = ((x - rect.left()) / rect.width()).clamp(0.0, 1.0);
            (share * (positions - 1) as f32).round() as usize
        };
        if let Some(pointer) = response.hover_pos() {
            let ply = ply_at(pointer.x);
            let text = match ply.checked_sub(1) {
                None => "The start".to_string(),
                Some(at) => match review.move_from(at) {
                    Some(judged) => format!(
                        "After move {}, {} {}: {}",
                        judged.ply,
                        table.player_name(judged.mover),
                        judged.notation,
                        judged_text(judged)
                    ),
                    None => format!("After move {ply}: not judged yet"),
                },
            };
            response.clone().on_hover_text_at_pointer(text);
        }
        if (response.clicked() || response.dragged())
            && !self.animating
            && let Some(pointer) = response.interact_pointer_pos()
        {
            let ply = ply_at(pointer.x);
            if ply != at {
                self.travel.write(Travel::MainLine(ply));
            }
        }
    }
}
