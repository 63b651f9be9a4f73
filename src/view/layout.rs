//! Where the game's panel goes: on the right of a landscape window, below the board in a
//! portrait one (a phone held upright), where the board keeps the top of the screen whole;
//! and how the menus and windows fit a narrow screen (a phone's 360 to 430 points).

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

/// Below this width in points (a phone held upright; tablets are wider) the menus and
/// windows take the screen's width, one column where they had two.
const NARROW_WIDTH: f32 = 560.0;

/// The gap kept between a window and a narrow screen's edges.
const NARROW_EDGE: f32 = 6.0;

/// Whether a screen `width` points wide is a phone's: the menus take its whole width.
pub fn is_narrow_width(width: f32) -> bool {
    width < NARROW_WIDTH
}

/// Whether this screen is a phone's (see [`is_narrow_width`]).
pub fn is_narrow(ctx: &egui::Context) -> bool {
    is_narrow_width(ctx.content_rect().width())
}

/// On a narrow screen, `window` across its width at the top, no taller than the screen;
/// elsewhere as it was set.
pub fn fit_narrow<'a>(window: egui::Window<'a>, ctx: &egui::Context) -> egui::Window<'a> {
    if !is_narrow(ctx) {
        return window;
    }
    let screen = ctx.content_rect();
    let frame = ctx.global_style().spacing.window_margin.sum().x + 2.0;
    let width = (screen.width() - 2.0 * NARROW_EDGE - frame).max(120.0);
    window
        .anchor(egui::Align2::CENTER_TOP, [0.0, NARROW_EDGE])
        .min_width(width)
        .max_width(width)
        .default_height(screen.height())
        .max_height(screen.height() - 2.0 * NARROW_EDGE)
}

/// A button a thumb can press on a narrow screen (44 points high), as usual elsewhere.
pub fn thumb_button(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) -> egui::Response {
    let button = egui::Button::new(text);
    if is_narrow(ui.ctx()) {
        ui.add(button.min_size(egui::vec2(64.0, THUMB_HEIGHT)))
    } else {
        ui.add(button)
    }
}

/// How tall [`thumb_button`] makes a button here: a thumb's 44 points on a phone, the
/// usual control height elsewhere.
pub fn thumb_height(ui: &egui::Ui) -> f32 {
    if is_narrow(ui.ctx()) {
        THUMB_HEIGHT
    } else {
        ui.spacing().interact_size.y
    }
}

/// The height of a control meant for a thumb: 44 points, Apple's and Google's guidance.
pub const THUMB_HEIGHT: f32 = 44.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_are_narrow_and_tablets_are_not() {
        for phone in [360.0, 390.0, 430.0] {
            assert!(is_narrow_width(phone), "{phone}");
        }
        for wider in [768.0, 1280.0] {
            assert!(!is_narrow_width(wider), "{wider}");
        }
    }
}
