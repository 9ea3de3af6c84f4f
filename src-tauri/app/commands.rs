//! IPC commands the windows call: thin wrappers over `QueueManager`. Which window may call
//! which command is set in `src-tauri/capabilities`.

use tauri::State;
use zeta_core::protocol::StepChoice;
use zeta_core::{Event, Op, Task, WorkerState};

use super::queue_manager::QueueManager;

/// Longest request accepted from the chat box.
const MAX_MESSAGE_CHARS: usize = 20_000;

#[tauri::command]
pub fn enqueue_task(queue: State<'_, QueueManager>, message: String) -> Result<(), String> {
    let message = message.trim();
    if message.is_empty() {
        return Err("the message is empty".into());
    }
    if message.chars().count() > MAX_MESSAGE_CHARS {
        return Err(format!(
            "the message is longer than {MAX_MESSAGE_CHARS} characters"
        ));
    }
    queue.enqueue("chat", message).map_err(|e| e.to_string())
}

#[tauri::command]
pub fn list_tasks(queue: State<'_, QueueManager>, limit: Option<u32>) -> Result<Vec<Task>, String> {
    queue
        .recent(limit.unwrap_or(200).min(1000))
        .map_err(|e| e.to_string())
}

#[tauri::command]
pub fn cancel_task(queue: State<'_, QueueManager>, id: i64) -> Result<(), String> {
    queue
        .core()
        .submit(Op::CancelTask { id })
        .map_err(|e| e.to_string())
}

#[tauri::command]
pub fn set_paused(queue: State<'_, QueueManager>, paused: bool) -> Result<(), String> {
    let op = if paused {
        Op::PauseQueue
    } else {
        Op::ResumeQueue
    };
    queue.core().submit(op).map_err(|e| e.to_string())
}

#[tauri::command]
pub fn worker_state(queue: State<'_, QueueManager>) -> Option<WorkerState> {
    queue.worker_state()
}

#[tauri::command]
pub fn approve_call(
    queue: State<'_, QueueManager>,
    call_id: String,
    steps: Option<Vec<StepChoice>>,
) -> Result<(), String> {
    queue
        .core()
        .submit(Op::Approve {
            call_id,
            steps: steps.unwrap_or_default(),
        })
        .map_err(|e| e.to_string())
}

#[tauri::command]
pub fn deny_call(
    queue: State<'_, QueueManager>,
    call_id: String,
    reason: Option<String>,
) -> Result<(), String> {
    queue
        .core()
        .submit(Op::Deny { call_id, reason })
        .map_err(|e| e.to_string())
}

/// Requests waiting for the user, oldest first (the confirmation dialog reads them on open).
#[tauri::command]
pub fn pending_approvals(queue: State<'_, QueueManager>) -> Vec<Event> {
    queue.pending()
}
