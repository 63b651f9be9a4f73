//! Starts the game. Everything else lives in the library so tests can drive it.

use bevy::prelude::*;

fn main() -> AppExit {
    App::new().add_plugins(tabula::plugin).run()
}
