//! Words over the board: cell labels (when shown), the height of tall stacks, an
//! adaptoid's legs and pincers, and what the move being built would leave (gold).

use super::camera::OrbitCamera;
use super::ghosts::MovePreview;
use super::models::{DISC_HEIGHT, MAX_DRAWN_DISCS};
use super::panel_area::PointerOverPanel;
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
    panel: Res<PointerOverPanel>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, camera_transform)) = cameras.single() else {
        return Ok(());
    };
    // Only where the board shows: a drawer pulled up over it hides its words too.
    let shown = panel.board_area(ctx.viewport_rect());
    let painter = ctx
        .layer_painter(egui::LayerId::new(
            egui::Order::Background,
            egui::Id::new("labels"),
        ))
        .with_clip_rect(shown);
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
            // Wide enough for "3L 2P"; a stack's height keeps its square-ish tag.
            let width = 22.0_f32.max(8.0 * text.chars().count() as f32 + 6.0);
            let rect = egui::Rect::from_center_size(egui::pos2(p.x, p.y), egui::vec2(width, 16.0));
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
        if let Some(limbs) = limbs_text(piece.look.shape) {
            // The counts decide who wins a fight and who starves: read, not counted.
            if preview.at(piece.cell).is_none() {
                tag(
                    transform.translation() + CREATURE_TOP,
                    limbs,
                    egui::Color32::from_black_alpha(170),
                    egui::Color32::WHITE,
                );
            }
            continue;
        }
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
        let Some(look) = ghost.after else {
            continue;
        };
        let at = cell_position(layout, ghost.cell);
        if look.shape == Shape::Stack {
            tag(
                at + stack_top(look.height),
                look.height.to_string(),
                GHOST_TAG,
                GHOST_TEXT,
            );
        } else if let Some(limbs) = limbs_text(look.shape) {
            tag(at + CREATURE_TOP, limbs, GHOST_TAG, GHOST_TEXT);
        }
    }
    Ok(())
}

/// Over an adaptoid's body.
const CREATURE_TOP: Vec3 = Vec3::new(0.0, 0.55, 0.0);

/// An adaptoid's legs and pincers as its tag says them ("2L 1P", as the notation names
/// them); none for a bare body or another piece.
fn limbs_text(shape: Shape) -> Option<String> {
    let Shape::Creature { legs, pincers } = shape else {
        return None;
    };
    let parts: Vec<String> = [(legs, "L"), (pincers, "P")]
        .into_iter()
        .filter(|(count, _)| *count > 0)
        .map(|(count, letter)| format!("{count}{letter}"))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The tags of the move being built: dark text on the gold of chosen cells.
const GHOST_TAG: egui::Color32 = egui::Color32::from_rgb(240, 200, 90);
const GHOST_TEXT: egui::Color32 = egui::Color32::from_rgb(30, 25, 10);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adaptoid_tag_names_its_legs_and_pincers() {
        let creature = |legs, pincers| limbs_text(Shape::Creature { legs, pincers });
        assert_eq!(creature(2, 1).as_deref(), Some("2L 1P"));
        assert_eq!(creature(0, 3).as_deref(), Some("3P"));
        assert_eq!(creature(4, 0).as_deref(), Some("4L"));
        assert_eq!(creature(0, 0), None);
        assert_eq!(limbs_text(Shape::Stack), None);
        assert_eq!(limbs_text(Shape::Sun), None);
    }
}
