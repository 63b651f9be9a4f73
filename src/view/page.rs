//! Marks the game's first frame and the title screen's arrival in the log, with the time,
//! so the browser test can measure how long the page takes to load; on the web the first
//! frame also tells the page to take its loading screen down.

use crate::screens::Screen;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Last, first_frame.run_if(run_once))
        .add_systems(OnEnter(Screen::Title), title_shown.run_if(run_once));
}

fn first_frame() {
    info!("tabula: first frame at {} ms", unix_millis());
    tell_page("tabula-first-frame");
}

fn title_shown() {
    info!("tabula: title screen at {} ms", unix_millis());
}

/// Milliseconds since 1970, as the page's `Date.now()` counts them.
pub(super) fn unix_millis() -> u128 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis())
}

#[cfg(target_arch = "wasm32")]
fn tell_page(event: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(event) = web_sys::Event::new(event) {
        // A page without a listener simply ignores it.
        let _ = window.dispatch_event(&event);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn tell_page(_event: &str) {}
