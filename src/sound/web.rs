//! The browser's output: Bevy's audio (rodio on the Web Audio API). Each sound is one
//! asset, a WAV file written from its samples (synth.rs); each play is an entity that goes
//! when its sound ends. The page resumes the audio on the player's first click or key
//! (browsers keep audio off until then: web/index.html).

use super::{PlaySound, Sound};
use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_sounds)
        .add_systems(Update, play_sounds);
}

#[derive(Resource)]
struct SoundAssets(HashMap<Sound, Handle<AudioSource>>);

fn load_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let handles = super::synth::all_sounds()
        .into_iter()
        .map(|(sound, samples)| {
            let source = AudioSource {
                bytes: super::synth::wav(&samples).into(),
            };
            (sound, sources.add(source))
        })
        .collect();
    commands.insert_resource(SoundAssets(handles));
}

fn play_sounds(
    mut commands: Commands,
    mut plays: MessageReader<PlaySound>,
    assets: Option<Res<SoundAssets>>,
) {
    let Some(assets) = assets else {
        return;
    };
    for play in plays.read() {
        if let Some(handle) = assets.0.get(&play.sound) {
            commands.spawn((
                AudioPlayer(handle.clone()),
                PlaybackSettings::DESPAWN.with_volume(Volume::Linear(play.volume)),
            ));
        }
    }
}
