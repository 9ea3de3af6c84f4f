//! Where Zeta keeps its files, and that they are the user's alone: `$ZETA_HOME` (default
//! `~/.zeta`) with `settings.json`, `zeta.db` (tasks, replies, the audit of every command,
//! memory), `models/`, `logs/`, `outputs/` and the worker lock.
//!
//! The home and the folders in it are created 0700 and the files Zeta writes there 0600
//! (`create_private_dir`, `open_private`, `write_private`). A home that other users can
//! read, from an older Zeta or made by hand, is tightened once when it is opened, and
//! `notice` says so.
//!
//! Every path in the home is named here, once (`ZetaHome`'s methods); nothing else joins
//! names onto its root.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The name of the API keys' file in the home, when no keyring service runs.
pub const SECRETS_FILE: &str = "secrets.json";

/// The home could not be found or made.
#[derive(Debug, thiserror::Error)]
pub enum HomeError {
    #[error(
        "Zeta home folder: neither ZETA_HOME nor HOME is set; set ZETA_HOME to a writable folder"
    )]
    NotSet,
    #[error("could not {what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The entries of the home Zeta itself writes while a task runs: its database and
/// journal, their locks, its logs, the outputs and originals it keeps, its socket. What
/// changes there during a call is Zeta's doing, not the call's (the home may also be the
/// folder a person's files are in: those stay the person's).
pub const WRITTEN_WHILE_RUNNING: &[&str] = &[
    "zeta.db",
    "zeta.db-wal",
    "zeta.db-shm",
    "zeta.db-journal",
    "zeta.db.setup-lock",
    "worker.lock",
    "control.sock",
    "logs",
    "outputs",
    "originals",
];

/// The resolved home folder. Cheap to clone; every path Zeta writes hangs off it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZetaHome {
    root: PathBuf,
    /// Set when opening it made a home others could read owner-only.
    notice: Option<String>,
}

impl ZetaHome {
    /// Resolves `$ZETA_HOME`, else `$HOME/.zeta`, and creates the folder and its subfolders.
    pub fn from_env() -> Result<Self, HomeError> {
        Self::at(Self::root_from_env().ok_or(HomeError::NotSet)?)
    }

    /// Where `from_env` would put the home, without making anything.
    pub fn root_from_env() -> Option<PathBuf> {
        match std::env::var_os("ZETA_HOME").filter(|v| !v.is_empty()) {
            Some(dir) => Some(PathBuf::from(dir)),
            None => std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|home| PathBuf::from(home).join(".zeta")),
        }
    }

    /// Uses `root` as the home folder, creating it and its subfolders (0700) when missing,
    /// and tightening it when others can read it.
    pub fn at(root: impl Into<PathBuf>) -> Result<Self, HomeError> {
        let root = root.into();
        let io_err = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| HomeError::Io { what, path, source }
        };
        for dir in [root.clone(), root.join("models"), root.join("logs")] {
            create_private_dir(&dir).map_err(io_err("create folder", &dir))?;
        }
        let notice = tighten(&root)
            .map_err(io_err("make owner-only", &root))?
            .then(|| {
                format!(
                    "{} was readable by other users of this computer; it is now owner-only (0700), \
                     with its database, settings, logs and outputs 0600",
                    root.display()
                )
            });
        Ok(Self { root, notice })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    /// What opening the home changed that the user should hear about, once.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }
    pub fn settings_file(&self) -> PathBuf {
        self.root.join("settings.json")
    }
    pub fn database_file(&self) -> PathBuf {
        self.root.join("zeta.db")
    }
    /// The MCP servers' tool lists from their last start, so a server starts only when a
    /// task calls one of its tools.
    pub fn mcp_tools_file(&self) -> PathBuf {
        self.root.join("mcp-tools.json")
    }
    /// The MCP servers' tool lists the person reviewed (digests).
    pub fn mcp_reviewed_file(&self) -> PathBuf {
        self.root.join("mcp-reviewed.json")
    }
    pub fn models_dir(&self) -> PathBuf {
        self.root.join("models")
    }
    pub fn logs_dir(&self) -> PathBuf {
        self.root.join("logs")
    }
    pub fn outputs_dir(&self) -> PathBuf {
        self.root.join("outputs")
    }
    pub fn worker_lock_file(&self) -> PathBuf {
        self.root.join("worker.lock")
    }
    /// The soul files (`<soul>.md`) that replace the built-in system prompts.
    pub fn souls_dir(&self) -> PathBuf {
        self.root.join("souls")
    }
    /// API keys, when no keyring service runs (owner-only).
    pub fn secrets_file(&self) -> PathBuf {
        self.root.join(SECRETS_FILE)
    }
    /// The running app's control socket (`zeta listen`).
    pub fn control_socket(&self) -> PathBuf {
        self.root.join("control.sock")
    }
    /// The running app's voice state, for `zeta doctor`.
    pub fn voice_status_file(&self) -> PathBuf {
        self.root.join("voice.json")
    }
    /// The Whisper model a settings value names: a file name in `models/`, or a path.
    pub fn voice_model(&self, configured: &str) -> PathBuf {
        let configured = Path::new(configured);
        if configured.is_absolute() {
            configured.to_path_buf()
        } else {
            self.models_dir().join(configured)
        }
    }
    /// What tasks changed on disk, kept so they can be undone (`zeta undo`): copies of
    /// the files they overwrote and the names of the ones they deleted, owner-only.
    pub fn originals_dir(&self) -> PathBuf {
        self.root.join("originals")
    }
    /// The person's skills: a folder per skill with its `SKILL.md` (zeta-skills).
    pub fn skills_dir(&self) -> PathBuf {
        self.root.join("skills")
    }
    /// Which skills are turned off, which the person trusts (by digest), and the drafts
    /// offered after tasks that worked.
    pub fn skills_state_file(&self) -> PathBuf {
        self.root.join("skills.json")
    }
    /// The skills' descriptions as the choosing model placed them (zeta-skills'
    /// `vectors`), kept so that a run does not place them again.
    pub fn skill_vectors_file(&self) -> PathBuf {
        self.root.join("skill-vectors.json")
    }
    /// Present once the user finished (or skipped) onboarding.
    pub fn onboarded_marker(&self) -> PathBuf {
        self.root.join("onboarded")
    }
}

