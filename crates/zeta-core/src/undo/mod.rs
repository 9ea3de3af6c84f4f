//! Undo: every change a task's calls make on disk, known before it happens, kept so the
//! task can be taken back (`zeta undo`) and the undo itself taken back once (`zeta redo`).
//!
//! How changes are known (the mechanism, and why): a process about to write, remove,
//! rename or chmod a file is stopped by the kernel before the system call proceeds (a
//! seccomp filter whose decision is "ask the supervisor", installed by zeta-tools on
//! every process a shell or code call starts, and inherited by everything those start),
//! and told to a [`Keeper`] as a [`Touch`]. The keeper keeps what the change would
//! destroy and writes the change to the journal, and only then does the call go on. So
//! a call's changes are known even when nobody could name its targets beforehand (a
//! Python script, a `make`), nothing it changed escapes the record, and a crash at any
//! point leaves a journal that covers at least what happened. Zeta's own file tools tell
//! the keeper the same way, directly. An overlay per call (run over a copy-on-write
//! layer, apply after) was tried and set aside: on this kernel a Unix socket in an
//! overlaid folder refuses connections (the X server's, a session bus's in /tmp), and
//! moving a folder in an unprivileged overlay fails.
//!
//! - [`journal`]: change sets, the changes, the paths' states when settled (zeta.db).
//! - [`originals`]: the store of what was overwritten (copies, by content) or deleted
//!   (hard links), owner-only in `$ZETA_HOME/originals`.
//! - [`keep`]: the keeper of one set.
//! - [`restore`]: undo and redo.
//! - [`task`]: one task's keeping, as the loop holds it.
//! - [`budget`]: the store held to its size and age budget, oldest sets out first.
//! - [`view`]: what a task changed, file by file, with a diff of text files.
//! - [`preview`]: what a write would change, shown before it runs, in the same words.

pub mod budget;
pub mod journal;
pub mod keep;
pub mod originals;
pub mod preview;
pub mod restore;
pub mod task;
pub mod view;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

pub use keep::{SetKeeper, UndoStore};
pub use restore::{redo_task, undo_task, Report, UndoError};
pub use task::TaskUndo;

/// One change a process is about to make, as it was asked of the kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Touch {
    /// A file opened to be written or truncated (`create`: made if missing).
    Write { path: PathBuf, create: bool },
    /// An existing file opened only to append to (write-only, `O_APPEND`, no truncation):
    /// what it held stays its first bytes, so its size is all there is to keep.
    Append(PathBuf),
    /// A folder, link or device node about to be made.
    Make(PathBuf),
    /// A name about to be removed (a file or a link).
    Remove(PathBuf),
    /// An (empty) folder about to be removed.
    RemoveDir(PathBuf),
    /// `from` about to be renamed to `to`, or the two swapped (`exchange`).
    Rename {
        from: PathBuf,
        to: PathBuf,
        exchange: bool,
    },
    /// Permissions about to change.
    Mode(PathBuf),
}

impl Touch {
    pub fn paths(&self) -> Vec<&Path> {
        match self {
            Self::Write { path, .. }
            | Self::Append(path)
            | Self::Make(path)
            | Self::Remove(path)
            | Self::RemoveDir(path)
            | Self::Mode(path) => vec![path],
            Self::Rename { from, to, .. } => vec![from, to],
        }
    }
}

/// Told of each change before it happens; returns once what the change would destroy is
/// kept and the change is written down.
pub trait Keeper: Send + Sync {
    fn before(&self, touch: &Touch);
    /// A call ran whose changes could not be watched (`why`): the task cannot be fully
    /// undone, and says so.
    fn unwatched(&self, why: &str);
}
