//! Sounds: a knock for a move, others for splits and merges, captures, absorptions,
//! creations and starvations, "your turn" when a bot or a player elsewhere has moved, and
//! the end of a game. Rules events become [`PlaySound`] messages as their animations
//! start; the platform's output plays them: PulseAudio (or PipeWire's PulseAudio server)
//! through a pure-Rust client on the desktop, Bevy's audio in the browser. With no sound
//! server the game is silent and says so once in the log.

mod cues;
#[cfg(not(target_arch = "wasm32"))]
mod mixer;
#[cfg(not(target_arch = "wasm32"))]
mod pulse;
mod synth;
#[cfg(target_arch = "wasm32")]
mod web;

pub use cues::sounds_for_move;

use crate::config::Settings;
use crate::screens::InGame;
use bevy::prelude::*;

/// The game's sounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sound {
    Move,
    Split,
    Merge,
    /// A capture or a consumption: a piece taken off.
    Capture,
    Absorb,
    /// A piece or limb that was not there before.
    Create,
    Starve,
    YourTurn,
    GameOver,
}

impl Sound {
    pub const ALL: [Sound; 9] = [
        Sound::Move,
        Sound::Split,
        Sound::Merge,
        Sound::Capture,
        Sound::Absorb,
        Sound::Create,
        Sound::Starve,
        Sound::YourTurn,
        Sound::GameOver,
    ];
}

/// A sound to play now, at a volume from 0 to 1 (the settings' volume already applied).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PlaySound {
    pub sound: Sound,
    pub volume: f32,
}

/// Sounds the game asks for, before the settings' volume and mute.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoundCue(pub Sound);

/// Everything but the output: cues from the game, and the volume and mute applied. Headless
/// tests see the [`PlaySound`] messages.
pub fn logic_plugin(app: &mut App) {
    app.add_message::<SoundCue>()
        .add_message::<PlaySound>()
        .add_systems(
            Update,
            (cues::turn_cues, apply_volume)
                .chain()
                .after(crate::AppSystems::Animate),
        );
}

/// The platform's output.
pub fn output_plugin(app: &mut App) {
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(pulse::plugin);
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web::plugin);
}

fn apply_volume(
    mut cues: MessageReader<SoundCue>,
    mut play: MessageWriter<PlaySound>,
    settings: Res<Settings>,
    in_match: Option<Res<State<InGame>>>,
) {
    // The title's showcase game plays without a sound.
    if in_match.is_none() {
        cues.clear();
        return;
    }
    for &SoundCue(sound) in cues.read() {
        // A hand-edited file may hold any number: NaN is silence too.
        if settings.sound_muted || settings.sound_volume.is_nan() || settings.sound_volume <= 0.0 {
            continue;
        }
        // A loudness the ear hears as even steps along the slider.
        let volume = settings.sound_volume.clamp(0.0, 1.0).powi(2);
        debug!("sound: {sound:?} at volume {volume:.2}");
        play.write(PlaySound { sound, volume });
    }
}
