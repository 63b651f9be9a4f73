//! The sounds, made when the game starts: wooden knocks and soft bells from damped sine
//! partials and a little noise, so no recordings are needed and none is downloaded (the
//! WAV files they replace were 180 KB of the browser's module). Mono at 22,050 Hz: the
//! sounds are short and hold nothing above a few kHz.

use super::Sound;
use std::f32::consts::TAU;
use std::sync::Arc;

pub const RATE: u32 = 22_050;

/// One sound's samples, mono, from -1 to 1.
#[derive(Clone, Debug)]
pub struct Samples {
    pub rate: u32,
    pub data: Arc<[f32]>,
}

impl Sound {
    /// The sound's samples, made anew each call (a few milliseconds for all of them).
    pub fn samples(self) -> Samples {
        let mut noise = Noise(0x2545_F491_4F6C_DD1D);
        let (parts, peak) = match self {
            // A piece moves: one knock.
            Sound::Move => (vec![(0.0, knock(520.0, 0.12, 1.0, 0.35, &mut noise))], 0.7),
            // A stack splits: two quick knocks, the second higher.
            Sound::Split => (
                vec![
                    (0.0, knock(480.0, 0.12, 1.0, 0.35, &mut noise)),
                    (0.075, knock(640.0, 0.12, 1.0, 0.35, &mut noise)),
                ],
                0.65,
            ),
            // Stacks merge: two knocks closing in, the second lower and fuller.
            Sound::Merge => (
                vec![
                    (0.0, knock(640.0, 0.1, 1.0, 0.35, &mut noise)),
                    (0.06, knock(430.0, 0.16, 1.4, 0.35, &mut noise)),
                ],
                0.65,
            ),
            // A capture or consumption: a heavy knock with a sharp clack over it.
            Sound::Capture => (
                vec![
                    (0.0, knock(300.0, 0.25, 1.8, 0.8, &mut noise)),
                    (0.012, knock(1150.0, 0.08, 0.7, 0.5, &mut noise)),
                ],
                0.7,
            ),
            // An absorption: a knock, then the stack drawn in with a rising tone.
            Sound::Absorb => (
                vec![
                    (0.0, knock(420.0, 0.12, 1.0, 0.35, &mut noise)),
                    (0.04, sweep(260.0, 620.0, 0.3, 7.0)),
                ],
                0.6,
            ),
            // A new piece or limb: a bright rising pair of bell notes.
            Sound::Create => (
                vec![
                    (0.0, bell(880.0, 0.3, 9.0)),
                    (0.07, bell(1318.5, 0.35, 8.0)),
                ],
                0.5,
            ),
            // A piece starves: a tone sinking away.
            Sound::Starve => (vec![(0.0, sweep(520.0, 220.0, 0.45, 5.0))], 0.5),
            // Your turn: two soft notes, a fourth apart.
            Sound::YourTurn => (
                vec![(0.0, bell(659.3, 0.45, 6.0)), (0.14, bell(880.0, 0.6, 5.0))],
                0.45,
            ),
            // The game is over: a rising triad that rings on.
            Sound::GameOver => (
                vec![
                    (0.0, bell(523.3, 1.2, 3.0)),
                    (0.13, bell(659.3, 1.1, 3.0)),
                    (0.26, bell(784.0, 1.0, 2.6)),
                    (0.42, bell(1046.5, 0.9, 2.4)),
                ],
                0.6,
            ),
        };
        Samples {
            rate: RATE,
            data: finished(mix(&parts), peak).into(),
        }
    }
}

/// Every sound.
pub fn all_sounds() -> std::collections::HashMap<Sound, Samples> {
    Sound::ALL
        .iter()
        .map(|&sound| (sound, sound.samples()))
        .collect()
}

/// The same noise every run: the sounds do not change between starts.
struct Noise(u64);

impl Noise {
    /// From -1 to 1 (xorshift64*).
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40;
        bits as f32 / (1u64 << 23) as f32 - 1.0
    }
}

fn samples_in(seconds: f32) -> usize {
    (seconds * RATE as f32) as usize
}

fn time(i: usize) -> f32 {
    i as f32 / RATE as f32
}

/// A piece set on wood: a wood block's inharmonic modes, dying fast, and a short tap.
fn knock(freq: f32, seconds: f32, weight: f32, click: f32, noise: &mut Noise) -> Vec<f32> {
    const MODES: [(f32, f32, f32); 3] = [(1.0, 1.0, 38.0), (2.76, 0.45, 60.0), (5.40, 0.2, 90.0)];
    (0..samples_in(seconds))
        .map(|i| {
            let t = time(i);
            let modes: f32 = MODES
                .iter()
                .map(|(ratio, amplitude, damping)| {
                    amplitude * (-damping * t / weight).exp() * (TAU * freq * ratio * t).sin()
                })
                .sum();
            modes + click * noise.next() * (-t * 900.0).exp()
        })
        .collect()
}

