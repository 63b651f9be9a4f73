//! The review in the side panel: start it, its progress, the winning-chance graph (a
//! click goes to that move), each player's marks, and the last and next moves judged;
//! and the marks beside the moves of the move list.

use super::style::colour32;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::review::{GameReview, StartReview, StopReview};
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
    pub game: &'a CurrentGame,
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
                    tabula_bot::Levels::built_in().number_in(
                        table.as_match().kind().key(),
                        usize::from(self.settings.review_level)
                    )
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
                    (review.shown().evaluations.len() + 1).min(review.line.len() + 1),
                    review.line.len() + 1,
                    review.level
                ));
            });
            ui.add(
                egui::ProgressBar::new(review.shown().progress as f32)
                    .desired_width(ui.available_width())
                    .show_percentage(),
            );
        }
        if let Some(failure) = &review.shown().failure {
            ui.colored_label(super::style::ERROR_COLOUR, failure);
        }
        self.graph(ui, review);
        let palette = table.as_match().kind().max_players();
        for summary in &review.shown().summary {
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
                        table.as_match().player_name(summary.seat),
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
                    table.as_match().player_name(last.mover),
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
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), GRAPH_HEIGHT),
            egui::Sense::click_and_drag(),
        );
        let scale = Scale {
            rect,
            positions: review.line.len() + 1,
        };
        let painter = ui.painter_at(rect);
        let players = table.as_match().num_players();
        painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
        self.shares(&painter, scale, &review.shown().chances, players);
        // An even share: a half for two players, a third for three.
        let even = scale.y(1.0 / players.max(1) as f64);
        painter.line_segment(
            [
                egui::pos2(rect.left(), even),
                egui::pos2(rect.right(), even),
            ],
            egui::Stroke::new(0.5, ui.visuals().weak_text_color()),
        );
        marks(&painter, scale, review, players);
        // Where the board is, unless it is at a move played after the review.
        let at = table.as_match().main_line_ply();
        if at < scale.positions {
            painter.line_segment(
                [
                    egui::pos2(scale.x(at), rect.top()),
                    egui::pos2(scale.x(at), rect.bottom()),
                ],
                egui::Stroke::new(1.5, ui.visuals().selection.stroke.color),
            );
        }
        self.hover_and_travel(&response, scale, review, at);
    }

    fn seat_colour(&self, seat: usize) -> egui::Color32 {
        let table = self.game.table.as_ref();
        let palette = table.as_match().kind().max_players();
        colour32(self.settings.colour(palette, table.colour_of_seat(seat)))
    }

    /// The players' shares: for two, the second player's fills the part judged and the
    /// first player's rises from below; for three, a line each.
    fn shares(&self, painter: &egui::Painter, scale: Scale, chances: &[Vec<f64>], players: usize) {
        if players == 2 && !chances.is_empty() {
            let judged = egui::Rect::from_x_y_ranges(
                scale.rect.left()..=scale.x(chances.len() - 1),
                scale.rect.y_range(),
            );
            painter.rect_filled(judged, 0.0, self.seat_colour(1));
            let bottom = scale.rect.bottom();
            for (ply, pair) in chances.windows(2).enumerate() {
                let quad = vec![
                    egui::pos2(scale.x(ply), bottom),
                    egui::pos2(scale.x(ply), scale.y(pair[0][0])),
                    egui::pos2(scale.x(ply + 1), scale.y(pair[1][0])),
                    egui::pos2(scale.x(ply + 1), bottom),
                ];
                painter.add(egui::Shape::convex_polygon(
                    quad,
                    self.seat_colour(0),
                    egui::Stroke::NONE,
                ));
            }
            // The border between the shares, for colours close to the background's.
            painter.add(egui::Shape::line(
                scale.points(chances, 0),
                egui::Stroke::new(1.0, egui::Color32::from_gray(128)),
            ));
        } else if players > 2 {
            for seat in 0..players {
                painter.add(egui::Shape::line(
                    scale.points(chances, seat),
                    egui::Stroke::new(2.0, self.seat_colour(seat)),
                ));
            }
        }
    }

    /// The judgement of the position under the pointer, and a click or drag going there.
    fn hover_and_travel(
        &mut self,
        response: &egui::Response,
        scale: Scale,
        review: &GameReview,
        at: usize,
    ) {
        let table = self.game.table.as_ref();
        if let Some(pointer) = response.hover_pos() {
            let ply = scale.ply_at(pointer.x);
            let text = match ply.checked_sub(1) {
                None => "The start".to_string(),
                Some(at) => match review.move_from(at) {
                    Some(judged) => format!(
                        "After move {}, {} {}: {}",
                        judged.ply,
                        table.as_match().player_name(judged.mover),
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
            let ply = scale.ply_at(pointer.x);
            if ply != at {
                self.travel.write(Travel::MainLine(ply));
            }
        }
    }
}

/// The marked moves, on the line drawn: the first player's share, or for three the mover's.
fn marks(painter: &egui::Painter, scale: Scale, review: &GameReview, players: usize) {
    let chances = &review.shown().chances;
    for judged in &review.shown().moves {
        if let Some(mark) = judged.mark {
            let line = if players == 2 { 0 } else { judged.mover };
            let chance = chances.get(judged.ply).map_or(0.5, |c| c[line]);
            let centre = egui::pos2(scale.x(judged.ply), scale.y(chance.clamp(0.04, 0.96)));
            painter.circle(
                centre,
                3.5,
                mark_colour(mark),
                egui::Stroke::new(1.0, egui::Color32::BLACK),
            );
        }
    }
}

/// Where a position and a chance fall on the graph: positions left to right, chances from
/// the bottom up.
#[derive(Clone, Copy)]
struct Scale {
    rect: egui::Rect,
    positions: usize,
}

impl Scale {
    fn x(&self, ply: usize) -> f32 {
        self.rect.left() + self.rect.width() * ply as f32 / (self.positions - 1).max(1) as f32
    }

    fn y(&self, chance: f64) -> f32 {
        self.rect.bottom() - self.rect.height() * chance as f32
    }

    /// The position nearest to `x`.
    fn ply_at(&self, x: f32) -> usize {
        let share = ((x - self.rect.left()) / self.rect.width()).clamp(0.0, 1.0);
        (share * (self.positions - 1) as f32).round() as usize
    }

    /// `seat`'s chance at each position, as points.
    fn points(&self, chances: &[Vec<f64>], seat: usize) -> Vec<egui::Pos2> {
        chances
            .iter()
            .enumerate()
            .map(|(ply, c)| egui::pos2(self.x(ply), self.y(c[seat])))
            .collect()
    }
}
