//! Where the game's panel goes: on the right of a landscape window, below the board in a
//! portrait one (a phone held upright), where the board keeps the top of the screen whole;
//! and how the menus and windows fit a narrow screen (a phone's 360 to 430 points).

use crate::TapTarget;
use bevy_egui::egui;

/// The share of a portrait window's height the panel takes below the board.
const PORTRAIT_PANEL_SHARE: f32 = 0.5;

/// Whether a window `aspect` (width / height) wide is taller than it is wide.
pub fn is_portrait(aspect: f32) -> bool {
    aspect < 1.0
}

/// Shows a panel `width` wide on the right, or below the board in a portrait window, where
/// its own scrolling parts (a lesson's text, a puzzle's moves) take what room there is.
pub fn show_game_panel<R>(
    id: impl Into<egui::Id>,
    root: &mut egui::Ui,
    width: f32,
    body: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    let screen = root.ctx().viewport_rect();
    if !is_portrait(screen.aspect_ratio()) {
        return egui::Panel::right(id)
            .exact_size(landscape_width(width, screen))
            .show(root, body);
    }
    egui::Panel::bottom(id)
        .resizable(false)
        .exact_size((screen.height() * PORTRAIT_PANEL_SHARE).round())
        .show(root, body)
}

/// A panel meant to be `width` wide at the right of a landscape `screen`: narrower on a
/// small one (a phone held sideways), where the board keeps most of the width.
fn landscape_width(width: f32, screen: egui::Rect) -> f32 {
    width.min((screen.width() * 0.38).round())
}

/// The two parts of the game's panel in a portrait window, a drawer below the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawerPart {
    /// Always in sight: whose turn it is and the move being built.
    Always,
    /// Shown when the drawer is pulled up: the move list and the rest.
    OnPull,
}

/// The share of a portrait window's height the drawer takes when pulled up: the top of
/// the board still shows above its handle.
const DRAWER_PULLED_SHARE: f32 = 0.88;

/// How far a finger drags the handle, in points, to pull the drawer up or let it down.
const DRAWER_PULL: f32 = 24.0;

/// Shows the game's panel: `width` wide on the right of a landscape window, both parts one
/// under the other; in a portrait window a drawer below the board, whose handle (a tap, or
/// a drag up or down) shows or hides the [`DrawerPart::OnPull`] part. `body` draws a part.
pub fn show_game_drawer(
    id: &'static str,
    root: &mut egui::Ui,
    width: f32,
    mut body: impl FnMut(&mut egui::Ui, DrawerPart),
) -> egui::Response {
    let screen = root.ctx().viewport_rect();
    if !is_portrait(screen.aspect_ratio()) {
        return egui::Panel::right(id)
            .exact_size(landscape_width(width, screen))
            .show(root, |ui| {
                let mut whole = |ui: &mut egui::Ui| {
                    body(ui, DrawerPart::Always);
                    body(ui, DrawerPart::OnPull);
                };
                // A phone held sideways (as short as one held upright is narrow) has no
                // room for the whole panel: it scrolls.
                if is_narrow_width(screen.height()) {
                    egui::ScrollArea::vertical()
                        .auto_shrink(false)
                        .show(ui, whole);
                } else {
                    whole(ui);
                }
            })
            .response;
    }
    let pulled_id = egui::Id::new(id).with("pulled");
    let ctx = root.ctx().clone();
    let mut pulled = ctx.data(|d| d.get_temp::<bool>(pulled_id)).unwrap_or(false);
    let share = if pulled {
        DRAWER_PULLED_SHARE
    } else {
        PORTRAIT_PANEL_SHARE
    };
    let panel = egui::Panel::bottom(id)
        .resizable(false)
        .exact_size((screen.height() * share).round())
        .show(root, |ui| {
            if drawer_handle(ui, pulled_id, pulled) {
                pulled = !pulled;
                // This frame's panel, and the words over the board clipped to what it
                // leaves, were laid out at the old size: one more frame at the new.
                ui.ctx().request_repaint();
            }
            if pulled {
                // The turn keeps the top; the rest scrolls in what is left.
                egui::ScrollArea::vertical()
                    .id_salt("always")
                    .max_height(ui.available_height() * 0.5)
                    .show(ui, |ui| body(ui, DrawerPart::Always));
                ui.separator();
                egui::ScrollArea::vertical()
                    .id_salt("on pull")
                    .auto_shrink(false)
                    .show(ui, |ui| body(ui, DrawerPart::OnPull));
            } else {
                egui::ScrollArea::vertical()
                    .id_salt("always")
                    .auto_shrink(false)
                    .show(ui, |ui| body(ui, DrawerPart::Always));
            }
        });
    ctx.data_mut(|d| d.insert_temp(pulled_id, pulled));
    panel.response
}

/// The drawer's handle across its top: whether a tap or a drag asked to pull it up (when
/// down) or let it down (when up).
fn drawer_handle(ui: &mut egui::Ui, id: egui::Id, pulled: bool) -> bool {
    let text = if pulled {
        "Less: back to the board"
    } else {
        "More: moves, analysis, review"
    };
    let handle = ui
        .add_sized(
            [ui.available_width(), THUMB_HEIGHT],
            egui::Button::new(text).small(),
        )
        .interact(egui::Sense::drag())
        .tap_target("Drawer");
    let dragged_id = id.with("dragged");
    if handle.dragged() {
        let dragged = ui.data(|d| d.get_temp::<f32>(dragged_id)).unwrap_or(0.0);
        ui.data_mut(|d| d.insert_temp(dragged_id, dragged + handle.drag_delta().y));
    }
    if handle.drag_stopped() {
        let dragged = ui
            .data_mut(|d| d.remove_temp::<f32>(dragged_id))
            .unwrap_or(0.0);
        // Up pulls the drawer up; down lets it down.
        return if pulled {
            dragged > DRAWER_PULL
        } else {
            dragged < -DRAWER_PULL
        };
    }
    handle.clicked()
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
