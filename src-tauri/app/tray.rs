//! The tray icon: its menu (Open chat, Start/Stop listening, Pause/Resume queue, Start Zeta
//! when I log in, Quit) and
//! one icon per state (idle, working, needs approval, listening, transcribing). While voice
//! is active its state is shown over the queue's. A click on the menu goes to the router
//! (`TrayItem`); the tray knows no other manager.

use std::sync::{Arc, Mutex};

use tauri::image::Image;
use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Wry};

use zeta_voice::listener::VoiceState;

use super::heard::{Heard, Inbox, TrayItem};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrayStatus {
    Idle,
    Working,
    NeedsApproval,
    Listening,
    Transcribing,
}

impl TrayStatus {
    fn icon_bytes(self) -> &'static [u8] {
        match self {
            TrayStatus::Idle => include_bytes!("../../icons/tray-idle.png"),
            TrayStatus::Working => include_bytes!("../../icons/tray-working.png"),
            TrayStatus::NeedsApproval => include_bytes!("../../icons/tray-approval.png"),
            TrayStatus::Listening => include_bytes!("../../icons/tray-listening.png"),
            TrayStatus::Transcribing => include_bytes!("../../icons/tray-working.png"),
        }
    }

    fn tooltip(self) -> &'static str {
        match self {
            TrayStatus::Idle => "Zeta: idle",
            TrayStatus::Working => "Zeta: working",
            TrayStatus::NeedsApproval => "Zeta: needs your approval",
            TrayStatus::Listening => "Zeta: listening",
            TrayStatus::Transcribing => "Zeta: transcribing",
        }
    }
}

/// Cheap to clone: the router holds one.
#[derive(Clone)]
pub struct TrayManager {
    tray: TrayIcon<Wry>,
    pause_item: MenuItem<Wry>,
    listen_item: MenuItem<Wry>,
    login_item: CheckMenuItem<Wry>,
    /// The queue's status and, while voice is active, voice's (shown instead).
    status: Arc<Mutex<(TrayStatus, Option<TrayStatus>)>>,
}

impl TrayManager {
    /// Builds the tray icon and its menu; clicks go to `inbox`. `start_with_session` is the
    /// setting's value, shown as the login item's check.
    pub fn create(app: &AppHandle, inbox: Inbox, start_with_session: bool) -> tauri::Result<Self> {
        let open = MenuItem::with_id(app, "open", "Open chat", true, None::<&str>)?;
        let listen_item = MenuItem::with_id(app, "listen", "Start listening", true, None::<&str>)?;
        let pause_item = MenuItem::with_id(app, "pause", "Pause queue", true, None::<&str>)?;
        let login_item = CheckMenuItem::with_id(
            app,
            "login",
            "Start Zeta when I log in",
            true,
            start_with_session,
            None::<&str>,
        )?;
        let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
        let separator = PredefinedMenuItem::separator(app)?;
        let menu = Menu::with_items(
            app,
            &[
                &open,
                &listen_item,
                &pause_item,
                &login_item,
                &separator,
                &quit,
            ],
        )?;
        let tray = TrayIconBuilder::with_id("zeta")
            .icon(Image::from_bytes(TrayStatus::Idle.icon_bytes())?)
            .tooltip(TrayStatus::Idle.tooltip())
            .menu(&menu)
            .on_menu_event(move |_app, event| {
                let item = match event.id.as_ref() {
                    "open" => TrayItem::OpenChat,
                    "pause" => TrayItem::PauseOrResume,
                    "listen" => TrayItem::Listen,
                    "login" => TrayItem::StartWithSession,
                    "quit" => TrayItem::Quit,
                    other => return tracing::debug!("tray: unknown menu item {other}"),
                };
                if inbox.send(Heard::Menu(item)).is_err() {
                    tracing::warn!("tray: the app is stopping; {item:?} ignored");
                }
            })
            .build(app)?;
        Ok(Self {
            tray,
            pause_item,
            listen_item,
            login_item,
            status: Arc::new(Mutex::new((TrayStatus::Idle, None))),
        })
    }

    /// The queue's status (shown unless voice is active).
    pub fn set_status(&self, status: TrayStatus) {
        self.show(|s| s.0 = status);
    }

    /// Voice's state: listening and transcribing show over the queue's status.
    pub fn set_voice(&self, state: VoiceState) {
        let (voice, label) = match state {
            VoiceState::Idle => (None, "Start listening"),
            VoiceState::Listening => (Some(TrayStatus::Listening), "Stop listening"),
            VoiceState::Transcribing => (Some(TrayStatus::Transcribing), "Start listening"),
        };
        if let Err(e) = self.listen_item.set_text(label) {
            tracing::warn!("tray: could not relabel the listen item: {e}");
        }
        self.show(|s| s.1 = voice);
    }

    fn show(&self, change: impl FnOnce(&mut (TrayStatus, Option<TrayStatus>))) {
        let Ok(mut current) = self.status.lock() else {
            return;
        };
        let before = current.1.unwrap_or(current.0);
        change(&mut current);
        let status = current.1.unwrap_or(current.0);
        if before == status {
            return;
        }
        let icon = Image::from_bytes(status.icon_bytes());
        let result = icon.and_then(|icon| {
            self.tray.set_icon(Some(icon))?;
            self.tray.set_tooltip(Some(status.tooltip()))
        });
        if let Err(e) = result {
            tracing::warn!("tray: could not show {status:?}: {e}");
        }
    }

    /// The login item's check, to match the setting.
    pub fn set_start_with_session(&self, on: bool) {
        if let Err(e) = self.login_item.set_checked(on) {
            tracing::warn!("tray: could not check the login item: {e}");
        }
    }

    pub fn set_paused(&self, paused: bool) {
        let label = if paused {
            "Resume queue"
        } else {
            "Pause queue"
        };
        if let Err(e) = self.pause_item.set_text(label) {
            tracing::warn!("tray: could not relabel the pause item: {e}");
        }
    }
}
