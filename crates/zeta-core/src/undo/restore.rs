//! Undo and redo: a set's changes taken back newest first, each only where the disk
//! still shows it, and never over a path that changed after the set was settled (by the
//! user or a later task): such paths are left and named. Undo's own changes are kept as a
//! set of their own, which a redo takes back. Every step is one rename, link or removal,
//! and each checks the disk first, so an undo that stopped half way is finished by
//! running it again.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::journal::{Change, ChangeSet, Journal, Kind, PathState, SetKind, SetState};
use super::keep::{SetKeeper, UndoStore};
use super::originals::Originals;
use super::{Keeper, Touch};
use crate::error::CoreError;

/// Why a set could not be taken back.
#[derive(Debug, thiserror::Error)]
pub enum UndoError {
    #[error("task {0} changed no file Zeta kept track of: there is nothing to undo")]
    NothingKept(i64),
    #[error("task {0} is already undone (`zeta redo {0}` brings its changes back)")]
    AlreadyUndone(i64),
    #[error("task {0} has no undo to take back")]
    NothingToRedo(i64),
    #[error(
        "task {0}'s originals were let go to keep the store within its size budget: it cannot be undone"
    )]
    Expired(i64),
    #[error(transparent)]
    Core(#[from] CoreError),
}

/// A path undo did not put back, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Left {
    pub path: PathBuf,
    pub why: String,
}

/// What an undo (or a redo) did, or would do (`dry_run`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub dry_run: bool,
    /// Files put back as they were.
    pub restored: Vec<PathBuf>,
    /// Things the set made, taken away.
    pub removed: Vec<PathBuf>,
    /// Renames taken back (where it is now → where it was).
    pub moved_back: Vec<(PathBuf, PathBuf)>,
    pub left: Vec<Left>,
}

impl Report {
    /// The report in plain lines, for the CLI and the chat.
    pub fn lines(&self) -> Vec<String> {
        let verb = |done: &str, would: &str| {
            if self.dry_run {
                would.to_string()
            } else {
                done.to_string()
            }
        };
        let mut lines = Vec::new();
        for p in &self.restored {
            lines.push(format!(
                "{} {}",
                verb("restored", "would restore"),
                p.display()
            ));
        }
        for (from, to) in &self.moved_back {
            lines.push(format!(
                "{} {} → {}",
                verb("moved back", "would move back"),
                from.display(),
                to.display()
            ));
        }
        for p in &self.removed {
            lines.push(format!(
                "{} {}",
                verb("removed", "would remove"),
                p.display()
            ));
        }
        for left in &self.left {
            lines.push(format!("left {}: {}", left.path.display(), left.why));
        }
        lines
    }
}

/// An undo's report as the person reads it, with the task's changes after it.
pub fn outcome(
    store: &UndoStore,
    task_id: i64,
    report: &Report,
) -> Result<zeta_protocol::changes::UndoOutcome, CoreError> {
    Ok(zeta_protocol::changes::UndoOutcome {
        lines: report.lines(),
        left: report.left.len() as u32,
        changes: super::view::for_task(store, task_id)?,
    })
}

/// Undoes task `task_id`'s changes.
pub fn undo_task(store: &UndoStore, task_id: i64, dry_run: bool) -> Result<Report, UndoError> {
    let journal = Journal::open(&store.database)?;
    let sets = journal.sets_of_task(task_id)?;
    let Some(set) = sets.iter().rev().find(|s| s.kind == SetKind::Task) else {
        return Err(UndoError::NothingKept(task_id));
    };
    match set.state {
        SetState::Undone => return Err(UndoError::AlreadyUndone(task_id)),
        SetState::Expired => return Err(UndoError::Expired(task_id)),
        _ => {}
    }
    // An undo that stopped half way goes on in its own set.
    let resumed = sets
        .iter()
        .rev()
        .find(|s| s.kind == SetKind::Undo && s.of_set == Some(set.id) && s.state == SetState::Open)
        .map(|s| s.id);
    take_back(store, &journal, set, SetKind::Undo, resumed, dry_run)
}

/// Takes back task `task_id`'s last undo.
pub fn redo_task(store: &UndoStore, task_id: i64, dry_run: bool) -> Result<Report, UndoError> {
    let journal = Journal::open(&store.database)?;
    let sets = journal.sets_of_task(task_id)?;
    let Some(undo) = sets.iter().rev().find(|s| {
        s.kind == SetKind::Undo && matches!(s.state, SetState::Closed | SetState::Undoing)
    }) else {
        return Err(UndoError::NothingToRedo(task_id));
    };
    let report = take_back(store, &journal, undo, SetKind::Redo, None, dry_run)?;
    if !dry_run {
        if let Some(task_set) = undo.of_set {
            // The task's changes are back: its set can be undone again, against the disk
            // as the redo left it.
            journal.set_state(task_set, SetState::Closed)?;
            if report.left.is_empty() {
                for (path, _) in journal.after(task_set)? {
                    journal.settle(task_set, &path)?;
                }
            }
        }
    }
    Ok(report)
}

