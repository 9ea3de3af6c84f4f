//! The one router for everything the app hears: the core's events, the voice session's
//! events and the tray menu's clicks. From here, and only here, each goes where it must:
//! the windows (`zeta:event`, `zeta:voice`), the tray icon, the queue's list of requests
//! waiting for the user, the confirmation dialog, and a heard command into the queue. The
//! managers never call each other; they hand what happens to the router.
//! The model's streamed text reaches the window joined (`deltas`): at most ten messages a
//! second, the same text in the same order.

use std::sync::Arc;

use tauri::AppHandle;
use tauri_specta::Event as _;

use super::ipc::{CoreNews, LocalServerNews, VoiceNews};
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;
use zeta_core::{Event, Op, WorkerState};
use zeta_voice::listener::VoiceEvent;

use super::deltas::Deltas;
use super::heard::{Heard, TrayItem};
use super::queue_manager::QueueManager;
use super::rest::Rest;
use super::settings_manager::SettingsManager;
use super::tray::{TrayManager, TrayStatus};
use super::voice_manager::VoiceManager;

/// The router and the handles it fans out to, built last by the composition root.
pub struct Router {
    pub app: AppHandle,
    pub queue: Arc<QueueManager>,
    pub settings: Arc<SettingsManager>,
    pub tray: Option<TrayManager>,
    pub voice: Option<Arc<VoiceManager>>,
    /// Told of everything heard, so the app gives memory back only once quiet.
    pub rest: Arc<Rest>,
}

impl Router {
    /// Runs until the core's event stream ends.
    pub async fn run(
        self,
        mut core: broadcast::Receiver<Event>,
        mut heard: mpsc::UnboundedReceiver<Heard>,
    ) {
        let mut saved = self.settings.subscribe();
        let mut deltas = Deltas::default();
        loop {
            let due = deltas.due();
            tokio::select! {
                event = core.recv() => match event {
                    Ok(event) => {
                        self.rest.woke();
                        for e in deltas.on(event, tokio::time::Instant::now()) {
                            self.core_event(e);
                        }
                    }
                    // The window missed some events: have it reload the queue.
                    Err(RecvError::Lagged(n)) => {
                        tracing::warn!("the router lagged by {n} events");
                        self.send_held(&mut deltas);
                        self.core_event(Event::QueueChanged);
                    }
                    Err(RecvError::Closed) => {
                        self.send_held(&mut deltas);
                        return;
                    }
                },
                () = async {
                    match due {
                        Some(due) => tokio::time::sleep_until(due).await,
                        None => std::future::pending().await,
                    }
                } => self.send_held(&mut deltas),
                Some(heard) = heard.recv() => {
                    self.rest.woke();
                    match heard {
                        Heard::Voice(event) => self.voice_event(event),
                        Heard::Menu(item) => self.menu(item),
                    }
                }
                // Saved settings: the tray's login check follows them.
                Ok(()) = saved.changed() => {
                    let on = saved.borrow_and_update().as_ref().map(|s| s.start_with_session);
                    if let (Some(tray), Some(on)) = (&self.tray, on) {
                        tray.set_start_with_session(on);
                    }
                }
            }
        }
    }

    /// Sends the streamed text held, if any.
    fn send_held(&self, deltas: &mut Deltas) {
        if let Some(event) = deltas.take() {
            self.core_event(event);
        }
    }

    fn core_event(&self, event: Event) {
        self.mirror_on_tray(&event);
        if let Event::WorkerStateChanged { state } = &event {
            self.queue.set_worker_state(state.clone());
        }
        if self.queue.track_pending(&event) {
            super::confirm::refresh(&self.app, &self.queue);
        }
        if let Err(e) = CoreNews(event).emit(&self.app) {
            tracing::warn!("could not forward an event to the window: {e}");
        }
    }

    fn mirror_on_tray(&self, event: &Event) {
        let Some(tray) = &self.tray else { return };
        match event {
            Event::TaskStarted { .. } | Event::ApprovalResolved { .. } => {
                tray.set_status(TrayStatus::Working)
            }
            Event::ApprovalRequested { .. }
            | Event::PlanProposed {
                needs_approval: true,
                ..
            } => tray.set_status(TrayStatus::NeedsApproval),
            Event::TaskFinished { task } if task.started_at.is_some() => {
                tray.set_status(TrayStatus::Idle)
            }
            Event::WorkerStateChanged { state } => {
                tray.set_paused(matches!(state, WorkerState::Paused))
            }
            _ => {}
        }
    }

    /// Runs for each voice event: the tray, the window, and a heard command into the queue.
    fn voice_event(&self, event: VoiceEvent) {
        match &event {
            VoiceEvent::State { state } => {
                if let Some(tray) = &self.tray {
                    tray.set_voice(*state);
                }
            }
            VoiceEvent::Heard {
                text, whisper_ms, ..
            } => {
                tracing::info!(%text, whisper_ms, "heard a voice command");
            }
            VoiceEvent::NothingHeard => tracing::info!("the recording held no speech: no task"),
            VoiceEvent::Notice { message } => tracing::warn!("voice: {message}"),
            VoiceEvent::Error { message } => tracing::error!("voice: {message}"),
            VoiceEvent::NoModel { model } => {
                tracing::warn!("voice: no speech model ({model}); the chat offers to download it");
                // Pressed from the tray or the hotkey with the chat hidden: the offer to
                // download the model is in the chat, so it is shown.
                super::chat_window::show(&self.app);
            }
            VoiceEvent::Level { .. } => {}
        }
        // The window shows what was heard before the task exists.
        if let Err(e) = VoiceNews(event.clone()).emit(&self.app) {
            tracing::warn!("could not send a voice event: {e}");
        }
        if let VoiceEvent::Heard { text, .. } = &event {
            if let Err(e) = self.queue.enqueue("voice", text) {
                tracing::error!("could not queue the voice command: {e}");
                let _ = VoiceNews(VoiceEvent::Error {
                    message: format!("could not queue {text:?}: {e}"),
                })
                .emit(&self.app);
            }
        }
    }

    fn menu(&self, item: TrayItem) {
        match item {
            TrayItem::OpenChat => super::show_chat(&self.app),
            TrayItem::PauseOrResume => {
                let op = if self.queue.is_paused() {
                    Op::ResumeQueue
                } else {
                    Op::PauseQueue
                };
                if let Err(e) = self.queue.core().submit(op) {
                    tracing::error!("tray: {e}");
                }
            }
            TrayItem::Listen => match &self.voice {
                Some(voice) => voice.listener().toggle(),
                None => tracing::warn!("tray: voice is not available"),
            },
            TrayItem::StartWithSession => {
                let on = !self.settings.start_with_session();
                match self.settings.set_start_with_session(on) {
                    Ok(()) => tracing::info!(on, "tray: start with the session"),
                    Err(e) => tracing::error!("tray: the login start was not changed: {e}"),
                }
                // The check shows the setting, whether or not the change was saved.
                if let Some(tray) = &self.tray {
                    tray.set_start_with_session(self.settings.start_with_session());
                }
            }
            TrayItem::Quit => super::quit(&self.app),
        }
    }
}

/// Forwards the local model server's state to the webviews until the server's handle is gone.
pub async fn forward_local_server(
    app: AppHandle,
    mut state: tokio::sync::watch::Receiver<zeta_llm::LocalServerState>,
) {
    while state.changed().await.is_ok() {
        let now = state.borrow_and_update().clone();
        if let Err(e) = LocalServerNews(now).emit(&app) {
            tracing::warn!("could not forward the local server's state: {e}");
        }
    }
}
