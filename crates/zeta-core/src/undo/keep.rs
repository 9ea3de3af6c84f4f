//! The keeper of one change set: told of each change before it happens (by the tool that
//! watches a call's processes, by the file tools, by undo itself), it keeps what the
//! change would destroy and writes the change to the journal, and only then lets it go
//! on. After each call it settles the paths the call touched.

use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::journal::{Change, Journal, Kind, SetKind, SetState};
use super::originals::Originals;
use super::{Keeper, Touch};
use crate::error::CoreError;

struct State {
    set: Option<i64>,
    /// Paths whose size before an append is recorded (a later write keeps them whole).
    appended: BTreeSet<PathBuf>,
    call: i64,
    /// Paths whose content before the set is already known (kept, or made by the set).
    known: BTreeSet<PathBuf>,
    /// Paths the current call touched, settled when it ends.
    touched: BTreeSet<PathBuf>,
    /// The first thing that could not be kept (said on the task).
    trouble: Vec<String>,
}

/// Keeps one set's changes (a task's, or an undo's).
pub struct SetKeeper {
    journal: Journal,
    originals: Originals,
    task_id: i64,
    kind: SetKind,
    of_set: Option<i64>,
    /// Paths never kept: the store itself and Zeta's database and its side files.
    skip: Vec<PathBuf>,
    state: Mutex<State>,
}

/// Where the keeper writes: the database and the originals folder.
#[derive(Debug, Clone)]
pub struct UndoStore {
    pub database: PathBuf,
    pub originals: PathBuf,
}

impl UndoStore {
    pub fn in_home(home: &zeta_protocol::ZetaHome) -> Self {
        Self {
            database: home.database_file(),
            originals: home.originals_dir(),
        }
    }

    /// The originals store, created owner-only when missing.
    pub fn open_originals(&self) -> Result<Originals, CoreError> {
        Originals::open(&self.originals).map_err(|source| CoreError::Io {
            what: "open the originals store",
            path: self.originals.clone(),
            source,
        })
    }
}

impl SetKeeper {
    /// A keeper for a set made on the first change (`set` reuses one, as a resumed
    /// task does).
    pub fn new(
        store: &UndoStore,
        task_id: i64,
        kind: SetKind,
        of_set: Option<i64>,
        set: Option<i64>,
    ) -> Result<Self, CoreError> {
        let originals = store.open_originals()?;
        let db = &store.database;
        let mut skip = vec![store.originals.clone(), db.to_path_buf()];
        for suffix in ["-wal", "-shm", "-journal"] {
            let mut side = db.as_os_str().to_owned();
            side.push(suffix);
            skip.push(PathBuf::from(side));
        }
        Ok(Self {
            journal: Journal::open(db)?,
            originals,
            task_id,
            kind,
            of_set,
            skip,
            state: Mutex::new(State {
                set,
                appended: BTreeSet::new(),
                call: 0,
                known: BTreeSet::new(),
                touched: BTreeSet::new(),
                trouble: Vec::new(),
            }),
        })
    }

    /// The task's set, to reuse when it starts again after Zeta stopped.
    pub fn for_task(store: &UndoStore, task_id: i64) -> Result<Self, CoreError> {
        let keeper = Self::new(store, task_id, SetKind::Task, None, None)?;
        let open = keeper
            .journal
            .sets_of_task(task_id)?
            .into_iter()
            .find(|s| s.kind == SetKind::Task && s.state == SetState::Open)
            .map(|s| s.id);
        keeper.lock().set = open;
        Ok(keeper)
    }

    pub fn journal(&self) -> &Journal {
        &self.journal
    }
    pub fn originals(&self) -> &Originals {
        &self.originals
    }

    /// The set, once something was recorded in it.
    pub fn set(&self) -> Option<i64> {
        self.lock().set
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What could not be kept so far (each a sentence).
    pub fn trouble(&self) -> Vec<String> {
        self.lock().trouble.clone()
    }

    /// Settles the paths the call touched and starts the next call.
    pub fn end_call(&self) {
        let mut state = self.lock();
        if let Some(set) = state.set {
            for path in std::mem::take(&mut state.touched) {
                if let Err(e) = self.journal.settle(set, &path) {
                    state.trouble.push(e.to_string());
                }
            }
        }
        state.call += 1;
    }

    /// Settles and closes the set.
    pub fn close(&self, state: SetState) {
        self.end_call();
        if let Some(set) = self.set() {
            if let Err(e) = self.journal.set_state(set, state) {
                tracing::warn!(error = %e, "could not close change set {set}");
            }
        }
    }

    fn skipped(&self, path: &Path) -> bool {
        self.skip.iter().any(|s| path.starts_with(s))
            || ["/proc", "/sys", "/dev", "/run"]
                .iter()
                .any(|s| path.starts_with(s))
    }

    fn set_id(&self, state: &mut State) -> Result<i64, CoreError> {
        if let Some(set) = state.set {
            return Ok(set);
        }
        let set = self.journal.new_set(self.task_id, self.kind, self.of_set)?;
        state.set = Some(set);
        Ok(set)
    }

    fn write(&self, state: &mut State, change: Change) -> Result<(), CoreError> {
        let set = self.set_id(state)?;
        for path in change.paths() {
            state.touched.insert(path.to_path_buf());
        }
        self.journal.record(set, state.call, &change)
    }

    /// Keeps what is at `path` before it is overwritten in place (a copy) or loses its
    /// name (`hold`: a link).
    fn keep(&self, state: &mut State, path: &Path, hold: bool) -> Result<(), CoreError> {
        if state.known.contains(path) {
            return Ok(());
        }
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return Ok(());
        };
        let kind = Kind::of(&meta);
        let set = self.set_id(state)?;
        let (object, target) = match kind {
            Kind::File => {
                let kept = if hold {
                    self.originals.hold(set, path)
                } else {
                    self.originals.copy(set, path)
                };
                match kept {
                    Ok(kept) => {
                        self.journal.add_bytes(set, kept.added)?;
                        (Some(kept.name), None)
                    }
                    Err(e) => {
                        state.trouble.push(e.to_string());
                        return Ok(());
                    }
                }
            }
            Kind::Symlink => (None, std::fs::read_link(path).ok()),
            // A folder is kept by what happens to its entries; devices, sockets and
            // pipes hold nothing to keep.
            Kind::Dir | Kind::Other => return Ok(()),
        };
        state.known.insert(path.to_path_buf());
        self.write(
            state,
            Change::Kept {
                path: path.to_path_buf(),
                kind,
                object,
                target,
                mode: meta.mode() & 0o7777,
                size: meta.len(),
            },
        )
    }

