//! The agent loop (seeds 000, 001, 002): for one task, ask the model for a step, run the
//! tool calls it asked for, feed the results back, and repeat until the model answers or
//! the iteration cap is hit. Each iteration is one model call plus its tool calls.
//!
//! Cancellation is checked at every iteration boundary and before and after every tool
//! call. User messages sent while the task runs are injected at the next boundary.

mod finish;
mod gate;
pub mod guard;
pub mod plan;
pub mod planner;
pub mod prompt;
mod protocol;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::broadcast;

use crate::agent::{Agent, AgentOutcome, TaskContext};
use crate::model::{
    Capabilities, ImageData, Message, Model, ModelError, ModelFailure, ModelReply, ModelRequest,
    ResponseFormat, ToolCall, ToolSpec,
};
use crate::policy::{instruction_like, wrap_untrusted, SessionCounts, TaskCounts};
use crate::settings::{Protocol, Settings};
use crate::store::audit::{CallDecision, Decider};
use crate::text::clip;
use crate::tool::{ToolContext, ToolOutput, ToolRegistry};
use finish::Finishing;
use gate::{Consent, Refused, TaskConsent};
use guard::Guard;
use planner::{parse_plan, parse_verdict, Step, Verdict};
use protocol::{short_args, StepProtocol};
use zeta_protocol::{CompactionKind, Event};

/// Where each task's model comes from: built from that task's settings, so that a
/// provider change takes effect on the next task.
pub trait ModelSource: Send + Sync + 'static {
    type Model: Model;
    fn model_for(&self, settings: &Settings) -> Result<Self::Model, crate::model::ModelError>;
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
    fn capabilities(&self) -> crate::model::Capabilities {
        self.as_ref().capabilities()
    }
    fn watch_retries(&self, listener: crate::model::RetryListener) {
        self.as_ref().watch_retries(listener)
    }
    fn context_window(&self) -> impl std::future::Future<Output = Option<u32>> + Send {
        self.as_ref().context_window()
    }
}

impl<M: Model> ModelSource for FixedModel<M> {
    type Model = Arc<M>;
    fn model_for(&self, _settings: &Settings) -> Result<Arc<M>, crate::model::ModelError> {
        Ok(Arc::clone(&self.0))
    }
}

/// The loop; shared by every task.
pub struct AgentLoop<S> {
    models: S,
    tools: ToolRegistry,
    souls_dir: PathBuf,
    workdir: PathBuf,
    /// Calls per tool in this worker's life, for the per-session rate limits.
    session: SessionCounts,
    /// Every tool's spec, the loop's own included; built once (the tools do not change).
    specs: Vec<ToolSpec>,
    /// What is remembered across tasks (the long-term summary and saved facts).
    memory: Option<crate::store::memory::MemoryStore>,
    /// Describes the computer for the system prompt (seed 001), gathered per task.
    environment: Option<Environment>,
    /// Where the full text of compressed tool outputs is kept (`<dir>/task-<id>/<call>.txt`).
    outputs_dir: Option<PathBuf>,
    /// Where tool processes may write (`policy::writable`); `None`: no write checks.
    confinement: Option<Confinement>,
}

/// How the tools' writes are confined (see `policy::writable`).
#[derive(Debug, Clone)]
pub struct Confinement {
    /// Zeta's own home, protected like the user's startup files.
    pub zeta_home: PathBuf,
    /// The OS enforces it on tool processes (Landlock). Without it only the gate's check
    /// of the paths a call names stands.
    pub enforced: bool,
}

/// Gathers the environment snapshot: OS, session, screen, folder, processes, memory, disk.
pub type Environment = Arc<dyn Fn() -> String + Send + Sync>;

impl<S: ModelSource> AgentLoop<S> {
    pub fn new(models: S, tools: ToolRegistry, souls_dir: PathBuf, workdir: PathBuf) -> Self {
        let mut specs = tools.specs();
        specs.push(plan::spec());
        Self {
            specs,
            models,
            tools,
            souls_dir,
            workdir,
            session: SessionCounts::default(),
            memory: None,
            environment: None,
            outputs_dir: None,
            confinement: None,
        }
    }

    /// Confines what tool calls write: paths a call names outside the writable set ask
    /// first, and with `enforced`, tool processes are confined by the OS.
    pub fn with_confinement(mut self, confinement: Confinement) -> Self {
        self.confinement = Some(confinement);
        self
    }

