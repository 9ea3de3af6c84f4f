//! The confirmation dialog window (`confirm` in tauri.conf.json): small, always on top,
//! shown while a plan waits for the user, or a single call while the chat window (which
//! asks about single calls inline, beside the request) is hidden; hidden again once
//! nothing it should show waits. Closing it denies what it showed.
//!
//! It is made only when a request needs it (`create: false` keeps it from being made at
//! start), and destroyed once it has not been needed for `KEEP_HIDDEN` (`window_life`), so
//! a Zeta nobody is asked anything by holds no web process for it (~75 MiB). The wait
//! keeps a dialog that is needed again soon (the next step of a plan) from being destroyed
//! and made again between two refreshes.

use std::time::Duration;

use tauri::{AppHandle, Manager};
use zeta_core::{Event, Op};

use super::queue_manager::QueueManager;
use super::window_life::{get_or_make, Release};

/// The dialog's window label.
pub const CONFIRM_WINDOW: &str = "confirm";

/// Shows the dialog when a request waits that the chat cannot show (a plan, or anything
/// while the chat is hidden or minimized), and hides it otherwise.
pub fn refresh(app: &AppHandle, queue: &QueueManager) {
    let pending = queue.pending();
    let chat_shown = app
        .get_webview_window(super::CHAT_WINDOW)
        .is_some_and(|w| w.is_visible().unwrap_or(false) && !w.is_minimized().unwrap_or(false));
    let waiting = pending.iter().any(|event| match event {
        Event::PlanProposed { .. } => true,
        Event::ApprovalRequested { .. } => !chat_shown,
        _ => false,
    });
    show_or_hide(app, waiting);
}

/// How long the hidden dialog is kept before it is destroyed.
const KEEP_HIDDEN: Duration = Duration::from_secs(15);

/// The dialog's show/hide decisions.
static RELEASE: Release = Release::new(CONFIRM_WINDOW);

fn show_or_hide(app: &AppHandle, waiting: bool) {
    let existing = app.get_webview_window(CONFIRM_WINDOW);
    if !waiting {
        let Some(window) = existing else { return };
        if let Err(e) = window.hide() {
            tracing::warn!("could not hide the confirmation window: {e}");
        }
        RELEASE.hidden(app, KEEP_HIDDEN, |_| true);
        return;
    }
    RELEASE.shown();
    let window = match existing {
        Some(window) => window,
        None => match get_or_make(app, CONFIRM_WINDOW) {
            Ok(window) => window,
            Err(e) => {
                tracing::warn!("{e}; approvals still show in the chat");
                return;
            }
        },
    };
    let result = window
        .set_always_on_top(true)
        .and_then(|_| window.unminimize())
        .and_then(|_| window.show())
        .and_then(|_| window.set_focus());
    if let Err(e) = result {
        tracing::warn!("could not show the confirmation window: {e}");
    }
}

/// The user closed the dialog: everything it showed counts as denied.
pub fn closed(queue: &QueueManager) {
    for event in queue.pending() {
        let call_id = match event {
            Event::ApprovalRequested { call_id, .. } | Event::PlanProposed { call_id, .. } => {
                call_id
            }
            _ => continue,
        };
        let op = Op::Deny {
            call_id,
            reason: Some("the user closed the confirmation dialog".into()),
        };
        if let Err(e) = queue.core().submit(op) {
            tracing::warn!("could not deny after the dialog closed: {e}");
        }
    }
}
