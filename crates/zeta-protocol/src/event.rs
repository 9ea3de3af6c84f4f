//! What comes out of the core, in order: `Event`, and the views it carries (a plan's
//! steps, the worker's state).

use serde::{Deserialize, Serialize};

use crate::changes::FileChange;
use crate::metrics::TaskMetrics;
use crate::risk::Risk;
use crate::settings::{Allowance, SettingsProblem};
use crate::task::Task;

/// One step of a proposed plan, as the confirmation dialog shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct PlanStepView {
    pub index: u32,
    pub description: String,
    pub tool: String,
    pub params: serde_json::Value,
    /// What the step acts on: command, path, URL, app or screen point.
    pub target: String,
    pub risk: Risk,
    /// Judged from the tool, not from what the model claimed.
    pub side_effects: bool,
    pub can_fail: bool,
    pub fallback: Option<String>,
    /// The text the step would write into a file: the new file's text, or a diff against
    /// what it holds now.
    pub change: Option<FileChange>,
}

/// Where a plan step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum StepStatus {
    Pending,
    Running,
    Done,
    Failed,
    Skipped,
}

/// What a finishing check did with the task's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum CheckResult {
    /// The answer went back to the model with the evidence, to be answered again.
    SentBack,
    /// The answer still did not hold: the person is told what the evidence says, with
    /// the answer or instead of it.
    Told,
}

impl CheckResult {
    pub fn as_str(self) -> &'static str {
        match self {
            CheckResult::SentBack => "sent back",
            CheckResult::Told => "told",
        }
    }
}

/// How a conversation was compacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum CompactionKind {
    /// Old tool outputs shrunk.
    Soft,
    /// Older turns folded into a summary.
    Hard,
}

impl CompactionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CompactionKind::Soft => "soft",
            CompactionKind::Hard => "hard",
        }
    }
}

/// Why the worker is or is not taking tasks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum WorkerState {
    /// Holding the worker lock and taking tasks.
    Active,
    /// Paused by the user.
    Paused,
    /// Another process holds the worker lock; this one only enqueues and watches.
    #[serde(rename_all = "camelCase")]
    Standby { holder_pid: String },
}

