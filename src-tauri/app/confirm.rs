//! The confirmation dialog window (`confirm` in tauri.conf.json): small, always on top,
//! shown while a plan waits for the user, or a single call while the chat window (which
//! asks about single calls inline, beside the request) is hidden; hidden again once
//! nothing it should show waits. Closing it denies what it showed.

use tauri::{AppHandle, Manager};
use zeta_core::{Event, Op};

use super::queue_manager::QueueManager;

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

fn show_or_hide(app: &AppHandle, waiting: bool) {
    let Some(window) = app.get_webview_window(CONFIRM_WINDOW) else {
        tracing::warn!("the confirmation window is gone; approvals still show in the chat");
        return;
    };
    let result = if waiting {
        window
            .set_always_on_top(true)
            .and_then(|_| window.unminimize())
            .and_then(|_| window.show())
            .and_then(|_| window.set_focus())
    } else {
        window.hide()
    };
    if let Err(e) = result {
        tracing::warn!("could not show or hide the confirmation window: {e}");
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
