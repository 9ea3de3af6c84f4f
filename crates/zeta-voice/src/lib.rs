//! zeta-voice: speech to text on this machine, with Whisper (whisper-rs). Nothing leaves
//! the machine.
//!
//! - [`audio`]: WAV files and raw samples at any rate and channel count → 16 kHz mono f32.
//! - [`vad`]: trims silence around speech and tells a silent clip from speech, so silence
//!   never reaches Whisper (where it becomes "Thank you." and the like).
//! - [`transcriber`]: the model, loaded on first use and kept warm; the decoding settings
//!   that keep short commands fast and free of hallucinations.

pub mod audio;
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
}

impl VoiceError {
    /// Whether trying the same clip again may work (a model fixed on disk, say); false for
    /// bad input.
    pub fn is_retryable(&self) -> bool {
        matches!(self, VoiceError::Transcribe(_))
    }
}