/// Something that happened in the core, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    #[serde(rename_all = "camelCase")]
    TaskQueued { task: Task },
    #[serde(rename_all = "camelCase")]
    TaskStarted { task: Task },
    /// The loop begins iteration `iteration` (1-based) of at most `max_iterations`.
    #[serde(rename_all = "camelCase")]
    IterationStarted {
        task_id: i64,
        iteration: u32,
        max_iterations: u32,
        /// The size of the request about to be sent, in tokens, and the model's window.
        context_tokens: u32,
        context_window: u32,
    },
    /// The conversation was compacted to fit the window.
    #[serde(rename_all = "camelCase")]
    Compacted {
        task_id: i64,
        kind: CompactionKind,
        before: u32,
        after: u32,
    },
    /// Text streamed from the model as it arrives.
    #[serde(rename_all = "camelCase")]
    LlmDelta { task_id: i64, text: String },
    #[serde(rename_all = "camelCase")]
    ToolCallStarted {
        task_id: i64,
        call_id: String,
        tool: String,
        arguments: serde_json::Value,
    },
    /// Output of a running tool call, as it arrives.
    #[serde(rename_all = "camelCase")]
    ToolOutput {
        task_id: i64,
        call_id: String,
        chunk: String,
    },
    #[serde(rename_all = "camelCase")]
    ToolCallFinished {
        task_id: i64,
        call_id: String,
        tool: String,
        ok: bool,
        /// One line for the UI.
        summary: String,
        /// What the model was given.
        output: String,
        /// Images the call produced (screenshots), as data URLs.
        images: Vec<String>,
    },
    /// A finishing check (`check`, its name) judged the task's answer against what the
    /// task's calls did and printed.
    #[serde(rename_all = "camelCase")]
    AnswerChecked {
        task_id: i64,
        check: String,
        result: CheckResult,
        /// What it found, in words.
        detail: String,
    },
    /// A call waits for the user's yes or no (`Op::Approve` / `Op::Deny`).
    #[serde(rename_all = "camelCase")]
    ApprovalRequested {
        task_id: i64,
        call_id: String,
        tool: String,
        arguments: serde_json::Value,
        target: String,
        risk: Risk,
        /// Why this call asks when the policy alone would not have (e.g. it follows text
        /// that read like instructions).
        reason: Option<String>,
        /// The latest screenshot (a data URL) for mouse and keyboard calls.
        screenshot: Option<String>,
        /// The call counts as denied after this many seconds.
        timeout_secs: u32,
        /// Only a person may approve this call: a standing "approve all" (`zeta run
        /// --approve all`) denies it. Set for a repeat of a call that already ran, or was
        /// cut short, in an earlier start of the task.
        requires_person: bool,
        /// What "Allow for this task" and "Always allow" would cover (the tool and, for
        /// the shell, the command's program); `None`: only this call can be approved.
        allowance: Option<Allowance>,
        /// A high-risk call: a key press alone (Enter) does not approve it.
        high_risk: bool,
        /// The files and folders it would create, change or remove, where they are known
        /// before it runs (a command's targets as the shell judge reads them, a file
        /// tool's path); empty when they are not. Its changes can be undone.
        files: Vec<String>,
        /// The text it would write into a file: the new file's text, or a diff against
        /// what the file holds now.
        change: Option<FileChange>,
        /// What the person asked for, in their words (the task's message).
        request: String,
    },
    /// The model proposed a plan (`propose_plan`). With `needs_approval`, nothing runs
    /// until `Op::Approve` or `Op::Deny` for `call_id`; otherwise it runs at once.
    #[serde(rename_all = "camelCase")]
    PlanProposed {
        task_id: i64,
        call_id: String,
        goal: String,
        risks: Vec<String>,
        steps: Vec<PlanStepView>,
        needs_approval: bool,
        /// The latest screenshot (a data URL) when a step uses the mouse or keyboard.
        screenshot: Option<String>,
        timeout_secs: u32,
        /// What the person asked for, in their words (the task's message).
        request: String,
    },
    /// A step of plan `call_id` moved on.
    #[serde(rename_all = "camelCase")]
    PlanStepUpdated {
        task_id: i64,
        call_id: String,
        index: u32,
        status: StepStatus,
        summary: String,
    },
    /// The answer: `by` is `user`, `timeout` or `cancel`.
    #[serde(rename_all = "camelCase")]
    ApprovalResolved {
        task_id: i64,
        call_id: String,
        approved: bool,
        by: String,
    },
    /// The agent asks the user a question mid-task (`ask_user`); the task waits for
    /// `Op::Answer` with `call_id`, up to `timeout_secs`.
    #[serde(rename_all = "camelCase")]
    QuestionAsked {
        task_id: i64,
        call_id: String,
        question: String,
        timeout_secs: u32,
    },
    /// The question `call_id` got its answer, or none came (`answered` false).
    #[serde(rename_all = "camelCase")]
    QuestionAnswered {
        task_id: i64,
        call_id: String,
        answered: bool,
    },
    /// A short status line from the agent (`report_progress`), shown while it works.
    #[serde(rename_all = "camelCase")]
    Progress { task_id: i64, text: String },
    /// A user message reached the running task.
    #[serde(rename_all = "camelCase")]
    UserMessageInjected { task_id: i64, text: String },
    /// A message the user added to task `task_id` arrived too late for it (the task ended
    /// or was stopped before reading it): it is queued as task `new_task_id` instead.
    #[serde(rename_all = "camelCase")]
    UserMessageRequeued {
        task_id: i64,
        new_task_id: i64,
        text: String,
    },
    /// What the task used, sent just before `TaskFinished`.
    #[serde(rename_all = "camelCase")]
    TaskMetrics { metrics: TaskMetrics },
    /// The task reached `done`, `failed` or `cancelled`; `task` carries the reply or error.
    #[serde(rename_all = "camelCase")]
    TaskFinished { task: Task },
    /// Zeta stopped while the task ran (a crash, or a signal): it is pending again and
    /// `task.interrupted` says what was running. Its next start is told so.
    #[serde(rename_all = "camelCase")]
    TaskInterrupted { task: Task },
    /// The queue changed in a way this process did not do (e.g. `zeta enqueue`).
    QueueChanged,
    /// The model request failed and is tried again after `wait_ms`.
    #[serde(rename_all = "camelCase")]
    ModelRetrying {
        task_id: i64,
        attempt: u32,
        wait_ms: u64,
        said: String,
    },
    /// New tasks now join conversation `id` (after `Op::NewConversation`).
    #[serde(rename_all = "camelCase")]
    ConversationStarted { id: i64 },
    #[serde(rename_all = "camelCase")]
    WorkerStateChanged { state: WorkerState },
    /// The settings file had problems; the named fields fell back to defaults.
    #[serde(rename_all = "camelCase")]
    SettingsProblems { problems: Vec<SettingsProblem> },
    /// Something failed outside any task; `message` says what.
    #[serde(rename_all = "camelCase")]
    Error { message: String },
}