    /// Keeps the full text of compressed tool outputs under `dir`.
    pub fn with_outputs_dir(mut self, dir: PathBuf) -> Self {
        self.outputs_dir = Some(dir);
        self
    }

    /// Remembers across tasks: the long-term summary and facts matching the request open
    /// each task, and each finished task adds a line to the summary.
    pub fn with_memory(mut self, memory: crate::store::memory::MemoryStore) -> Self {
        self.memory = Some(memory);
        self
    }

    /// Puts an environment snapshot, taken at the start of each task, in its system prompt.
    pub fn with_environment(mut self, environment: Environment) -> Self {
        self.environment = Some(environment);
        self
    }

    /// The memory part of the first user turn: the summary and the facts that match.
    fn recall(&self, request: &str) -> Option<prompt::Recalled> {
        let memory = self.memory.as_ref()?;
        let summary = memory.summary().unwrap_or_else(|e| {
            tracing::warn!("could not read the long-term summary: {e}");
            String::new()
        });
        let facts = memory.search(request, 5).unwrap_or_default();
        prompt::recall(&summary, &facts)
    }

    /// Every tool the model is offered: the registry's and the loop's own (`propose_plan`).
    fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }
}

/// How one call went, for the conversation, the events and the audit log.
struct Executed {
    output: ToolOutput,
    decision: CallDecision,
    decided_by: Decider,
    /// The tool actually ran (its output is an observation from outside).
    ran: bool,
    /// Its audit row was written before it ran and completed after (see `execute`).
    audited: bool,
}

impl<S: ModelSource> Agent for AgentLoop<S> {
    async fn run(&self, ctx: TaskContext) -> AgentOutcome {
        let model = match self.models.model_for(&ctx.settings) {
            Ok(model) => model,
            Err(e) => {
                return AgentOutcome::Failed {
                    error: e.full(),
                    fix: e.fix,
                }
            }
        };
        let (events, task_id) = (ctx.events.clone(), ctx.task.id);
        model.watch_retries(Arc::new(move |r: crate::model::Retrying| {
            let _ = events.send(Event::ModelRetrying {
                task_id,
                attempt: r.attempt,
                wait_ms: r.wait_ms,
                said: r.said,
            });
        }));
        Run::new(self, model, ctx).go().await
    }
}

/// One task's run: its conversation, guardrails and progress.
struct Run<'a, S, M> {
    agent: &'a AgentLoop<S>,
    model: M,
    ctx: TaskContext,
    /// How steps are asked for and read: native tool calls or the JSON planner.
    protocol: Box<dyn StepProtocol>,
    messages: Vec<Message>,
    guard: Guard,
    /// One line per tool call, for the progress reported on cancel or failure.
    steps: Vec<String>,
    calls_made: u32,
    /// What the gate knows of this task: what it read, what the user said yes to, what
    /// ran before a restart, where it may write, its calls per tool (see `gate`).
    consent: TaskConsent,
    /// The latest call's result: as the model was shown it, and as the tool printed it.
    last_result: Option<(String, String)>,
    /// The latest screenshot the task took, for the dialog's thumbnail.
    last_screenshot: Option<ImageData>,
    metrics: crate::store::metrics::TaskMetrics,
    counter: crate::context::Counter,
    /// The context window in force: the setting, or the server's when smaller.
    window: u32,
    /// Whether an answer stands or goes back for a check (`verify`), and what it falls
    /// back to (see `finish`).
    finishing: Finishing,
}

/// The tools the planner protocol offers: all of them, except to a small model, which
/// fumbles tool arguments (seen with a 1.5B model calling `list_directory` with no path
/// three times): there it is seed 000's shell only.
fn planner_tools(specs: &[ToolSpec], capabilities: Capabilities) -> Vec<ToolSpec> {
    let shell_only = capabilities.small;
    specs
        .iter()
        .filter(|t| !shell_only || t.name == planner::SHELL_TOOL)
        .cloned()
        .collect()
}

