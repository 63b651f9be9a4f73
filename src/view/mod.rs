//! What a person sees: the window, the lit 3D board and pieces, the orbit camera, clicks
//! on cells and the egui overlay. None of it decides a rule; it shows the [`CurrentGame`] and
//! sends [`PlayerInput`](crate::turn::PlayerInput).
//!
//! [`CurrentGame`]: crate::current_game::CurrentGame

mod analysis_panel;
mod board;
mod camera;
mod cards;
mod cell_popup;
mod egui_textures;
mod fonts;
mod from_here;
mod game_panel;
mod ghosts;
mod labels;
mod layout;
mod lesson_panel;
mod loading;
mod models;
mod move_builder;
mod new_game;
mod online_account;
mod online_challenges;
mod online_lobby;
mod online_new_game;
mod online_panel;
mod online_ratings;
mod page;
mod panel_area;
mod pause;
mod picking;
mod practice_panel;
mod puzzle_panel;
mod records;
mod redraw;
mod result;
mod review_panel;
mod rules_help;
mod style;
mod title;
mod wood;

/// The camera, for the developers' trace of where things show on screen.
#[cfg(feature = "dev")]
pub(crate) use camera::OrbitCamera;

use bevy::asset::AssetMetaCheck;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::{UpdateMode, WinitSettings};
use std::time::Duration;

/// The window and Bevy's own plugins; they come before the game's, whose states need them.
pub fn window_plugin(app: &mut App) {
    let (width, height) = crate::window_size();
    let window = Window {
        title: "Tabula".into(),
        resolution: WindowResolution::new(width, height),
        // On the web: the page's canvas, as large as the page lets it be.
        canvas: cfg!(target_arch = "wasm32").then(|| "#tabula".to_string()),
        fit_canvas_to_parent: true,
        ..default()
    };
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(window),
                ..default()
            })
            // There are no `.meta` files; asking for them costs a failed request each on the web.
            .set(AssetPlugin {
                meta_check: AssetMetaCheck::Never,
                ..default()
            }),
    )
    .add_plugins((bevy_egui::EguiPlugin::default(), MeshPickingPlugin))
    .add_plugins((egui_textures::plugin, fonts::plugin))
    // Draw only when something happens: near-zero CPU while the board is still. (The
    // desktop preset also wakes every 5 s, which costs a second of CPU a frame when
    // rendering in software.)
    .insert_resource(if crate::demo_requested() {
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
        cards::plugin,
        board::plugin,
        models::plugin,
        ghosts::plugin,
        cell_popup::plugin,
        picking::plugin,
        labels::plugin,
        page::plugin,
        redraw::plugin,
        // One file a screen or window, each with its own plugin.
        (
            style::plugin,
            title::plugin,
            new_game::plugin,
            online_lobby::plugin,
            game_panel::plugin,
            panel_area::plugin,
            (
                lesson_panel::plugin,
                puzzle_panel::plugin,
                from_here::plugin,
            ),
            pause::plugin,
            result::plugin,
            records::plugin,
            rules_help::plugin,
        ),
    ));
}
