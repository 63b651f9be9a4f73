//! Words over the board: cell labels (when shown), the height of tall stacks, and the
//! heights the move being built would leave (gold).

use super::camera::OrbitCamera;
use super::ghosts::MovePreview;
use super::models::{DISC_HEIGHT, MAX_DRAWN_DISCS};
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::pieces::{PieceOf, cell_position};
use crate::screens::InGame;
use crate::table::{Ghost, Shape};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        board_labels.run_if(in_state(InGame)),
    );
}

/// Cell labels (when shown) and the height of every stack of two or more, over the board.
fn board_labels(
    mut contexts: EguiContexts,
    game: Res<CurrentGame>,
    settings: Res<Settings>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    pieces: Query<(&PieceOf, &GlobalTransform)>,
    preview: Res<MovePreview>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, camera_transform)) = cameras.single() else {
        return Ok(());
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("labels"),
    ));
    let layout = game.table.layout();
    if settings.show_labels {
        for cell in &layout.cells {
            let at = Vec3::new(cell.pos.x, 0.01, cell.pos.y + layout.spacing * 0.42);
            if let Ok(p) = camera.world_to_viewport(camera_transform, at) {
                painter.text(
                    egui::pos2(p.x, p.y),
                    egui::Align2::CENTER_CENTER,
                    &cell.label,
                    egui::FontId::proportional(11.0),
                    egui::Color32::from_rgb(250, 240, 210),
                );
            }
        }
    }
    let tag = |at: Vec3, text: String, background: egui::Color32, colour: egui::Color32| {
        if let Ok(p) = camera.world_to_viewport(camera_transform, at) {
            let rect = egui::Rect::from_center_size(egui::pos2(p.x, p.y), egui::vec2(22.0, 16.0));
            painter.rect_filled(rect, 4.0, background);
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(12.0),
                colour,
            );
        }
    };
    let stack_top =
        |height: u16| Vec3::Y * (height.min(MAX_DRAWN_DISCS) as f32 * DISC_HEIGHT + 0.12);
    for (piece, transform) in &pieces {
        if piece.look.shape != Shape::Stack {
            continue;
        }
        match preview.at(piece.cell) {
            // A stack the move empties: what stays is nothing.
            Some(Ghost { after: None, .. }) => tag(
                transform.translation() + Vec3::Y * 0.12,
                "0".into(),
                GHOST_TAG,
                GHOST_TEXT,
            ),
            Some(_) => {}
            None if piece.look.height >= 2 => tag(
                transform.translation() + stack_top(piece.look.height),
                piece.look.height.to_string(),
                egui::Color32::from_black_alpha(170),
                egui::Color32::WHITE,
            ),
            None => {}
        }
    }
    for ghost in &preview.ghosts {
        if let Some(look) = ghost.after.filter(|look| look.shape == Shape::Stack) {
            let at = cell_position(layout, ghost.cell) + stack_top(look.height);
            tag(at, look.height.to_string(), GHOST_TAG, GHOST_TEXT);
        }
    }
    Ok(())
}

/// The tags of the move being built: dark text on the gold of chosen cells.
const GHOST_TAG: egui::Color32 = egui::Color32::from_rgb(240, 200, 90);
const GHOST_TEXT: egui::Color32 = egui::Color32::from_rgb(30, 25, 10);