fn take_back(
    store: &UndoStore,
    journal: &Journal,
    set: &ChangeSet,
    kind: SetKind,
    resumed: Option<i64>,
    dry_run: bool,
) -> Result<Report, UndoError> {
    let after: BTreeMap<PathBuf, PathState> = journal.after(set.id)?.into_iter().collect();
    // An undo that stopped half way changed some paths itself: those are not changes
    // made since.
    let undone_before: BTreeSet<PathBuf> = match resumed {
        Some(undo_set) => journal
            .changes(undo_set)?
            .iter()
            .flat_map(|c| {
                c.paths()
                    .into_iter()
                    .map(Path::to_path_buf)
                    .collect::<Vec<_>>()
            })
            .collect(),
        None => BTreeSet::new(),
    };
    let changed_since: BTreeSet<PathBuf> = after
        .iter()
        .filter(|(path, _)| !undone_before.contains(*path))
        .filter(|(path, state)| PathState::now(path) != **state)
        .map(|(path, _)| path.clone())
        .collect();
    let changes = journal.numbered_changes(set.id)?;
    // Where an undo that stopped half way got to: the changes from there on are back.
    let done_from = set.progress.unwrap_or(i64::MAX);
    let keeper = SetKeeper::new(store, set.task_id, kind, Some(set.id), resumed)?;
    if !dry_run {
        journal.set_state(set.id, SetState::Undoing)?;
    }
    let mut step = Step {
        keeper: &keeper,
        dry_run,
        report: Report {
            dry_run,
            ..Report::default()
        },
        gone: BTreeSet::new(),
    };
    for (id, change) in changes.iter().rev() {
        if *id >= done_from {
            continue;
        }
        let changed = change
            .paths()
            .into_iter()
            .find(|p| changed_since.contains(*p));
        match (changed, change) {
            // Its version before the task goes beside it, to compare side by side.
            (
                Some(path),
                Change::Kept {
                    object: Some(object),
                    mode,
                    ..
                },
            ) if path == change.paths()[0] => step.beside(path, object, *mode, set.task_id),
            (Some(path), _) => {
                step.leave(path, "it changed after the task (by you or a later task)")
            }
            (None, _) => step.take_back(change),
        }
        if !dry_run {
            journal.set_progress(set.id, Some(*id))?;
        }
    }
    let mut report = step.report;
    report.left.dedup_by(|a, b| a.path == b.path);
    if !dry_run {
        keeper.close(SetState::Closed);
        journal.set_progress(set.id, None)?;
        journal.set_state(set.id, SetState::Undone)?;
    }
    Ok(report)
}

struct Step<'a> {
    keeper: &'a SetKeeper,
    dry_run: bool,
    report: Report,
    /// In a dry run, what would be gone by now (a folder holding only these is empty).
    gone: BTreeSet<PathBuf>,
}

