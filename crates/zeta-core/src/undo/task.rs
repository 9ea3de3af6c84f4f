//! One task's keeping, as the loop holds it: the keeper handed to each call, each call
//! settled when it ends, and the set closed (and the store pruned to its budget) when
//! the task ends, however it ends. A task Zeta stopped during keeps its set open, and
//! its next start goes on in the same set.

use std::sync::Arc;

use super::budget::{prune, Budget};
use super::journal::SetState;
use super::keep::{SetKeeper, UndoStore};
use super::Keeper;

pub struct TaskUndo {
    keeper: Arc<SetKeeper>,
    store: UndoStore,
    budget: Budget,
}

impl TaskUndo {
    /// `None` (and a warning) where the store cannot be opened: the task runs, unkept.
    pub fn start(
        store: &UndoStore,
        task_id: i64,
        settings: &zeta_protocol::settings::UndoSettings,
    ) -> Option<Self> {
        if !settings.enabled {
            return None;
        }
        match SetKeeper::for_task(store, task_id) {
            Ok(keeper) => Some(Self {
                keeper: Arc::new(keeper),
                store: store.clone(),
                budget: Budget {
                    max_bytes: settings.budget_mb.saturating_mul(1024 * 1024),
                    max_age_ms: i64::from(settings.keep_days) * 86_400_000,
                },
            }),
            Err(e) => {
                tracing::warn!(error = %e, "task {task_id}: its changes cannot be kept for undo");
                None
            }
        }
    }

    pub fn keeper(&self) -> Arc<dyn Keeper> {
        self.keeper.clone()
    }

    pub fn end_call(&self) {
        self.keeper.end_call();
    }

    /// What could not be kept (said with the answer).
    pub fn trouble(&self) -> Vec<String> {
        self.keeper.trouble()
    }
}

impl Drop for TaskUndo {
    fn drop(&mut self) {
        if self.keeper.set().is_none() {
            return;
        }
        self.keeper.close(SetState::Closed);
        let now = crate::store::schema::now_ms();
        match prune(&self.store, self.budget, now) {
            Ok(pruned) if !pruned.tasks.is_empty() => tracing::info!(
                tasks = ?pruned.tasks,
                bytes = pruned.bytes,
                "undo: let go of the oldest tasks' originals to stay within the budget"
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "undo: could not prune the originals store"),
        }
    }
}
