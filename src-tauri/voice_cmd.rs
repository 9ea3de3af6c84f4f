//! `zeta transcribe FILE.wav [--model PATH]`: prints what Whisper hears in a WAV file (any
//! rate and channel count), with the configured model and language unless told otherwise.
//! Silence prints nothing. Used by tests and scripts.
//!
//! `zeta listen [start|stop|toggle|status]`: drives the running app's voice session through
//! its control socket, for when the global hotkey is unavailable (Wayland, key taken).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

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
                "language": t.language,
                "model": model.display().to_string(),
            })
        );
    } else if !t.text.is_empty() {
        println!("{}", t.text);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ListenAction {
    Start,
    Stop,
    Toggle,
    Status,
}

pub fn listen(home: &ZetaHome, action: ListenAction) -> anyhow::Result<ExitCode> {
    let path = home.root().join(crate::app::CONTROL_SOCKET);
    let mut stream = UnixStream::connect(&path).map_err(|e| {
        anyhow::anyhow!(
            "Zeta is not running for {} ({}: {e}); start the app first",
            home.root().display(),
            path.display()
        )
    })?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let word = match action {
        ListenAction::Start => "start",
        ListenAction::Stop => "stop",
        ListenAction::Toggle => "toggle",
        ListenAction::Status => "status",
    };
    stream.write_all(format!("listen {word}\n").as_bytes())?;
    let mut reply = String::new();
    BufReader::new(&stream).read_line(&mut reply)?;
    let reply: serde_json::Value = serde_json::from_str(reply.trim())
        .map_err(|e| anyhow::anyhow!("the app's reply was not understood ({e}): {reply:?}"))?;
    if let Some(error) = reply["error"].as_str() {
        anyhow::bail!("the app refused: {error}");
    }
    let state = reply["state"].as_str().unwrap_or("unknown");
    println!("{state}");
    if action == ListenAction::Status {
        if let Some(hotkey) = reply.get("hotkey").filter(|h| !h.is_null()) {
            let shortcut = hotkey["shortcut"].as_str().unwrap_or("?");
            match hotkey["error"].as_str() {
                None => println!("hotkey {shortcut}: registered"),
                Some(e) => println!("hotkey {shortcut}: not registered ({e})"),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
