//! Words over the board: cell labels (when shown) and the height of tall stacks.

use super::camera::OrbitCamera;
use super::models::{DISC_HEIGHT, MAX_DRAWN_DISCS};
use crate::config::Settings;
use crate::pieces::PieceOf;
use crate::screens::{InMatch, Match};
use crate::table::Shape;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        board_labels.run_if(in_state(InMatch)),
    );
}

/// Cell labels (when shown) and the height of every stack of two or more, over the board.
fn board_labels(
    mut contexts: EguiContexts,
    game: Res<Match>,
    settings: Res<Settings>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    pieces: Query<(&PieceOf, &GlobalTransform)>,
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
    for (piece, transform) in &pieces {
        if piece.look.shape != Shape::Stack || piece.look.height < 2 {
            continue;
        }
        let drawn = piece.look.height.min(MAX_DRAWN_DISCS) as f32;
        let top = transform.translation() + Vec3::Y * (drawn * DISC_HEIGHT + 0.12);
        if let Ok(p) = camera.world_to_viewport(camera_transform, top) {
            let text = piece.look.height.to_string();
            let rect = egui::Rect::from_center_size(egui::pos2(p.x, p.y), egui::vec2(22.0, 16.0));
            painter.rect_filled(rect, 4.0, egui::Color32::from_black_alpha(170));
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(12.0),
                egui::Color32::WHITE,
            );
        }
    }
    Ok(())
}
