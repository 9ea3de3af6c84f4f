//! Push-to-talk in the app, held in Tauri state: the voice session (`zeta_voice::Listener`)
//! and the global hotkey that drives it. Its events go to the router, which shows them
//! (window, tray) and queues what was heard. Whether the hotkey could be registered is
//! kept in `$ZETA_HOME/voice.json` for `zeta doctor`, with the alternatives: the tray item
//! and `zeta listen`.

use std::sync::Mutex;
use std::time::Duration;

use tauri::AppHandle;
use tauri_plugin_global_shortcut::{GlobalShortcutExt, ShortcutState};
use tauri_specta::Event as _;
use zeta_core::{Settings, ZetaHome};
use zeta_protocol::voice::HOTKEY_ALTERNATIVES as ALTERNATIVES;
use zeta_voice::capture::CaptureOptions;
use zeta_voice::listener::{Listener, ListenerConfig};
use zeta_voice::ptt::Edge;

use super::heard::{Heard, Inbox};
use crate::desktop;

pub use zeta_protocol::voice::HotkeyStatus;

pub struct VoiceManager {
    listener: Listener,
    home: ZetaHome,
    hotkey: Mutex<Option<HotkeyStatus>>,
    /// On Wayland, the task that holds the portal's binding and forwards its edges.
    portal: Mutex<Option<tauri::async_runtime::JoinHandle<()>>>,
    /// The speech model the listener is configured with.
    model: Mutex<std::path::PathBuf>,
}

impl VoiceManager {
    /// Starts the voice session (nothing is loaded or opened until the first recording).
    /// Its events go to `inbox` (the router).
    pub fn new(home: &ZetaHome, settings: &Settings, inbox: Inbox) -> anyhow::Result<Self> {
        let model = Mutex::new(config(home, settings).model);
        let listener = Listener::spawn(config(home, settings), move |event| {
            if inbox.send(Heard::Voice(event)).is_err() {
                tracing::debug!("a voice event after the router stopped");
            }
        })?;
        Ok(Self {
            listener,
            home: home.clone(),
            hotkey: Mutex::new(None),
            portal: Mutex::new(None),
            model,
        })
    }

    pub fn listener(&self) -> &Listener {
        &self.listener
    }

    /// A hotkey edge from the global-shortcut plugin.
    pub fn key(&self, state: ShortcutState) {
        self.edge(match state {
            ShortcutState::Pressed => Edge::Pressed,
            ShortcutState::Released => Edge::Released,
        });
    }

    /// A hotkey edge, from the plugin or the desktop's portal.
    pub fn edge(&self, edge: Edge) {
        tracing::info!(
            "push-to-talk key {}",
            match edge {
                Edge::Pressed => "pressed",
                Edge::Released => "released",
            }
        );
        self.listener.key(edge);
    }

    /// Settings changed: new model, device, cap or mode, and the hotkey registered again.
    pub fn apply(&self, app: &AppHandle, settings: &Settings) {
        let config = config(&self.home, settings);
        if let Ok(mut model) = self.model.lock() {
            model.clone_from(&config.model);
        }
        self.listener.configure(config);
        self.register_hotkey(app, settings);
    }

    /// The configured speech model's file when it is not installed (nothing can be
    /// recorded until it is).
    pub fn missing_model(&self) -> Option<std::path::PathBuf> {
        self.model
            .lock()
            .ok()
            .map(|m| m.clone())
            .filter(|m| !m.is_file())
    }

    pub fn hotkey_status(&self) -> Option<HotkeyStatus> {
        self.hotkey.lock().ok().and_then(|h| h.clone())
    }

