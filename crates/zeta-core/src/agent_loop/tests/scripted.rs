//! A model that answers from a script, in order, and keeps every request it was sent; a
//! test tool that records its runs; and one task run end to end with an audit log in a
//! temporary database.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc};

use crate::agent::{Agent, AgentOutcome, ApprovalAnswer, ApprovalMessage, Inbox, TaskContext};
use crate::agent_loop::{AgentLoop, FixedModel};
use crate::model::{
    Capabilities, Model, ModelError, ModelFailure, ModelReply, ModelRequest, ToolCall, ToolSpec,
    Usage,
};
use crate::settings::Settings;
use crate::store::audit::{AuditEntry, AuditLog};
use crate::tool::{Tool, ToolContext, ToolFuture, ToolOutput, ToolRegistry};
use crate::CancelToken;
use zeta_protocol::{ApprovalScope, Event, StepChoice, Task, TaskStatus};

/// One scripted reply: text, or calls.
pub fn text(text: &str) -> ModelReply {
    ModelReply {
        text: text.into(),
        tool_calls: Vec::new(),
        usage: Usage::default(),
    }
}

pub fn call(id: &str, name: &str, arguments: Value) -> ModelReply {
    ModelReply {
        text: String::new(),
        tool_calls: vec![ToolCall {
            id: id.into(),
            name: name.into(),
            arguments,
        }],
        usage: Usage::default(),
    }
}

/// Answers each request with the next scripted reply; past the script, an error.
#[derive(Default)]
pub struct Scripted {
    replies: Mutex<VecDeque<Result<ModelReply, ModelError>>>,
    pub requests: Mutex<Vec<ModelRequest>>,
    /// Says it is a small model (the local one).
    small: bool,
}

impl Scripted {
    /// The replies in order (a failure is the model call failing), as a small model or not.
    pub fn new(replies: Vec<Result<ModelReply, ModelError>>, small: bool) -> Arc<Self> {
        Arc::new(Self {
            replies: Mutex::new(replies.into()),
            requests: Mutex::default(),
            small,
        })
    }

    /// The text of every message of request `n` (0-based), joined.
    pub fn request_text(&self, n: usize) -> String {
        let requests = self.requests.lock().unwrap();
        requests[n]
            .messages
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Model for Scripted {
    async fn complete(
        &self,
        request: &ModelRequest,
        _on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ModelReply, ModelError> {
        self.requests.lock().unwrap().push(request.clone());
        self.replies.lock().unwrap().pop_front().unwrap_or_else(|| {
            Err(ModelError::new(
                ModelFailure::Refused,
                "the script has ended",
                "",
                None,
            ))
        })
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            native_tools: true,
            images: false,
            small: self.small,
        }
    }
}

/// A tool that changes things, hands `command` to the shell judge, and counts its runs;
/// a command that starts with `false` fails.
pub struct Touch {
    pub runs: Arc<Mutex<Vec<Value>>>,
}

impl Tool for Touch {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "touch".into(),
            description: "run a command".into(),
            parameters: json!({"type": "object", "properties": {"command": {"type": "string"}},
                "required": ["command"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        false
    }
    fn commands(&self, arguments: &Value) -> Vec<String> {
        // The schema makes `command` a string before the judge sees it.
        vec![arguments["command"]
            .as_str()
            .unwrap_or_default()
            .to_string()]
    }
    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        // A command that starts with `false` fails, as in a shell.
        let fails = arguments["command"]
            .as_str()
            .is_some_and(|c| c.starts_with("false"));
        self.runs.lock().unwrap().push(arguments);
        Box::pin(async move {
            if fails {
                ToolOutput::error("exit code 1")
            } else {
                ToolOutput::ok("done", "done")
            }
        })
    }
}

/// How the person at the screen answers each question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Person {
    Approves,
    Denies,
    /// Approves a plan with its step `n` (0-based) skipped.
    ApprovesSkipping(u32),
}

/// What one task left behind.
pub struct Ran {
    pub outcome: AgentOutcome,
    pub audit: Vec<AuditEntry>,
    /// Each skill's record after the task (what the knowledge it used was recorded as).
    pub skill_records: std::collections::BTreeMap<String, crate::store::skill_uses::SkillRecord>,
    pub events: Vec<Event>,
    pub runs: Vec<Value>,
    pub model: Arc<Scripted>,
}

impl Ran {
    pub fn decisions(&self) -> Vec<(String, String)> {
        self.audit
            .iter()
            .map(|e| (e.decision.clone(), e.decided_by.clone()))
            .collect()
    }
    pub fn asked(&self) -> usize {
        self.events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::ApprovalRequested { .. } | Event::PlanProposed { .. }
                )
            })
            .count()
    }
}

/// Runs one task of `message` with `settings` against `replies`, the `touch` tool
/// registered, `person` answering every question.
pub async fn run_task(settings: Settings, replies: Vec<ModelReply>, person: Person) -> Ran {
    run_scripted(settings, replies.into_iter().map(Ok).collect(), person).await
}

/// The task a scripted run works on, and the model's size.
pub struct Given {
    pub message: String,
    /// The previous task's answer, handed to this one.
    pub previous: Option<String>,
    pub small: bool,
    /// The knowledge (skills) the loop offers in the first turn.
    pub knowledge: Option<Arc<dyn crate::assist::notes::Knowledge>>,
    /// Tools registered beside `touch`.
    pub tools: Vec<Arc<dyn Tool>>,
    /// The windows on screen when the task starts.
    pub on_screen: Vec<crate::assist::windows::ShownWindow>,
}

