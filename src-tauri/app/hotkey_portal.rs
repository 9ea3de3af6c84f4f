//! Push-to-talk on Wayland through the desktop's GlobalShortcuts portal (KDE, GNOME ≥ 48,
//! Hyprland): the app's id registered with the portal (GNOME delivers events only to a
//! known app), the key bound with the person's consent, and its press and release handed
//! to the voice session for as long as the binding lives. Where the desktop has no such
//! portal, or the person says no, the hotkey's status says so and how to bind the key in
//! the compositor instead.

use std::sync::Arc;

use tauri::{AppHandle, Manager};
use zeta_core::settings::HotkeyMode;
use zeta_display::portal::shortcuts::{self, Edge};
use zeta_protocol::voice::HotkeyStatus;

use super::voice_manager::VoiceManager;
use crate::desktop;

/// The app's id, as its desktop entry is named.
const APP_ID: &str = "dev.zeta.agent";

/// Binds `shortcut` through the portal and forwards its edges, until aborted.
pub fn spawn(
    app: AppHandle,
    shortcut: String,
    mode: HotkeyMode,
) -> tauri::async_runtime::JoinHandle<()> {
    tauri::async_runtime::spawn(async move {
        let bound = async {
            let conn = zeta_display::portal::connect(None).await?;
            zeta_display::portal::register_app(&conn, APP_ID).await;
            shortcuts::bind(conn, &shortcut).await
        }
        .await;
        let Some(voice) = app.try_state::<Arc<VoiceManager>>().map(|v| Arc::clone(&v)) else {
            return;
        };
        let session = zeta_tools::session::current();
        let mut bound = match bound {
            Ok(bound) => bound,
            Err(e) => {
                let compositor = session
                    .wayland
                    .as_ref()
                    .map_or("this desktop", |w| w.compositor.name());
                voice.publish(
                    &app,
                    HotkeyStatus {
                        shortcut: shortcut.clone(),
                        mode,
                        registered: false,
                        error: Some(format!(
                            "{e}; on Wayland ({compositor}) a key that works in every window is the desktop's to bind"
                        )),
                        alternatives: Some(desktop::hotkey_alternatives(session, &shortcut, mode)),
                    },
                );
                return;
            }
        };
        tracing::info!(
            trigger = %bound.trigger,
            "push-to-talk bound through the desktop's GlobalShortcuts portal"
        );
        voice.publish(
            &app,
            HotkeyStatus {
                shortcut: if bound.trigger.is_empty() {
                    shortcut
                } else {
                    bound.trigger.clone()
                },
                mode,
                registered: true,
                error: None,
                alternatives: None,
            },
        );
        while let Some(edge) = bound.edges.recv().await {
            voice.edge(match edge {
                Edge::Pressed => zeta_voice::ptt::Edge::Pressed,
                Edge::Released => zeta_voice::ptt::Edge::Released,
            });
        }
    })
}
