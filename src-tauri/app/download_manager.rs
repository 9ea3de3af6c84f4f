//! Downloading a catalogue model from the window (onboarding's "Zeta's own model"), held
//! in Tauri state: one download at a time, its progress sent as `zeta:download` with the
//! rate measured in this run and the time left it gives; Cancel stops it and keeps the
//! bytes (`<name>.part`), so the next start resumes. The file is checked by its checksum
//! and header before it counts as installed.

use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use tauri::AppHandle;
use tauri_specta::Event as _;
use zeta_core::ZetaHome;
use zeta_models::{catalog, ModelStore, Progress};

/// Where a download is.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum DownloadState {
    #[serde(rename_all = "camelCase")]
    Running {
        name: String,
        received: u64,
        total: Option<u64>,
        /// Bytes kept from an earlier run, which this one continues.
        resumed_from: u64,
        /// Measured over this run; `None` in its first second.
        bytes_per_sec: Option<u64>,
        eta_secs: Option<u64>,
    },
    #[serde(rename_all = "camelCase")]
    Done { name: String },
    /// Stopped by the user; the bytes so far are kept for the next start.
    #[serde(rename_all = "camelCase")]
    Cancelled { name: String, kept: u64 },
    #[serde(rename_all = "camelCase")]
    Failed { name: String, said: String },
}

pub struct DownloadManager {
    store: ModelStore,
    running: Mutex<Option<tauri::async_runtime::JoinHandle<()>>>,
}

impl DownloadManager {
    pub fn new(home: &ZetaHome) -> Self {
        Self {
            store: ModelStore::new(home.models_dir()),
            running: Mutex::new(None),
        }
    }

    /// Starts downloading catalogue model `name` (resuming what an earlier run kept).
    pub fn start(&self, app: AppHandle, name: &str) -> Result<(), String> {
        let known =
            catalog::find(name).ok_or(format!("Zeta does not know a model named {name}."))?;
        let mut running = self
            .running
            .lock()
            .map_err(|_| "the download state is unusable".to_string())?;
        if running.as_ref().is_some_and(|h| !h.inner().is_finished()) {
            return Err("A download is already running.".into());
        }
        let dest = self.store.dir().join(known.name);
        let store = self.store.clone();
        let name = known.name.to_string();
        *running = Some(tauri::async_runtime::spawn(async move {
            let state = fetch(&app, known, &dest, &store).await;
            if let Err(e) = super::ipc::DownloadNews(state.clone()).emit(&app) {
                tracing::warn!("could not send the download's end to the window: {e}");
            }
            tracing::info!("download of {name} ended: {state:?}");
        }));
        Ok(())
    }

    /// Stops the running download; what arrived stays for the next start.
    pub fn cancel(&self, app: &AppHandle, name: &str) {
        let handle = self.running.lock().ok().and_then(|mut r| r.take());
        if let Some(handle) = handle {
            handle.abort();
            let kept = std::fs::metadata(zeta_models::download::part_path(
                &self.store.dir().join(name),
            ))
            .map(|m| m.len())
            .unwrap_or(0);
            let state = DownloadState::Cancelled {
                name: name.to_string(),
                kept,
            };
            if let Err(e) = super::ipc::DownloadNews(state.clone()).emit(app) {
                tracing::warn!("could not tell the window the download stopped: {e}");
            }
        }
    }
}

async fn fetch(
    app: &AppHandle,
    known: &catalog::Known,
    dest: &std::path::Path,
    store: &ModelStore,
) -> DownloadState {
    let name = known.name.to_string();
    let started = Instant::now();
    let mut last_sent: Option<Instant> = None;
    let mut report = |p: Progress| {
        let now = Instant::now();
        let done = Some(p.received) == p.total;
        if !done && last_sent.is_some_and(|t| now.duration_since(t).as_millis() < 250) {
            return;
        }
        last_sent = Some(now);
        let secs = started.elapsed().as_secs_f64();
        let rate = (secs >= 1.0).then(|| ((p.received - p.resumed_from) as f64 / secs) as u64);
        let eta = match (rate, p.total) {
            (Some(r), Some(t)) if r > 0 => Some(t.saturating_sub(p.received) / r),
            _ => None,
        };
        let state = DownloadState::Running {
            name: name.clone(),
            received: p.received,
            total: p.total,
            resumed_from: p.resumed_from,
            bytes_per_sec: rate,
            eta_secs: eta,
        };
        let _ = super::ipc::DownloadNews(state.clone()).emit(app);
    };
    let url = known.url();
    match zeta_models::download(&url, dest, Some(known.checksum), &mut report).await {
        Ok(_) => match store.get(known.name) {
            Ok(_) => DownloadState::Done { name },
            Err(e) => {
                let _ = std::fs::remove_file(dest);
                DownloadState::Failed {
                    name,
                    said: format!(
                        "The downloaded file is not a usable model ({e}); it was removed."
                    ),
                }
            }
        },
        Err(e) => DownloadState::Failed {
            name,
            said: plain(&e),
        },
    }
}

/// A download error in words: what happened and whether the next start resumes.
fn plain(e: &zeta_models::ModelError) -> String {
    use zeta_models::ModelError as E;
    match e {
        E::Checksum { .. } => {
            "The download arrived damaged (its checksum did not match); it was removed. Try again."
                .into()
        }
        E::Http { status, .. } => format!("The download server refused it (HTTP {status})."),
        E::Unreachable { host, .. } => format!(
            "Could not reach {host}. Check the internet connection, then try again (what arrived so far is kept)."
        ),
        E::Download { message, .. } => format!("The download stopped ({message})."),
        other => format!("The download failed: {other}."),
    }
}
