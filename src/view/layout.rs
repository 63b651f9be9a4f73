//! Where the game's panel goes: on the right of a landscape window, below the board in a
//! portrait one (a phone held upright), where the board keeps the top of the screen whole.

use bevy_egui::egui;

/// The share of a portrait window's height the panel takes below the board.
const PORTRAIT_PANEL_SHARE: f32 = 0.5;

/// Whether a window `aspect` (width / height) wide is taller than it is wide.
pub fn is_portrait(aspect: f32) -> bool {
    aspect < 1.0
}

/// How a panel's body fits below the board in a portrait window.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// It scrolls as a whole (the game's panel, whose parts do not scroll on their own).
    ScrollWhole,
    /// Its own scrolling parts take what room there is (a lesson's text, a puzzle's moves).
    OwnScrolling,
}

/// Shows the game's panel, `width` wide on the right, or below the board in a portrait
/// window, fitted there as `fit` says.
pub fn show_game_panel<R>(
    id: impl Into<egui::Id>,
    root: &mut egui::Ui,
    width: f32,
    fit: Fit,
    body: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    let screen = root.ctx().viewport_rect();
    if !is_portrait(screen.aspect_ratio()) {
        return egui::Panel::right(id).exact_size(width).show(root, body);
    }
    let panel = egui::Panel::bottom(id)
        .resizable(false)
        .exact_size((screen.height() * PORTRAIT_PANEL_SHARE).round());
    match fit {
        Fit::OwnScrolling => panel.show(root, body),
        Fit::ScrollWhole => panel.show(root, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink(false)
                .show(ui, body)
                .inner
        }),
    }
}

/// The part of a portrait window the board is framed in, as a share of its height from the
/// top: what the panel leaves.
pub const PORTRAIT_BOARD_SHARE: f32 = 1.0 - PORTRAIT_PANEL_SHARE;
