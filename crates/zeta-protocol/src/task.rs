//! Tasks as the queue stores them and the UI shows them: `Task`, its `TaskStatus`, what
//! fixes a failed one (`Fix`), and the conversations tasks belong to.

use serde::{Deserialize, Serialize};

/// One conversation, as the chat's history lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ConversationSummary {
    pub id: i64,
    /// Its first request.
    pub title: String,
    pub tasks: u32,
    /// When its last task was enqueued (Unix milliseconds).
    pub last_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum TaskStatus {
    Pending,
    Running,
    Done,
    Failed,
    Cancelled,
}

impl TaskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Pending => "pending",
            TaskStatus::Running => "running",
            TaskStatus::Done => "done",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// The status a stored text stands for.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "pending" => TaskStatus::Pending,
            "running" => TaskStatus::Running,
            "done" => TaskStatus::Done,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }

    /// Done, failed or cancelled: the task will not change again.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            TaskStatus::Done | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

impl std::fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// One row of `tasks`. Times are Unix milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub id: i64,
    /// Who asked: `chat`, `cli`, `voice`, `scheduler`, ...
    pub sender: String,
    pub message: String,
    pub status: TaskStatus,
    /// The `result` of the last `done` task when this one started.
    pub previous_context: Option<String>,
    /// Seed 000's summary, `User asked: …\nZeta replied: …`, which feeds the next task.
    pub result: Option<String>,
    /// What the user is shown: the final reply, or the progress made before a cancel.
    pub reply: Option<String>,
    pub error: Option<String>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// How many times the task was started (a crash or a signal can make it more than 1).
    pub attempts: u32,
    /// Set when Zeta stopped while the task ran: what was running then, which may have
    /// partly run. The next start tells the model, and repeating that call asks a person.
    pub interrupted: Option<String>,
    /// The task read input the user did not type (a file, a page, command output): its
    /// result reaches the next task as untrusted data.
    pub untrusted: bool,
    /// `previous_context` came from such a task.
    pub previous_untrusted: bool,
    /// Calls of this task that were refused (by the user, the settings, the blocklist or a
    /// rate limit), from the audit: whatever the reply claims, they did not happen.
    pub denied_calls: u32,
    /// Calls that ran and failed, or whose arguments were unusable.
    pub failed_calls: u32,
    /// Steps of an approved plan the user chose not to run, from the audit.
    pub skipped_steps: u32,
    /// The conversation it belongs to ("New chat" starts another).
    pub conversation: i64,
    /// For a failed task: what fixes it, when the user can.
    pub fix: Option<Fix>,
}

/// What fixes a failure, offered as a button where it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum Fix {
    /// The model settings are missing or wrong (a URL, a model name).
    OpenSettings,
    /// The provider refused the API key, or needs one.
    SetKey,
    /// It may work a moment later (a server down, a timeout, a rate limit).
    Retry,
}

impl Fix {
    /// The text stored in the queue.
    pub fn as_str(self) -> &'static str {
        match self {
            Fix::OpenSettings => "openSettings",
            Fix::SetKey => "setKey",
            Fix::Retry => "retry",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Fix::OpenSettings, Fix::SetKey, Fix::Retry]
            .into_iter()
            .find(|f| f.as_str() == text)
    }
}
