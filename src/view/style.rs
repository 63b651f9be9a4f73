//! What every screen's egui windows share: the theme (menus and background), the pieces'
//! palette picker, colours for errors and players, and whether the app may quit.

use crate::config::{PALETTES, Settings, Theme};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, apply_theme);
}

/// A page cannot quit; closing its tab does.
pub const QUIT_OFFERED: bool = cfg!(not(target_arch = "wasm32"));

/// "1 move", "2 moves": a count with its noun.
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Where the menus stand (title, new game, online): at the left, with the title's
/// showcase board to their right.
pub const MENU_ANCHOR: (egui::Align2, [f32; 2]) = (egui::Align2::LEFT_CENTER, [28.0, 0.0]);

/// The most a menu at `MENU_ANCHOR` may be high: the screen less its margin above and below.
pub fn menu_height(ctx: &egui::Context) -> f32 {
    (ctx.content_rect().height() - 2.0 * MENU_ANCHOR.1[0]).max(120.0)
}

pub const ERROR_COLOUR: egui::Color32 = egui::Color32::from_rgb(240, 120, 90);

pub fn colour32(colour: Color) -> egui::Color32 {
    let c = colour.to_srgba();
    egui::Color32::from_rgb(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
    )
}

/// The palette and the theme, changed only when the player picks another.
pub fn appearance(ui: &mut egui::Ui, settings: &mut ResMut<Settings>) {
    ui.horizontal(|ui| {
        ui.label("Pieces");
        let current = settings.palette_name().unwrap_or("Custom");
        egui::ComboBox::from_id_salt("palette")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for palette in &PALETTES {
                    if ui
                        .selectable_label(current == palette.0, palette.0)
                        .clicked()
                    {
                        settings.use_palette(palette);
                    }
                }
            });
    });
    ui.horizontal(|ui| {
        ui.label("Theme");
        for (theme, name) in [(Theme::Dark, "Dark"), (Theme::Light, "Light")] {
            if ui.selectable_label(settings.theme == theme, name).clicked() {
                settings.theme = theme;
            }
        }
    });
}

/// Menus and background follow the theme; on a phone, small text is still 12 points and
/// controls are taller, for a thumb.
fn apply_theme(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut clear: ResMut<ClearColor>,
    mut applied: Local<Option<(Theme, bool)>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let narrow = super::layout::is_narrow(ctx);
    if *applied == Some((settings.theme, narrow)) {
        return Ok(());
    }
    *applied = Some((settings.theme, narrow));
    let (visuals, background) = match settings.theme {
        Theme::Dark => (egui::Visuals::dark(), Color::srgb(0.09, 0.10, 0.12)),
        Theme::Light => (egui::Visuals::light(), Color::srgb(0.80, 0.82, 0.85)),
    };
    ctx.set_visuals(visuals);
    ctx.global_style_mut(|style| {
        let plain = egui::Style::default();
        style.text_styles = plain.text_styles.clone();
        style.spacing.interact_size = plain.spacing.interact_size;
        style.spacing.button_padding = plain.spacing.button_padding;
        if narrow {
            for (text, font) in &mut style.text_styles {
                font.size = font.size.max(MIN_PHONE_TEXT);
                if *text == egui::TextStyle::Small {
                    font.size = MIN_PHONE_TEXT;
                }
            }
            style.spacing.interact_size.y = PHONE_CONTROL_HEIGHT;
            style.spacing.button_padding = egui::vec2(8.0, 6.0);
        }
    });
    clear.0 = background;
    Ok(())
}

/// The smallest text on a phone, in points (CSS pixels in the browser).
const MIN_PHONE_TEXT: f32 = 12.0;

/// The height of a button, box or field on a phone: easier for a thumb, and 44-point
/// buttons where a thumb presses most (layout::THUMB_HEIGHT).
const PHONE_CONTROL_HEIGHT: f32 = 30.0;
