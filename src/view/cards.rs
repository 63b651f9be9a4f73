//! The title's game cards: each game's board and starting position drawn small, its name
//! and one line. The pictures are drawn from the games' own layouts, so they always show
//! the board as it is played, in the player's colours, at any screen's scale.

use super::board::tile_colour;
use super::style::colour32;
use crate::config::Settings;
use crate::table::{BoardLayout, BoardShape, GameKind, PieceLook, Shape, new_table};
use bevy::prelude::*;
use bevy_egui::egui;

/// A card's width where there is room; a narrow screen's cards share its width.
pub const CARD_WIDTH: f32 = 216.0;
/// The picture's height on a card `CARD_WIDTH` wide; a narrower card's is as much smaller.
const PICTURE_HEIGHT: f32 = 118.0;
const NAME_SIZE: f32 = 17.0;
const TAGLINE_SIZE: f32 = 12.5;
const WOOD: egui::Color32 = egui::Color32::from_rgb(150, 108, 72);
const INK: egui::Color32 = egui::Color32::from_rgb(70, 50, 34);
const GOLD: egui::Color32 = egui::Color32::from_rgb(242, 191, 51);

/// A game's board and its starting pieces.
struct Picture {
    kind: GameKind,
    layout: BoardLayout,
    pieces: Vec<(usize, PieceLook)>,
}

/// Each game's picture, made once.
#[derive(Resource, Default)]
pub struct GamePictures(Vec<Picture>);

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, make_pictures);
}

fn make_pictures(mut commands: Commands) {
    let mut pictures = GamePictures::default();
    for kind in GameKind::ALL {
        match new_table(kind, &[]) {
            Ok(table) => pictures.0.push(Picture {
                kind,
                layout: table.layout().clone(),
                pieces: table.pieces(),
            }),
            Err(error) => warn!("no picture of {}: {error}", kind.title()),
        }
    }
    commands.insert_resource(pictures);
}

/// A game's card, one button, `width` wide: the picture, the name and the game in a line.
/// Every card is as tall as the one whose line wraps most, so a row of them lines up.
pub fn game_card(
    ui: &mut egui::Ui,
    kind: GameKind,
    width: f32,
    pictures: &GamePictures,
    settings: &Settings,
) -> egui::Response {
    let picture_height = PICTURE_HEIGHT * width / CARD_WIDTH;
    let text = ui.visuals().strong_text_color();
    let tagline = |ui: &egui::Ui, kind: GameKind| {
        ui.painter().layout(
            kind.tagline().to_string(),
            egui::FontId::proportional(TAGLINE_SIZE),
            ui.visuals().text_color(),
            width - 20.0,
        )
    };
    let name = ui.painter().layout_no_wrap(
        kind.title().to_string(),
        egui::FontId::proportional(NAME_SIZE),
        text,
    );
    let tallest_line = GameKind::ALL
        .into_iter()
        .map(|each| tagline(ui, each).size().y)
        .fold(0.0, f32::max);
    let height = 8.0 + picture_height + 6.0 + name.size().y + 2.0 + tallest_line + 8.0;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, height), egui::Sense::click());
    let response = response.on_hover_cursor(egui::CursorIcon::PointingHand);
    if !ui.is_rect_visible(rect) {
        return response;
    }
    let visuals = ui.style().interact(&response);
    let painter = ui.painter_at(rect);
    painter.rect(
        rect,
        8.0,
        visuals.weak_bg_fill,
        visuals.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let picture = egui::Rect::from_min_size(
        rect.min + egui::vec2(8.0, 8.0),
        egui::vec2(width - 16.0, picture_height),
    );
    if let Some(shown) = pictures.0.iter().find(|p| p.kind == kind) {
        paint_board(&painter, picture, shown, settings);
    }
    let below = picture.left_bottom() + egui::vec2(2.0, 6.0);
    let name_height = name.size().y;
    painter.galley(below, name, text);
    painter.galley(
        below + egui::vec2(0.0, name_height + 2.0),
        tagline(ui, kind),
        ui.visuals().text_color(),
    );
    response
}

