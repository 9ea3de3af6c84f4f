//! The agent loop (seeds 000, 001, 002): for one task, ask the model for a step, run the
//! tool calls it asked for, feed the results back, and repeat until the model answers or
//! the iteration cap is hit. Each iteration is one model call plus its tool calls.
//!
//! Cancellation is checked at every iteration boundary and before and after every tool
//! call. User messages sent while the task runs are injected at the next boundary.
//!
//! This file holds the loop shared by every task (`AgentLoop`, built once); one task's
//! run is `run.rs`, one tool call `calls.rs`, the gate each call passes `gate.rs`, plans
//! `plan.rs`, finishing what was asked `finish.rs`, and how steps are asked for and read
//! `protocol.rs`.

mod asks;
mod calls;
mod choose;
mod finish;
mod gate;
mod grammar;
pub mod guard;
pub mod plan;
pub mod planner;
pub mod prompt;
mod protocol;
mod repair;
mod run;
pub mod screen;
#[cfg(test)]
mod tests;
mod warm;

use std::path::PathBuf;
use std::sync::Arc;

use crate::agent::{Agent, AgentOutcome, TaskContext};
use crate::model::{Model, ModelReply, ModelRequest, ToolSpec};
use crate::policy::SessionCounts;
use crate::settings::Settings;
use crate::text::clip;
use crate::tool::ToolRegistry;
use run::Run;
use zeta_protocol::Event;

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
    /// Lists the windows on screen when a task starts: which one the request names
    /// (`assist::windows`).
    on_screen: Option<crate::assist::windows::OnScreen>,
    /// Where the full text of compressed tool outputs is kept (`<dir>/task-<id>/<call>.txt`).
    outputs_dir: Option<PathBuf>,
    /// Where tool processes may write (`policy::writable`); `None`: no write checks.
    confinement: Option<Confinement>,
    /// The skills: offered in each task's first turn (`assist::notes::Knowledge`).
    knowledge: Option<Arc<dyn crate::assist::notes::Knowledge>>,
    /// A small model may also act with a short Python program (`run_code`), as CodeAct
    /// does; off unless asked (`with_code_actions`), measured in `benches/everyday`.
    code_actions: bool,
    /// Answer checks and first-turn notes turned off by name (`with_help_off`): a
    /// measuring aid.
    help_off: Vec<String>,
    /// Tools that come with the settings (MCP servers'), chosen per task.
    tool_source: Option<Arc<dyn crate::tool::ToolSource>>,
    /// Where each task's file changes are kept for undo (`crate::undo`).
    undo: Option<crate::undo::UndoStore>,
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
        specs.push(asks::ask_spec());
        specs.push(asks::progress_spec());
        Self {
            specs,
            models,
            tools,
            souls_dir,
            workdir,
            session: SessionCounts::default(),
            memory: None,
            environment: None,
            on_screen: None,
            outputs_dir: None,
            confinement: None,
            undo: None,
            knowledge: None,
            code_actions: false,
            help_off: Vec::new(),
            tool_source: None,
        }
    }

    /// Offers each task the tools of `source` that fit its request (MCP servers'): at most
    /// three to a small model, twelve to the others.
    pub fn with_tool_source(mut self, source: Arc<dyn crate::tool::ToolSource>) -> Self {
        self.tool_source = Some(source);
        self
    }

    /// Confines what tool calls write: paths a call names outside the writable set ask
    /// first, and with `enforced`, tool processes are confined by the OS.
    pub fn with_confinement(mut self, confinement: Confinement) -> Self {
        self.confinement = Some(confinement);
        self
    }

    /// Keeps every file change a task's calls make in `store`, so it can be undone.
    pub fn with_undo(mut self, store: crate::undo::UndoStore) -> Self {
        self.undo = Some(store);
        self
    }

    /// Offers a small model `run_code` beside the shell, with a rule on when a short
    /// Python program is the simpler step (code actions).
    pub fn with_code_actions(mut self, on: bool) -> Self {
        self.code_actions = on;
        self
    }

    /// Turns the answer checks (`assist::checks`) and first-turn notes (`assist::notes`)
    /// named in `names` off, to measure what one buys (`ZETA_HELP_OFF`, read by the app
    /// and the CLI).
    pub fn with_help_off(mut self, names: Vec<String>) -> Self {
        self.help_off = names;
        self
    }

    /// Offers each task the skills that fit it, in its first turn (a large model: all of
    /// them by name and description).
    pub fn with_knowledge(mut self, knowledge: Arc<dyn crate::assist::notes::Knowledge>) -> Self {
        self.knowledge = Some(knowledge);
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

    /// Lists the windows on screen at the start of each task, for the one its request
    /// names.
    pub fn with_on_screen(mut self, on_screen: crate::assist::windows::OnScreen) -> Self {
        self.on_screen = Some(on_screen);
        self
    }

    /// Puts an environment snapshot, taken at the start of each task, in its system prompt.
    pub fn with_environment(mut self, environment: Environment) -> Self {
        self.environment = Some(environment);
        self
    }

    /// The memory part of the first user turn: the summary (`with_summary`) and the facts
    /// that match.
    fn recall(&self, request: &str, with_summary: bool) -> Option<prompt::Recalled> {
        let memory = self.memory.as_ref()?;
        let summary = if with_summary {
            memory.summary().unwrap_or_else(|e| {
                tracing::warn!("could not read the long-term summary: {e}");
                String::new()
            })
        } else {
            String::new()
        };
        let facts = memory.search(request, 5).unwrap_or_default();
        prompt::recall(&summary, &facts)
    }

    /// Every tool the model is offered: the registry's and the loop's own (`propose_plan`).
    fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }
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
        let own = match &self.tool_source {
            Some(source) => {
                let limit = if model.capabilities().small { 3 } else { 12 };
                // Starting a server may take a while: Cancel does not wait for it.
                let mut cancel = ctx.cancel.clone();
                tokio::select! {
                    offered = source.tools_for(&ctx.task.message, &ctx.settings, limit) => offered,
                    _ = cancel.cancelled() => Default::default(),
                }
            }
            None => Default::default(),
        };
        Run::new(self, model, ctx, own).go().await
    }
}
