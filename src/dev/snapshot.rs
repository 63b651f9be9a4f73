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