impl Step<'_> {
    /// Leaves `path` (it changed since) and puts its version before the task beside it,
    /// as `NAME.before-task-N`, unless something is there already.
    fn beside(&mut self, path: &Path, object: &str, mode: u32, task: i64) {
        const WHY: &str = "it changed after the task (by you or a later task)";
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".before-task-{task}"));
        let side = PathBuf::from(name);
        if self.report.left.iter().any(|l| l.path == path) || side.exists() {
            self.leave(path, WHY);
            return;
        }
        let originals = self.keeper.originals();
        let put = self.act(path, Touch::Make(side.clone()), || {
            originals.put_back(object, &side, mode, false)
        });
        if put {
            self.leave(
                path,
                format!(
                    "{WHY}; its version from before the task is beside it: {}",
                    side.display()
                ),
            );
        }
    }

    fn leave(&mut self, path: &Path, why: impl Into<String>) {
        let why = why.into();
        if !self.report.left.iter().any(|l| l.path == path) {
            self.report.left.push(Left {
                path: path.to_path_buf(),
                why,
            });
        }
    }

    /// Runs `act` unless this is a dry run, first telling the keeper (so a redo can take
    /// this step back); a failure leaves `path`, saying why.
    fn act(
        &mut self,
        path: &Path,
        touch: Touch,
        act: impl FnOnce() -> std::io::Result<()>,
    ) -> bool {
        if self.dry_run {
            if matches!(touch, Touch::Remove(_) | Touch::RemoveDir(_)) {
                self.gone.insert(path.to_path_buf());
            }
            return true;
        }
        self.keeper.before(&touch);
        match act() {
            Ok(()) => true,
            Err(e) => {
                self.leave(path, format!("could not put it back: {e}"));
                false
            }
        }
    }

    fn take_back(&mut self, change: &Change) {
        match change {
            Change::Created { path } => match std::fs::symlink_metadata(path) {
                Err(_) => {}
                Ok(meta) if meta.is_dir() => {
                    let empty = std::fs::read_dir(path)
                        .is_ok_and(|d| d.flatten().all(|entry| self.gone.contains(&entry.path())));
                    if !empty {
                        self.leave(path, "the folder holds things the task did not make");
                    } else if self.act(path, Touch::RemoveDir(path.clone()), || {
                        std::fs::remove_dir(path)
                    }) {
                        self.report.removed.push(path.clone());
                    }
                }
                Ok(_) => {
                    if self.act(path, Touch::Remove(path.clone()), || {
                        std::fs::remove_file(path)
                    }) {
                        self.report.removed.push(path.clone());
                    }
                }
            },
            Change::Kept {
                path,
                kind: Kind::Symlink,
                target: Some(target),
                ..
            } => {
                if std::fs::read_link(path).ok().as_ref() == Some(target) {
                    return;
                }
                let touch = match std::fs::symlink_metadata(path) {
                    Ok(_) => Touch::Remove(path.clone()),
                    Err(_) => Touch::Make(path.clone()),
                };
                let ok = self.act(path, touch, || {
                    match std::fs::remove_file(path) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                        _ => {}
                    }
                    std::os::unix::fs::symlink(target, path)
                });
                if ok {
                    self.report.restored.push(path.clone());
                }
            }
            Change::Kept {
                path,
                object: Some(object),
                mode,
                ..
            } => {
                let originals = self.keeper.originals();
                let now = std::fs::symlink_metadata(path);
                if matches!(&now, Ok(m) if m.is_dir()) {
                    self.leave(path, "a folder is there now");
                    return;
                }
                let same = originals.same(object, path)
                    && now.as_ref().is_ok_and(|m| m.mode() & 0o7777 == *mode);
                if same {
                    return;
                }
                // What is there now is kept for a redo: by a copy where it is written
                // in place, else by a link (it loses its name to the rename).
                let in_place = Originals::in_place(object, path);
                let touch = match &now {
                    Ok(_) if in_place => Touch::Write {
                        path: path.clone(),
                        create: false,
                    },
                    Ok(_) => Touch::Remove(path.clone()),
                    Err(_) => Touch::Make(path.clone()),
                };
                if self.act(path, touch, || {
                    originals.put_back(object, path, *mode, in_place)
                }) {
                    self.report.restored.push(path.clone());
                }
            }
            Change::Kept { .. } => {}
            Change::Appended { path, size } => match std::fs::symlink_metadata(path) {
                Ok(meta) if meta.is_file() && meta.len() > *size => {
                    let touch = Touch::Write {
                        path: path.clone(),
                        create: false,
                    };
                    let cut = self.act(path, touch, || {
                        std::fs::OpenOptions::new()
                            .write(true)
                            .open(path)?
                            .set_len(*size)
                    });
                    if cut {
                        self.report.restored.push(path.clone());
                    }
                }
                Ok(meta) if meta.is_file() && meta.len() < *size => self.leave(
                    path,
                    "it is shorter than before the task: what it held is not all there",
                ),
                _ => {}
            },
            Change::Moved { from, to, ino } => {
                let there = std::fs::symlink_metadata(to);
                let free = std::fs::symlink_metadata(from).is_err();
                match there {
                    Ok(meta) if free && (meta.ino() == *ino || meta.is_dir()) => {
                        let touch = Touch::Rename {
                            from: to.clone(),
                            to: from.clone(),
                            exchange: false,
                        };
                        if self.act(to, touch, || std::fs::rename(to, from)) {
                            self.report.moved_back.push((to.clone(), from.clone()));
                        }
                    }
                    // Never happened (the rename failed), or already taken back.
                    Err(_) => {}
                    Ok(_) if !free => {}
                    Ok(_) => self.leave(to, "something else is there now"),
                }
            }
            Change::Exchanged { a, b } => {
                let touch = Touch::Rename {
                    from: a.clone(),
                    to: b.clone(),
                    exchange: true,
                };
                if self.act(a, touch, || exchange(a, b)) {
                    self.report.moved_back.push((a.clone(), b.clone()));
                }
            }
            Change::RemovedDir { path, mode } => {
                if std::fs::symlink_metadata(path).is_err() {
                    let ok = self.act(path, Touch::Make(path.clone()), || {
                        std::fs::create_dir(path)?;
                        std::fs::set_permissions(path, std::fs::Permissions::from_mode(*mode))
                    });
                    if ok {
                        self.report.restored.push(path.clone());
                    }
                }
            }
            Change::Mode { path, mode } => {
                if let Ok(meta) = std::fs::symlink_metadata(path) {
                    if meta.mode() & 0o7777 != *mode
                        && self.act(path, Touch::Mode(path.clone()), || {
                            std::fs::set_permissions(path, std::fs::Permissions::from_mode(*mode))
                        })
                    {
                        self.report.restored.push(path.clone());
                    }
                }
            }
        }
    }
}

/// Swaps `a` and `b` in one step (renameat2's RENAME_EXCHANGE).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two valid NUL-terminated paths; the call reads them and returns.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}
