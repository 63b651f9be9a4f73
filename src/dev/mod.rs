//! Tools for the people who build Tabula, not part of the game a player sees: a scripted
//! demo that plays a game through the player's own clicks, a lesson step or a puzzle shown, for the README's screenshots
//! (`docs/screenshots.sh`), smoke runs and the browser test (`web/test.sh`). It does
//! nothing unless asked for by environment variables or the page's URL.

pub mod demo;
pub mod lesson_demo;
mod practice;
pub mod puzzle_demo;
mod snapshot;
pub mod trace;

/// Whether a demo, a lesson demo or a puzzle demo was asked for (the app then draws every frame).
pub fn demo_requested() -> bool {
    demo::requested()
        || lesson_demo::requested()
        || puzzle_demo::requested()
        || snapshot::title_shot_requested()
}

/// The window's size in pixels from `TABULA_WINDOW_SIZE=WxH` (desktop only), to see the
/// board as a phone-sized window shows it.
pub fn window_size() -> Option<(u32, u32)> {
    let text = std::env::var("TABULA_WINDOW_SIZE").ok()?;
    let (width, height) = text.split_once('x')?;
    let size = (width.trim().parse().ok()?, height.trim().parse().ok()?);
    (size.0 >= 100 && size.1 >= 100).then_some(size)
}

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        demo::plugin,
        lesson_demo::plugin,
        puzzle_demo::plugin,
        snapshot::plugin,
        trace::plugin,
    ));
}
