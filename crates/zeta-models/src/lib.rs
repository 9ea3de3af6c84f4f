//! zeta-models: the model files Zeta runs, kept in `$ZETA_HOME/models`.
//!
//! - [`format`]: what a file is, from its header (GGUF for the local LLM, whisper.cpp's
//!   ggml for voice), so a truncated or foreign file is refused with a reason.
//! - [`store`]: list and import (copied in whole, or hard-linked when on the same disk).
//! - [`download`]: HTTP download into a `.part` file that a later run resumes, checked
//!   against a sha256 before it takes the model's name.
//! - [`whisper_convert`]: a faster-whisper (CTranslate2) folder → whisper.cpp ggml, with
//!   the mel filterbank from [`mel`].
//! - [`catalog`]: the models Zeta knows by name.

pub mod catalog;
mod ct2;
pub mod download;
pub mod format;
pub mod mel;
pub mod store;
pub mod whisper_convert;

pub use download::{download, Progress};
pub use format::ModelKind;
pub use store::{InstalledModel, ModelStore};

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("{what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a model Zeta can use: {reason}")]
    NotAModel { path: PathBuf, reason: String },
    #[error("no model named {name:?} in {dir}; `zeta models list` shows what is there")]
    NotInstalled { name: String, dir: PathBuf },
    #[error("download of {url} failed: {message}")]
    Download { url: String, message: String },
    /// The host could not be reached (no route, refused, name unknown, timed out).
    #[error("{host} could not be reached for {url}: {message}")]
    Unreachable {
        url: String,
        host: String,
        message: String,
    },
    #[error("{url}: HTTP {status}")]
    Http { url: String, status: u16 },
    #[error("checksum mismatch for {url}: expected {algorithm} {expected}, got {actual}; the file was discarded")]
    Checksum {
        url: String,
        algorithm: &'static str,
        expected: String,
        actual: String,
    },
    #[error("{0}")]
    Invalid(String),
}

impl ModelError {
    /// A network failure that a later run can resume from.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            ModelError::Download { .. } | ModelError::Unreachable { .. }
        ) || matches!(self, ModelError::Http { status, .. } if *status >= 500)
    }
}

pub(crate) fn io(
    what: &'static str,
    path: &std::path::Path,
) -> impl FnOnce(std::io::Error) -> ModelError {
    let path = path.to_path_buf();
    move |source| ModelError::Io { what, path, source }
}
