//! The desktop's output: a PulseAudio client written in Rust (the `pulseaudio` crate), so
//! the game builds with no audio `-dev` package and needs no sound library at run time.
//! PipeWire's PulseAudio server (on most desktops now) answers it too. One stream, fed by
//! the [`Mixer`] on the client's own thread, corked when idle so the sound server can
//! sleep.

use super::mixer::Mixer;
use super::synth::{RATE, all_sounds};
use super::{PlaySound, Sound};
use bevy::prelude::*;
use pulseaudio::protocol::stream::{BufferAttr, StreamFlags};
use pulseaudio::protocol::{
    ChannelMap, PlaybackStreamParams, Prop, Props, SampleFormat, SampleSpec,
};
use pulseaudio::{AsPlaybackSource, Client, PlaybackStream};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How much sound the server keeps ahead of what is heard: a sound starts this much after
/// its move at most.
const LATENCY_SECONDS: f32 = 0.05;
/// Nothing played for this long: the stream is corked.
const IDLE: Duration = Duration::from_secs(2);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, start_output)
        .add_systems(Update, send_sounds);
}

/// Where the game's sounds go: the sound thread, which plays them or has given up.
#[derive(Resource)]
struct PulseOutput(Sender<(Sound, f32)>);

fn start_output(mut commands: Commands) {
    let (sender, receiver) = channel();
    let started = std::thread::Builder::new()
        .name("tabula-sound".into())
        .spawn(move || {
            if let Err(problem) = play_sounds(receiver) {
                info!("no sound: {problem}");
            }
        });
    if let Err(problem) = started {
        warn!("no sound: the sound thread did not start: {problem}");
    }
    commands.insert_resource(PulseOutput(sender));
}

fn send_sounds(mut plays: MessageReader<PlaySound>, output: Option<Res<PulseOutput>>) {
    for play in plays.read() {
        if let Some(output) = &output {
            // The thread may have found no server: the game goes on silent.
            let _ = output.0.send((play.sound, play.volume));
        }
    }
}

/// The sound thread: connects, then plays what it is sent until the game ends.
fn play_sounds(cues: Receiver<(Sound, f32)>) -> Result<(), String> {
    let sounds = all_sounds();
    let client = connect()?;
    let mixer = Arc::new(Mutex::new(Mixer::default()));
    let stream = open_stream(&client, RATE, mixer.clone())?;
    info!("sound: playing through the PulseAudio server");
    let mut corked = true;
    loop {
        match cues.recv_timeout(IDLE) {
            Ok((sound, volume)) => {
                let Some(samples) = sounds.get(&sound) else {
                    continue;
                };
                lock(&mixer).start(samples.data.clone(), volume);
                if corked {
                    // What was kept from before is silence: drop it, so the sound starts now.
                    block_on(stream.flush())?;
                    block_on(stream.uncork())?;
                    corked = false;
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if !corked && lock(&mixer).is_idle() {
                    block_on(stream.cork())?;
                    corked = true;
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
    }
}

/// A PulseAudio cookie is 256 bytes; a path from the environment may name anything (a
/// device that never ends), so no more than this is read.
#[cfg(unix)]
const MAX_COOKIE_BYTES: u64 = 4096;

#[cfg(unix)]
fn read_cookie(path: &std::path::Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_COOKIE_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// The server named by the environment, or the usual per-user and system sockets. Not
/// through `Client::from_env`, which reads the cookie file whole.
fn connect() -> Result<Client, String> {
    let mut tried = Vec::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // A server may ask for the cookie it keeps in the user's home.
        let cookie = pulseaudio::cookie_path_from_env().and_then(|path| read_cookie(&path));
        let uid = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
        let candidates = pulseaudio::socket_path_from_env()
            .map(|path| path.display().to_string())
            .into_iter()
            .chain(uid.map(|uid| format!("/run/user/{uid}/pulse/native")))
            .chain(["/var/run/pulse/native".to_string()]);
        for path in candidates {
            if tried.contains(&path) {
                continue;
            }
            if let Ok(socket) = std::os::unix::net::UnixStream::connect(&path)
                && let Ok(client) = Client::new_unix(c"Tabula", socket, cookie.as_deref())
            {
                return Ok(client);
            }
            tried.push(path);
        }
    }
    Err(format!(
        "no PulseAudio or PipeWire sound server answered (PULSE_SERVER, XDG_RUNTIME_DIR/pulse/native{})",
        tried.iter().map(|p| format!(", {p}")).collect::<String>()
    ))
}

fn open_stream(
    client: &Client,
    rate: u32,
    mixer: Arc<Mutex<Mixer>>,
) -> Result<PlaybackStream, String> {
    let bytes_for = |seconds: f32| (seconds * rate as f32) as u32 * 2;
    let params = PlaybackStreamParams {
        sample_spec: SampleSpec {
            format: SampleFormat::S16Le,
            channels: 1,
            sample_rate: rate,
        },
        channel_map: ChannelMap::mono(),
        buffer_attr: BufferAttr {
            max_length: u32::MAX,
            target_length: bytes_for(LATENCY_SECONDS),
            pre_buffering: u32::MAX,
            minimum_request_length: bytes_for(LATENCY_SECONDS / 4.0),
            fragment_size: u32::MAX,
        },
        flags: StreamFlags {
            start_corked: true,
            adjust_latency: true,
            ..Default::default()
        },
        props: game_role(),
        ..Default::default()
    };
    let source = move |buffer: &mut [u8]| lock(&mixer).fill(buffer);
    block_on(client.create_playback_stream(params, source.as_playback_source()))
}

fn block_on<T>(
    work: impl std::future::Future<Output = pulseaudio::Result<T>>,
) -> Result<T, String> {
    futures::executor::block_on(work).map_err(|e| format!("the sound server: {e}"))
}

fn lock(mixer: &Mutex<Mixer>) -> std::sync::MutexGuard<'_, Mixer> {
    // A panic while mixing leaves only samples behind: go on with them.
    mixer
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Tells the sound server these are a game's sounds, for its per-role volume.
fn game_role() -> Props {
    let mut props = Props::new();
    props.set(Prop::MediaRole, c"game");
    props
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_cookie_path_naming_an_endless_device_reads_a_bounded_cookie() {
        let zeros = read_cookie(std::path::Path::new("/dev/zero")).unwrap();
        assert_eq!(zeros.len() as u64, MAX_COOKIE_BYTES);
        assert_eq!(
            read_cookie(std::path::Path::new("/nonexistent/cookie")),
            None
        );
    }
}
