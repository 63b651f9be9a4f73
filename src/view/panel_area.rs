//! Where the panel beside or below the board is on screen: what the camera's wheel, a
//! finger's tap and the words over the board ask before they take a point for the board's.

use bevy::prelude::*;
use bevy_egui::egui;

pub fn plugin(app: &mut App) {
    app.init_resource::<PointerOverPanel>();
}

/// Where the side panel is, and whether the pointer is over it. egui does not count a
/// panel drawn on the background layer as its own, so the camera asks this before the
/// wheel zooms (else scrolling the move list zooms the board), and a finger's tap on the
/// panel is not a tap on a cell behind it.
#[derive(Resource, Default)]
pub struct PointerOverPanel {
    pub over: bool,
    pub rect: Option<egui::Rect>,
}

impl PointerOverPanel {
    /// The panel was drawn at `rect` this frame.
    pub fn record(&mut self, ctx: &egui::Context, rect: egui::Rect) {
        self.over = ctx
            .pointer_hover_pos()
            .is_some_and(|pointer| rect.contains(pointer));
        self.rect = Some(rect);
    }

    /// Whether a point on screen, in points, is on the panel.
    pub fn covers(&self, at: egui::Pos2) -> bool {
        self.rect.is_some_and(|rect| rect.contains(at))
    }

    /// The part of `screen` the panel leaves to the board: left of a panel at the right,
    /// above one at the bottom.
    pub fn board_area(&self, screen: egui::Rect) -> egui::Rect {
        let Some(panel) = self.rect else {
            return screen;
        };
        let mut area = screen;
        if panel.min.x > screen.min.x + 1.0 {
            area.max.x = area.max.x.min(panel.min.x);
        } else if panel.min.y > screen.min.y + 1.0 {
            area.max.y = area.max.y.min(panel.min.y);
        }
        area
    }
}
