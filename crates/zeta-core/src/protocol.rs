//! The core's queue pair: `Op`s go in, `Event`s come out. The desktop app, the CLI and the
//! tests are listeners on the same event stream.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::queue::Task;
use crate::settings::SettingsProblem;

/// A request to the core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum Op {
    /// Append a task to the queue.
    EnqueueTask {
        sender: String,
        message: String,
    },
    /// Cancel a pending task, or stop the running one.
    CancelTask {
        #[ts(type = "number")]
        id: i64,
    },
    /// A message from the user: injected into the running task at its next iteration,
    /// or enqueued as a new task when none runs.
    UserMessage {
        sender: String,
        text: String,
    },
    /// Let the running task's call `call_id` run.
    Approve {
        call_id: String,
    },
    /// Refuse the running task's call `call_id`; the model is told, with the reason.
    Deny {
        call_id: String,
        reason: Option<String>,
    },
    /// Stop taking new tasks (the running one finishes).
    PauseQueue,
    ResumeQueue,
    /// Finish the running task's current step and stop the worker.
    Shutdown,
}

/// Why the worker is or is not taking tasks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(
    tag = "state",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum WorkerState {
    /// Holding the worker lock and taking tasks.
    Active,
    /// Paused by the user.
    Paused,
    /// Another process holds the worker lock; this one only enqueues and watches.
    Standby { holder_pid: String },
}

/// Something that happened in the core, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum Event {
    TaskQueued {
        task: Task,
    },
    TaskStarted {
        task: Task,
    },
    /// The loop begins iteration `iteration` (1-based) of at most `max_iterations`.
    IterationStarted {
        #[ts(type = "number")]
        task_id: i64,
        iteration: u32,
        max_iterations: u32,
    },
    /// Text streamed from the model as it arrives.
    LlmDelta {
        #[ts(type = "number")]
        task_id: i64,
        text: String,
    },
    ToolCallStarted {
        #[ts(type = "number")]
        task_id: i64,
        call_id: String,
        tool: String,
        #[ts(type = "unknown")]
        arguments: serde_json::Value,
    },
    /// Output of a running tool call, as it arrives.
    ToolOutput {
        #[ts(type = "number")]
        task_id: i64,
        call_id: String,
        chunk: String,
    },
    ToolCallFinished {
        #[ts(type = "number")]
        task_id: i64,
        call_id: String,
        tool: String,
        ok: bool,
        /// One line for the UI.
        summary: String,
        /// What the model was given.
        output: String,
    },
    /// A call waits for the user's yes or no (`Op::Approve` / `Op::Deny`).
    ApprovalRequested {
        #[ts(type = "number")]
        task_id: i64,
        call_id: String,
        tool: String,
        #[ts(type = "unknown")]
        arguments: serde_json::Value,
        /// The call counts as denied after this many seconds.
        timeout_secs: u32,
    },
    /// The answer: `by` is `user` or `timeout`.
    ApprovalResolved {
        #[ts(type = "number")]
        task_id: i64,
        call_id: String,
        approved: bool,
        by: String,
    },
    /// A user message reached the running task.
    UserMessageInjected {
        #[ts(type = "number")]
        task_id: i64,
        text: String,
    },
    /// The task reached `done`, `failed` or `cancelled`; `task` carries the reply or error.
    TaskFinished {
        task: Task,
    },
    /// The queue changed in a way this process did not do (e.g. `zeta enqueue`).
    QueueChanged,
    WorkerStateChanged {
        state: WorkerState,
    },
    /// The settings file had problems; the named fields fell back to defaults.
    SettingsProblems {
        problems: Vec<SettingsProblem>,
    },
    /// Something failed outside any task; `message` says what.
    Error {
        message: String,
    },
}
