//! `zeta transcribe FILE.wav [--model PATH]`: prints what Whisper hears in a WAV file (any
//! rate and channel count), with the configured model and language unless told otherwise.
//! Silence prints nothing. Used by tests and scripts.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use zeta_core::{Settings, ZetaHome};
use zeta_voice::Transcriber;

/// The configured voice model: a file name in `$ZETA_HOME/models`, or a path.
pub fn configured_model(home: &ZetaHome, settings: &Settings) -> PathBuf {
    let configured = Path::new(&settings.voice.model);
    if configured.is_absolute() {
        configured.to_path_buf()
    } else {
        home.models_dir().join(configured)
    }
}

pub fn transcribe(
    home: &ZetaHome,
    file: &Path,
    model: Option<PathBuf>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let settings = Settings::load_or_create(&home.settings_file())?.settings;
    let model = model.unwrap_or_else(|| configured_model(home, &settings));
    let samples = zeta_voice::audio::read_wav(file)?;
    let transcriber = Transcriber::new(&model, &settings.voice.language);
    let t = transcriber.transcribe(&samples)?;
    if json {
        println!(
            "{}",
            serde_json::json!({
                "text": t.text,
                "speechSecs": t.speech_secs,
                "whisperMs": t.took.as_millis() as u64,
                "model": model.display().to_string(),
            })
        );
    } else if !t.text.is_empty() {
        println!("{}", t.text);
    }
    Ok(ExitCode::SUCCESS)
}