/// Creates `dir` and any missing parents, owner-only (0700).
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

/// Opens `path` for writing, creating it owner-only (0600): appending, or truncated.
pub fn open_private(path: &Path, append: bool) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).mode(0o600);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    options.open(path)
}

/// Writes `bytes` to `path`, creating it owner-only (0600).
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    open_private(path, false)?.write_all(bytes)
}

/// Files in the home's top level that hold the user's data.
const PRIVATE_FILES: &[&str] = &[
    "zeta.db",
    "zeta.db-wal",
    "zeta.db-shm",
    "settings.json",
    "secrets.json",
];

/// Makes a home that group or others can read owner-only: the folder 0700; its data
/// files, logs and outputs 0600 (their folders 0700). Symbolic links are left alone.
/// True when something was changed.
fn tighten(root: &Path) -> std::io::Result<bool> {
    let mode = std::fs::metadata(root)?.permissions().mode();
    if mode & 0o077 == 0 {
        return Ok(false);
    }
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))?;
    for name in PRIVATE_FILES {
        restrict(&root.join(name))?;
    }
    for dir in ["logs", "outputs", "souls"] {
        restrict(&root.join(dir))?;
    }
    Ok(true)
}

/// A file to 0600, a folder (and all in it) to 0700 / 0600; missing paths and links are
/// skipped.
fn restrict(path: &Path) -> std::io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if meta.is_dir() {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))?;
        for entry in std::fs::read_dir(path)? {
            restrict(&entry?.path())?;
        }
    } else if meta.is_file() {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).expect("meta").permissions().mode() & 0o777
    }

    #[test]
    fn a_new_home_is_owner_only() {
        let dir = tempfile::tempdir().expect("dir");
        let home = ZetaHome::at(dir.path().join("zeta")).expect("home");
        assert_eq!(home.notice(), None);
        for path in [
            home.root().to_path_buf(),
            home.logs_dir(),
            home.models_dir(),
        ] {
            assert_eq!(mode(&path), 0o700, "{}", path.display());
        }
        let file = home.root().join("x");
        write_private(&file, b"data").expect("write");
        assert_eq!(mode(&file), 0o600);
    }

    #[test]
    fn a_loose_home_is_tightened_once_with_a_notice() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path().join("zeta");
        std::fs::create_dir_all(root.join("outputs/task-1")).expect("dirs");
        std::fs::create_dir_all(root.join("logs")).expect("dirs");
        for file in ["zeta.db", "logs/zeta.log", "outputs/task-1/call.txt"] {
            std::fs::write(root.join(file), "x").expect("write");
            std::fs::set_permissions(root.join(file), std::fs::Permissions::from_mode(0o644))
                .expect("chmod");
        }
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "x").expect("write");
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        std::os::unix::fs::symlink(&outside, root.join("outputs/link")).expect("link");
        for dir in ["", "logs", "outputs", "outputs/task-1"] {
            std::fs::set_permissions(root.join(dir), std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
        }
        let home = ZetaHome::at(&root).expect("home");
        assert!(home.notice().is_some_and(|n| n.contains("owner-only")));
        assert_eq!(mode(&root), 0o700);
        assert_eq!(mode(&root.join("outputs/task-1")), 0o700);
        for file in ["zeta.db", "logs/zeta.log", "outputs/task-1/call.txt"] {
            assert_eq!(mode(&root.join(file)), 0o600, "{file}");
        }
        assert_eq!(mode(&outside), 0o644, "a link's target is left alone");
        assert_eq!(ZetaHome::at(&root).expect("again").notice(), None);
    }
}
