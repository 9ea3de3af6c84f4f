//! The one error type of zeta-core. Each variant says what failed and where, and whether
//! trying again can help (`is_retryable`).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error("Zeta home folder: {0}")]
    Home(String),

    #[error(transparent)]
    HomeFolder(#[from] zeta_protocol::HomeError),

    #[error("could not {what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("database {path}: {source}")]
    Database {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },

    #[error("database {path}: schema migration failed: {source}")]
    Migration {
        path: PathBuf,
        #[source]
        source: rusqlite_migration::Error,
    },

    #[error("settings file {path} is not valid JSON: {message}")]
    SettingsSyntax { path: PathBuf, message: String },

    /// A change to the settings file refused before anything was written.
    #[error("settings file {path} was not changed: {message}")]
    SettingsRefused { path: PathBuf, message: String },
    #[error("task {0} does not exist")]
    NoSuchTask(i64),

    #[error("task {id} is {status}; only {allowed} tasks can be {action}")]
    WrongTaskState {
        id: i64,
        status: String,
        allowed: &'static str,
        action: &'static str,
    },

    #[error("another worker (pid {pid}) is processing the queue in {home}")]
    WorkerBusy { pid: String, home: PathBuf },

    #[error("the worker has stopped")]
    WorkerGone,
}

impl CoreError {
    /// True when the same call may succeed later without anything being changed:
    /// a busy database or another worker holding the queue.
    pub fn is_retryable(&self) -> bool {
        match self {
            CoreError::Database { source, .. } => matches!(
                source.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            ),
            CoreError::WorkerBusy { .. } => true,
            _ => false,
        }
    }
}