impl<'a, S: ModelSource, M: Model> Run<'a, S, M> {
    fn new(agent: &'a AgentLoop<S>, model: M, ctx: TaskContext) -> Self {
        let window = ctx.settings.provider.context_window;
        let capabilities = model.capabilities();
        let native = match ctx.settings.provider.protocol {
            Protocol::Tools => true,
            Protocol::Json => false,
            Protocol::Auto => capabilities.native_tools,
        };
        let protocol: Box<dyn StepProtocol> = if native {
            Box::new(protocol::Native)
        } else {
            Box::new(protocol::Planner::new(planner_tools(
                agent.specs(),
                capabilities,
            )))
        };
        let soul = prompt::soul_text(&agent.souls_dir, ctx.settings.soul);
        let mut system = protocol.system_prompt(&soul);
        if let Some(environment) = &agent.environment {
            system.push_str(&format!("\n\nThe computer right now:\n{}", environment()));
        }
        let mut first = prompt::first_user_turn(
            &ctx.task.message,
            ctx.task.previous_context.as_deref(),
            ctx.task.previous_untrusted,
        );
        let mut tainted = (ctx.task.previous_untrusted
            && ctx.task.previous_context.as_deref().is_some_and(|c| !c.trim().is_empty()))
        .then(|| {
            "this task was handed the result of the previous task, which had read input you did not type".to_string()
        });
        if let Some(recalled) = agent.recall(&ctx.task.message) {
            first.push_str(&format!("\n\n{}", recalled.text));
            if recalled.untrusted && tainted.is_none() {
                tainted = Some(
                    "this task was handed memory saved by a task that had read input you did not type"
                        .to_string(),
                );
            }
        }
        let earlier = earlier_attempts(&ctx);
        if let Some(note) = prompt::resumed_note(&ctx.task, &earlier) {
            first.push_str(&format!("\n\n{note}"));
        }
        let earlier_calls = earlier
            .into_iter()
            .filter(|e| {
                agent
                    .tools
                    .get(&e.tool)
                    .is_some_and(|t| t.has_side_effects())
            })
            .filter_map(|e| Some((e.tool, serde_json::from_str(&e.arguments).ok()?)))
            .collect();
        let verifies = match ctx.settings.verify {
            crate::settings::Verify::Always => true,
            crate::settings::Verify::Never => false,
            crate::settings::Verify::Auto => capabilities.small,
        };
        let finishing = Finishing::new(verifies, protocol.answers_checks_with_verdicts());
        Self {
            agent,
            model,
            ctx,
            protocol,
            messages: vec![Message::system(system), Message::user(first)],
            guard: Guard::default(),
            steps: Vec::new(),
            calls_made: 0,
            consent: TaskConsent {
                task_counts: TaskCounts::default(),
                tainted,
                approved_steps: Vec::new(),
                approved_calls: Vec::new(),
                allowances: Vec::new(),
                earlier_calls,
                writable: agent.confinement.as_ref().map(|c| {
                    let home = crate::policy::ShellEnv::current(&agent.workdir).home;
                    Arc::new(crate::policy::Writable::new(
                        &home,
                        &agent.workdir,
                        &c.zeta_home,
                    ))
                }),
            },
            last_result: None,
            last_screenshot: None,
            metrics: Default::default(),
            counter: Default::default(),
            window,
            finishing,
        }
    }

    fn task_id(&self) -> i64 {
        self.ctx.task.id
    }

    fn emit(&self, event: Event) {
        let _ = self.ctx.events.send(event);
    }

    /// Runs the task, then reports and stores what it used.
    async fn go(mut self) -> AgentOutcome {
        let outcome = self.iterate().await;
        if let (Some(memory), AgentOutcome::Done { reply }) = (&self.agent.memory, &outcome) {
            let line = format!(
                "Task {}: asked \"{}\"; answered \"{}\"",
                self.task_id(),
                self.ctx.task.message,
                reply
            );
            if let Err(e) = memory.note_task(&line, self.consent.tainted.is_some()) {
                tracing::warn!("could not update the long-term summary: {e}");
            }
        }
        self.metrics.task_id = self.task_id();
        if let Some(audit) = &self.ctx.audit {
            if let Err(e) = audit.record_metrics(&self.metrics) {
                tracing::warn!("could not store the task's metrics: {e}");
            }
        }
        self.emit(Event::TaskMetrics {
            metrics: self.metrics.clone(),
        });
        outcome
    }