impl Default for Given {
    fn default() -> Self {
        Self {
            message: "make the file".into(),
            previous: None,
            small: false,
            knowledge: None,
            tools: Vec::new(),
            on_screen: Vec::new(),
        }
    }
}

/// `run_task` with a script whose replies may be failures.
pub async fn run_scripted(
    settings: Settings,
    replies: Vec<Result<ModelReply, ModelError>>,
    person: Person,
) -> Ran {
    run_given(settings, replies, person, Given::default()).await
}

/// `run_scripted` for the task and model `given`.
pub async fn run_given(
    settings: Settings,
    replies: Vec<Result<ModelReply, ModelError>>,
    person: Person,
    given: Given,
) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    // Zeta's own files in a folder of their own, as in `~/.zeta`: the database the
    // audit writes while a call runs is no effect of the call in the task's folder.
    let state = dir.path().join(".zeta");
    std::fs::create_dir(&state).unwrap();
    let audit = AuditLog::open(&state.join("zeta.db")).unwrap();
    let runs = Arc::new(Mutex::new(Vec::new()));
    let mut tools = ToolRegistry::new();
    tools.register(Arc::new(Touch {
        runs: Arc::clone(&runs),
    }));
    for tool in given.tools {
        tools.register(tool);
    }
    let model = Scripted::new(replies, given.small);
    let agent = AgentLoop::new(
        FixedModel(Arc::clone(&model)),
        tools,
        dir.path().join("souls"),
        PathBuf::from(dir.path()),
    );
    let agent = match given.knowledge {
        Some(knowledge) => agent.with_knowledge(knowledge),
        None => agent,
    };
    let shown = given.on_screen;
    let agent = agent.with_on_screen(Arc::new(move || shown.clone()));
    let (events, mut seen) = broadcast::channel(256);
    let (approve, approvals) = mpsc::unbounded_channel();
    let (_cancel_tx, cancel) = CancelToken::new();
    let ctx = TaskContext {
        task: Task {
            message: given.message,
            previous_context: given.previous,
            ..task()
        },
        settings,
        cancel,
        events,
        inbox: Inbox::default(),
        approvals,
        audit: Some(audit.clone()),
        settings_file: None,
    };
    // The person: answers each question as it appears.
    let answering = tokio::spawn(async move {
        let mut all = Vec::new();
        while let Ok(event) = seen.recv().await {
            let call_id = match &event {
                Event::ApprovalRequested { call_id, .. } => Some(call_id.clone()),
                Event::PlanProposed {
                    call_id,
                    needs_approval: true,
                    ..
                } => Some(call_id.clone()),
                _ => None,
            };
            if let Some(call_id) = call_id {
                let _ = approve.send(ApprovalMessage::Answer(ApprovalAnswer {
                    call_id,
                    approved: person != Person::Denies,
                    reason: None,
                    steps: match person {
                        Person::ApprovesSkipping(index) => vec![StepChoice {
                            index,
                            skip: true,
                            params: None,
                        }],
                        _ => Vec::new(),
                    },
                    scope: ApprovalScope::Once,
                }));
            }
            let finished = matches!(event, Event::TaskMetrics { .. });
            all.push(event);
            if finished {
                break;
            }
        }
        all
    });
    let outcome = agent.run(ctx).await;
    let events = answering.await.unwrap();
    let skill_records = audit.skill_records().unwrap();
    let audit = audit.for_task(1).unwrap();
    let runs = runs.lock().unwrap().clone();
    Ran {
        outcome,
        audit,
        skill_records,
        events,
        runs,
        model,
    }
}

fn task() -> Task {
    Task {
        id: 1,
        sender: "test".into(),
        message: "make the file".into(),
        status: TaskStatus::Running,
        previous_context: None,
        result: None,
        reply: None,
        error: None,
        created_at: 0,
        started_at: Some(0),
        finished_at: None,
        attempts: 1,
        interrupted: None,
        untrusted: false,
        previous_untrusted: false,
        denied_calls: 0,
        failed_calls: 0,
        skipped_steps: 0,
        conversation: 1,
        fix: None,
    }
}

/// Settings with `mode` and the native protocol.
/// A test tool's spec: `name`, any arguments.
pub fn open_spec(name: &str) -> crate::model::ToolSpec {
    crate::model::ToolSpec {
        name: name.into(),
        description: format!("{name} (test)"),
        parameters: serde_json::json!({"type": "object"}),
    }
}

pub fn settings(mode: crate::policy::PermissionMode) -> Settings {
    let mut s = Settings::default();
    s.permissions.mode = mode;
    s.provider.protocol = crate::settings::Protocol::Tools;
    s.verify = crate::settings::Verify::Never;
    s
}

/// Knowledge that says which model it was given to, at the place the first turn holds
/// it, and names one skill as used.
pub struct FixedKnowledge;

impl crate::assist::notes::Knowledge for FixedKnowledge {
    fn note(
        &self,
        _request: &crate::assist::request::Request,
        room: crate::assist::notes::Room,
    ) -> Option<crate::assist::notes::Added> {
        Some(crate::assist::notes::Added {
            text: format!(
                "[the skills for a {} model (zeta-skills' note), here]",
                if room.small { "small" } else { "large" }
            ),
            untrusted: None,
            used: vec!["test-skill".into()],
        })
    }
}
