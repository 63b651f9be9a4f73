//! Starts the game. Everything else lives in the library so tests can drive it.

use bevy::prelude::*;

fn main() -> AppExit {
    // The browser's search worker is this module again: it only searches, through the
    // functions its script calls (src/background/worker_exports.rs).
    if tabula::background::in_search_worker() {
        return AppExit::Success;
    }
    App::new().add_plugins(tabula::plugin).run()
}