    async fn iterate(&mut self) -> AgentOutcome {
        let configured = self.ctx.settings.provider.context_window;
        self.window = match self.model.context_window().await {
            Some(reported) if reported < configured => {
                tracing::info!(
                    reported,
                    configured,
                    "the server's context window is smaller than the setting; using it"
                );
                reported
            }
            _ => configured,
        };
        let max = self.ctx.settings.effective_max_iterations();
        for iteration in 1..=max {
            if self.ctx.cancel.is_cancelled() {
                return self.cancelled();
            }
            self.inject_user_messages();
            let format = self.protocol.format(self.finishing.expects_verdict());
            let context_tokens = self.fit_context(&format);
            self.emit(Event::IterationStarted {
                task_id: self.task_id(),
                iteration,
                max_iterations: max,
                context_tokens: context_tokens as u32,
                context_window: self.window,
            });
            let reply = match self.call_model(format).await {
                Ok(reply) => reply,
                Err(outcome) => return outcome,
            };
            let step = match self.interpret_or_verdict(&reply) {
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
                Step::Final(text) => {
                    let request = &self.ctx.task.message;
                    if let Some(check) = self.finishing.check(request, &text, self.steps.len()) {
                        tracing::info!(
                            task = self.task_id(),
                            "answer sent back for a check: {}",
                            clip(&text, 200)
                        );
                        self.messages.push(Message::assistant(reply.text));
                        self.messages.push(Message::user(check));
                        continue;
                    }
                    let text = self.finishing.final_answer(text);
                    return self.finish(text);
                }
                Step::Calls(calls) => {
                    let assistant = self.protocol.assistant_turn(reply.text, &calls);
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

    /// The reply read as a step; in the planner protocol a verification turn's reply is a
    /// verdict, which continues with its command or ends with the answer it checked.
    fn interpret_or_verdict(&mut self, reply: &ModelReply) -> Result<Step, String> {
        if !self.finishing.expects_verdict() {
            return self.interpret(reply);
        }
        let id = self.next_call_id();
        let verdict = parse_verdict(&reply.text, &id);
        if matches!(verdict, Verdict::Continue(_)) {
            tracing::info!(task = self.task_id(), "the check found an unfinished part");
        }
        self.finishing.verdict(verdict)
    }

    /// The cap was reached: one more call without tools; its text is the answer.
    async fn summarise_at_cap(&mut self) -> AgentOutcome {
        if self.ctx.cancel.is_cancelled() {
            return self.cancelled();
        }
        self.inject_user_messages();
        self.messages
            .push(Message::user(prompt::MAX_ITERATIONS_PROMPT));
        self.fit_context(&ResponseFormat::Text);
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
        for (_, text) in self.ctx.inbox.take() {
            self.emit(Event::UserMessageInjected {
                task_id: self.task_id(),
                text: text.clone(),
            });
            self.messages.push(Message::user(format!(
                "(A new message from the user while you work:) {text}"
            )));
            // The user is present and speaking: their words outrank what the model read.
            self.consent.tainted = None;
        }
    }

    /// Compacts the conversation when the next request would pass the thresholds (see
    /// `context`), and returns the request's size in tokens.
    fn fit_context(&mut self, format: &ResponseFormat) -> usize {
        let tools: &[ToolSpec] = match format {
            ResponseFormat::Native => self.agent.specs(),
            _ => &[],
        };
        let window = self.window as usize;
        let settings = self.ctx.settings.context.clone();
        let before = self.counter.request(&self.messages, tools);
        if !settings.compaction {
            return before;
        }
        let soft = (window as f32 * settings.soft_ratio) as usize;
        let hard = (window as f32 * settings.hard_ratio) as usize;
        let mut now = before;
        if now > soft && crate::context::soft_compact(&mut self.messages, 2) {
            now = self.counter.request(&self.messages, tools);
            self.compacted(CompactionKind::Soft, before, now);
        }
        // Fold older turns, keeping less and less of the recent ones, until it fits.
        let mut keep_tail = 8;
        while now > hard && keep_tail >= 2 {
            let start = now;
            if crate::context::hard_compact(&mut self.messages, keep_tail) {
                now = self.counter.request(&self.messages, tools);
                self.compacted(CompactionKind::Hard, start, now);
            }
            keep_tail /= 2;
        }
        let dropped = crate::context::drop_orphans(&mut self.messages);
        if dropped > 0 {
            tracing::warn!(
                task = self.task_id(),
                dropped,
                "tool results without their call were dropped"
            );
            now = self.counter.request(&self.messages, tools);
        }
        now
    }

    fn compacted(&mut self, kind: CompactionKind, before: usize, after: usize) {
        self.metrics.compactions += 1;
        tracing::info!(
            task = self.task_id(),
            kind = kind.as_str(),
            before,
            after,
            "context compacted"
        );
        self.emit(Event::Compacted {
            task_id: self.task_id(),
            kind,
            before: before as u32,
            after: after as u32,
        });
    }

    /// One model request for the conversation as it stands. A request the server says
    /// is too large for the model's window is shrunk (the window taken as three quarters
    /// of what was sent, the conversation compacted to it) and sent once more; any other
    /// failure ends the task with its sentence and fix.
    async fn call_model(&mut self, format: ResponseFormat) -> Result<ModelReply, AgentOutcome> {
        let mut shrunk = false;
        loop {
            let error = match self.request_once(&format).await? {
                Ok(reply) => return Ok(reply),
                Err(e) => e,
            };
            self.metrics.llm_failures += 1;
            if error.failure == ModelFailure::ContextOverflow && !shrunk {
                shrunk = true;
                let tools: &[ToolSpec] = match format {
                    ResponseFormat::Native => self.agent.specs(),
                    _ => &[],
                };
                let sent = self.counter.request(&self.messages, tools);
                let window = (sent * 3 / 4).clamp(1024, self.window as usize) as u32;
                tracing::warn!(
                    task = self.task_id(),
                    sent,
                    window,
                    "the request did not fit the model's window; compacting and sending it again"
                );
                self.window = window;
                self.fit_context(&format);
                continue;
            }
            let mut outcome = self.failed(&error.full());
            if let AgentOutcome::Failed { fix, .. } = &mut outcome {
                *fix = error.fix;
            }
            return Err(outcome);
        }
    }

    /// Sends the conversation once. The outer `Err` is a cancel; the inner one the model's
    /// failure.
    async fn request_once(
        &mut self,
        format: &ResponseFormat,
    ) -> Result<Result<ModelReply, ModelError>, AgentOutcome> {
        let tools = match format {
            ResponseFormat::Native => self.agent.specs().to_vec(),
            _ => Vec::new(),
        };
        let request = ModelRequest {
            messages: self.messages.clone(),
            tools,
            format: format.clone(),
        };
        let events = self.ctx.events.clone();
        let task_id = self.task_id();
        let stream_text = self.protocol.streams_text();
        let mut on_delta = move |text: &str| {
            if stream_text && !text.is_empty() {
                let _ = events.send(Event::LlmDelta {
                    task_id,
                    text: text.to_string(),
                });
            }
        };
        let mut cancel = self.ctx.cancel.clone();
        self.metrics.llm_requests += 1;
        let result = tokio::select! {
            result = self.model.complete(&request, &mut on_delta) => result,
            _ = cancel.cancelled() => return Err(self.cancelled()),
        };
        if let Ok(reply) = &result {
            tracing::debug!(task = task_id, text = %clip(&reply.text, 600), calls = reply.tool_calls.len(), "model reply");
            self.metrics.tokens_in += reply.usage.input_tokens;
            self.metrics.tokens_out += reply.usage.output_tokens;
        }
        Ok(result)
    }

    /// What the reply asks for, read by the task's protocol. `Err` is the corrective hint
    /// for the model.
    fn interpret(&mut self, reply: &ModelReply) -> Result<Step, String> {
        let agent = self.agent;
        let mut names = agent.tools.names();
        names.push(plan::NAME);
        let (task_id, calls_made) = (self.task_id(), &mut self.calls_made);
        let mut next_id = || {
            *calls_made += 1;
            format!("call_{task_id}_{calls_made}")
        };
        let reading = self.protocol.read(reply, &names, &mut next_id);
        if let Some(answer) = reading.wrote {
            self.finishing.wrote(answer);
        }
        // Not run, but on record like every other call the model asked for.
        for call in &reading.malformed {
            let output = ToolOutput::error("the arguments were not a JSON object");
            self.record(call, &output, CallDecision::Invalid, Decider::Validator);
        }
        reading.step
    }

    fn next_call_id(&mut self) -> String {
        self.calls_made += 1;
        format!("call_{}_{}", self.task_id(), self.calls_made)
    }

    fn tool_names(&self) -> Vec<&str> {
        let mut names = self.agent.tools.names();
        names.push(plan::NAME);
        names
    }

    /// Runs one call, with cancellation checked before and after it.
    async fn run_call(&mut self, call: ToolCall) -> Result<(), AgentOutcome> {
        if self.ctx.cancel.is_cancelled() {
            return Err(self.cancelled());
        }
        match self.guard.before_call(&call) {
            Err(tripped) => return Err(self.stopped_repeating(&tripped.0)),
            Ok(guard::Repeat::Again) => {
                self.answer_repeat(&call);
                return Ok(());
            }
            Ok(guard::Repeat::No) => {}
        }
        self.emit_started(&call);
        let executed = if call.name == plan::NAME {
            let result = self.run_plan(&call).await;
            Executed {
                output: result.output,
                decision: result.decision,
                decided_by: result.decided_by,
                // The report wraps each step's observation itself.
                ran: false,
                audited: false,
            }
        } else {
            self.execute(&call, Consent::None).await
        };
        self.conclude(&call, &executed);
        let output = executed.output;
        let mark = if output.ok { "✓" } else { "✗" };
        let line = format!("{mark} {} {}", call.name, short_args(&call.arguments));
        self.finishing.saw(format!(
            "{line}\n   printed: {}",
            clip(&output.content.replace('\n', " | "), 300)
        ));
        self.steps.push(line);
        let content = if executed.ran {
            wrap_untrusted(&call.name, &self.compress(&call, &output.content))
        } else {
            output.content.clone()
        };
        let mut result = self.protocol.result_turn(&call, mark, content.clone());
        result.images = output.images;
        self.last_result = Some((content, output.content.clone()));
        self.messages.push(result);
        if self.ctx.cancel.is_cancelled() {
            return Err(self.cancelled());
        }
        self.guard
            .after_call(output.ok)
            .map_err(|tripped| self.failed(&tripped.0))
    }

    /// A call identical to the one just made is not run again: it gets the earlier
    /// output again, with a hint to use it or take another step.
    fn answer_repeat(&mut self, call: &ToolCall) {
        self.emit_started(call);
        let earlier = self
            .last_result
            .as_ref()
            .map(|(shown, _)| shown.clone())
            .unwrap_or_default();
        let content = format!(
            "[Zeta] You just made this exact call; it was not run again. Its output is repeated \
             below. If it answers the request, answer the user now, quoting what it printed; if \
             not, take a different step (other arguments or another tool).\n{earlier}"
        );
        let output = ToolOutput {
            ok: true,
            content: content.clone(),
            summary: "repeated: the earlier output was shown again".into(),
            images: Vec::new(),
        };
        self.emit_finished(call, &output);
        self.steps.push(format!(
            "↻ {} {} (repeated)",
            call.name,
            short_args(&call.arguments)
        ));
        let message = self.protocol.result_turn(call, "↻", content);
        self.messages.push(message);
    }

    /// The model kept asking for the same call: the task ends with an honest answer that
    /// says it stopped, why, and what the call printed, rather than a bare failure.
    fn stopped_repeating(&self, why: &str) -> AgentOutcome {
        let found = self
            .last_result
            .as_ref()
            .map(|(_, printed)| clip(printed.trim(), 1500))
            .filter(|p| !p.is_empty());
        let reply = match found {
            Some(found) => {
                format!("I stopped before finishing: {why}. What it printed:\n\n```\n{found}\n```")
            }
            None => format!("I stopped before finishing: {why}, and it printed nothing."),
        };
        AgentOutcome::Done { reply }
    }

    /// A large output as it enters the history: compressed (TACO), with where its full
    /// text is kept for `read_file`.
    fn compress(&self, call: &ToolCall, content: &str) -> String {
        let max = self.ctx.settings.context.large_output_chars as usize;
        let Some(short) = crate::context::compress_output(content, max) else {
            return content.to_string();
        };
        let kept = self.agent.outputs_dir.as_ref().and_then(|dir| {
            let dir = dir.join(format!("task-{}", self.task_id()));
            let safe: String = call
                .id
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let path = dir.join(format!("{safe}.txt"));
            match zeta_protocol::home::create_private_dir(&dir)
                .and_then(|_| zeta_protocol::home::write_private(&path, content.as_bytes()))
            {
                Ok(()) => Some(path),
                Err(e) => {
                    tracing::warn!("could not keep the full output at {}: {e}", path.display());
                    None
                }
            }
        });
        match kept {
            Some(path) => format!("{short}\n[The full output ({} characters) is in {}; read_file it for the parts you need.]", content.chars().count(), path.display()),
            None => short,
        }
    }

    fn record(
        &mut self,
        call: &ToolCall,
        output: &ToolOutput,
        decision: CallDecision,
        decided_by: Decider,
    ) {
        self.metrics.count_call(decision, output.ok);
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
    }

    fn emit_started(&self, call: &ToolCall) {
        self.emit(Event::ToolCallStarted {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
        });
    }

    /// Records a finished call in the audit log (unless its row was written as it ran)
    /// and the metrics, and announces it.
    fn conclude(&mut self, call: &ToolCall, executed: &Executed) {
        if executed.audited {
            self.metrics
                .count_call(executed.decision, executed.output.ok);
        } else {
            self.record(
                call,
                &executed.output,
                executed.decision,
                executed.decided_by,
            );
        }
        self.emit_finished(call, &executed.output);
    }

    /// Writes the row of a call about to run. `Err` when it cannot be written: then the
    /// call does not run (no call runs off the record).
    fn begin_audit(
        &self,
        call: &ToolCall,
        arguments: &Value,
        decision: CallDecision,
        decided_by: Decider,
    ) -> Result<Option<i64>, ToolOutput> {
        let Some(audit) = &self.ctx.audit else {
            return Ok(None);
        };
        audit
            .begin(self.task_id(), &call.id, &call.name, arguments, decision, decided_by)
            .map(Some)
            .map_err(|e| {
                tracing::error!("could not write the audit log: {e}");
                ToolOutput::error(format!(
                    "Not run: Zeta could not write its audit log ({e}), and no call runs off the record. Tell the user."
                ))
            })
    }

    fn complete_audit(&self, row: Option<i64>, output: &ToolOutput) {
        let (Some(audit), Some(row)) = (&self.ctx.audit, row) else {
            return;
        };
        // A call that ended while the task was being stopped was cut short.
        let state = if !output.ok && self.ctx.cancel.is_cancelled() {
            crate::store::audit::CallState::Interrupted
        } else {
            crate::store::audit::CallState::Finished
        };
        if let Err(e) = audit.complete(row, state, output.ok, &output.summary) {
            tracing::warn!("could not complete the audit log row {row}: {e}");
        }
    }

    fn emit_finished(&self, call: &ToolCall, output: &ToolOutput) {
        self.emit(Event::ToolCallFinished {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            ok: output.ok,
            summary: output.summary.clone(),
            output: output.content.clone(),
            images: output
                .images
                .iter()
                .map(|image| format!("data:{};base64,{}", image.media_type, image.base64))
                .collect(),
        });
    }

    /// Checks and runs one call (see `gate`), and notes what its output tells the policy.
    async fn execute(&mut self, call: &ToolCall, consent: Consent) -> Executed {
        let admitted = match self.admit(call, consent).await {
            Ok(admitted) => admitted,
            Err(Refused {
                output,
                decision,
                decided_by,
            }) => {
                return Executed {
                    output,
                    decision,
                    decided_by,
                    ran: false,
                    audited: false,
                }
            }
        };
        let row = match self.begin_audit(
            call,
            &admitted.arguments,
            admitted.decision,
            admitted.decided_by,
        ) {
            Ok(row) => row,
            Err(output) => {
                return Executed {
                    output,
                    decision: admitted.decision,
                    decided_by: admitted.decided_by,
                    ran: false,
                    audited: false,
                }
            }
        };
        let events: broadcast::Sender<Event> = self.ctx.events.clone();
        let (task_id, call_id) = (self.task_id(), call.id.clone());
        let mut ctx = self.tool_context(Arc::new(move |chunk: &str| {
            let _ = events.send(Event::ToolOutput {
                task_id,
                call_id: call_id.clone(),
                chunk: chunk.to_string(),
            });
        }));
        ctx.confine = ctx.confine.filter(|_| {
            !admitted.unconfined && self.agent.confinement.as_ref().is_some_and(|c| c.enforced)
        });
        let mut output = admitted.tool.run(admitted.arguments.clone(), &ctx).await;
        if ctx.confine.is_some() && !output.ok && gate::looks_refused(&output.content) {
            output
                .content
                .push_str(&gate::confinement_note(ctx.confine.as_deref()));
        }
        self.complete_audit(row, &output);
        if let Some(image) = output.images.last() {
            self.last_screenshot = Some(image.clone());
        }
        if admitted.tool.taints(&admitted.arguments, &output) {
            self.read_untrusted(call, admitted.tool.target(&admitted.arguments), &output);
        }
        if admitted.edited {
            output.content = format!(
                "The user edited your call before it ran; it ran with {}.\n{}",
                clip(&admitted.arguments.to_string(), 300),
                output.content
            );
        }
        Executed {
            output,
            decision: admitted.decision,
            decided_by: admitted.decided_by,
            ran: true,
            audited: row.is_some(),
        }
    }

    /// The task has read input the user did not type (see `policy::provenance`): mark it,
    /// here and in the queue, saying where from. Text in it that reads like instructions to
    /// the agent is named too, as a warning; it changes nothing.
    fn read_untrusted(&mut self, call: &ToolCall, target: String, output: &ToolOutput) {
        let phrase = instruction_like(&output.content);
        if let Some(phrase) = phrase {
            tracing::warn!(task = self.task_id(), tool = %call.name, "observation reads like instructions: {phrase:?}");
        }
        let first = self.consent.tainted.is_none();
        if first || phrase.is_some() {
            let mut why = format!(
                "this task has read input you did not type (the `{}` result for {}), so its \
                 changes ask first, even in auto mode",
                call.name,
                clip(&target, 120)
            );
            if let Some(phrase) = phrase {
                why.push_str(&format!(
                    "; that input contains text addressed to the agent (\"{phrase}\") and may be trying to steer Zeta"
                ));
            }
            self.consent.tainted = Some(why);
        }
        if first {
            if let Some(audit) = &self.ctx.audit {
                if let Err(e) = audit.mark_task_untrusted(self.task_id()) {
                    tracing::warn!("could not mark task {} untrusted: {e}", self.task_id());
                }
            }
        }
    }

    /// The latest screenshot as a data URL, when one of `tools` acts on the screen.
    /// The context tools run in for this task; `confine` is the writable set (the caller
    /// drops it for a call that runs unconfined).
    fn tool_context(&self, on_output: Arc<dyn Fn(&str) + Send + Sync>) -> ToolContext {
        ToolContext {
            cancel: self.ctx.cancel.clone(),
            workdir: self.agent.workdir.clone(),
            command_timeout_ms: self.ctx.settings.command_timeout_ms,
            max_output_length: self.ctx.settings.max_output_length as usize,
            images_supported: self.model.capabilities().images,
            screenshot: self.ctx.settings.screenshot.clone(),
            untrusted_input: self.consent.tainted.is_some(),
            confine: self.consent.writable.clone(),
            on_output,
        }
    }

    /// The screen as the user should see it before approving a mouse or keyboard call:
    /// taken now (with the `screenshot` tool, not audited: the model does not see it),
    /// else the task's latest screenshot. `None` for other tools.
    async fn screenshot_for<'t>(&self, tools: impl IntoIterator<Item = &'t str>) -> Option<String> {
        if !tools.into_iter().any(|t| t == "mouse" || t == "keyboard") {
            return None;
        }
        let fresh = match self.agent.tools.get("screenshot") {
            Some(tool) => {
                let mut ctx = self.tool_context(Arc::new(|_: &str| {}));
                ctx.images_supported = true;
                let taken = tool.run(serde_json::json!({}), &ctx).await;
                taken.images.into_iter().next_back()
            }
            None => None,
        };
        fresh
            .as_ref()
            .or(self.last_screenshot.as_ref())
            .map(|image| format!("data:{};base64,{}", image.media_type, image.base64))
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
            error: format!("{why}\n\n{}", self.progress()),
            fix: None,
        }
    }
}

/// The task's audit rows from its earlier starts whose call ran or was cut short (the
/// calls the gate let through), oldest first. Empty on a first start.
fn earlier_attempts(ctx: &TaskContext) -> Vec<crate::store::audit::AuditEntry> {
    if ctx.task.attempts <= 1 && ctx.task.interrupted.is_none() {
        return Vec::new();
    }
    let Some(audit) = &ctx.audit else {
        return Vec::new();
    };
    match audit.for_task(ctx.task.id) {
        Ok(entries) => entries
            .into_iter()
            .filter(|e| CallDecision::parse(&e.decision).is_some_and(CallDecision::lets_run))
            .collect(),
        Err(e) => {
            tracing::warn!("could not read the task's earlier calls: {e}");
            Vec::new()
        }
    }
}
