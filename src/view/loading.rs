//! The loading screen: the board texture loads through bevy_asset_loader; if it fails or
//! takes too long the game goes on with plain colours and says why on the title screen.
//! The texture is built into the executable (Bevy's `embedded://` source), so the game
//! runs from any directory and `cargo install` installs all of it.

use crate::config::ConfigProblems;
use crate::screens::Screen;
use bevy::asset::io::embedded::EmbeddedAssetRegistry;
use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

#[derive(AssetCollection, Resource)]
pub struct BoardTextures {
    #[asset(path = "embedded://tabula/textures/wood.png")]
    pub wood: Handle<Image>,
}

/// The files under `assets/`, each built in as `embedded://tabula/PATH`.
const EMBEDDED: [(&str, &[u8]); 1] = [(
    "textures/wood.png",
    include_bytes!("../../assets/textures/wood.png"),
)];

/// Seconds the loading screen waits before giving up on the assets.
const LOADING_TIMEOUT: f32 = 20.0;

pub fn plugin(app: &mut App) {
    if let Some(registry) = app.world().get_resource::<EmbeddedAssetRegistry>() {
        for (path, bytes) in EMBEDDED {
            let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("assets")
                .join(path);
            registry.insert_asset(source, &std::path::Path::new("tabula").join(path), bytes);
        }
    }
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
    if textures.is_some() {
        // The check that an installed executable found its assets reads this line.
        info!("tabula: the board textures loaded");
    } else {
        let problem = "The board texture (textures/wood.png, built in) did not load; the \
                       board is drawn in plain colours."
            .to_string();
        warn!("{problem}");
        problems.0.push(problem);
    }
}
