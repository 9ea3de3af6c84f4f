//! The `local` provider: Zeta runs a llama.cpp-based OpenAI-compatible server itself (see
//! [`program`]) for a GGUF file in `$ZETA_HOME/models`, on a free 127.0.0.1 port, and talks
//! to it over the same HTTP path as any provider. [`LocalServer`] is the handle the app and
//! the CLI hold; its supervisor thread ([`supervisor`]) starts, restarts and stops the
//! server and publishes its state. One server serves a Zeta home: the app and the
//! commands share it, and without the app a keeper keeps it warm between commands
//! ([`shared`]). [`install`] installs the server program from the app.

pub mod install;
mod kept_prompt;
mod program;
pub mod shared;
mod supervisor;

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use zeta_core::settings::ProviderSettings;

pub use program::{default_build, default_venv, zeta_cache, ServerProgram};
pub use supervisor::Launch;
use supervisor::{Cmd, Supervisor};

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum LocalError {
    #[error("no local model server program: {looked}. Install llama.cpp's llama-server, or run scripts/local-model.sh to set up llama-cpp-python")]
    NoServer { looked: String },
    #[error("the local model {path} does not exist; `zeta models list` shows the installed models and `zeta models import FILE.gguf` adds one")]
    NoModel { path: PathBuf },
    #[error("the local provider needs a model: set provider.model to a GGUF file in {models_dir} (`zeta models use NAME`)")]
    NoModelNamed { models_dir: PathBuf },
    #[error("the local model server failed: {0}")]
    Failed(String),
    #[error("the local model server was stopped")]
    Stopped,
}

/// What to serve: the model file, the context size and the threads; and how long a keeper
/// keeps it loaded after the last request ([`Launch::Keeper`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalSpec {
    pub model: PathBuf,
    pub context: u32,
    pub threads: usize,
    pub keep_warm: Duration,
}

impl LocalSpec {
    /// From the provider settings: `model` is a file name in `models_dir` or a path;
    /// threads = cores − 1 (at least 1), so the machine stays usable.
    pub fn from_settings(p: &ProviderSettings, models_dir: &Path) -> Result<Self, LocalError> {
        let name = p.model.trim();
        if name.is_empty() {
            return Err(LocalError::NoModelNamed {
                models_dir: models_dir.to_path_buf(),
            });
        }
        let model = if Path::new(name).is_absolute() {
            PathBuf::from(name)
        } else {
            models_dir.join(name)
        };
        if !model.is_file() {
            return Err(LocalError::NoModel { path: model });
        }
        Ok(Self {
            model,
            context: p.context_window,
            threads: default_threads(),
            keep_warm: Duration::from_secs(u64::from(p.keep_warm_secs)),
        })
    }
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1))
        .unwrap_or(1)
        .max(1)
}

/// The server's state, for the UI, the log and `zeta doctor`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum LocalServerState {
    /// Not running (no local task yet, or stopped).
    Stopped,
    #[serde(rename_all = "camelCase")]
    Starting { model: String, program: String },
    #[serde(rename_all = "camelCase")]
    Ready {
        port: u16,
        pid: u32,
        model: String,
        program: String,
        startup_ms: u64,
    },
    /// It died or never answered; being started again.
    #[serde(rename_all = "camelCase")]
    Restarting { reason: String, attempt: u32 },
    #[serde(rename_all = "camelCase")]
    Failed { error: String },
}

/// The handle: cheap to share; the supervisor thread ends when the last handle is dropped
/// (or at once on [`LocalServer::stop`]).
pub struct LocalServer {
    tx: Mutex<Sender<Cmd>>,
    state: Arc<watch::Sender<LocalServerState>>,
    home: PathBuf,
}

