//! The seam between the queue worker and whatever carries a task out: the `Agent` trait,
//! what it is handed (`TaskContext`), and how it ends (`AgentOutcome`).

use std::future::Future;

use tokio::sync::{broadcast, mpsc, watch};

use crate::settings::Settings;
use crate::store::queue::Task;
use zeta_protocol::Event;

/// How a task ended, as the agent reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentOutcome {
    Done {
        reply: String,
    },
    Failed {
        /// A plain sentence, then (after a blank line) the details.
        error: String,
        /// What fixes it, when something the user can do does.
        fix: Option<crate::model::Fix>,
    },
    /// Stopped on the user's request; `progress` says what was done before.
    Cancelled {
        progress: String,
    },
}

/// Set once by the worker when the user cancels the running task.
#[derive(Debug, Clone)]
pub struct CancelToken(watch::Receiver<bool>);

impl CancelToken {
    /// A token and the sender that cancels it (`send(true)`).
    pub fn new() -> (watch::Sender<bool>, Self) {
        let (tx, rx) = watch::channel(false);
        (tx, Self(rx))
    }

    pub fn is_cancelled(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves when the task is cancelled (never, if it is not).
    pub async fn cancelled(&mut self) {
        if self.0.wait_for(|c| *c).await.is_err() {
            // The worker dropped the sender without cancelling: wait forever.
            std::future::pending::<()>().await;
        }
    }
}

/// Messages the user added to a running task, in order, with who sent them. The loop
/// reads them at its next iteration boundary; what it never read (the task ended or was
/// stopped first) the worker takes back when the task ends, so that nothing is dropped.
#[derive(Debug, Clone, Default)]
pub struct Inbox(std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<(String, String)>>>);

impl Inbox {
    pub fn push(&self, sender: String, text: String) {
        self.lock().push_back((sender, text));
    }

    /// Takes every message waiting, oldest first: (sender, text).
    pub fn take(&self) -> Vec<(String, String)> {
        self.lock().drain(..).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::VecDeque<(String, String)>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Everything an agent gets for one task. Settings were read fresh for this task.
pub struct TaskContext {
    pub task: Task,
    pub settings: Settings,
    pub cancel: CancelToken,
    pub events: broadcast::Sender<Event>,
    /// User messages sent while the task runs, to inject at the next iteration.
    pub inbox: Inbox,
    /// Answers to approval requests.
    pub approvals: mpsc::UnboundedReceiver<ApprovalMessage>,
    /// Where each tool call and its decision is recorded.
    pub audit: Option<crate::store::audit::AuditLog>,
    /// The settings file, where "Always allow" is saved (`None`: nowhere).
    pub settings_file: Option<std::path::PathBuf>,
}

/// What reaches a task waiting for the user: their answer, or a hold (they are editing
/// the call, so the wait's time limit stops).
#[derive(Debug, Clone, PartialEq)]
pub enum ApprovalMessage {
    Answer(ApprovalAnswer),
    Hold {
        call_id: String,
    },
    /// The answer to question `call_id` (`ask_user`); `None`: none is coming.
    Reply {
        call_id: String,
        text: Option<String>,
    },
}

/// The user's answer to `Event::ApprovalRequested`.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalAnswer {
    pub call_id: String,
    pub approved: bool,
    pub reason: Option<String>,
    /// Steps skipped or edited by the user (plans; index 0 for a single call).
    pub steps: Vec<zeta_protocol::StepChoice>,
    /// How far a yes reaches (`ApprovalScope::Once` for a no).
    pub scope: zeta_protocol::ApprovalScope,
}

/// Carries out one task. Implemented by the agent loop (and by test agents).
pub trait Agent: Send + Sync + 'static {
    fn run(&self, ctx: TaskContext) -> impl Future<Output = AgentOutcome> + Send;
}

/// The agent used when none is configured: every task fails, saying why.
#[derive(Debug, Default, Clone, Copy)]
pub struct Unconfigured;

impl Agent for Unconfigured {
    async fn run(&self, _ctx: TaskContext) -> AgentOutcome {
        AgentOutcome::Failed {
            error:
                "no agent configured: Zeta has no agent loop or LLM provider to run tasks with yet"
                    .into(),
            fix: None,
        }
    }
}
