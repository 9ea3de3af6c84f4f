//! The life of a window made on demand: made from its entry in tauri.conf.json (marked
//! `create: false`) when it is first needed, and destroyed — its web process with it —
//! once it has stayed hidden for a while and nothing needs it, to be made again the next
//! time. A `Release` per window counts that window's show and hide decisions, so a
//! destroy that waited out its delay happens only if no decision came since.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tauri::{AppHandle, Manager, WebviewWindow};

/// The window labelled `label`, made from its configuration if it does not exist.
pub fn get_or_make(app: &AppHandle, label: &str) -> Result<WebviewWindow, String> {
    if let Some(window) = app.get_webview_window(label) {
        return Ok(window);
    }
    let config = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == label)
        .ok_or_else(|| format!("tauri.conf.json has no {label} window"))?
        .clone();
    tauri::WebviewWindowBuilder::from_config(app, &config)
        .and_then(|builder| builder.build())
        .map_err(|e| format!("could not make the {label} window: {e}"))
}

/// One window's show/hide decisions.
pub struct Release {
    label: &'static str,
    decisions: AtomicU64,
}

impl Release {
    pub const fn new(label: &'static str) -> Self {
        Self {
            label,
            decisions: AtomicU64::new(0),
        }
    }

    /// The window is (being) shown: a destroy waiting for it is called off.
    pub fn shown(&self) {
        self.decisions.fetch_add(1, Ordering::SeqCst);
    }

    /// The window was hidden: it is destroyed after `after` if no decision came since, it
    /// is still hidden, and `unneeded` still says so then.
    pub fn hidden(
        &'static self,
        app: &AppHandle,
        after: Duration,
        unneeded: impl FnOnce(&AppHandle) -> bool + Send + 'static,
    ) {
        let decision = self.decisions.fetch_add(1, Ordering::SeqCst) + 1;
        let app = app.clone();
        tauri::async_runtime::spawn(async move {
            tokio::time::sleep(after).await;
            if self.decisions.load(Ordering::SeqCst) != decision || !unneeded(&app) {
                return;
            }
            let Some(window) = app.get_webview_window(self.label) else {
                return;
            };
            if window.is_visible().unwrap_or(true) {
                return;
            }
            match window.destroy() {
                Ok(()) => {
                    tracing::info!(window = self.label, "released the hidden window");
                    // What the window's side held is free now: the app gives it back.
                    if let Some(rest) = app.try_state::<std::sync::Arc<super::rest::Rest>>() {
                        rest.woke();
                    }
                }
                Err(e) => tracing::warn!("could not release the hidden {} window: {e}", self.label),
            }
        });
    }
}
