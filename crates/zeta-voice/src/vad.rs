//! Voice activity, by energy: 30 ms frames, speech where a frame's RMS passes both an
//! absolute floor and a share of the loudest frame. Silence and steady noise give no
//! speech; speech is trimmed to itself with 300 ms either side.

use crate::audio::WHISPER_RATE;

const FRAME: usize = (WHISPER_RATE as usize) * 30 / 1000;
const PAD: usize = (WHISPER_RATE as usize) * 3 / 10;
/// Quieter than this (RMS, full scale 1.0) is never speech: about -46 dBFS.
const FLOOR: f32 = 0.005;
/// Speech frames: at least this share of the loudest frame's RMS.
const RELATIVE: f32 = 0.05;
/// Less speech than this (ms) is a click or a breath, not a command.
const MIN_SPEECH_MS: usize = 150;

/// The speech in `samples` (16 kHz mono) with a little margin, or `None` for silence.
pub fn speech(samples: &[f32]) -> Option<&[f32]> {
    let rms: Vec<f32> = samples
        .chunks(FRAME)
        .map(|f| (f.iter().map(|s| s * s).sum::<f32>() / f.len().max(1) as f32).sqrt())
        .collect();
    let loudest = rms.iter().copied().fold(0f32, f32::max);
    if loudest < FLOOR {
        return None;
    }
    // Steady noise has little spread between its loud and quiet frames; speech has pauses.
    let mut sorted = rms.clone();
    sorted.sort_by(f32::total_cmp);
    let quiet = sorted[sorted.len() / 10];
    let threshold = (loudest * RELATIVE).max(FLOOR).max(quiet * 3.0);
    let voiced: Vec<usize> = rms
        .iter()
        .enumerate()
        .filter(|(_, r)| **r >= threshold)
        .map(|(i, _)| i)
        .collect();
    if voiced.len() * 30 < MIN_SPEECH_MS {
        return None;
    }
    let first = voiced.first()? * FRAME;
    let last = ((voiced.last()? + 1) * FRAME).min(samples.len());
    Some(&samples[first.saturating_sub(PAD)..(last + PAD).min(samples.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(secs: f32, amp: f32) -> Vec<f32> {
        (0..(secs * 16_000.0) as usize)
            .map(|i| (i as f32 * 0.12).sin() * amp)
            .collect()
    }

    #[test]
    fn silence_and_steady_noise_are_not_speech_and_speech_is_trimmed() {
        assert!(speech(&vec![0.0; 32_000]).is_none());
        assert!(speech(&vec![0.001; 32_000]).is_none(), "below the floor");
        let hum: Vec<f32> = (0..48_000)
            .map(|i| ((i * 7919) % 1000) as f32 / 1000.0 * 0.2 - 0.1)
            .collect();
        assert!(speech(&hum).is_none(), "steady noise");
        let mut clip = vec![0.0; 16_000];
        clip.extend(tone(1.0, 0.3));
        clip.extend(vec![0.0; 16_000]);
        let s = speech(&clip).expect("speech");
        assert!(
            s.len() >= 16_000 && s.len() <= 16_000 + 2 * PAD + FRAME,
            "{}",
            s.len()
        );
        assert!(speech(&tone(0.06, 0.3)).is_none(), "a click");
    }
}
