//! Helpers the headless app tests share: an app without a window, and starting a game
//! the way the new-game screen does.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;
use tabula::bot::BotRunner;
use tabula::pieces::{Leaving, PieceOf};
use tabula::screens::{Screen, Seat, StartGame};
use tabula::storage::Storage;
use tabula::table::{GameKind, PieceLook};

/// The game's logic with a fixed 50 ms frame, bots run by `runner`, files kept in
/// `storage`; on the title screen.
pub fn headless_app(runner: BotRunner, storage: Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, tabula::logic_plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )))
        .insert_resource(runner)
        .insert_resource(storage);
    app.update();
    to_title(&mut app);
    app
}

pub fn to_title(app: &mut App) {
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
}

/// From the title screen, as its Start button does.
pub fn start(app: &mut App, kind: GameKind, seats: Vec<Seat>) {
    to_title(app);
    app.world_mut().write_message(StartGame {
        kind,
        settings: Vec::new(),
        seats,
    });
    app.update();
    app.update();
}

pub fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// The pieces the board shows (those not on their way out).
pub fn shown_pieces(app: &mut App) -> Vec<(usize, PieceLook)> {
    let mut query = app
        .world_mut()
        .query_filtered::<&PieceOf, Without<Leaving>>();
    query.iter(app.world()).map(|p| (p.cell, p.look)).collect()
}
