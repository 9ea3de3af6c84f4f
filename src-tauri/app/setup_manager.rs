//! Installing Zeta's own model server from the window (onboarding), held in Tauri state:
//! one install at a time (`zeta_llm::local::install`: llama-server built from source where
//! it can be, llama-cpp-python with pip otherwise), its lines and elapsed time sent as
//! `zeta:setup` against the measured estimate; Cancel ends the running program's whole
//! process group.

use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use tauri::AppHandle;
use tauri_specta::Event as _;
use zeta_llm::local::install::{install, Installer};
use zeta_llm::local::ServerProgram;

/// Where the server's install is.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum SetupState {
    #[serde(rename_all = "camelCase")]
    Running {
        /// The installer's latest line.
        line: String,
        elapsed_secs: u64,
        estimate_secs: u64,
    },
    Done,
    Cancelled,
    #[serde(rename_all = "camelCase")]
    Failed {
        said: String,
    },
}

#[derive(Default)]
pub struct SetupManager {
    running: Mutex<Option<tauri::async_runtime::JoinHandle<()>>>,
}

impl SetupManager {
    /// The server program Zeta would run now, in words; `None` when there is none.
    pub fn program(&self) -> Option<String> {
        ServerProgram::find().ok().map(|p| p.describe())
    }

    pub fn start(&self, app: AppHandle) -> Result<(), String> {
        let mut running = self
            .running
            .lock()
            .map_err(|_| "the setup state is unusable".to_string())?;
        if running.as_ref().is_some_and(|h| !h.inner().is_finished()) {
            return Err("The model server is already being installed.".into());
        }
        *running = Some(tauri::async_runtime::spawn(async move {
            let installer = Installer::choose();
            let started = Instant::now();
            let mut last_sent: Option<Instant> = None;
            let mut on_line = |line: String| {
                let now = Instant::now();
                if last_sent.is_some_and(|t| now.duration_since(t).as_millis() < 300) {
                    return;
                }
                last_sent = Some(now);
                let state = SetupState::Running {
                    line,
                    elapsed_secs: started.elapsed().as_secs(),
                    estimate_secs: installer.estimate_secs(),
                };
                let _ = super::ipc::SetupNews(state.clone()).emit(&app);
            };
            let cache = zeta_llm::local::zeta_cache();
            let state = match install(installer, &cache, &mut on_line).await {
                Ok(_) => SetupState::Done,
                Err(e) => SetupState::Failed {
                    said: format!("The model server could not be installed: {e}"),
                },
            };
            tracing::info!("model server install ended: {state:?}");
            if let Err(e) = super::ipc::SetupNews(state.clone()).emit(&app) {
                tracing::warn!("could not send the install's end to the window: {e}");
            }
        }));
        Ok(())
    }

    /// Stops the install: dropping it ends the running program's process group.
    pub fn cancel(&self, app: &AppHandle) {
        let handle = self.running.lock().ok().and_then(|mut r| r.take());
        if let Some(handle) = handle {
            handle.abort();
            let _ = super::ipc::SetupNews(SetupState::Cancelled).emit(app);
        }
    }
}
