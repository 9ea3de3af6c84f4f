//! The agent loop (seeds 000, 001, 002): for one task, ask the model for a step, run the
//! tool calls it asked for, feed the results back, and repeat until the model answers or
//! the iteration cap is hit. Each iteration is one model call plus its tool calls.
//!
//! Cancellation is checked at every iteration boundary and before and after every tool
//! call. User messages sent while the task runs are injected at the next boundary.

pub mod guard;
pub mod planner;
pub mod prompt;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::broadcast;

use crate::agent::{Agent, AgentOutcome, TaskContext};
use crate::model::{Message, Model, ModelReply, ModelRequest, ResponseFormat, ToolCall};
use crate::policy::{decide, Decision};
use crate::protocol::Event;
use crate::settings::{Protocol, Settings};
use crate::tool::{ToolContext, ToolOutput, ToolRegistry};
use guard::Guard;
use planner::{clip, leaked_tool_call, parse_plan, plan_schema, Step};

/// Where each task's model comes from: built from that task's settings, so that a
/// provider change takes effect on the next task.
pub trait ModelSource: Send + Sync + 'static {
    type Model: Model;
    fn model_for(&self, settings: &Settings) -> Result<Self::Model, String>;
}

/// The same model for every task (tests, benchmarks).
pub struct FixedModel<M>(pub Arc<M>);

impl<M: Model> Model for Arc<M> {
    fn complete(
        &self,
        request: &ModelRequest,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> impl std::future::Future<Output = Result<ModelReply, crate::model::ModelError>> + Send
    {
        self.as_ref().complete(request, on_delta)
    }
    fn supports_native_tools(&self) -> bool {
        self.as_ref().supports_native_tools()
    }
    fn supports_images(&self) -> bool {
        self.as_ref().supports_images()
    }
}

impl<M: Model> ModelSource for FixedModel<M> {
    type Model = Arc<M>;
    fn model_for(&self, _settings: &Settings) -> Result<Arc<M>, String> {
        Ok(Arc::clone(&self.0))
    }
}

/// The loop; shared by every task.
pub struct AgentLoop<S> {
    models: S,
    tools: ToolRegistry,
    souls_dir: PathBuf,
    workdir: PathBuf,
}

impl<S: ModelSource> AgentLoop<S> {
    pub fn new(models: S, tools: ToolRegistry, souls_dir: PathBuf, workdir: PathBuf) -> Self {
        Self {
            models,
            tools,
            souls_dir,
            workdir,
        }
    }
}

impl<S: ModelSource> Agent for AgentLoop<S> {
    async fn run(&self, ctx: TaskContext) -> AgentOutcome {
        let model = match self.models.model_for(&ctx.settings) {
            Ok(model) => model,
            Err(e) => {
                return AgentOutcome::Failed {
                    error: format!("No language model to run the task with: {e}"),
                }
            }
        };
        Run::new(self, model, ctx).go().await
    }
}

/// Which way the model is asked for steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Native,
    Json,
}

/// One task's run: its conversation, guardrails and progress.
struct Run<'a, S, M> {
    agent: &'a AgentLoop<S>,
    model: M,
    ctx: TaskContext,
    mode: Mode,
    messages: Vec<Message>,
    guard: Guard,
    /// One line per tool call, for the progress reported on cancel or failure.
    steps: Vec<String>,
    calls_made: u32,
}

impl<'a, S: ModelSource, M: Model> Run<'a, S, M> {
    fn new(agent: &'a AgentLoop<S>, model: M, ctx: TaskContext) -> Self {
        let mode = match ctx.settings.provider.protocol {
            Protocol::Tools => Mode::Native,
            Protocol::Json => Mode::Json,
            Protocol::Auto if model.supports_native_tools() => Mode::Native,
            Protocol::Auto => Mode::Json,
        };
        let soul = prompt::soul_text(&agent.souls_dir, ctx.settings.soul);
        let system = match mode {
            Mode::Native => prompt::native_prompt(&soul),
            Mode::Json => prompt::planner_prompt(&soul, &agent.tools.specs()),
        };
        let first =
            prompt::first_user_turn(&ctx.task.message, ctx.task.previous_context.as_deref());
        Self {
            agent,
            model,
            ctx,
            mode,
            messages: vec![Message::system(system), Message::user(first)],
            guard: Guard::default(),
            steps: Vec::new(),
            calls_made: 0,
        }
    }

