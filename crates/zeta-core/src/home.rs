//! Where Zeta keeps its files: `$ZETA_HOME` (default `~/.zeta`) with `settings.json`,
//! `zeta.db`, `models/`, `logs/` and the worker lock.

use std::path::{Path, PathBuf};

use crate::error::CoreError;

/// The resolved home folder. Cheap to clone; every path Zeta writes hangs off it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZetaHome {
    root: PathBuf,
}

impl ZetaHome {
    /// Resolves `$ZETA_HOME`, else `$HOME/.zeta`, and creates the folder and its subfolders.
    pub fn from_env() -> Result<Self, CoreError> {
        let root = match std::env::var_os("ZETA_HOME").filter(|v| !v.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
                Some(home) => PathBuf::from(home).join(".zeta"),
                None => {
                    return Err(CoreError::Home(
                        "neither ZETA_HOME nor HOME is set; set ZETA_HOME to a writable folder"
                            .into(),
                    ))
                }
            },
        };
        Self::at(root)
    }

    /// Uses `root` as the home folder, creating it and its subfolders when missing.
    pub fn at(root: impl Into<PathBuf>) -> Result<Self, CoreError> {
        let root = root.into();
        for dir in [root.clone(), root.join("models"), root.join("logs")] {
            std::fs::create_dir_all(&dir).map_err(|source| CoreError::Io {
                what: "create folder",
                path: dir.clone(),
                source,
            })?;
        }
        Ok(Self { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn settings_file(&self) -> PathBuf {
        self.root.join("settings.json")
    }
    pub fn database_file(&self) -> PathBuf {
        self.root.join("zeta.db")
    }
    pub fn models_dir(&self) -> PathBuf {
        self.root.join("models")
    }
    pub fn logs_dir(&self) -> PathBuf {
        self.root.join("logs")
    }
    pub fn worker_lock_file(&self) -> PathBuf {
        self.root.join("worker.lock")
    }
}
