//! The app's long-lived handle on the core, held in Tauri state: it submits Ops, reads the
//! queue for the window, and remembers the worker's state for late listeners.

use std::sync::Mutex;

use zeta_core::{Core, CoreError, Op, Task, TaskQueue, WorkerState, ZetaHome};

pub struct QueueManager {
    core: Core,
    /// A reading connection of its own; writes go through the worker as Ops.
    reader: Mutex<TaskQueue>,
    worker_state: Mutex<Option<WorkerState>>,
}

impl QueueManager {
    pub fn new(core: Core, home: &ZetaHome) -> Result<Self, CoreError> {
        let reader = TaskQueue::open(&home.database_file())?;
        Ok(Self {
            core,
            reader: Mutex::new(reader),
            worker_state: Mutex::new(None),
        })
    }

    pub fn core(&self) -> &Core {
        &self.core
    }

    pub fn enqueue(&self, sender: &str, message: &str) -> Result<(), CoreError> {
        self.core.submit(Op::EnqueueTask {
            sender: sender.to_string(),
            message: message.to_string(),
        })
    }

    pub fn recent(&self, limit: u32) -> Result<Vec<Task>, CoreError> {
        let reader = self
            .reader
            .lock()
            .map_err(|_| CoreError::Home("queue reader lock poisoned".into()))?;
        reader.recent(limit)
    }

    pub fn set_worker_state(&self, state: WorkerState) {
        if let Ok(mut slot) = self.worker_state.lock() {
            *slot = Some(state);
        }
    }

    pub fn worker_state(&self) -> Option<WorkerState> {
        self.worker_state.lock().ok().and_then(|s| s.clone())
    }

    pub fn is_paused(&self) -> bool {
        matches!(self.worker_state(), Some(WorkerState::Paused))
    }
}
