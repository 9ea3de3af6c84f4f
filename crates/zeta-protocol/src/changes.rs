//! What a task changed on disk, file by file, as the chat and `zeta show --changes` show
//! it (the journal behind it is zeta-core's `undo`).

use serde::{Deserialize, Serialize};

/// How one path changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ChangeKind {
    Created,
    Changed,
    Deleted,
    Moved,
    /// Only its permissions.
    Permissions,
}

/// One path a task changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct FileChange {
    pub path: String,
    pub kind: ChangeKind,
    /// Where it was before a move.
    pub from: Option<String>,
    /// A text file's change as a unified diff; `None` for other files.
    pub diff: Option<String>,
    /// Other files, or a note ("changed since the task"): in words.
    pub note: Option<String>,
}

/// What a task changed and whether it can be undone now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TaskChanges {
    pub task_id: i64,
    pub files: Vec<FileChange>,
    /// Undo would take them back (not undone, not let go).
    pub can_undo: bool,
    /// An undo can be taken back.
    pub can_redo: bool,
    /// What the task did that no undo takes back (a request sent, an app's state).
    pub not_undoable: Vec<String>,
}

/// What an undo or a redo did, in lines for the person, and the task's changes after it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UndoOutcome {
    pub lines: Vec<String>,
    /// Paths left as they are (they changed after the task), each named in `lines`.
    pub left: u32,
    pub changes: TaskChanges,
}
