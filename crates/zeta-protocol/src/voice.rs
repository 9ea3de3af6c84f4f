//! Push-to-talk as the window and `zeta listen` see it: the session's state, the events it
//! sends (`zeta:voice`), and whether the global hotkey is registered.

use serde::{Deserialize, Serialize};

use crate::settings::HotkeyMode;

/// Where the voice session is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum VoiceState {
    Idle,
    Listening,
    Transcribing,
}

impl VoiceState {
    /// The word the window and `zeta listen` show.
    pub fn as_str(self) -> &'static str {
        match self {
            VoiceState::Idle => "idle",
            VoiceState::Listening => "listening",
            VoiceState::Transcribing => "transcribing",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum VoiceEvent {
    State {
        state: VoiceState,
    },
    /// RMS level of the microphone, 0..1, while listening.
    Level {
        level: f32,
    },
    /// What was heard; it becomes a task.
    #[serde(rename_all = "camelCase")]
    Heard {
        text: String,
        speech_secs: f32,
        whisper_ms: u64,
    },
    /// The recording held no speech (silence or noise): no task.
    NothingHeard,
    /// Worth telling but not a failure: the length cap, a lost device (what was recorded
    /// is still transcribed).
    Notice {
        message: String,
    },
    Error {
        message: String,
    },
    /// Nothing was recorded: the speech model (`model`, its file name) is not installed.
    /// Said before any microphone is opened, so a fresh install asks for the model
    /// rather than failing at the sound card.
    NoModel {
        model: String,
    },
}

/// Said wherever the hotkey does not work.
pub const HOTKEY_ALTERNATIVES: &str =
    "use the tray menu's \"Start listening\" item, or `zeta listen` from a terminal";

/// The push-to-talk hotkey as registered (or not) with the desktop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct HotkeyStatus {
    pub shortcut: String,
    pub mode: HotkeyMode,
    pub registered: bool,
    /// Why it could not be registered.
    pub error: Option<String>,
    /// What to do instead (when not registered).
    pub alternatives: Option<String>,
}
