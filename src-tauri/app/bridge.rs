//! Forwards the core's events to the webviews (as `zeta:event`), mirrors them on the tray
//! icon, and opens the confirmation dialog while a request waits for the user.

use tauri::{AppHandle, Emitter, Manager};
use tokio::sync::broadcast::{self, error::RecvError};
use zeta_core::{Event, WorkerState};

use super::queue_manager::QueueManager;
use super::tray::{TrayManager, TrayStatus};

/// The event name the webview listens to.
pub const EVENT_NAME: &str = "zeta:event";
/// The local model server's state, sent on every change.
pub const LOCAL_SERVER_EVENT: &str = "zeta:local-server";

/// Forwards the local model server's state to the webviews until the server's handle is gone.
pub async fn forward_local_server(
    app: AppHandle,
    mut state: tokio::sync::watch::Receiver<zeta_llm::LocalServerState>,
) {
    while state.changed().await.is_ok() {
        let now = state.borrow_and_update().clone();
        if let Err(e) = app.emit(LOCAL_SERVER_EVENT, &now) {
            tracing::warn!("could not forward the local server's state: {e}");
        }
    }
}

/// Runs until the core's event stream ends.
pub async fn forward(app: AppHandle, mut events: broadcast::Receiver<Event>) {
    loop {
        let event = match events.recv().await {
            Ok(event) => event,
            // The window missed some events: have it reload the queue.
            Err(RecvError::Lagged(n)) => {
                tracing::warn!("event bridge lagged by {n} events");
                Event::QueueChanged
            }
            Err(RecvError::Closed) => return,
        };
        mirror_on_tray(&app, &event);
        if app.state::<QueueManager>().track_pending(&event) {
            super::confirm::refresh(&app);
        }
        if let Err(e) = app.emit(EVENT_NAME, &event) {
            tracing::warn!("could not forward an event to the window: {e}");
        }
    }
}

fn mirror_on_tray(app: &AppHandle, event: &Event) {
    let tray = app.try_state::<TrayManager>();
    match event {
        Event::TaskStarted { .. } | Event::ApprovalResolved { .. } => {
            if let Some(tray) = tray {
                tray.set_status(TrayStatus::Working);
            }
        }
        Event::ApprovalRequested { .. }
        | Event::PlanProposed {
            needs_approval: true,
            ..
        } => {
            if let Some(tray) = tray {
                tray.set_status(TrayStatus::NeedsApproval);
            }
        }
        Event::TaskFinished { task } if task.started_at.is_some() => {
            if let Some(tray) = tray {
                tray.set_status(TrayStatus::Idle);
            }
        }
        Event::WorkerStateChanged { state } => {
            app.state::<QueueManager>().set_worker_state(state.clone());
            if let Some(tray) = tray {
                tray.set_paused(matches!(state, WorkerState::Paused));
            }
        }
        _ => {}
    }
}
