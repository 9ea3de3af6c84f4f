//! The app's long-lived handle on the core, held in Tauri state: it submits Ops, reads the
//! queue for the window, and remembers the worker's state and the requests waiting for the
//! user (for the confirmation dialog, which may open after they were sent).

use std::sync::Mutex;

use zeta_core::{Core, CoreError, Event, Op, Task, TaskQueue, WorkerState, ZetaHome};

pub struct QueueManager {
    core: Core,
    /// A reading connection of its own; writes go through the worker as Ops.
    reader: Mutex<TaskQueue>,
    worker_state: Mutex<Option<WorkerState>>,
    /// `ApprovalRequested` and `PlanProposed` events not answered yet, oldest first.
    pending: Mutex<Vec<Event>>,
    /// Reads the audit log and metrics for the queue panel.
    audit: zeta_core::store::audit::AuditLog,
}

impl QueueManager {
    pub fn new(core: Core, home: &ZetaHome) -> Result<Self, CoreError> {
        let reader = TaskQueue::open(&home.database_file())?;
        Ok(Self {
            core,
            reader: Mutex::new(reader),
            worker_state: Mutex::new(None),
            pending: Mutex::new(Vec::new()),
            audit: zeta_core::store::audit::AuditLog::open(&home.database_file())?,
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

    /// The conversation new tasks join, and the conversations that have tasks.
    pub fn conversations(&self, limit: u32) -> Result<Conversations, CoreError> {
        let reader = self
            .reader
            .lock()
            .map_err(|_| CoreError::Home("queue reader lock poisoned".into()))?;
        Ok(Conversations {
            current: reader.current_conversation()?,
            list: reader.conversations(limit)?,
        })
    }

    pub fn conversation_tasks(&self, id: i64, limit: u32) -> Result<Vec<Task>, CoreError> {
        let reader = self
            .reader
            .lock()
            .map_err(|_| CoreError::Home("queue reader lock poisoned".into()))?;
        reader.conversation_tasks(id, limit)
    }

    pub fn task(&self, id: i64) -> Result<Task, CoreError> {
        let reader = self
            .reader
            .lock()
            .map_err(|_| CoreError::Home("queue reader lock poisoned".into()))?;
        reader.get(id)
    }

    /// The tool calls of task `id`, from the audit log.
    pub fn activity(&self, id: i64) -> Result<Vec<zeta_core::store::audit::AuditEntry>, CoreError> {
        self.audit.for_task(id)
    }

    /// A task's record: its calls, the messages added to it, its checks' notes.
    pub fn record(&self, id: i64) -> Result<zeta_core::store::record::TaskRecord, CoreError> {
        self.audit.record_of(id)
    }

    pub fn metrics(
        &self,
        limit: u32,
    ) -> Result<Vec<zeta_core::store::metrics::TaskMetrics>, CoreError> {
        self.audit.recent_metrics(limit)
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

    /// Follows requests for the user through `event`; true when the set changed.
    pub fn track_pending(&self, event: &Event) -> bool {
        let Ok(mut pending) = self.pending.lock() else {
            return false;
        };
        let before = pending.len();
        match event {
            Event::ApprovalRequested { .. }
            | Event::PlanProposed {
                needs_approval: true,
                ..
            } => pending.push(event.clone()),
            Event::ApprovalResolved { call_id, .. } => {
                pending.retain(|e| request_call_id(e) != Some(call_id.as_str()))
            }
            Event::TaskFinished { task } => pending.retain(|e| request_task_id(e) != Some(task.id)),
            _ => return false,
        }
        pending.len() != before
    }

    pub fn pending(&self) -> Vec<Event> {
        self.pending.lock().map(|p| p.clone()).unwrap_or_default()
    }
}

fn request_call_id(event: &Event) -> Option<&str> {
    match event {
        Event::ApprovalRequested { call_id, .. } | Event::PlanProposed { call_id, .. } => {
            Some(call_id)
        }
        _ => None,
    }
}

fn request_task_id(event: &Event) -> Option<i64> {
    match event {
        Event::ApprovalRequested { task_id, .. } | Event::PlanProposed { task_id, .. } => {
            Some(*task_id)
        }
        _ => None,
    }
}

/// What the chat's history shows: the conversation new tasks join, and all that have tasks.
#[derive(Debug, Clone, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Conversations {
    pub current: i64,
    pub list: Vec<zeta_core::ConversationSummary>,
}
