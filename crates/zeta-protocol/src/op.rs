//! What goes into the core: `Op`, and the user's answers it carries (`ApprovalScope`,
//! `StepChoice`).

use serde::{Deserialize, Serialize};

/// A request to the core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Op {
    /// Append a task to the queue.
    #[serde(rename_all = "camelCase")]
    EnqueueTask {
        sender: String,
        message: String,
    },
    /// Cancel a pending task, or stop the running one.
    #[serde(rename_all = "camelCase")]
    CancelTask {
        id: i64,
    },
    /// A message from the user: injected into the running task at its next iteration,
    /// or enqueued as a new task when none runs.
    #[serde(rename_all = "camelCase")]
    UserMessage {
        sender: String,
        text: String,
    },
    /// Send a message the person added to a task they then stopped (held on that task's
    /// record until now, `id` its record's id) as a task of its own: once.
    #[serde(rename_all = "camelCase")]
    SendHeld {
        id: i64,
    },
    /// Let the running task's call or plan `call_id` run. `steps` holds the user's
    /// changes: a step (index 0 for a single call) skipped or run with edited parameters.
    #[serde(rename_all = "camelCase")]
    Approve {
        call_id: String,
        #[serde(default)]
        steps: Vec<StepChoice>,
        /// How far the yes reaches: this call, the rest of the task, or always (a single
        /// call's `allowance` only; anything else is taken as once).
        #[serde(default)]
        scope: ApprovalScope,
    },
    /// The user is editing call or plan `call_id`: its time limit stops until they answer.
    #[serde(rename_all = "camelCase")]
    HoldApproval {
        call_id: String,
    },
    /// Refuse the running task's call `call_id`; the model is told, with the reason.
    #[serde(rename_all = "camelCase")]
    Deny {
        call_id: String,
        reason: Option<String>,
    },
    /// The user's answer to the running task's question `call_id` (`Event::QuestionAsked`);
    /// `None`: no answer is coming (a run nobody can answer).
    #[serde(rename_all = "camelCase")]
    Answer {
        call_id: String,
        text: Option<String>,
    },
    /// "New chat": later tasks join a new conversation and do not get the earlier
    /// conversation's last answer as context. A task already running finishes where it is.
    NewConversation,
    /// Stop taking new tasks (the running one finishes).
    PauseQueue,
    ResumeQueue,
    /// Cancel the running task (recorded as cancelled) and stop the worker.
    Shutdown,
    /// Zeta is being stopped (SIGTERM, a logout): cut the running task's current call
    /// short (its process group is killed), put the task back as interrupted, to resume on
    /// the next start, and stop the worker.
    Interrupt,
}

/// How far a yes to one call reaches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ApprovalScope {
    /// This call only.
    #[default]
    Once,
    /// Calls with the same allowance for the rest of this task.
    Task,
    /// Calls with the same allowance from now on (kept in settings.json under
    /// `permissions.alwaysAllow`, where the settings window lists and removes them).
    Always,
}

/// The user's change to one step when approving a plan (or a single call, index 0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StepChoice {
    pub index: u32,
    /// Do not run this step.
    #[serde(default)]
    pub skip: bool,
    /// Run the step with these parameters instead of the proposed ones.
    #[serde(default)]
    pub params: Option<serde_json::Value>,
}