    fn task_id(&self) -> i64 {
        self.ctx.task.id
    }

    fn emit(&self, event: Event) {
        let _ = self.ctx.events.send(event);
    }

    async fn go(mut self) -> AgentOutcome {
        let max = self.ctx.settings.effective_max_iterations();
        for iteration in 1..=max {
            if self.ctx.cancel.is_cancelled() {
                return self.cancelled();
            }
            self.inject_user_messages();
            self.emit(Event::IterationStarted {
                task_id: self.task_id(),
                iteration,
                max_iterations: max,
            });
            let format = match self.mode {
                Mode::Native => ResponseFormat::Native,
                Mode::Json => ResponseFormat::JsonSchema(plan_schema()),
            };
            let reply = match self.call_model(format).await {
                Ok(reply) => reply,
                Err(outcome) => return outcome,
            };
            let step = match self.interpret(&reply) {
                Ok(step) => {
                    self.guard.parsed();
                    step
                }
                Err(hint) => {
                    if let Err(tripped) = self.guard.unparseable(&hint) {
                        return self.failed(&tripped.0);
                    }
                    self.messages.push(Message::assistant(reply.text));
                    self.messages.push(Message::user(hint));
                    continue;
                }
            };
            match step {
                Step::Final(text) => return self.finish(text),
                Step::Calls(calls) => {
                    let assistant = match self.mode {
                        Mode::Native => Message::assistant_calls(reply.text, calls.clone()),
                        Mode::Json => Message::assistant(reply.text),
                    };
                    self.messages.push(assistant);
                    for call in calls {
                        if let Err(outcome) = self.run_call(call).await {
                            return outcome;
                        }
                    }
                }
            }
        }
        self.summarise_at_cap().await
    }

    /// The cap was reached: one more call without tools; its text is the answer.
    async fn summarise_at_cap(mut self) -> AgentOutcome {
        if self.ctx.cancel.is_cancelled() {
            return self.cancelled();
        }
        self.inject_user_messages();
        self.messages
            .push(Message::user(prompt::MAX_ITERATIONS_PROMPT));
        let reply = match self.call_model(ResponseFormat::Text).await {
            Ok(reply) => reply,
            Err(outcome) => return outcome,
        };
        // A planner model may still answer in its JSON form.
        let text = match parse_plan(&reply.text, "summary") {
            Ok(Step::Final(text)) => text,
            _ => reply.text,
        };
        self.finish(text)
    }

    fn finish(&self, reply: String) -> AgentOutcome {
        if reply.trim().is_empty() {
            return self.failed("I stopped because the model returned an empty reply.");
        }
        AgentOutcome::Done { reply }
    }

    /// Injects user messages that arrived while the task ran.
    fn inject_user_messages(&mut self) {
        while let Ok(text) = self.ctx.inbox.try_recv() {
            self.emit(Event::UserMessageInjected {
                task_id: self.task_id(),
                text: text.clone(),
            });
            self.messages.push(Message::user(format!(
                "(A new message from the user while you work:) {text}"
            )));
        }
    }

    async fn call_model(&mut self, format: ResponseFormat) -> Result<ModelReply, AgentOutcome> {
        let tools = match format {
            ResponseFormat::Native => self.agent.tools.specs(),
            _ => Vec::new(),
        };
        let request = ModelRequest {
            messages: self.messages.clone(),
            tools,
            format,
        };
        let events = self.ctx.events.clone();
        let task_id = self.task_id();
        let stream_text = self.mode == Mode::Native;
        let mut on_delta = move |text: &str| {
            if stream_text && !text.is_empty() {
                let _ = events.send(Event::LlmDelta {
                    task_id,
                    text: text.to_string(),
                });
            }
        };
        let mut cancel = self.ctx.cancel.clone();
        tokio::select! {
            result = self.model.complete(&request, &mut on_delta) => result.map_err(|e| {
                self.failed(&format!("The language model call failed: {e}"))
            }),
            _ = cancel.cancelled() => Err(self.cancelled()),
        }
    }

