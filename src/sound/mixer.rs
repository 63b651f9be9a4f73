//! Mixes the sounds playing into the desktop's one output stream: mono 16-bit samples,
//! each voice at its own volume, silence when nothing plays.

use std::sync::Arc;

/// More at once than this and the oldest stops: a move that takes many pieces at once
/// should not pile up a roar.
const MAX_VOICES: usize = 12;

#[derive(Default)]
pub struct Mixer {
    voices: Vec<Voice>,
}

struct Voice {
    samples: Arc<[f32]>,
    at: usize,
    gain: f32,
}

impl Mixer {
    pub fn start(&mut self, samples: Arc<[f32]>, gain: f32) {
        if self.voices.len() >= MAX_VOICES {
            self.voices.remove(0);
        }
        self.voices.push(Voice {
            samples,
            at: 0,
            gain: gain.clamp(0.0, 1.0),
        });
    }

    /// Whether nothing is left to play.
    pub fn is_idle(&self) -> bool {
        self.voices.is_empty()
    }

    /// Fills `out` with little-endian 16-bit samples (silence past the sounds' ends) and
    /// returns the bytes written: all of them but an odd last byte.
    pub fn fill(&mut self, out: &mut [u8]) -> usize {
        let frames = out.len() / 2;
        for (i, slot) in out.chunks_exact_mut(2).enumerate() {
            let mut sum = 0.0;
            for voice in &self.voices {
                if let Some(v) = voice.samples.get(voice.at + i) {
                    sum += v * voice.gain;
                }
            }
            let sample = (sum.clamp(-1.0, 1.0) * i16::MAX as f32) as i16;
            slot.copy_from_slice(&sample.to_le_bytes());
        }
        for voice in &mut self.voices {
            voice.at += frames;
        }
        self.voices.retain(|voice| voice.at < voice.samples.len());
        frames * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Vec<i16> {
        bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect()
    }

    #[test]
    fn silence_when_nothing_plays() {
        let mut mixer = Mixer::default();
        let mut out = [7u8; 9];
        assert_eq!(mixer.fill(&mut out), 8);
        assert_eq!(read(&out[..8]), vec![0; 4]);
        assert!(mixer.is_idle());
    }

    #[test]
    fn voices_add_at_their_volume_and_end() {
        let mut mixer = Mixer::default();
        mixer.start(Arc::from(vec![0.5; 3]), 1.0);
        mixer.start(Arc::from(vec![0.25; 5]), 0.5);
        let mut out = [0u8; 8];
        mixer.fill(&mut out);
        let full = i16::MAX as f32;
        assert_eq!(
            read(&out),
            vec![(0.625 * full) as i16; 3]
                .into_iter()
                .chain([(0.125 * full) as i16])
                .collect::<Vec<_>>()
        );
        assert!(!mixer.is_idle(), "the second voice has one sample left");
        mixer.fill(&mut out);
        assert_eq!(read(&out), vec![(0.125 * full) as i16, 0, 0, 0]);
        assert!(mixer.is_idle());
    }

    #[test]
    fn loud_sums_are_clipped_not_wrapped() {
        let mut mixer = Mixer::default();
        for _ in 0..3 {
            mixer.start(Arc::from(vec![0.9, -0.9]), 1.0);
        }
        let mut out = [0u8; 4];
        mixer.fill(&mut out);
        assert_eq!(read(&out), vec![i16::MAX, -i16::MAX]);
    }

    #[test]
    fn too_many_voices_drop_the_oldest() {
        let mut mixer = Mixer::default();
        mixer.start(Arc::from(vec![0.5; 100]), 1.0);
        for _ in 0..MAX_VOICES {
            mixer.start(Arc::from(vec![0.0; 1]), 1.0);
        }
        let mut out = [0u8; 2];
        mixer.fill(&mut out);
        assert_eq!(read(&out), vec![0], "the long first voice was dropped");
    }
}
