//! UndoManager (Tauri state): what a finished task changed on disk, and its undo and redo,
//! for the chat (zeta-core's `undo`). A task still queued or running cannot be undone.

use zeta_core::undo::{redo_task, restore::outcome, undo_task, view, UndoStore};
use zeta_core::{TaskQueue, TaskStatus, ZetaHome};
use zeta_protocol::changes::{TaskChanges, UndoOutcome};

pub struct UndoManager {
    store: UndoStore,
    database: std::path::PathBuf,
}

impl UndoManager {
    pub fn new(home: &ZetaHome) -> Self {
        Self {
            store: UndoStore::in_home(home),
            database: home.database_file(),
        }
    }

    pub fn changes(&self, task: i64) -> Result<TaskChanges, String> {
        view::for_task(&self.store, task).map_err(|e| e.to_string())
    }

    /// Undoes task `task` (`redo`: takes its last undo back).
    pub fn undo(&self, task: i64, redo: bool) -> Result<UndoOutcome, String> {
        let status = TaskQueue::open(&self.database)
            .and_then(|q| q.get(task))
            .map_err(|e| e.to_string())?
            .status;
        if matches!(status, TaskStatus::Pending | TaskStatus::Running) {
            return Err(format!(
                "task {task} has not finished yet: undo it once it has ended (or stop it first)"
            ));
        }
        let report = if redo {
            redo_task(&self.store, task, false)
        } else {
            undo_task(&self.store, task, false)
        }
        .map_err(|e| e.to_string())?;
        outcome(&self.store, task, &report).map_err(|e| e.to_string())
    }
}