    /// Forgets what is known of `path` and everything under it (a rename put other
    /// things there).
    fn forget(state: &mut State, path: &Path) {
        state.known.retain(|p| !p.starts_with(path));
        state.appended.retain(|p| !p.starts_with(path));
    }

    fn before_inner(&self, touch: &Touch) -> Result<(), CoreError> {
        let mut state = self.lock();
        let state = &mut *state;
        match touch {
            Touch::Write { path, create } => {
                match std::fs::symlink_metadata(path) {
                    Err(_) if *create => {
                        state.known.insert(path.clone());
                        self.write(state, Change::Created { path: path.clone() })?;
                    }
                    Err(_) => {}
                    Ok(meta) if meta.is_file() => self.keep(state, path, false)?,
                    Ok(_) => {}
                }
                state.touched.insert(path.clone());
            }
            Touch::Append(path) => {
                let known = state.known.contains(path) || state.appended.contains(path);
                match std::fs::symlink_metadata(path) {
                    Ok(meta) if meta.is_file() && !known => {
                        state.appended.insert(path.clone());
                        self.write(
                            state,
                            Change::Appended {
                                path: path.clone(),
                                size: meta.len(),
                            },
                        )?;
                    }
                    _ => {}
                }
                state.touched.insert(path.clone());
            }
            Touch::Make(path) => {
                if std::fs::symlink_metadata(path).is_err() {
                    state.known.insert(path.clone());
                    self.write(state, Change::Created { path: path.clone() })?;
                }
            }
            Touch::Remove(path) => {
                self.keep(state, path, true)?;
                state.touched.insert(path.clone());
            }
            Touch::RemoveDir(path) => {
                if let Ok(meta) = std::fs::symlink_metadata(path) {
                    if meta.is_dir() && !state.known.contains(path) {
                        self.write(
                            state,
                            Change::RemovedDir {
                                path: path.clone(),
                                mode: meta.mode() & 0o7777,
                            },
                        )?;
                    }
                    state.touched.insert(path.clone());
                }
            }
            Touch::Rename {
                from,
                to,
                exchange: true,
            } => {
                self.write(
                    state,
                    Change::Exchanged {
                        a: from.clone(),
                        b: to.clone(),
                    },
                )?;
                Self::forget(state, from);
                Self::forget(state, to);
            }
            Touch::Rename { from, to, .. } => {
                let Ok(meta) = std::fs::symlink_metadata(from) else {
                    return Ok(());
                };
                match std::fs::symlink_metadata(to) {
                    Ok(old) if old.is_dir() => {
                        if !state.known.contains(to) {
                            self.write(
                                state,
                                Change::RemovedDir {
                                    path: to.clone(),
                                    mode: old.mode() & 0o7777,
                                },
                            )?;
                        }
                    }
                    Ok(_) => self.keep(state, to, true)?,
                    Err(_) => {}
                }
                let born = state.known.contains(from)
                    && !matches!(std::fs::symlink_metadata(from), Ok(m) if m.is_dir());
                Self::forget(state, to);
                Self::forget(state, from);
                self.write(
                    state,
                    Change::Moved {
                        from: from.clone(),
                        to: to.clone(),
                        ino: meta.ino(),
                    },
                )?;
                if born {
                    // Its content before the set is known wherever it goes: undo moves
                    // it back and takes it away, or puts the kept one back.
                    state.known.insert(to.clone());
                }
            }
            // A path whose content before the set is known gets its mode back with it.
            Touch::Mode(path) if state.known.contains(path) => {
                state.touched.insert(path.clone());
            }
            Touch::Mode(path) => {
                if let Ok(meta) = std::fs::symlink_metadata(path) {
                    self.write(
                        state,
                        Change::Mode {
                            path: path.clone(),
                            mode: meta.mode() & 0o7777,
                        },
                    )?;
                }
            }
        }
        Ok(())
    }
}

impl Keeper for SetKeeper {
    fn before(&self, touch: &Touch) {
        if touch.paths().iter().all(|p| self.skipped(p)) {
            return;
        }
        if let Err(e) = self.before_inner(touch) {
            tracing::warn!(error = %e, "undo could not record a change");
            self.lock().trouble.push(e.to_string());
        }
    }
    fn unwatched(&self, why: &str) {
        self.lock().trouble.push(why.to_string());
    }
}