    /// Registers the push-to-talk shortcut, replacing any earlier one, and reports how it
    /// went. On Wayland the desktop's GlobalShortcuts portal is asked (see
    /// [`super::hotkey_portal`]); until it answers, and when it cannot, the status says how
    /// to bind the key in the compositor.
    pub fn register_hotkey(&self, app: &AppHandle, settings: &Settings) {
        let shortcut = settings.hotkey.push_to_talk.trim().to_string();
        let mode = settings.hotkey.mode;
        let had_one = self
            .hotkey
            .lock()
            .ok()
            .is_some_and(|h| h.as_ref().is_some_and(|s| s.registered));
        if let Some(task) = self.portal.lock().ok().and_then(|mut t| t.take()) {
            task.abort();
        }
        let session = zeta_tools::session::current();
        if session.is_wayland() {
            self.publish(
                app,
                HotkeyStatus {
                    shortcut: shortcut.clone(),
                    mode,
                    registered: false,
                    error: Some(
                        "asking the desktop to bind it (its GlobalShortcuts portal)".into(),
                    ),
                    alternatives: Some(desktop::hotkey_alternatives(session, &shortcut, mode)),
                },
            );
            let task = super::hotkey_portal::spawn(app.clone(), shortcut, mode);
            if let Ok(mut slot) = self.portal.lock() {
                *slot = Some(task);
            }
            return;
        }
        let result = register(app, &shortcut, had_one);
        let status = HotkeyStatus {
            shortcut: shortcut.clone(),
            mode,
            registered: result.is_ok(),
            alternatives: result
                .is_err()
                .then(|| desktop::hotkey_alternatives(session, &shortcut, mode)),
            error: result.err(),
        };
        self.publish(app, status);
    }

    /// Says how the hotkey stands: in the log, in `voice.json` for the doctor, to the
    /// window, and here.
    pub fn publish(&self, app: &AppHandle, status: HotkeyStatus) {
        let shortcut = &status.shortcut;
        match &status.error {
            None => {
                tracing::info!(%shortcut, mode = ?status.mode, "push-to-talk hotkey registered")
            }
            Some(e) => {
                let instead = status.alternatives.as_deref().unwrap_or(ALTERNATIVES);
                tracing::warn!(%shortcut, "push-to-talk hotkey not registered: {e}; instead: {instead}")
            }
        }
        self.write_status(&status);
        if let Err(e) = super::ipc::HotkeyNews(status.clone()).emit(app) {
            tracing::warn!("could not send the hotkey's state: {e}");
        }
        if let Ok(mut slot) = self.hotkey.lock() {
            *slot = Some(status);
        }
    }

    fn write_status(&self, status: &HotkeyStatus) {
        let path = self.home.voice_status_file();
        let written = serde_json::to_vec_pretty(status)
            .map_err(std::io::Error::other)
            .and_then(|bytes| zeta_protocol::home::write_private(&path, &bytes));
        if let Err(e) = written {
            tracing::warn!("could not write {}: {e}", path.display());
        }
    }

    /// The app is quitting: `zeta doctor` should not read a stale registration.
    pub fn forget_status(&self) {
        let _ = std::fs::remove_file(self.home.voice_status_file());
    }
}

/// Registers `shortcut`, first releasing the one registered before (`had_one`). Each call
/// into global-hotkey's X11 thread waits on the main thread for up to 50 ms (its loop
/// polls at that pace), so one with nothing to release is not made.
/// On X11 only: on Wayland an XWayland grab "succeeds" and fires only while an X11 window
/// has the focus (the portal is asked instead).
fn register(app: &AppHandle, shortcut: &str, had_one: bool) -> Result<(), String> {
    let display = desktop::display();
    if !display.is_ok() {
        return Err(format!(
            "global hotkeys need an X11 display: {}",
            display.text()
        ));
    }
    let shortcuts = app.global_shortcut();
    if had_one {
        shortcuts
            .unregister_all()
            .map_err(|e| format!("could not release the old hotkey: {e}"))?;
    }
    shortcuts.register(shortcut).map_err(|e| {
        let text = e.to_string();
        if text.contains("already") || text.contains("Already") {
            format!("{shortcut} is taken by another program ({text})")
        } else {
            format!("{shortcut} could not be registered: {text}")
        }
    })
}

/// The listener's settings from Zeta's.
pub fn config(home: &ZetaHome, settings: &Settings) -> ListenerConfig {
    ListenerConfig {
        capture: CaptureOptions {
            device: settings.voice.input_device.clone(),
            max: Duration::from_secs(u64::from(settings.voice.max_recording_secs)),
        },
        mode: settings.hotkey.mode,
        model: home.voice_model(&settings.voice.model),
        language: settings.voice.language.clone(),
    }
}
