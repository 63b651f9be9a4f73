//! The sounds' samples for the desktop's mixer, decoded from the WAV files built into the
//! executable (the browser's audio decodes them itself).

use std::sync::Arc;

/// One sound's samples, mono, from -1 to 1.
#[derive(Clone, Debug)]
pub struct Samples {
    pub rate: u32,
    pub data: Arc<[f32]>,
}

/// Decodes a mono 16-bit WAV file.
pub fn decode(wav: &[u8]) -> Result<Samples, String> {
    let reader = hound::WavReader::new(wav).map_err(|e| format!("not a WAV file: {e}"))?;
    let spec = reader.spec();
    if spec.channels != 1
        || spec.bits_per_sample != 16
        || spec.sample_format != hound::SampleFormat::Int
    {
        return Err(format!(
            "a sound must be mono 16-bit PCM, not {} channels of {} bits",
            spec.channels, spec.bits_per_sample
        ));
    }
    let data = reader
        .into_samples::<i16>()
        .map(|s| s.map(|v| v as f32 / 32768.0))
        .collect::<Result<Arc<[f32]>, _>>()
        .map_err(|e| format!("a WAV file cut short: {e}"))?;
    Ok(Samples {
        rate: spec.sample_rate,
        data,
    })
}

/// Every sound decoded.
pub fn all_sounds() -> Result<std::collections::HashMap<super::Sound, Samples>, String> {
    super::Sound::ALL
        .iter()
        .map(|&sound| {
            Ok((
                sound,
                decode(sound.wav()).map_err(|e| format!("{sound:?}: {e}"))?,
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_is_short_audible_and_at_one_rate() {
        let sounds = all_sounds().unwrap();
        let rates: std::collections::BTreeSet<u32> = sounds.values().map(|s| s.rate).collect();
        assert_eq!(rates.len(), 1, "{rates:?}");
        for (sound, samples) in &sounds {
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
    fn a_bad_sound_file_is_refused_with_a_reason() {
        use crate::sound::Sound;
        assert!(decode(b"RIFF").unwrap_err().contains("not a WAV file"));
        let wav = Sound::Move.wav();
        let cut = &wav[..wav.len() / 2];
        assert!(decode(cut).is_err());
    }
}
