//! The loading screen: the board texture loads through bevy_asset_loader; if it fails or
//! takes too long the game goes on with plain colours and says why on the title screen.

use crate::config::ConfigProblems;
use crate::screens::Screen;
use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

#[derive(AssetCollection, Resource)]
pub struct BoardTextures {
    #[asset(path = "textures/wood.png")]
    pub wood: Handle<Image>,
}

/// Seconds the loading screen waits before giving up on the assets.
const LOADING_TIMEOUT: f32 = 20.0;

pub fn plugin(app: &mut App) {
    app.add_loading_state(
        LoadingState::new(Screen::Loading)
            .continue_to_state(Screen::Title)
            .on_failure_continue_to_state(Screen::Title)
            .load_collection::<BoardTextures>(),
    )
    .add_systems(
        EguiPrimaryContextPass,
        show_loading.run_if(in_state(Screen::Loading)),
    )
    .add_systems(Update, time_out.run_if(in_state(Screen::Loading)))
    .add_systems(OnExit(Screen::Loading), report_missing);
}

/// Drawn by egui, as every other screen: Bevy's own UI and text stack stay out of the
/// build, which keeps the web download smaller.
fn show_loading(mut contexts: EguiContexts) -> Result {
    egui::Area::new(egui::Id::new("loading"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(contexts.ctx_mut()?, |ui| ui.heading("Loading Tabula…"));
    Ok(())
}

fn time_out(time: Res<Time>, mut waited: Local<f32>, mut next: ResMut<NextState<Screen>>) {
    *waited += time.delta_secs();
    if *waited > LOADING_TIMEOUT {
        next.set(Screen::Title);
    }
}

fn report_missing(textures: Option<Res<BoardTextures>>, mut problems: ResMut<ConfigProblems>) {
    if textures.is_none() {
        let problem = "The board texture assets/textures/wood.png did not load (missing or \
                       unreadable); the board is drawn in plain colours."
            .to_string();
        warn!("{problem}");
        problems.0.push(problem);
    }
}
