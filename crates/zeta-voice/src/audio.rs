//! Audio in: WAV files (any sample format, rate and channel count) and raw interleaved
//! samples, mixed down to mono and resampled to the 16 kHz Whisper takes (rubato).

use std::path::Path;

use rubato::{FftFixedInOut, Resampler};

use crate::VoiceError;

pub const WHISPER_RATE: u32 = 16_000;

/// A WAV file as 16 kHz mono samples in [-1, 1].
pub fn read_wav(path: &Path) -> Result<Vec<f32>, VoiceError> {
    let bad = |reason: String| VoiceError::Audio {
        path: path.to_path_buf(),
        reason,
    };
    let reader =
        hound::WavReader::open(path).map_err(|e| bad(format!("not a readable WAV file: {e}")))?;
    let spec = reader.spec();
    if spec.channels == 0 || spec.sample_rate == 0 {
        return Err(bad("the WAV header has no channels or no rate".into()));
    }
    let samples: Result<Vec<f32>, hound::Error> = match spec.sample_format {
        hound::SampleFormat::Float => reader.into_samples::<f32>().collect(),
        hound::SampleFormat::Int => {
            let scale = 1.0 / (1u64 << (spec.bits_per_sample.clamp(1, 32) - 1)) as f32;
            reader
                .into_samples::<i32>()
                .map(|s| s.map(|v| v as f32 * scale))
                .collect()
        }
    };
    let samples = samples.map_err(|e| bad(format!("the WAV data is cut or corrupt: {e}")))?;
    to_whisper(&samples, spec.channels as usize, spec.sample_rate)
}

/// Interleaved samples with `channels` channels at `rate` → 16 kHz mono.
pub fn to_whisper(interleaved: &[f32], channels: usize, rate: u32) -> Result<Vec<f32>, VoiceError> {
    let channels = channels.max(1);
    let mono: Vec<f32> = interleaved
        .chunks(channels)
        .map(|frame| frame.iter().copied().map(finite).sum::<f32>() / frame.len() as f32)
        .collect();
    resample(&mono, rate)
}

/// A sample as Whisper and the resampler can take it: NaN and infinities (a device that
/// sends another format than it claims) become silence, and the range is clamped.
fn finite(s: f32) -> f32 {
    if s.is_finite() {
        s.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}

/// Mono samples at `rate` → 16 kHz.
pub fn resample(mono: &[f32], rate: u32) -> Result<Vec<f32>, VoiceError> {
    if rate == WHISPER_RATE || mono.is_empty() {
        return Ok(mono.to_vec());
    }
    let fail = |e: &dyn std::fmt::Display| VoiceError::Resample(e.to_string(), rate);
    let mut resampler = FftFixedInOut::<f32>::new(rate as usize, WHISPER_RATE as usize, 1024, 1)
        .map_err(|e| fail(&e))?;
    let expected = (mono.len() as u64 * WHISPER_RATE as u64 / rate as u64) as usize;
    let delay = resampler.output_delay();
    let mut out = Vec::with_capacity(expected + delay + 2048);
    let mut at = 0;
    while at < mono.len() {
        let need = resampler.input_frames_next();
        let chunk = &mono[at..(at + need).min(mono.len())];
        let block = if chunk.len() == need {
            resampler.process(&[chunk], None)
        } else {
            resampler.process_partial(Some(&[chunk]), None)
        }
        .map_err(|e| fail(&e))?;
        out.extend_from_slice(&block[0]);
        at += chunk.len();
    }
    // Push out what the resampler still holds.
    while out.len() < expected + delay {
        let block = resampler
            .process_partial::<&[f32]>(None, None)
            .map_err(|e| fail(&e))?;
        if block[0].is_empty() {
            break;
        }
        out.extend_from_slice(&block[0]);
    }
    let end = (delay + expected).min(out.len());
    Ok(out[delay.min(end)..end].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tone_keeps_its_length_and_pitch_through_resampling() {
        let rate = 22_050;
        let tone: Vec<f32> = (0..rate)
            .map(|i| (i as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin() * 0.5)
            .collect();
        let out = resample(&tone, rate as u32).expect("resample");
        assert_eq!(out.len(), 16_000);
        // 440 Hz at 16 kHz: count rising zero crossings in the middle second.
        let crossings = out.windows(2).filter(|w| w[0] < 0.0 && w[1] >= 0.0).count();
        assert!((435..=445).contains(&crossings), "{crossings}");
        let stereo: Vec<f32> = tone.iter().flat_map(|s| [*s, *s]).collect();
        assert_eq!(
            to_whisper(&stereo, 2, rate as u32).expect("mix").len(),
            16_000
        );
    }
}
