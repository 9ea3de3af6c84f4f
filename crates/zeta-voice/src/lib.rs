//! zeta-voice: speech to text on this machine, with Whisper (whisper-rs). Nothing leaves
//! the machine.
//!
//! - [`audio`]: WAV files and raw samples at any rate and channel count → 16 kHz mono f32.
//! - [`vad`]: trims silence around speech and tells a silent clip from speech, so silence
//!   never reaches Whisper (where it becomes "Thank you." and the like).
//! - [`transcriber`]: the model, loaded on first use and kept warm; the decoding settings
//!   that keep short commands fast and free of hallucinations.
//! - [`capture`]: the microphone (cpal), with a length cap, a level meter and device loss.
//! - [`ptt`]: the push-to-talk decision (hold or toggle, auto-repeat debounced), pure.
//! - [`listener`]: the voice session: key edges and start/stop in, `VoiceEvent`s out.

pub mod audio;
pub mod capture;
pub mod listener;
pub mod ptt;
pub mod transcriber;
pub mod vad;

pub use transcriber::{Transcriber, Transcript};

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    #[error("no Whisper model at {path}; `zeta models list` shows the installed ones, and `zeta models import FOLDER` converts a faster-whisper model")]
    ModelMissing { path: PathBuf },
    #[error("{path} is not a usable Whisper model: {reason}")]
    ModelInvalid { path: PathBuf, reason: String },
    #[error("{path}: {reason}")]
    Audio { path: PathBuf, reason: String },
    #[error("resampling {from} Hz to 16 kHz failed: {0}", from = .1)]
    Resample(String, u32),
    #[error("transcription failed: {0}")]
    Transcribe(String),
    #[error("no microphone: the system has no default input device (set voice.inputDevice, or check the sound settings)")]
    NoInputDevice,
    #[error("no input device named {name:?}; the input devices are: {available}")]
    DeviceNotFound { name: String, available: String },
    #[error("microphone: {0}")]
    Capture(String),
}

impl VoiceError {
    /// Whether trying the same clip again may work (a model fixed on disk, say); false for
    /// bad input.
    pub fn is_retryable(&self) -> bool {
        matches!(self, VoiceError::Transcribe(_) | VoiceError::Capture(_))
    }
}
