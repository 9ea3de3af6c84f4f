//! The journal of changes in zeta.db: change sets (a task's, an undo's, a redo's), the
//! changes each recorded before it happened, and every touched path's state when its set
//! was last settled (what undo compares with now, to leave what changed since).

use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::error::CoreError;

/// What a change set holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetKind {
    /// What a task's calls changed.
    Task,
    /// What undoing a set changed (taken back by a redo).
    Undo,
    /// What a redo changed.
    Redo,
}

impl SetKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Task => "task",
            Self::Undo => "undo",
            Self::Redo => "redo",
        }
    }
    fn parse(s: &str) -> Self {
        match s {
            "undo" => Self::Undo,
            "redo" => Self::Redo,
            _ => Self::Task,
        }
    }
}

/// Where a set stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetState {
    /// Its calls are still running (or Zeta stopped while they ran).
    Open,
    /// Settled: every touched path's state was recorded.
    Closed,
    /// Being taken back (an undo that stopped half way says so here).
    Undoing,
    /// Taken back.
    Undone,
    /// Its originals were let go to stay within the budget: it cannot be undone.
    Expired,
}

impl SetState {
    fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
            Self::Undoing => "undoing",
            Self::Undone => "undone",
            Self::Expired => "expired",
        }
    }
    fn parse(s: &str) -> Self {
        match s {
            "open" => Self::Open,
            "undoing" => Self::Undoing,
            "undone" => Self::Undone,
            "expired" => Self::Expired,
            _ => Self::Closed,
        }
    }
}

/// One change set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeSet {
    pub id: i64,
    pub task_id: i64,
    pub kind: SetKind,
    pub of_set: Option<i64>,
    pub state: SetState,
    /// Bytes of originals it keeps.
    pub bytes: i64,
    pub created_at: i64,
    /// While it is being undone: the oldest change taken back so far.
    pub progress: Option<i64>,
}

/// What kind of thing a path was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    File,
    Symlink,
    Dir,
    Other,
}

impl Kind {
    pub fn of(meta: &std::fs::Metadata) -> Self {
        let t = meta.file_type();
        if t.is_symlink() {
            Self::Symlink
        } else if t.is_dir() {
            Self::Dir
        } else if t.is_file() {
            Self::File
        } else {
            Self::Other
        }
    }
    fn as_str(self) -> &'static str {
        match self {
            Self::File => "file",
            Self::Symlink => "symlink",
            Self::Dir => "dir",
            Self::Other => "other",
        }
    }
    fn parse(s: &str) -> Self {
        match s {
            "file" => Self::File,
            "symlink" => Self::Symlink,
            "dir" => Self::Dir,
            _ => Self::Other,
        }
    }
}

/// One change, recorded before it happened. Undo takes a set's changes back newest
/// first, each only where the disk still shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// `path` did not exist and was about to be made.
    Created { path: PathBuf },
    /// `path` held this before it was written, replaced or removed: a file kept in the
    /// originals store as `object`, or a link to `target`.
    Kept {
        path: PathBuf,
        kind: Kind,
        object: Option<String>,
        target: Option<PathBuf>,
        mode: u32,
        size: u64,
    },
    /// `path` was about to be appended to: it held its first `size` bytes.
    Appended { path: PathBuf, size: u64 },
    /// `from` was about to be renamed to `to` (the thing itself, `ino`, moved).
    Moved {
        from: PathBuf,
        to: PathBuf,
        ino: u64,
    },
    /// `a` and `b` were about to swap places.
    Exchanged { a: PathBuf, b: PathBuf },
    /// An empty folder about to be removed.
    RemovedDir { path: PathBuf, mode: u32 },
    /// The permissions `path` had before a chmod.
    Mode { path: PathBuf, mode: u32 },
}

impl Change {
    /// The paths this change is about.
    pub fn paths(&self) -> Vec<&Path> {
        match self {
            Self::Created { path }
            | Self::Appended { path, .. }
            | Self::Kept { path, .. }
            | Self::RemovedDir { path, .. }
            | Self::Mode { path, .. } => vec![path],
            Self::Moved { from, to, .. } => vec![from, to],
            Self::Exchanged { a, b } => vec![a, b],
        }
    }
}

/// A path's state when its set was settled: what undo expects to find.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "is", rename_all = "lowercase")]
pub enum PathState {
    Absent,
    Present {
        kind: Kind,
        size: u64,
        mode: u32,
        mtime_ns: i64,
        ino: u64,
    },
}

impl PathState {
    /// The state of `path` now (a link is not followed).
    pub fn now(path: &Path) -> Self {
        match std::fs::symlink_metadata(path) {
            Ok(meta) => Self::Present {
                kind: Kind::of(&meta),
                // A folder's size and times change with its entries: its kind and mode
                // are what undo must find.
                size: if meta.is_dir() { 0 } else { meta.len() },
                mode: meta.mode() & 0o7777,
                mtime_ns: if meta.is_dir() {
                    0
                } else {
                    meta.mtime() * 1_000_000_000 + meta.mtime_nsec()
                },
                ino: if meta.is_dir() { 0 } else { meta.ino() },
            },
            Err(_) => Self::Absent,
        }
    }
}

