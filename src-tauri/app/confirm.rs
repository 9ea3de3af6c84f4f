//! The confirmation dialog window (`confirm` in tauri.conf.json): small, always on top,
//! shown while a plan or a call waits for the user, even when the chat window is hidden,
//! and hidden again once nothing waits. Closing it denies what it showed.

use tauri::{AppHandle, Manager};
use zeta_core::{Event, Op};

use super::queue_manager::QueueManager;

/// The dialog's window label.
pub const CONFIRM_WINDOW: &str = "confirm";

pub fn show_or_hide(app: &AppHandle, waiting: bool) {
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
pub fn closed(app: &AppHandle) {
    let queue = app.state::<QueueManager>();
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
