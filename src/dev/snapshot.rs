//! The end of a demo run: once what it shows has settled for some frames, a screenshot of
//! the window, then quitting a few frames later (the renderer needs them to catch up).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

#[derive(Debug, Default)]
pub struct Snapshot {
    pub path: Option<String>,
    settled_frames: u32,
    shot_at: Option<u32>,
}

impl Snapshot {
    pub fn new(path: Option<String>) -> Snapshot {
        Snapshot {
            path,
            ..Snapshot::default()
        }
    }

    /// Something moved: the count of settled frames starts again.
    pub fn unsettled(&mut self) {
        self.settled_frames = 0;
    }

    /// One more settled frame: the screenshot after `frames` of them, the exit as many later.
    pub fn settled(
        &mut self,
        frames: u32,
        commands: &mut Commands,
        exit: &mut MessageWriter<AppExit>,
    ) {
        let Some(path) = self.path.clone() else {
            return;
        };
        self.settled_frames += 1;
        match self.shot_at {
            None if self.settled_frames > frames => {
                info!("saving a screenshot to {path}");
                commands
                    .spawn(Screenshot::primary_window())
                    .observe(save_to_disk(path));
                self.shot_at = Some(self.settled_frames);
            }
            Some(at) if self.settled_frames > at + frames => {
                exit.write(AppExit::Success);
            }
            _ => {}
        }
    }
}

/// `TABULA_TITLE_SCREENSHOT=FILE.png`: the title screen, its showcase a few seconds on,
/// saved to FILE, then quit (for the README's picture of the title).
#[derive(Resource, Debug)]
struct TitleShot {
    snapshot: Snapshot,
}

/// Whether a screenshot of the title was asked for (the app then draws every frame).
pub fn title_shot_requested() -> bool {
    cfg!(not(target_arch = "wasm32")) && std::env::var_os("TABULA_TITLE_SCREENSHOT").is_some()
}

pub fn plugin(app: &mut App) {
    if !title_shot_requested() {
        return;
    }
    let path = std::env::var("TABULA_TITLE_SCREENSHOT").ok();
    app.insert_resource(TitleShot {
        snapshot: Snapshot::new(path),
    })
    .add_systems(
        Update,
        take_title_shot.run_if(in_state(crate::screens::Screen::Title)),
    );
}

fn take_title_shot(
    mut commands: Commands,
    mut shot: ResMut<TitleShot>,
    mut exit: MessageWriter<AppExit>,
) {
    // About five seconds of software-rendered frames: the showcase has set up its board.
    shot.snapshot.settled(60, &mut commands, &mut exit);
}