/// A soft bell: a fundamental, an octave and a fifth above, with a gentle attack.
fn bell(freq: f32, seconds: f32, decay: f32) -> Vec<f32> {
    (0..samples_in(seconds))
        .map(|i| {
            let t = time(i);
            let attack = (t / 0.008).min(1.0);
            let tone = (TAU * freq * t).sin()
                + 0.35 * (TAU * freq * 2.0 * t).sin()
                + 0.12 * (TAU * freq * 3.01 * t).sin();
            attack * (-decay * t).exp() * tone
        })
        .collect()
}

/// A tone gliding from one pitch to another: something drawn in or fading out.
fn sweep(start: f32, end: f32, seconds: f32, decay: f32) -> Vec<f32> {
    let n = samples_in(seconds);
    let mut phase = 0.0f32;
    (0..n)
        .map(|i| {
            let t = time(i);
            let freq = start * (end / start).powf(i as f32 / n as f32);
            phase += TAU * freq / RATE as f32;
            let attack = (t / 0.015).min(1.0);
            attack * (-decay * t).exp() * (phase.sin() + 0.25 * (2.0 * phase).sin())
        })
        .collect()
}

/// Lays (start in seconds, samples) parts over each other.
fn mix(parts: &[(f32, Vec<f32>)]) -> Vec<f32> {
    let length = parts
        .iter()
        .map(|(at, s)| samples_in(*at) + s.len())
        .max()
        .unwrap_or(0);
    let mut out = vec![0.0; length];
    for (at, s) in parts {
        for (slot, v) in out[samples_in(*at)..].iter_mut().zip(s) {
            *slot += v;
        }
    }
    out
}

/// Scaled to `peak`, with a short fade out so no sound ends on a click.
fn finished(mut samples: Vec<f32>, peak: f32) -> Vec<f32> {
    let top = samples.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let scale = if top > 0.0 { peak / top } else { 0.0 };
    let fade = samples_in(0.01).min(samples.len());
    let len = samples.len();
    for (i, v) in samples.iter_mut().enumerate() {
        let from_end = len - 1 - i;
        let fading = if from_end < fade {
            from_end as f32 / fade as f32
        } else {
            1.0
        };
        *v *= scale * fading;
    }
    samples
}

/// The samples as a mono 16-bit WAV file, for the browser's audio, which decodes files.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn wav(samples: &Samples) -> Vec<u8> {
    let data_bytes = (samples.data.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_bytes as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_bytes).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    // PCM, one channel.
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&samples.rate.to_le_bytes());
    // Bytes a second, bytes a frame, bits a sample.
    out.extend_from_slice(&(samples.rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_bytes.to_le_bytes());
    for v in samples.data.iter() {
        let sample = (v.clamp(-1.0, 1.0) * i16::MAX as f32) as i16;
        out.extend_from_slice(&sample.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_is_short_audible_and_ends_quietly() {
        for (sound, samples) in &all_sounds() {
            assert_eq!(samples.rate, RATE);
            let seconds = samples.data.len() as f32 / samples.rate as f32;
            assert!(
                (0.05..=1.5).contains(&seconds),
                "{sound:?} lasts {seconds} s"
            );
            let peak = samples.data.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            assert!((0.3..1.0).contains(&peak), "{sound:?} peaks at {peak}");
            let end = samples.data[samples.data.len() - 1].abs();
            assert!(end < 0.01, "{sound:?} ends on a click: {end}");
        }
    }

    #[test]
    fn a_sound_is_the_same_every_time() {
        let first = Sound::Capture.samples();
        assert_eq!(first.data, Sound::Capture.samples().data);
        // The noise is there: a knock is not a pure tone.
        let knock = knock(520.0, 0.12, 1.0, 0.35, &mut Noise(1));
        let pure = knock_without_noise(520.0, 0.12);
        assert!(knock.iter().zip(&pure).any(|(a, b)| (a - b).abs() > 0.01));
    }

    fn knock_without_noise(freq: f32, seconds: f32) -> Vec<f32> {
        knock(freq, seconds, 1.0, 0.0, &mut Noise(1))
    }

    #[test]
    fn the_noise_spans_minus_one_to_one() {
        let mut noise = Noise(7);
        let draws: Vec<f32> = (0..10_000).map(|_| noise.next()).collect();
        assert!(draws.iter().all(|v| (-1.0..1.0).contains(v)));
        let mean = draws.iter().sum::<f32>() / draws.len() as f32;
        assert!(mean.abs() < 0.05, "mean {mean}");
        assert!(draws.iter().any(|v| *v < -0.9) && draws.iter().any(|v| *v > 0.9));
    }

    /// The browser's file: a WAV header Bevy's decoder reads, and the samples at 16 bits.
    #[test]
    fn the_wav_file_holds_the_samples() {
        let samples = Sound::Move.samples();
        let file = wav(&samples);
        assert_eq!(&file[..4], b"RIFF");
        assert_eq!(&file[8..16], b"WAVEfmt ");
        let field = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
        assert_eq!(field(4) as usize, file.len() - 8);
        assert_eq!(field(24), RATE);
        assert_eq!(&file[36..40], b"data");
        assert_eq!(field(40) as usize, samples.data.len() * 2);
        let peak = file[44..]
            .chunks(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]).unsigned_abs())
            .max()
            .unwrap();
        let expected = samples.data.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        assert_eq!(peak, (expected * i16::MAX as f32) as u16);
    }
}