    /// What the reply asks for. `Err` is the corrective hint for the model.
    fn interpret(&mut self, reply: &ModelReply) -> Result<Step, String> {
        match self.mode {
            Mode::Json => {
                let id = self.next_call_id();
                parse_plan(&reply.text, &id)
            }
            Mode::Native if !reply.tool_calls.is_empty() => {
                if let Some(bad) = reply.tool_calls.iter().find(|c| !c.arguments.is_object()) {
                    return Err(format!(
                        "The arguments of your `{}` call were not a JSON object ({}). Call it again with valid JSON arguments.",
                        bad.name,
                        clip(&bad.arguments.to_string(), 200)
                    ));
                }
                Ok(Step::Calls(reply.tool_calls.clone()))
            }
            Mode::Native => {
                let id = self.next_call_id();
                match leaked_tool_call(&reply.text, &self.agent.tools.names(), &id) {
                    Some(call) => Ok(Step::Calls(vec![call])),
                    None => Ok(Step::Final(reply.text.clone())),
                }
            }
        }
    }

    fn next_call_id(&mut self) -> String {
        self.calls_made += 1;
        format!("call_{}_{}", self.task_id(), self.calls_made)
    }

    /// Runs one call, with cancellation checked before and after it.
    async fn run_call(&mut self, call: ToolCall) -> Result<(), AgentOutcome> {
        if self.ctx.cancel.is_cancelled() {
            return Err(self.cancelled());
        }
        if let Err(tripped) = self.guard.before_call(&call) {
            return Err(self.failed(&tripped.0));
        }
        self.emit(Event::ToolCallStarted {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
        });
        let (output, decision, decided_by) = self.execute(&call).await;
        if let Some(audit) = &self.ctx.audit {
            let written = audit.record(
                self.task_id(),
                &call.id,
                &call.name,
                &call.arguments,
                decision,
                decided_by,
                output.ok,
                &output.summary,
            );
            if let Err(e) = written {
                tracing::warn!("could not write the audit log: {e}");
            }
        }
        self.emit(Event::ToolCallFinished {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            ok: output.ok,
            summary: output.summary.clone(),
            output: output.content.clone(),
        });
        let mark = if output.ok { "✓" } else { "✗" };
        self.steps.push(format!(
            "{mark} {} {}",
            call.name,
            short_args(&call.arguments)
        ));
        let result = match self.mode {
            Mode::Native => Message::tool_result(call.id.clone(), output.content.clone()),
            Mode::Json => Message::user(format!(
                "{mark} {} {}\n{}",
                call.name,
                short_args(&call.arguments),
                output.content
            )),
        };
        let mut result = result;
        result.images = output.images;
        self.messages.push(result);
        if self.ctx.cancel.is_cancelled() {
            return Err(self.cancelled());
        }
        self.guard
            .after_call(output.ok)
            .map_err(|tripped| self.failed(&tripped.0))
    }

