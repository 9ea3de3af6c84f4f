//! The originals store (`$ZETA_HOME/originals`, owner-only): what tasks overwrote or
//! deleted, kept so undo can put it back.
//!
//! - `objects/<sha256>`: a copy of a file about to be written in place, named by its
//!   content, so the same content is kept once however often it is overwritten.
//! - `held/<set>-<n>`: a file about to lose its last name (deleted, or replaced by a
//!   rename) kept by a hard link: no byte is copied, and nothing outside the store can
//!   reach it any more to change it. Where the store is on another file system, a copy.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

/// Why an original could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum KeepError {
    #[error("could not keep {path} for undo: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What was kept: its name in the store and the bytes it added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptObject {
    pub name: String,
    pub added: u64,
}

pub struct Originals {
    root: PathBuf,
    counter: AtomicU64,
}

impl Originals {
    /// The store under `root` (created owner-only when missing).
    pub fn open(root: &Path) -> std::io::Result<Self> {
        for dir in [root.to_path_buf(), root.join("objects"), root.join("held")] {
            zeta_protocol::home::create_private_dir(&dir)?;
        }
        Ok(Self {
            root: root.to_path_buf(),
            counter: AtomicU64::new(0),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file kept under `name`.
    pub fn path_of(&self, name: &str) -> PathBuf {
        // Names are ours ("objects/…", "held/…"); anything else stays inside the store.
        let clean: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_'))
            .collect();
        self.root
            .join(clean.trim_start_matches('/').replace("..", ""))
    }

    fn unique(&self, set: i64, what: &str) -> PathBuf {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        self.root
            .join(what)
            .join(format!("{set}-{}-{n}", std::process::id()))
    }

    /// Copies the file at `path` into `objects/`, named by its content.
    pub fn copy(&self, set: i64, path: &Path) -> Result<KeptObject, KeepError> {
        let io = |source| KeepError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut from = File::open(path).map_err(io)?;
        let temp = self.unique(set, "objects");
        let mut to = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temp)
            .map_err(io)?;
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; 256 * 1024];
        let mut total = 0u64;
        let copied: std::io::Result<()> = (|| loop {
            let n = from.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            hasher.update(&buf[..n]);
            to.write_all(&buf[..n])?;
            total += n as u64;
        })();
        if let Err(e) = copied {
            let _ = std::fs::remove_file(&temp);
            return Err(io(e));
        }
        let hash = format!("{:x}", hasher.finalize());
        let name = format!("objects/{hash}");
        let target = self.root.join(&name);
        if target.exists() {
            let _ = std::fs::remove_file(&temp);
            return Ok(KeptObject { name, added: 0 });
        }
        to.sync_data().map_err(io)?;
        std::fs::rename(&temp, &target).map_err(io)?;
        Ok(KeptObject { name, added: total })
    }

    /// Keeps the file at `path` by a hard link (it is about to lose its name), or by a
    /// copy where a link cannot be made.
    pub fn hold(&self, set: i64, path: &Path) -> Result<KeptObject, KeepError> {
        let held = self.unique(set, "held");
        match std::fs::hard_link(path, &held) {
            Ok(()) => {
                let size = std::fs::symlink_metadata(&held).map_or(0, |m| m.len());
                let name = format!(
                    "held/{}",
                    held.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                );
                Ok(KeptObject { name, added: size })
            }
            Err(_) => self.copy(set, path),
        }
    }

    /// Whether putting back over `path` must write in place: a file with other hard
    /// links, so that every name of it shows the content again.
    pub fn in_place(name: &str, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        !name.starts_with("held/")
            && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.nlink() > 1)
    }

    /// Puts the kept `name` at `path` with `mode`: in place where `in_place` says so (not
    /// atomic: an undo that stops there is finished by the next), else atomically, a new
    /// file beside `path` renamed over it. A held original is linked back (no copy), and
    /// stays held, so a redo followed by another undo finds it; a copy is copied.
    /// (`in_place` is decided before anything is kept of `path`: keeping it by a link
    /// adds one.)
    pub fn put_back(
        &self,
        name: &str,
        path: &Path,
        mode: u32,
        in_place: bool,
    ) -> std::io::Result<()> {
        let kept = self.path_of(name);
        if in_place {
            let mut from = File::open(&kept)?;
            let mut to = std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)?;
            std::io::copy(&mut from, &mut to)?;
            return std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
        }
        let dir = path.parent().unwrap_or(Path::new("/"));
        let temp = dir.join(format!(
            ".zeta-undo-{}-{}",
            std::process::id(),
            self.counter.fetch_add(1, Ordering::Relaxed)
        ));
        let result = (|| {
            if !(name.starts_with("held/") && std::fs::hard_link(&kept, &temp).is_ok()) {
                std::fs::copy(&kept, &temp)?;
            }
            std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(mode))?;
            std::fs::rename(&temp, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        result
    }

    /// Whether the file at `path` holds what `name` kept (same bytes).
    pub fn same(&self, name: &str, path: &Path) -> bool {
        let kept = self.path_of(name);
        let (Ok(a), Ok(b)) = (
            std::fs::symlink_metadata(&kept),
            std::fs::symlink_metadata(path),
        ) else {
            return false;
        };
        if !b.is_file() || a.len() != b.len() {
            return false;
        }
        same_bytes(&kept, path).unwrap_or(false)
    }

    /// Lets go of a kept original.
    pub fn remove(&self, name: &str) {
        let _ = std::fs::remove_file(self.path_of(name));
    }

    /// The store's size on disk, in bytes.
    pub fn size(&self) -> u64 {
        walk_size(&self.root)
    }
}

fn same_bytes(a: &Path, b: &Path) -> std::io::Result<bool> {
    let (mut a, mut b) = (File::open(a)?, File::open(b)?);
    let (mut x, mut y) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let n = read_full(&mut a, &mut x)?;
        let m = read_full(&mut b, &mut y)?;
        if n != m || x[..n] != y[..m] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

fn read_full(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

fn walk_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => walk_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}
