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

use zeta_core::ZetaHome;
use zeta_protocol::control;
use zeta_voice::Transcriber;

pub fn transcribe(
    home: &ZetaHome,
    file: &Path,
    model: Option<PathBuf>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let settings = zeta_core::settings::load_or_create(&home.settings_file())?.settings;
    let model = model.unwrap_or_else(|| home.voice_model(&settings.voice.model));
    let samples = zeta_voice::audio::read_wav(file)?;
    let transcriber = Transcriber::new(&model, &settings.voice.language);
    let t = transcriber.transcribe(&samples)?;
    if json {
        out!(
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
        out!("{}", t.text);
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

impl From<ListenAction> for control::ListenAction {
    fn from(action: ListenAction) -> Self {
        match action {
            ListenAction::Start => control::ListenAction::Start,
            ListenAction::Stop => control::ListenAction::Stop,
            ListenAction::Toggle => control::ListenAction::Toggle,
            ListenAction::Status => control::ListenAction::Status,
        }
    }
}

pub fn listen(home: &ZetaHome, action: ListenAction) -> anyhow::Result<ExitCode> {
    let path = home.control_socket();
    let mut stream = UnixStream::connect(&path).map_err(|e| {
        anyhow::anyhow!(
            "Zeta is not running for {} ({}: {e}); start the app first",
            home.root().display(),
            path.display()
        )
    })?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let request = control::ControlRequest::Listen(action.into());
    stream.write_all(format!("{}\n", request.line()).as_bytes())?;
    let mut reply = String::new();
    BufReader::new(&stream).read_line(&mut reply)?;
    let reply: control::ControlReply = serde_json::from_str(reply.trim())
        .map_err(|e| anyhow::anyhow!("the app's reply was not understood ({e}): {reply:?}"))?;
    let (state, hotkey) = match reply {
        control::ControlReply::Error { error } => anyhow::bail!("the app refused: {error}"),
        control::ControlReply::Voice { state, hotkey } => (state, hotkey),
    };
    out!("{}", state.as_str());
    if action == ListenAction::Status {
        if let Some(hotkey) = hotkey {
            match hotkey.error {
                None => out!("hotkey {}: registered", hotkey.shortcut),
                Some(e) => out!("hotkey {}: not registered ({e})", hotkey.shortcut),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
