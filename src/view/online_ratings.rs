//! The lobby's ratings: a game's leaderboard, and a player's page with each rating, its
//! history as a graph, and recent games to watch (and review, once over).

use crate::online::{Standings, StandingsAsk};
use bevy_egui::egui;
use tabula_online::protocol::house::shown_player;
use tabula_online::protocol::ratings::{PlayerPage, RATING_POOLS, RatingPoint, pool_title};
use tabula_session::GameKind;
use tabula_session::rules::text::shown_line;

/// What the player typed or chose in the ratings section.
#[derive(Default)]
pub struct RatingsForm {
    pool: String,
    name: String,
}

/// What the player asked for in the ratings section.
pub enum RatingsChoice {
    Ask(StandingsAsk),
    /// Watch this game (and review it, once over).
    Watch(String),
}

pub fn ratings_section(
    ui: &mut egui::Ui,
    form: &mut RatingsForm,
    standings: &Standings,
) -> Option<RatingsChoice> {
    let mut choice = None;
    if form.pool.is_empty() {
        form.pool = RATING_POOLS[0].to_string();
    }
    ui.horizontal_wrapped(|ui| {
        egui::ComboBox::from_id_salt("rating pool")
            .selected_text(pool_title(&form.pool))
            .show_ui(ui, |ui| {
                for pool in RATING_POOLS {
                    ui.selectable_value(&mut form.pool, pool.to_string(), pool_title(pool));
                }
            });
        let idle = !standings.is_busy();
        if ui
            .add_enabled(idle, egui::Button::new("Leaderboard"))
            .clicked()
        {
            choice = Some(RatingsChoice::Ask(StandingsAsk::Leaderboard {
                pool: form.pool.clone(),
            }));
        }
        ui.add(
            egui::TextEdit::singleline(&mut form.name)
                .hint_text("a player's name")
                .desired_width(120.0),
        );
        let typed = !form.name.trim().is_empty();
        if ui
            .add_enabled(idle && typed, egui::Button::new("Player"))
            .clicked()
        {
            choice = Some(RatingsChoice::Ask(StandingsAsk::Player {
                name: form.name.trim().to_string(),
            }));
        }
    });
    if let Some(status) = &standings.status {
        ui.small(status);
    }
    if let Some(page) = &standings.page {
        return player_page(ui, page).or(choice);
    }
    if let Some((pool, players)) = &standings.leaderboard {
        // A server's words (an unknown pool is shown as named), escaped and cut.
        ui.strong(shown_line(&pool_title(pool)));
        if players.is_empty() {
            ui.small("Nobody has played a rated game of it yet.");
        }
        egui::Grid::new("leaderboard")
            .num_columns(4)
            .striped(true)
            .show(ui, |ui| {
                for (place, player) in players.iter().enumerate() {
                    ui.label(format!("{}.", place + 1));
                    // A server's words, shown escaped and cut as everywhere.
                    if ui.link(shown_player(&player.name)).clicked() {
                        choice = Some(RatingsChoice::Ask(StandingsAsk::Player {
                            name: player.name.clone(),
                        }));
                    }
                    ui.label(player.rating.to_string())
                        .on_hover_text(format!("± {}", player.rating.deviation));
                    ui.small(games(player.rating.games));
                    ui.end_row();
                }
            });
        if players.iter().any(|p| p.rating.provisional) {
            ui.small("? provisional: too few rated games to be sure.");
        }
    }
    choice
}

fn games(count: u32) -> String {
    format!("{count} game{}", if count == 1 { "" } else { "s" })
}

/// A player's page: each rating with its graph, then recent games.
fn player_page(ui: &mut egui::Ui, page: &PlayerPage) -> Option<RatingsChoice> {
    let mut choice = None;
    ui.strong(shown_player(&page.name));
    if page.ratings.is_empty() {
        ui.small("No rated games yet.");
    }
    for pool in &page.ratings {
        ui.label(format!(
            "{}: {} ± {}, {}",
            shown_line(&pool_title(&pool.pool)),
            pool.rating,
            pool.rating.deviation,
            games(pool.rating.games)
        ));
        history_graph(ui, &pool.history);
    }
    if !page.games.is_empty() {
        ui.label("Recent games");
    }
    egui::Grid::new("player games")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for game in &page.games {
                let title = GameKind::from_key(&game.game).map_or("?", |k| k.title());
                ui.monospace(shown_line(&game.code));
                let others: Vec<String> = game
                    .players
                    .iter()
                    .enumerate()
                    .filter(|&(seat, _)| seat != game.seat)
                    .map(|(_, p)| p.as_deref().map_or("anonymous".into(), shown_player))
                    .collect();
                let state = game.result.as_deref().map_or("going on".into(), shown_line);
                ui.label(format!(
                    "{title}{} against {}: {state}",
                    if game.rated { ", rated," } else { "" },
                    others.join(" and ")
                ));
                let verb = if game.result.is_some() {
                    "Replay"
                } else {
                    "Watch"
                };
                if ui.button(verb).clicked() {
                    choice = Some(RatingsChoice::Watch(game.code.clone()));
                }
                ui.end_row();
            }
        });
    choice
}

/// A rating's history as a line, the lowest and highest marked.
fn history_graph(ui: &mut egui::Ui, points: &[RatingPoint]) {
    let Some(first) = points.first() else {
        return;
    };
    let size = egui::vec2(ui.available_width().min(320.0), 64.0);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_stroke(
        rect,
        2.0,
        visuals.widgets.noninteractive.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let low = points
        .iter()
        .map(|p| p.rating)
        .min()
        .unwrap_or(first.rating);
    let high = points
        .iter()
        .map(|p| p.rating)
        .max()
        .unwrap_or(first.rating);
    // In floats: a server may send any numbers, whose difference overflows an i32.
    let span = (high as f32 - low as f32).max(20.0);
    // The scale's two numbers stand in a margin of their own, clear of the line.
    let inner = egui::Rect::from_min_max(
        rect.left_top() + egui::vec2(40.0, 8.0),
        rect.right_bottom() - egui::vec2(8.0, 8.0),
    );
    let at = |index: usize, rating: i32| {
        let x = if points.len() == 1 {
            inner.center().x
        } else {
            inner.left() + inner.width() * index as f32 / (points.len() - 1) as f32
        };
        let y = inner.bottom() - inner.height() * (rating as f32 - low as f32) / span;
        egui::pos2(x, y)
    };
    let line: Vec<egui::Pos2> = points
        .iter()
        .enumerate()
        .map(|(i, p)| at(i, p.rating))
        .collect();
    let colour = visuals.selection.bg_fill;
    if let [only] = line.as_slice() {
        painter.circle_filled(*only, 3.0, colour);
    } else {
        painter.add(egui::Shape::line(line, egui::Stroke::new(2.0, colour)));
    }
    let text = visuals.weak_text_color();
    let font = egui::FontId::proportional(11.0);
    painter.text(
        rect.left_top() + egui::vec2(4.0, 2.0),
        egui::Align2::LEFT_TOP,
        high.to_string(),
        font.clone(),
        text,
    );
    painter.text(
        rect.left_bottom() + egui::vec2(4.0, -2.0),
        egui::Align2::LEFT_BOTTOM,
        low.to_string(),
        font,
        text,
    );
    response.on_hover_text(format!(
        "{} rated games, from {} to {}",
        points.len(),
        first.rating,
        points.last().map_or(first.rating, |p| p.rating)
    ));
}