fn bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_bytes()
}

fn path_of(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

/// One change as its row is written.
struct Row<'a> {
    op: &'static str,
    path: &'a Path,
    other: Option<&'a Path>,
    object: Option<&'a str>,
    kind: Option<&'static str>,
    mode: Option<u32>,
    size: Option<i64>,
    ino: Option<i64>,
}

/// The journal over its own connection (the keeper writes from the thread that watches a
/// call's processes).
pub struct Journal {
    conn: std::sync::Mutex<Connection>,
    path: PathBuf,
}

impl Journal {
    pub fn open(db: &Path) -> Result<Self, CoreError> {
        Ok(Self {
            conn: std::sync::Mutex::new(crate::store::schema::open(db)?),
            path: db.to_path_buf(),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn err(&self, source: rusqlite::Error) -> CoreError {
        CoreError::Database {
            path: self.path.clone(),
            source,
        }
    }

    pub fn new_set(
        &self,
        task_id: i64,
        kind: SetKind,
        of_set: Option<i64>,
    ) -> Result<i64, CoreError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO change_sets (task_id, kind, of_set, state, created_at)
                 VALUES (?1, ?2, ?3, 'open', ?4)",
            params![
                task_id,
                kind.as_str(),
                of_set,
                crate::store::schema::now_ms()
            ],
        )
        .map_err(|e| self.err(e))?;
        Ok(conn.last_insert_rowid())
    }

    pub fn set_state(&self, set: i64, state: SetState) -> Result<(), CoreError> {
        self.conn()
            .execute(
                "UPDATE change_sets SET state = ?2, finished_at = ?3 WHERE id = ?1",
                params![set, state.as_str(), crate::store::schema::now_ms()],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// Records that an undo of `set` has taken back every change from `change` on
    /// (`None`: no undo under way).
    pub fn set_progress(&self, set: i64, change: Option<i64>) -> Result<(), CoreError> {
        self.conn()
            .execute(
                "UPDATE change_sets SET progress = ?2 WHERE id = ?1",
                params![set, change],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    pub fn add_bytes(&self, set: i64, bytes: u64) -> Result<(), CoreError> {
        self.conn()
            .execute(
                "UPDATE change_sets SET bytes = bytes + ?2 WHERE id = ?1",
                params![set, bytes as i64],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    fn read_set(row: &rusqlite::Row<'_>) -> rusqlite::Result<ChangeSet> {
        Ok(ChangeSet {
            id: row.get(0)?,
            task_id: row.get(1)?,
            kind: SetKind::parse(&row.get::<_, String>(2)?),
            of_set: row.get(3)?,
            state: SetState::parse(&row.get::<_, String>(4)?),
            bytes: row.get(5)?,
            created_at: row.get(6)?,
            progress: row.get(7)?,
        })
    }

    const SET_COLUMNS: &'static str =
        "SELECT id, task_id, kind, of_set, state, bytes, created_at, progress FROM change_sets";

    pub fn set(&self, id: i64) -> Result<Option<ChangeSet>, CoreError> {
        self.conn()
            .query_row(
                &format!("{} WHERE id = ?1", Self::SET_COLUMNS),
                [id],
                Self::read_set,
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// A task's sets, oldest first.
    pub fn sets_of_task(&self, task_id: i64) -> Result<Vec<ChangeSet>, CoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(&format!(
                "{} WHERE task_id = ?1 ORDER BY id",
                Self::SET_COLUMNS
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([task_id], Self::read_set)
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.err(e))?;
        Ok(rows)
    }

    /// Every set, oldest first.
    pub fn all_sets(&self) -> Result<Vec<ChangeSet>, CoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(&format!("{} ORDER BY id", Self::SET_COLUMNS))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], Self::read_set)
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.err(e))?;
        Ok(rows)
    }

    /// Writes one change (before it happens: the caller waits for this).
    pub fn record(&self, set: i64, call: i64, change: &Change) -> Result<(), CoreError> {
        let mut row = Row {
            op: "created",
            path: Path::new(""),
            other: None,
            object: None,
            kind: None,
            mode: None,
            size: None,
            ino: None,
        };
        match change {
            Change::Created { path } => row.path = path,
            Change::Appended { path, size } => {
                (row.op, row.path, row.size) = ("appended", path, Some(*size as i64))
            }
            Change::Kept {
                path,
                kind,
                object,
                target,
                mode,
                size,
            } => {
                row = Row {
                    op: "kept",
                    path,
                    other: target.as_deref(),
                    object: object.as_deref(),
                    kind: Some(kind.as_str()),
                    mode: Some(*mode),
                    size: Some(*size as i64),
                    ino: None,
                }
            }
            Change::Moved { from, to, ino } => {
                (row.op, row.path, row.other, row.ino) =
                    ("moved", from, Some(to.as_path()), Some(*ino as i64))
            }
            Change::Exchanged { a, b } => {
                (row.op, row.path, row.other) = ("exchanged", a, Some(b.as_path()))
            }
            Change::RemovedDir { path, mode } => {
                (row.op, row.path, row.kind, row.mode) =
                    ("removed_dir", path, Some("dir"), Some(*mode))
            }
            Change::Mode { path, mode } => {
                (row.op, row.path, row.mode) = ("mode", path, Some(*mode))
            }
        }
        let Row {
            op,
            path,
            other,
            object,
            kind,
            mode,
            size,
            ino,
        } = row;
        self.conn()
            .execute(
                "INSERT INTO file_changes (set_id, call, op, path, other, object, kind, mode, size, ino)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    set,
                    call,
                    op,
                    bytes(path),
                    other.map(bytes),
                    object,
                    kind,
                    mode,
                    size,
                    ino
                ],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// A set's changes in the order they were recorded.
    pub fn changes(&self, set: i64) -> Result<Vec<Change>, CoreError> {
        Ok(self
            .numbered_changes(set)?
            .into_iter()
            .map(|(_, c)| c)
            .collect())
    }

    /// A set's changes with their ids, in the order they were recorded.
    pub fn numbered_changes(&self, set: i64) -> Result<Vec<(i64, Change)>, CoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT op, path, other, object, kind, mode, size, ino, id FROM file_changes
                 WHERE set_id = ?1 ORDER BY id",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([set], |row| {
                let id: i64 = row.get(8)?;
                let op: String = row.get(0)?;
                let path = path_of(row.get(1)?);
                let other: Option<Vec<u8>> = row.get(2)?;
                let object: Option<String> = row.get(3)?;
                let kind: Option<String> = row.get(4)?;
                let mode: Option<u32> = row.get(5)?;
                let size: Option<i64> = row.get(6)?;
                let ino: Option<i64> = row.get(7)?;
                let change = match op.as_str() {
                    "created" => Change::Created { path },
                    "appended" => Change::Appended {
                        path,
                        size: size.unwrap_or(0).max(0) as u64,
                    },
                    "kept" => Change::Kept {
                        path,
                        kind: Kind::parse(kind.as_deref().unwrap_or("file")),
                        object,
                        target: other.map(path_of),
                        mode: mode.unwrap_or(0o644),
                        size: size.unwrap_or(0).max(0) as u64,
                    },
                    "moved" => Change::Moved {
                        from: path,
                        to: path_of(other.unwrap_or_default()),
                        ino: ino.unwrap_or(0) as u64,
                    },
                    "exchanged" => Change::Exchanged {
                        a: path,
                        b: path_of(other.unwrap_or_default()),
                    },
                    "removed_dir" => Change::RemovedDir {
                        path,
                        mode: mode.unwrap_or(0o755),
                    },
                    _ => Change::Mode {
                        path,
                        mode: mode.unwrap_or(0o644),
                    },
                };
                Ok((id, change))
            })
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.err(e))?;
        Ok(rows)
    }

    /// Records the state `path` is in now, as its set's state after its calls.
    pub fn settle(&self, set: i64, path: &Path) -> Result<(), CoreError> {
        let state = serde_json::to_string(&PathState::now(path)).unwrap_or_default();
        self.conn()
            .execute(
                "INSERT INTO file_after (set_id, path, state) VALUES (?1, ?2, ?3)
                 ON CONFLICT (set_id, path) DO UPDATE SET state = excluded.state",
                params![set, bytes(path), state],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// Every path the set touched, with its state when the set was settled.
    pub fn after(&self, set: i64) -> Result<Vec<(PathBuf, PathState)>, CoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT path, state FROM file_after WHERE set_id = ?1 ORDER BY path")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([set], |row| {
                let path = path_of(row.get(0)?);
                let state: String = row.get(1)?;
                Ok((
                    path,
                    serde_json::from_str(&state).unwrap_or(PathState::Absent),
                ))
            })
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.err(e))?;
        Ok(rows)
    }

    /// Whether any set other than `except` (and not expired) still needs `object`.
    pub fn object_needed(&self, object: &str, except: i64) -> Result<bool, CoreError> {
        self.conn()
            .query_row(
                "SELECT 1 FROM file_changes c JOIN change_sets s ON s.id = c.set_id
                 WHERE c.object = ?1 AND c.set_id != ?2 AND s.state != 'expired' LIMIT 1",
                params![object, except],
                |_| Ok(()),
            )
            .optional()
            .map(|found| found.is_some())
            .map_err(|e| self.err(e))
    }
}
