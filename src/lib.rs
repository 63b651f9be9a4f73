//! Tabula, the game: the four rules games on an animated 3D board.
//!
//! Data flows one way: input → move → rules → events → ECS → animation and overlay.
//! [`logic_plugin`] holds everything that runs without a window (screens, the turn,
//! the pieces and their animations), so headless tests drive the same code the game
//! runs; [`plugin`] adds the window, the 3D scene, the camera and the egui overlay.

pub mod analysis;
pub mod animation;
pub mod background;
pub mod bot;
pub mod config;
pub mod current_game;
#[cfg(feature = "dev")]
pub mod dev;
pub mod lesson;
pub mod new_game;
pub mod online;
pub mod phase;
pub mod pieces;
pub mod puzzle;
pub mod queued_moves;
pub mod rating;
pub mod record;
pub mod review;
pub mod saving;
pub mod screens;
pub mod showcase;
pub mod sound;
pub mod storage;
pub mod table;
pub mod turn;
mod view;
#[cfg(target_arch = "wasm32")]
pub mod web_notices;
#[cfg(target_arch = "wasm32")]
pub mod web_page;

use bevy::prelude::*;

/// The order of the game's work in each frame's `Update`: bots think and hand in their
/// moves, the turn takes input and plays moves, the animations show them, and the game
/// is kept. The turn's phase for the frame is set before all of them (`phase`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AppSystems {
    Think,
    Turn,
    Animate,
    Keep,
}

/// Everything that works headless: settings, screens, turns, pieces, animations, bots, saves.
pub fn logic_plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::Think,
            AppSystems::Turn,
            AppSystems::Animate,
            AppSystems::Keep,
        )
            .chain(),
    );
    app.add_plugins((
        config::plugin,
        screens::plugin,
        new_game::plugin,
        // Lessons and puzzles: boards for practice, with moves played for the player.
        (lesson::plugin, puzzle::plugin, queued_moves::plugin),
        phase::plugin,
        turn::plugin,
        pieces::plugin,
        animation::plugin,
        bot::plugin,
        review::plugin,
        analysis::plugin,
        rating::plugin,
        saving::plugin,
        online::plugin,
        sound::logic_plugin,
    ));
}

/// The whole game, window included.
pub fn plugin(app: &mut App) {
    // Headless tests keep nothing on disk; the game keeps its saves in the data directory
    // and its settings in the config directory.
    app.insert_resource(storage::Storage::platform());
    if let Some(file) = config::SettingsFile::platform() {
        app.insert_resource(file);
    }
    app.add_plugins((
        view::window_plugin,
        logic_plugin,
        // The title's game behind the menus: the game's own, but apart from its logic so
        // headless tests meet an empty title.
        showcase::plugin,
        view::plugin,
        sound::output_plugin,
    ));
    // Apart from the game: the scripted demo for screenshots and browser tests.
    #[cfg(feature = "dev")]
    app.add_plugins(dev::plugin);
}

/// The window's size in pixels: 1280×800, or what a developer asked for (`dev` feature).
pub fn window_size() -> (u32, u32) {
    #[cfg(feature = "dev")]
    if let Some(size) = dev::window_size() {
        return size;
    }
    (1280, 800)
}

/// A button a finger may tap, marked for the browser test's trace (`dev` builds asked to
/// trace); nothing otherwise. A disabled button is not a target, nor one scrolled out of
/// sight (the part of it in sight is where a finger taps). The name is written out only
/// when traced (`format_args!` at the call), not every frame of a player's build.
pub(crate) trait TapTarget {
    fn tap_target(self, name: impl std::fmt::Display) -> Self;
}

impl TapTarget for bevy_egui::egui::Response {
    fn tap_target(self, name: impl std::fmt::Display) -> Self {
        #[cfg(feature = "dev")]
        if self.enabled() && self.interact_rect.is_positive() && dev::trace::enabled() {
            dev::trace::mark(&name.to_string(), self.interact_rect);
        }
        #[cfg(not(feature = "dev"))]
        let _ = name;
        self
    }
}

/// Whether the scripted demo was asked for (only a build with the `dev` feature has one):
/// it draws every frame, rather than only when something changes.
pub fn demo_requested() -> bool {
    #[cfg(feature = "dev")]
    return dev::demo_requested();
    #[cfg(not(feature = "dev"))]
    false
}