impl LocalServer {
    /// A supervisor for the server of the Zeta home `home` (its log and status file live
    /// there), which starts one as `launch` says when none runs.
    pub fn new(home: &Path, launch: Launch) -> Arc<Self> {
        let (tx, rx) = std::sync::mpsc::channel();
        let state = Arc::new(watch::Sender::new(LocalServerState::Stopped));
        let supervisor = Supervisor {
            rx,
            launch,
            home: home.to_path_buf(),
            state: Arc::clone(&state),
            log: home.join("logs").join("local-server.log"),
            status_file: status_file(home),
        };
        if let Err(e) = std::thread::Builder::new()
            .name("zeta-local-server".into())
            .spawn(move || supervisor.run())
        {
            state.send_replace(LocalServerState::Failed {
                error: format!("could not start the supervisor thread: {e}"),
            });
        }
        Arc::new(Self {
            tx: Mutex::new(tx),
            state,
            home: home.to_path_buf(),
        })
    }

    pub fn state(&self) -> LocalServerState {
        self.state.borrow().clone()
    }

    pub fn subscribe(&self) -> watch::Receiver<LocalServerState> {
        self.state.subscribe()
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Starts the server for `spec` unless it already serves it, and waits until it
    /// answers (or has died for good). Returns its base URL (`http://127.0.0.1:P/v1`).
    pub async fn ensure(
        &self,
        spec: &LocalSpec,
        program: &ServerProgram,
    ) -> Result<String, LocalError> {
        let model = spec.model.display().to_string();
        self.touch();
        if let LocalServerState::Ready { port, model: m, .. } = &*self.state.borrow() {
            if *m == model {
                return Ok(base_url(*port));
            }
        }
        // Clear an old failure, so that the wait below sees this request's outcome.
        self.state.send_if_modified(|s| {
            let stale = matches!(
                s,
                LocalServerState::Failed { .. } | LocalServerState::Stopped
            );
            if stale {
                *s = LocalServerState::Starting {
                    model: model.clone(),
                    program: program.describe(),
                };
            }
            stale
        });
        self.send(Cmd::Ensure(spec.clone(), program.clone()))?;
        let mut rx = self.state.subscribe();
        let state = rx
            .wait_for(|s| match s {
                LocalServerState::Ready { model: m, .. } => *m == model,
                LocalServerState::Failed { .. } => true,
                _ => false,
            })
            .await
            .map_err(|_| LocalError::Stopped)?
            .clone();
        match state {
            LocalServerState::Ready { port, .. } => Ok(base_url(port)),
            LocalServerState::Failed { error } => Err(LocalError::Failed(error)),
            _ => Err(LocalError::Stopped),
        }
    }

    /// Says the server was just used, so that its keeper keeps it loaded.
    pub fn touch(&self) {
        shared::touch(&self.home);
    }

    /// Stops the server (by its PID) and waits until it has exited, up to 10 s. A server
    /// shared with another Zeta, or kept by a keeper, is left running for its owner.
    pub fn stop(&self) {
        let (ack, done) = std::sync::mpsc::channel();
        if self.send(Cmd::Stop(ack)).is_ok() {
            let _ = done.recv_timeout(Duration::from_secs(10));
        }
    }

    fn send(&self, cmd: Cmd) -> Result<(), LocalError> {
        self.tx
            .lock()
            .map_err(|_| LocalError::Stopped)?
            .send(cmd)
            .map_err(|_| LocalError::Stopped)
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `$ZETA_HOME/local-server.json`: the running server, written while it serves.
pub fn status_file(home: &Path) -> PathBuf {
    home.join("local-server.json")
}

fn base_url(port: u16) -> String {
    format!("http://127.0.0.1:{port}/v1")
}

/// A local provider's server and what it serves, carried in the provider's config.
#[derive(Clone)]
pub struct LocalHandle {
    pub server: Arc<LocalServer>,
    pub spec: LocalSpec,
    pub program: ServerProgram,
}

impl LocalHandle {
    pub async fn base_url(&self) -> Result<String, LocalError> {
        self.server.ensure(&self.spec, &self.program).await
    }
}