/// The board from above, fitted into `area`: its base, lines and cells, and the pieces.
fn paint_board(painter: &egui::Painter, area: egui::Rect, picture: &Picture, settings: &Settings) {
    let Picture {
        kind,
        layout,
        pieces,
    } = picture;
    let extent = layout.extent();
    let scale = (area.width().min(area.height()) / 2.0) / extent;
    let centre = area.center();
    let at = |pos: Vec2| centre + egui::vec2(pos.x, pos.y) * scale;
    let s = layout.spacing * scale;
    match layout.shape {
        BoardShape::Squares | BoardShape::Hexes => {
            let half = (extent - 0.1) * scale;
            painter.rect_filled(
                egui::Rect::from_center_size(centre, egui::vec2(half * 2.0, half * 2.0)),
                3.0,
                WOOD,
            );
        }
        BoardShape::Graph | BoardShape::Rings => {
            painter.circle_filled(centre, (extent + 0.3) * scale, WOOD);
        }
    }
    for link in &layout.links {
        let (Some(a), Some(b)) = (layout.cells.get(link.a), layout.cells.get(link.b)) else {
            continue;
        };
        painter.line_segment(
            [at(a.pos), at(b.pos)],
            egui::Stroke::new((0.05 * s).max(1.0), INK),
        );
    }
    for (cell, info) in layout.cells.iter().enumerate() {
        let colour = colour32(tile_colour(layout, cell));
        let middle = at(info.pos);
        match layout.shape {
            BoardShape::Squares => {
                painter.rect_filled(
                    egui::Rect::from_center_size(middle, egui::vec2(0.96 * s, 0.96 * s)),
                    0.0,
                    colour,
                );
            }
            BoardShape::Hexes => {
                let corners = (0..6)
                    .map(|i| {
                        let angle = std::f32::consts::TAU * i as f32 / 6.0;
                        middle + egui::vec2(angle.sin(), angle.cos()) * 0.55 * s
                    })
                    .collect();
                painter.add(egui::Shape::convex_polygon(
                    corners,
                    colour,
                    egui::Stroke::new(1.0, INK),
                ));
            }
            BoardShape::Graph => {
                painter.circle_filled(middle, 0.4 * s, colour);
            }
            BoardShape::Rings => {
                painter.circle_filled(middle, 0.3 * s, colour);
            }
        }
    }
    let players = kind.max_players();
    for (cell, look) in pieces {
        let Some(info) = layout.cells.get(*cell) else {
            continue;
        };
        let colour = colour32(settings.colour(players, look.colour));
        let outline = egui::Stroke::new(1.0, egui::Color32::from_black_alpha(140));
        let middle = at(info.pos);
        match look.shape {
            Shape::Stack => {
                // A taller stack shows the discs under its top.
                if look.height > 1 {
                    painter.circle(
                        middle + egui::vec2(0.0, 0.08 * s),
                        0.34 * s,
                        colour,
                        outline,
                    );
                }
                painter.circle(middle, 0.34 * s, colour, outline);
            }
            Shape::Creature { legs, pincers } => {
                let limbs = u32::from(legs) + u32::from(pincers);
                for limb in 0..limbs {
                    let angle = std::f32::consts::TAU * limb as f32 / limbs.max(1) as f32;
                    let tip = middle + egui::vec2(angle.sin(), -angle.cos()) * 0.45 * s;
                    painter.line_segment([middle, tip], egui::Stroke::new(1.5, INK));
                }
                painter.circle(middle, 0.28 * s, colour, outline);
            }
            Shape::Sun => {
                painter.circle(middle, 0.36 * s, colour, egui::Stroke::new(1.5, GOLD));
            }
            Shape::Moon => {
                painter.circle(middle, 0.3 * s, colour, outline);
                painter.circle_filled(
                    middle + egui::vec2(0.12 * s, -0.08 * s),
                    0.22 * s,
                    colour32(tile_colour(layout, *cell)),
                );
            }
            Shape::Foot => {
                let side = 0.42 * s;
                painter.rect(
                    egui::Rect::from_center_size(middle, egui::vec2(side, side)),
                    1.0,
                    colour,
                    outline,
                    egui::StrokeKind::Inside,
                );
            }
        }
        if look.prime {
            painter.circle_filled(middle, 0.1 * s, GOLD);
        }
    }
}
