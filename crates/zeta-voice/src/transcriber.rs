//! The Whisper model and how it decodes. The model is checked by its header and loaded on
//! the first clip, then kept warm. A clip is trimmed to its speech first (silence returns
//! an empty transcript without calling Whisper). Decoding is greedy with no context
//! carried between clips, a token cap, a no-speech threshold, `audio_ctx` fitted to the
//! clip (never under 512, where clips start to loop), and threads = cores − 1.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use whisper_rs::{FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters};

use crate::{vad, VoiceError};

/// Tokens per clip at most: a spoken command is short, and a loop stops here.
const MAX_TOKENS: i32 = 96;
/// Segments Whisper itself thinks are not speech are dropped.
const NO_SPEECH: f32 = 0.6;
/// Whisper's encoder frames per second of audio (1500 for 30 s).
const FRAMES_PER_SEC: f32 = 50.0;
const MIN_AUDIO_CTX: i32 = 512;

#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// Empty when the clip held no speech.
    pub text: String,
    /// Seconds of speech sent to Whisper (0 when none).
    pub speech_secs: f32,
    /// Time in Whisper (loading excluded).
    pub took: Duration,
    /// The language Whisper decoded in (detected when the setting is `auto`); empty when
    /// the clip held no speech.
    pub language: String,
}

pub struct Transcriber {
    model: PathBuf,
    language: String,
    threads: i32,
    context: Mutex<Option<WhisperContext>>,
}

impl Transcriber {
    /// Nothing is read until the first clip (or [`Transcriber::load`]). `language` is an
    /// ISO 639-1 code or `auto`.
    pub fn new(model: impl Into<PathBuf>, language: &str) -> Self {
        static HOOKS: std::sync::Once = std::sync::Once::new();
        // whisper.cpp's own logging goes to tracing instead of stderr.
        HOOKS.call_once(whisper_rs::install_logging_hooks);
        let threads = std::thread::available_parallelism()
            .map(|n| n.get().saturating_sub(1))
            .unwrap_or(1)
            .max(1) as i32;
        Self {
            model: model.into(),
            language: language.trim().to_ascii_lowercase(),
            threads,
            context: Mutex::new(None),
        }
    }

    pub fn model(&self) -> &Path {
        &self.model
    }

    /// Loads the model now (it is kept): a missing, cut or foreign file is a clear error.
    pub fn load(&self) -> Result<(), VoiceError> {
        let mut slot = self
            .context
            .lock()
            .map_err(|_| VoiceError::Transcribe("the model lock was poisoned".into()))?;
        if slot.is_none() {
            *slot = Some(load(&self.model)?);
        }
        Ok(())
    }

    /// Transcribes 16 kHz mono samples.
    pub fn transcribe(&self, samples: &[f32]) -> Result<Transcript, VoiceError> {
        let Some(speech) = vad::speech(samples) else {
            return Ok(Transcript {
                text: String::new(),
                speech_secs: 0.0,
                took: Duration::ZERO,
                language: String::new(),
            });
        };
        self.load()?;
        let slot = self
            .context
            .lock()
            .map_err(|_| VoiceError::Transcribe("the model lock was poisoned".into()))?;
        let Some(context) = slot.as_ref() else {
            return Err(VoiceError::Transcribe("the model is not loaded".into()));
        };
        let started = Instant::now();
        let mut state = context.create_state().map_err(|e| {
            VoiceError::Transcribe(format!("could not create a decoder state: {e}"))
        })?;
        let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
        params.set_n_threads(self.threads);
        let language = (!self.language.is_empty() && self.language != "auto")
            .then_some(self.language.as_str());
        params.set_language(language);
        params.set_detect_language(false);
        params.set_no_context(true);
        params.set_single_segment(true);
        params.set_no_timestamps(true);
        params.set_max_tokens(MAX_TOKENS);
        params.set_suppress_blank(true);
        params.set_suppress_nst(true);
        params.set_no_speech_thold(NO_SPEECH);
        params.set_temperature(0.0);
        params.set_temperature_inc(0.0);
        params.set_audio_ctx(audio_ctx(speech.len()));
        params.set_print_progress(false);
        params.set_print_realtime(false);
        params.set_print_special(false);
        params.set_print_timestamps(false);
        state
            .full(params, speech)
            .map_err(|e| VoiceError::Transcribe(e.to_string()))?;
        let mut text = String::new();
        for i in 0..state.full_n_segments() {
            let Some(segment) = state.get_segment(i) else {
                continue;
            };
            if segment.no_speech_probability() > NO_SPEECH {
                continue;
            }
            if let Ok(part) = segment.to_str_lossy() {
                text.push_str(&part);
            }
        }
        let language = whisper_rs::get_lang_str(state.full_lang_id_from_state())
            .unwrap_or_default()
            .to_string();
        Ok(Transcript {
            text: clean(&text),
            speech_secs: speech.len() as f32 / crate::audio::WHISPER_RATE as f32,
            took: started.elapsed(),
            language,
        })
    }
}

fn load(path: &Path) -> Result<WhisperContext, VoiceError> {
    if !path.is_file() {
        return Err(VoiceError::ModelMissing {
            path: path.to_path_buf(),
        });
    }
    match zeta_models::format::detect(path) {
        Ok(zeta_models::ModelKind::Whisper) => {}
        Ok(other) => {
            return Err(VoiceError::ModelInvalid {
                path: path.to_path_buf(),
                reason: format!("it is a {} model, not Whisper", other.label()),
            })
        }
        Err(e) => {
            return Err(VoiceError::ModelInvalid {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })
        }
    }
    let started = Instant::now();
    let context = WhisperContext::new_with_params(path, WhisperContextParameters::default())
        .map_err(|e| VoiceError::ModelInvalid {
            path: path.to_path_buf(),
            reason: format!("whisper.cpp could not load it ({e}); it may be cut short or corrupt"),
        })?;
    tracing::info!(model = %path.display(), took_ms = started.elapsed().as_millis() as u64, "Whisper model loaded");
    Ok(context)
}

/// `audio_ctx` for `samples` of speech: the frames it needs plus a margin, at least 512.
pub fn audio_ctx(samples: usize) -> i32 {
    let secs = samples as f32 / crate::audio::WHISPER_RATE as f32;
    ((secs * FRAMES_PER_SEC * 1.1) as i32 + 64).clamp(MIN_AUDIO_CTX, 1500)
}

/// The text without Whisper's markers for non-speech (`[BLANK_AUDIO]`, `(music)`, `*cough*`)
/// and with its spacing tidied.
pub fn clean(text: &str) -> String {
    let mut out = String::new();
    let (mut depth, mut starred) = (0usize, false);
    for c in text.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            '*' => starred = !starred,
            _ if depth == 0 && !starred => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audio_ctx_fits_short_clips_but_never_below_512() {
        assert_eq!(audio_ctx(16_000), 512);
        assert_eq!(audio_ctx(16_000 * 10), 614);
        assert_eq!(audio_ctx(16_000 * 40), 1500);
    }

    #[test]
    fn non_speech_markers_are_removed() {
        assert_eq!(clean(" [BLANK_AUDIO] "), "");
        assert_eq!(
            clean(" Open the  browser (music) please."),
            "Open the browser please."
        );
        assert_eq!(clean("*cough* list files"), "list files");
    }
}
