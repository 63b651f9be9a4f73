//! What a person sees: the window, the lit 3D board and pieces, the orbit camera, clicks
//! on cells and the egui overlay. None of it decides a rule; it shows the [`Match`] and
//! sends [`PlayerInput`](crate::turn::PlayerInput).
//!
//! [`Match`]: crate::screens::Match

mod board;
mod camera;
mod loading;
mod models;
mod overlay;
mod picking;
mod records;
mod redraw;
mod rules_help;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::{UpdateMode, WinitSettings};
use std::time::Duration;

/// The window and Bevy's own plugins; they come before the game's, whose states need them.
pub fn window_plugin(app: &mut App) {
    let window = Window {
        title: "Tabula".into(),
        resolution: WindowResolution::new(1280, 800),
        ..default()
    };
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(window),
        ..default()
    }))
    .add_plugins((bevy_egui::EguiPlugin::default(), MeshPickingPlugin))
    // Draw only when something happens: near-zero CPU while the board is still. (The
    // desktop preset also wakes every 5 s, which costs a second of CPU a frame when
    // rendering in software.)
    .insert_resource(if std::env::var_os("TABULA_DEMO").is_some() {
        WinitSettings::continuous()
    } else {
        WinitSettings {
            focused_mode: UpdateMode::reactive(Duration::from_secs(60)),
            unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(60)),
        }
    })
    .insert_resource(ClearColor(Color::srgb(0.09, 0.10, 0.12)));
}

/// The scene, camera, input and overlay, over the game's logic.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        loading::plugin,
        camera::plugin,
        board::plugin,
        models::plugin,
        picking::plugin,
        overlay::plugin,
        redraw::plugin,
        records::plugin,
        rules_help::plugin,
    ));
}