    /// Checks and runs one call. Returns its output, the decision and who made it (for
    /// the audit log).
    async fn execute(&mut self, call: &ToolCall) -> (ToolOutput, &'static str, &'static str) {
        let Some(tool) = self.agent.tools.get(&call.name) else {
            let output = ToolOutput::error(format!(
                "There is no tool named `{}`. Available tools: {}.",
                call.name,
                self.agent.tools.names().join(", ")
            ));
            return (output, "invalid", "validator");
        };
        if let Err(problem) = self.agent.tools.validate(&call.name, &call.arguments) {
            return (ToolOutput::error(problem), "invalid", "validator");
        }
        for command in tool.commands(&call.arguments) {
            if let Err(blocked) = crate::policy::check_command(&command) {
                tracing::warn!(task = self.task_id(), tool = %call.name, "{blocked}");
                let output = ToolOutput {
                    ok: false,
                    content: format!(
                        "{blocked}. Zeta never runs this, whatever the settings. Do not try another \
                         spelling; tell the user what you wanted to do and why."
                    ),
                    summary: format!("blocked: {}", blocked.rule),
                    images: Vec::new(),
                };
                return (output, "blocked", "blocklist");
            }
        }
        let permissions = &self.ctx.settings.permissions;
        let decision = decide(
            permissions.mode,
            permissions.tools.get(&call.name).copied(),
            tool.has_side_effects(),
            &call.name,
        );
        let verdict = match decision {
            Decision::Allow => ("allowed", "policy"),
            Decision::Deny(reason) => {
                let output = ToolOutput {
                    ok: false,
                    content: format!("Not run: {reason}. Tell the user what you wanted to do."),
                    summary: "denied by policy".into(),
                    images: Vec::new(),
                };
                return (output, "denied", "policy");
            }
            Decision::Ask => match self.ask(call).await {
                Ok(()) => ("asked-approved", "user"),
                Err((refused, by)) => return (refused, "asked-denied", by),
            },
        };
        let tool = Arc::clone(tool);
        let events: broadcast::Sender<Event> = self.ctx.events.clone();
        let (task_id, call_id) = (self.task_id(), call.id.clone());
        let ctx = ToolContext {
            cancel: self.ctx.cancel.clone(),
            workdir: self.agent.workdir.clone(),
            command_timeout_ms: self.ctx.settings.command_timeout_ms,
            max_output_length: self.ctx.settings.max_output_length as usize,
            images_supported: self.model.supports_images(),
            screenshot: self.ctx.settings.screenshot.clone(),
            on_output: Arc::new(move |chunk: &str| {
                let _ = events.send(Event::ToolOutput {
                    task_id,
                    call_id: call_id.clone(),
                    chunk: chunk.to_string(),
                });
            }),
        };
        (
            tool.run(call.arguments.clone(), &ctx).await,
            verdict.0,
            verdict.1,
        )
    }

    /// Asks the user about `call` and waits for the answer, a timeout (a deny) or a cancel.
    async fn ask(&mut self, call: &ToolCall) -> Result<(), (ToolOutput, &'static str)> {
        let timeout_secs = self.ctx.settings.permissions.approval_timeout_secs;
        self.emit(Event::ApprovalRequested {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            timeout_secs,
        });
        let deadline =
            tokio::time::Instant::now() + std::time::Duration::from_secs(u64::from(timeout_secs));
        let mut cancel = self.ctx.cancel.clone();
        let (approved, by, reason) = loop {
            tokio::select! {
                answer = self.ctx.approvals.recv() => match answer {
                    Some(a) if a.call_id == call.id => break (a.approved, "user", a.reason),
                    Some(_) => continue,
                    None => break (false, "nobody", None),
                },
                _ = tokio::time::sleep_until(deadline) => break (false, "timeout", None),
                _ = cancel.cancelled() => {
                    return Err((ToolOutput::error("cancelled while waiting for approval"), "cancel"));
                }
            }
        };
        self.emit(Event::ApprovalResolved {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            approved,
            by: by.to_string(),
        });
        if approved {
            return Ok(());
        }
        let why = match (by, reason) {
            ("timeout", _) => format!("nobody approved it within {timeout_secs} s"),
            (_, Some(reason)) => format!("the user denied it: {reason}"),
            _ => "the user denied it".to_string(),
        };
        let output = ToolOutput {
            ok: false,
            content: format!(
                "Not run: {why}. Do not retry it as it is; ask the user or take another way."
            ),
            summary: "denied".into(),
            images: Vec::new(),
        };
        Err((output, by))
    }

    fn progress(&self) -> String {
        if self.steps.is_empty() {
            "No steps had run yet.".to_string()
        } else {
            format!("Steps so far:\n{}", self.steps.join("\n"))
        }
    }

    fn cancelled(&self) -> AgentOutcome {
        AgentOutcome::Cancelled {
            progress: self.progress(),
        }
    }

    fn failed(&self, why: &str) -> AgentOutcome {
        AgentOutcome::Failed {
            error: format!("{why}\n{}", self.progress()),
        }
    }
}

/// A call's arguments in one short line: a command as is, anything else as JSON.
fn short_args(arguments: &Value) -> String {
    match arguments.get("command").and_then(Value::as_str) {
        Some(command) => clip(command, 120),
        None => clip(&arguments.to_string(), 120),
    }
}
