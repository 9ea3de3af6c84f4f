//! The chat window (`chat` in tauri.conf.json, `create: false`): made when it is first
//! shown — at start, or, when Zeta started in the tray at login (`--hidden`), when the user
//! first opens it — hidden when closed, and released (destroyed, with its web process,
//! ~100 MiB) once it has stayed hidden for `RELEASE_AFTER` with no task running and
//! nothing waiting for the user. Shown again, it is made again and reads everything from
//! the queue, as at start. A Zeta in the tray all day holds no web process.

use std::sync::Arc;
use std::time::Duration;

use tauri::{AppHandle, Manager};
use zeta_core::TaskStatus;

use super::confirm;
use super::queue_manager::QueueManager;
use super::window_life::{get_or_make, Release};

/// The chat window's label in tauri.conf.json.
pub const CHAT_WINDOW: &str = "chat";

/// How long the hidden chat is kept before it is released. `ZETA_CHAT_RELEASE_SECS`
/// changes it (the e2e test of the release sets a few seconds).
const RELEASE_AFTER: Duration = Duration::from_secs(300);

static RELEASE: Release = Release::new(CHAT_WINDOW);

fn release_after() -> Duration {
    std::env::var("ZETA_CHAT_RELEASE_SECS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .map(Duration::from_secs)
        .unwrap_or(RELEASE_AFTER)
}

/// Shows the chat window, made first if it does not exist, and focuses it.
pub fn show(app: &AppHandle) {
    RELEASE.shown();
    let window = match get_or_make(app, CHAT_WINDOW) {
        Ok(window) => window,
        Err(e) => return tracing::error!("{e}"),
    };
    let shown = window
        .unminimize()
        .and_then(|_| window.show())
        .and_then(|_| window.set_focus());
    if let Err(e) = shown {
        tracing::warn!("could not show the chat window: {e}");
    }
    // A single call the dialog showed while the chat was hidden is asked inline again.
    if let Some(queue) = app.try_state::<Arc<QueueManager>>() {
        confirm::refresh(app, &queue);
    }
}

/// Hides the chat window (closed by the user, or Escape in it); it is released later if
/// nothing needs it.
pub fn hide(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(CHAT_WINDOW) {
        if let Err(e) = window.hide() {
            tracing::warn!("could not hide the chat window: {e}");
        }
    }
    // A call asked inline must still reach the user: the dialog takes it.
    if let Some(queue) = app.try_state::<Arc<QueueManager>>() {
        confirm::refresh(app, &queue);
    }
    RELEASE.hidden(app, release_after(), unneeded);
}

/// Nothing the chat would show live: no task running, nothing waiting for the user.
fn unneeded(app: &AppHandle) -> bool {
    let Some(queue) = app.try_state::<Arc<QueueManager>>() else {
        return false;
    };
    let running = queue
        .recent(20)
        .map(|tasks| tasks.iter().any(|t| t.status == TaskStatus::Running))
        .unwrap_or(true);
    !running && queue.pending().is_empty()
}
