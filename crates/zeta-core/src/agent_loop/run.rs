//! One task's run: its conversation, how steps are asked for and read, the context kept
//! within the window, model calls and their failures, and how the task ends.

use std::sync::Arc;

use super::finish::{Checks, Finishing};
use super::gate::TaskConsent;
use super::guard::Guard;
use super::planner::{parse_verdict, PlanForm, Step, Verdict};
use super::protocol::StepProtocol;
use super::{plan, planner, prompt, protocol, AgentLoop, ModelSource};
use crate::agent::{AgentOutcome, TaskContext};
use crate::model::{
    Capabilities, ImageData, Message, Model, ModelError, ModelFailure, ModelReply, ModelRequest,
    ResponseFormat, ToolSpec,
};
use crate::policy::TaskCounts;
use crate::settings::Protocol;
use crate::store::audit::{CallDecision, Decider};
use crate::text::clip;
use crate::tool::{ToolOutput, ToolRegistry};
use zeta_protocol::{CompactionKind, Event};

/// How one call went, for the conversation, the events and the audit log.
pub(super) struct Executed {
    pub output: ToolOutput,
    pub decision: CallDecision,
    pub decided_by: Decider,
    /// The tool actually ran (its output is an observation from outside).
    pub ran: bool,
    /// Its audit row was written before it ran and completed after (see `execute`).
    pub audited: bool,
}

/// Why a call stopped the task's turn.
pub(super) enum Halt {
    /// The task ends with this outcome.
    Ends(AgentOutcome),
    /// The model kept asking for the same call (why, in words): it is asked for an
    /// answer from what it has (see `Run::answer_after_repeats`).
    Repeating(String),
    /// Calls failed too many times in a row (why, in words): the model is asked for an
    /// answer from what it has (see `Run::answer_after_failures`).
    Failing(String),
    /// The model asked the user again after a question went unanswered: it is asked for
    /// an answer from what it has, as after repeats.
    AskingAgain(String),
}

impl From<AgentOutcome> for Halt {
    fn from(outcome: AgentOutcome) -> Self {
        Halt::Ends(outcome)
    }
}

/// One task's run: its conversation, guardrails and progress.
impl<S, M> Drop for Run<'_, S, M> {
    fn drop(&mut self) {
        self.at_task_end.run();
    }
}

pub(super) struct Run<'a, S, M> {
    pub(super) agent: &'a AgentLoop<S>,
    /// The agent's tools and this task's own (`ToolSource`), with their specs.
    pub(super) tools: ToolRegistry,
    pub(super) specs: Arc<[ToolSpec]>,
    /// Shared with the tools' questions (`choose::ModelChooser`).
    pub(super) model: Arc<M>,
    pub(super) ctx: TaskContext,
    /// How steps are asked for and read: native tool calls or the JSON planner.
    pub(super) protocol: Box<dyn StepProtocol>,
    pub(super) messages: Vec<Message>,
    pub(super) guard: Guard,
    /// One line per tool call, for the progress reported on cancel or failure.
    pub(super) steps: Vec<String>,
    pub(super) calls_made: u32,
    /// What the gate knows of this task: what it read, what the user said yes to, what
    /// ran before a restart, where it may write, its calls per tool (see `gate`).
    pub(super) consent: TaskConsent,
    /// The latest call's result: as the model was shown it, and as the tool printed it.
    pub(super) last_result: Option<(String, String)>,
    /// The latest screenshot the task took, for the dialog's thumbnail.
    pub(super) last_screenshot: Option<ImageData>,
    pub(super) metrics: crate::store::metrics::TaskMetrics,
    pub(super) counter: crate::context::Counter,
    /// The context window in force: the setting, or the server's when smaller.
    pub(super) window: u32,
    /// Whether an answer stands or goes back for a check (`verify`), and what it falls
    /// back to (see `finish`).
    pub(super) finishing: Finishing,
    /// A request about a window, for a model that reads the screen as text (`screen`).
    pub(super) window_task: super::screen::WindowTask,
    /// The title of the window on screen the request names (`assist::windows`): the one
    /// read first.
    pub(super) named_window: Option<String>,
    /// That window's program names (`ShownWindow::app`): a command starting one of them
    /// again is held (`screen::starts_again`).
    pub(super) named_program: String,
    /// The request names a window and no path: once an act in a window went through,
    /// the plan offers no command (`Run::run_call`).
    pub(super) window_only: bool,
    /// A call that was not an element call was held back while the window the request is
    /// about was on screen: the plan's grammar offers no command from then on (see
    /// `grammar::without_commands`).
    pub(super) commands_closed: bool,
    /// The next plan may only call a tool: the last one wrote a call its tool does not
    /// take now as a command (`unbound_call`).
    pub(super) call_next: bool,
    /// The next plan may only answer: the last act did what the request asks in its
    /// window (`Finishing::done_in_window`).
    pub(super) answer_next: bool,
    /// What this task's calls change on disk, kept for undo (`crate::undo`).
    pub(super) undo: Option<crate::undo::TaskUndo>,
    /// What the task's calls left for its end (processes to end), run when it is dropped.
    pub(super) at_task_end: crate::tool::AtTaskEnd,
    /// The task's conversation, set aside while the second way's program is written in a
    /// conversation of its own (`Finishing::take_apart`); back for the answer.
    pub(super) set_aside: Option<Vec<Message>>,
}

/// The tools the planner protocol offers: all of them, except to a small model, which
/// fumbles tool arguments (seen with a 1.5B model calling `list_directory` with no path
/// three times): there it is seed 000's shell, `ask_user` for what only the user knows,
/// and `update_settings` for what the shell must not touch.
/// The task's own tools (an MCP server's, chosen for its request) are offered to every
/// model.
/// A request about a window on screen (`screen::about_windows`) also gets the element
/// tools: without them a text-only model cannot operate a window at all; it does not get
/// `update_settings`, Zeta's own settings, which are no window's.
fn planner_tools(
    specs: &[ToolSpec],
    own: &[String],
    capabilities: Capabilities,
    about_windows: bool,
    code_actions: bool,
) -> Vec<ToolSpec> {
    const SMALL: [&str; 3] = [
        planner::SHELL_TOOL,
        super::planner::ASK_USER,
        "update_settings",
    ];
    let shell_only = capabilities.small;
    let offered = |name: &str| {
        // Zeta's own settings are not the window's: offered in a task about a window,
        // the 1.5B model called `update_settings({"verbose": true})` for "tick Verbose"
        // in an application's options window (CI, most runs of the task).
        let own_settings = name == "update_settings";
        SMALL.contains(&name) && !(about_windows && own_settings)
            || own.iter().any(|o| o == name)
            || about_windows && super::screen::UI_TOOLS.contains(&name)
            || code_actions && name == "run_code"
    };
    specs
        .iter()
        .filter(|t| !shell_only || offered(&t.name))
        .cloned()
        .collect()
}

impl<'a, S: ModelSource, M: Model> Run<'a, S, M> {
    /// `own` are the tools this task has beside the agent's (`ToolSource::tools_for`).
    pub(super) fn new(
        agent: &'a AgentLoop<S>,
        model: M,
        ctx: TaskContext,
        own: crate::tool::OfferedTools,
    ) -> Self {
        let mut tools = agent.tools.clone();
        let mut specs = agent.specs().to_vec();
        let mut own_names = Vec::new();
        for tool in own.tools.iter().cloned() {
            let spec = tool.spec();
            if tools.get(&spec.name).is_some() {
                tracing::warn!(
                    "a task's own tool `{}` has the name of one of Zeta's; left out",
                    spec.name
                );
                continue;
            }
            own_names.push(spec.name.clone());
            specs.push(spec);
            tools.register(tool);
        }
        let window = ctx.settings.provider.context_window;
        let capabilities = model.capabilities();
        // Where the task's commands run: its home and folder, read once; the request,
        // parsed once.
        let env = crate::policy::ShellEnv::current(&agent.workdir);
        let request = crate::assist::request::Request::parse(&ctx.task.message, &env);
        // Words about windows ("button", "dialog", "tick"), not about a file the request
        // names that exists ("Replace every window with harbor in ~/budget.txt").
        let worded =
            super::screen::about_windows(&ctx.task.message) && !request.names_existing_file();
        // The window on screen the request names, when the element tools can read it:
        // the evidence that the request is about a window.
        let named_window = agent
            .on_screen
            .as_ref()
            .filter(|_| tools.get(super::screen::UI_TOOLS[0]).is_some())
            .and_then(|list| {
                use crate::assist::windows::{named, named_loosely};
                let shown = list();
                let message = &ctx.task.message;
                named(message, &shown)
                    .or_else(|| worded.then(|| named_loosely(message, &shown)).flatten())
                    .cloned()
            });
        let (named_window, named_program) = match named_window {
            Some(w) => (Some(w.title), w.app),
            None => (None, String::new()),
        };
        let window_only = named_window.is_some() && request.paths.is_empty();
        // A request about a window on screen: one it names, or one its words are about.
        let about_windows = named_window.is_some() || worded;
        let native = match ctx.settings.provider.protocol {
            Protocol::Tools => true,
            Protocol::Json => false,
            Protocol::Auto => capabilities.native_tools,
        };
        let protocol: Box<dyn StepProtocol> = if native {
            Box::new(protocol::Native)
        } else {
            let windows = about_windows;
            let form = match (capabilities.small, windows) {
                (false, _) => PlanForm::Reasoned,
                (true, true) => PlanForm::Plain,
                (true, false) => PlanForm::Short,
            };
            Box::new(protocol::Planner::new(
                planner_tools(
                    &specs,
                    &own_names,
                    capabilities,
                    windows,
                    agent.code_actions,
                ),
                form,
            ))
        };
        let soul = prompt::soul_text(&agent.souls_dir, ctx.settings.soul);
        let mut system = protocol.system_prompt(&soul);
        if protocol.offers(super::screen::UI_TOOLS[0], &specs) {
            system.push_str(&format!("\n\n{}", super::screen::SCREEN_RULE));
        }
        if let Some(environment) = &agent.environment {
            system.push_str(&format!("\n\nThe computer right now:\n{}", environment()));
        }
        // The help this model gets.
        let knowledge = agent.knowledge.clone().map(|k| {
            let room = crate::assist::notes::Room::of_window(capabilities.small, window);
            crate::assist::profile::Profile::skills(k, room)
        });
        let profile = crate::assist::profile::Profile::for_model(capabilities.small, knowledge)
            .without(&agent.help_off);
        // A small model answers the previous question again when it sees it (measured:
        // "What is my user name?" answered with the disk space asked before): it gets the
        // previous task only when the request points back to it, and no task summary.
        let previous = ctx.task.previous_context.as_deref().filter(|_| {
            !profile.previous_only_when_referred || prompt::refers_back(&ctx.task.message)
        });
        let mut first =
            prompt::first_user_turn(&ctx.task.message, previous, ctx.task.previous_untrusted);
        if !own.unavailable.is_empty() {
            first.push_str(&format!(
                "\n\nThese tool servers could not be started, so their tools are missing:\n- {}",
                own.unavailable.join("\n- ")
            ));
        }
        let mut tainted = (ctx.task.previous_untrusted
            && previous.is_some_and(|c| !c.trim().is_empty()))
        .then(|| {
            "this task was handed the result of the previous task in this chat, which had read \
             input you did not type (a New chat starts without it)"
                .to_string()
        });
        if let Some(why) = &own.untrusted {
            tainted.get_or_insert(why.clone());
        }
        if let Some(recalled) = agent.recall(&ctx.task.message, profile.memory_summary) {
            first.push_str(&format!("\n\n{}", recalled.text));
        }
        let mut skills_used = Vec::new();
        for note in &profile.notes {
            if let Some(added) = note.note(&request, &env) {
                tracing::debug!(task = ctx.task.id, note = note.name(), used = ?added.used, "first-turn note");
                first.push_str(&format!("\n\n{}", added.text));
                if let Some(why) = added.untrusted {
                    tainted.get_or_insert(why);
                }
                skills_used.extend(added.used);
            }
        }
        if let (Some(audit), false) = (&ctx.audit, skills_used.is_empty()) {
            if let Err(e) = audit.record_skills(ctx.task.id, &skills_used) {
                tracing::warn!("could not record the skills task {} used: {e}", ctx.task.id);
            }
        }
        let earlier = earlier_attempts(&ctx);
        if let Some(note) = prompt::resumed_note(&ctx.task, &earlier) {
            first.push_str(&format!("\n\n{note}"));
        }
        let earlier_calls = earlier
            .into_iter()
            .filter(|e| tools.get(&e.tool).is_some_and(|t| t.has_side_effects()))
            .filter_map(|e| Some((e.tool, serde_json::from_str(&e.arguments).ok()?)))
            .collect();
        let verifies = match ctx.settings.verify {
            crate::settings::Verify::Always => Checks::Always,
            crate::settings::Verify::Never => Checks::Never,
            crate::settings::Verify::Auto if capabilities.small => Checks::WherePays,
            crate::settings::Verify::Auto => Checks::Never,
        };
        let mut finishing = Finishing::new(
            verifies,
            protocol.answers_checks_with_verdicts(),
            request,
            env.clone(),
        )
        .without(&agent.help_off)
        .own_home(agent.confinement.as_ref().map(|c| c.zeta_home.as_path()));
        // The rules the model works by are Zeta's words too (not the soul, which speaks
        // as the assistant, nor the computer's facts): an answer that says them again
        // answers nothing (seen: "Read the error and adapt it. Do not repeat a failing
        // step unchanged." as the whole answer).
        let bare_system = protocol.system_prompt("");
        finishing.said(&super::finish::rules_of(&bare_system));
        for reply in super::finish::examples_of(&bare_system) {
            finishing.example(&reply);
        }
        if protocol.offers(super::screen::UI_TOOLS[0], &specs) {
            finishing.said(super::screen::SCREEN_RULE);
        }
        let reads_text = capabilities.small || !capabilities.images;
        let window_task = if reads_text
            && about_windows
            && super::screen::UI_TOOLS
                .iter()
                .all(|t| protocol.offers(t, &specs) && tools.get(t).is_some())
        {
            super::screen::WindowTask::ReadFirst
        } else {
            super::screen::WindowTask::No
        };
        let (ctx_task_id, undo_settings) = (ctx.task.id, ctx.settings.undo.clone());
        Self {
            agent,
            tools,
            specs: specs.into(),
            model: Arc::new(model),
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
                    Arc::new(crate::policy::Writable::new(
                        &env.home,
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
            window_task,
            named_window,
            named_program,
            window_only,
            commands_closed: false,
            call_next: false,
            answer_next: false,
            undo: agent
                .undo
                .as_ref()
                .and_then(|store| crate::undo::TaskUndo::start(store, ctx_task_id, &undo_settings)),
            at_task_end: Default::default(),
            set_aside: None,
        }
    }

    pub(super) fn task_id(&self) -> i64 {
        self.ctx.task.id
    }

    pub(super) fn emit(&self, event: Event) {
        let _ = self.ctx.events.send(event);
    }

    /// Runs the task, then reports and stores what it used.
    pub(super) async fn go(mut self) -> AgentOutcome {
        let outcome = self.iterate().await;
        if let (Some(memory), AgentOutcome::Done { reply }) = (&self.agent.memory, &outcome) {
            let calls = self
                .ctx
                .audit
                .as_ref()
                .and_then(|audit| audit.for_task(self.task_id()).ok())
                .unwrap_or_default();
            let line = crate::store::memory::task_line(
                self.task_id(),
                &self.ctx.task.message,
                reply,
                &calls,
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

    pub(super) async fn iterate(&mut self) -> AgentOutcome {
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
        if self.window_task == super::screen::WindowTask::ReadFirst {
            // The window, read for the model: its first step starts from the numbers.
            let call = super::screen::first_read(self.named_window.as_deref());
            let turn = self
                .protocol
                .assistant_turn(String::new(), std::slice::from_ref(&call));
            self.messages.push(turn);
            match self.run_call(call).await {
                Ok(()) => {
                    self.window_task = super::screen::WindowTask::Read;
                    let title = self.named_window.clone().unwrap_or_default();
                    self.finishing.on_screen(&title);
                }
                Err(Halt::Ends(outcome)) => return outcome,
                Err(Halt::Repeating(_) | Halt::AskingAgain(_)) => {
                    self.window_task = super::screen::WindowTask::No
                }
                Err(Halt::Failing(why)) => return self.failed(&why),
            }
        }
        let max = self.ctx.settings.effective_max_iterations();
        for iteration in 1..=max {
            if self.ctx.cancel.is_cancelled() {
                return self.cancelled();
            }
            self.inject_user_messages();
            let mut format = self.protocol.format(self.finishing.expects_verdict());
            // This step may only call a tool (`grammar::only_calls`).
            let mut calls_only = false;
            if let crate::model::ResponseFormat::JsonSchema(schema) = &mut format {
                if self.commands_closed {
                    super::grammar::without_commands(schema);
                }
                let narrowed: Vec<&str> = self
                    .tools
                    .names()
                    .into_iter()
                    .filter(|n| self.tools.get(n).is_some_and(|t| t.call_next()))
                    .collect();
                let call_next = std::mem::take(&mut self.call_next) || !narrowed.is_empty();
                let act_next = self.finishing.take_act_next();
                if act_next {
                    for name in self.tools.names() {
                        if let Some(tool) = self.tools.get(name) {
                            tool.narrow_to_request(&self.ctx.task.message);
                        }
                    }
                }
                let answer_next = std::mem::take(&mut self.answer_next);
                if self.finishing.take_program_next() {
                    super::grammar::only_commands(schema);
                    calls_only = true;
                } else if act_next || call_next {
                    super::grammar::only_calls(schema);
                    // A tool that narrowed its next call is the one called.
                    if !narrowed.is_empty() {
                        super::grammar::only_tools(schema, &narrowed);
                    }
                    calls_only = true;
                } else if answer_next {
                    super::grammar::only_answer(schema);
                }
                for name in self.tools.names() {
                    if let Some(args) = self.tools.get(name).and_then(|t| t.arguments_now()) {
                        super::grammar::bind_now(schema, name, &args);
                    }
                }
            }
            // Calls bound by the grammar: one written another way (in a plan's command,
            // or a verdict's, whose schema binds nothing) is checked here.
            let bound = self.finishing.expects_verdict()
                || matches!(&format, crate::model::ResponseFormat::JsonSchema(s)
                    if super::grammar::binds_calls(s));
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
            self.finishing.heard(&reply.text);
            let step = match self.interpret_or_verdict(&reply) {
                Ok(step) => {
                    self.guard.parsed();
                    step
                }
                Err(hint) => {
                    if let Err(tripped) = self.guard.unparseable(&hint) {
                        return self.answer_after_stalling(reply.text, &tripped.0).await;
                    }
                    // A step that could only call a tool stays so when its reply could
                    // not be read (seen: after nothing was done in a dialog, a reply cut
                    // off, and then an answer, with no act in between).
                    self.call_next |= calls_only;
                    self.messages.push(Message::assistant(reply.text));
                    self.tell(hint);
                    continue;
                }
            };
            match step {
                Step::Final(text) => {
                    let check = self.finishing.check(&text, self.steps.len());
                    self.flush_checks();
                    if let Some(check) = check {
                        tracing::info!(
                            task = self.task_id(),
                            "answer sent back for a check: {}",
                            clip(&text, 200)
                        );
                        self.messages.push(Message::assistant(reply.text));
                        match self.finishing.take_apart() {
                            // The program of a second way, asked for with the system
                            // prompt and the request only (`checks::asked_apart`).
                            Some(ask) => {
                                let fresh = self
                                    .messages
                                    .first()
                                    .cloned()
                                    .into_iter()
                                    .chain([Message::user(ask)])
                                    .collect();
                                let task = std::mem::replace(&mut self.messages, fresh);
                                self.set_aside = Some(task);
                            }
                            None => self.messages.push(Message::user(check)),
                        }
                        continue;
                    }
                    let text = self.final_answer(text);
                    return self.finish(text);
                }
                Step::Calls(calls) => {
                    if let Some(why) = bound.then(|| self.unbound_call(&calls)).flatten() {
                        tracing::info!(task = self.task_id(), "call not run: {why}");
                        self.messages.push(Message::assistant(reply.text));
                        self.tell(why);
                        self.call_next = true;
                        continue;
                    }
                    if self.finishing.second_way_turn() {
                        return self.second_way_turn(reply.text, calls).await;
                    }
                    let assistant = self.protocol.assistant_turn(reply.text, &calls);
                    self.messages.push(assistant);
                    for (n, call) in calls.iter().enumerate() {
                        match self.run_call(call.clone()).await {
                            Ok(()) => {}
                            Err(Halt::Ends(outcome)) => return outcome,
                            Err(Halt::Repeating(why)) => {
                                return self
                                    .answer_after_repeats(
                                        &why,
                                        &calls[n..],
                                        prompt::ANSWER_AFTER_REPEATS,
                                    )
                                    .await;
                            }
                            Err(Halt::AskingAgain(why)) => {
                                return self
                                    .answer_after_repeats(
                                        &why,
                                        &calls[n..],
                                        prompt::ANSWER_NOBODY_ANSWERS,
                                    )
                                    .await;
                            }
                            Err(Halt::Failing(why)) => {
                                return self.answer_after_failures(&why, &calls[n + 1..]).await;
                            }
                        }
                        if let Some(window) = self.finishing.met_then_failed() {
                            return self.answer_when_done_in(&window, &calls[n + 1..]).await;
                        }
                    }
                }
            }
        }
        self.summarise_at_cap().await
    }

    /// The reply read as a step; in the planner protocol a verification turn's reply is a
    /// verdict, which continues with its command or ends with the answer it checked.
    pub(super) fn interpret_or_verdict(&mut self, reply: &ModelReply) -> Result<Step, String> {
        if !self.finishing.expects_verdict() {
            return self.interpret(reply);
        }
        let id = self.next_call_id();
        let mut verdict = parse_verdict(&reply.text, &id);
        // A check that asks for the very call that produced the answer found nothing
        // missing (seen: a small model naming its last command again): the answer stands
        // without the two turns a repeat costs.
        if matches!(&verdict, Verdict::Continue(call) if self.guard.is_last_call(call)) {
            verdict = Verdict::Finished { unable: None };
        }
        if matches!(verdict, Verdict::Continue(_)) {
            tracing::info!(task = self.task_id(), "the check found an unfinished part");
        }
        // The verdict's command is read as a plan's is: a call written inside it runs as
        // that call (seen: `ui_act(12, toggle)` run in the shell, exit 127, and the answer
        // it checked then stood as a false claim).
        self.finishing
            .verdict(verdict)
            .map(|step| super::repair::mend(step, &id))
    }

    /// The step after `second-way` sent an answer back for a program: its programs run
    /// (anything else it calls does not: a question to the person, another command), and
    /// the task ends with the answer that was checked, told with what the program printed
    /// where that does not bear it out. The model is not asked again (seen: after a
    /// program that failed, "Thursday" for a date became a question about a file nobody
    /// named).
    async fn second_way_turn(
        &mut self,
        reply: String,
        calls: Vec<crate::model::ToolCall>,
    ) -> AgentOutcome {
        let programs: Vec<crate::model::ToolCall> = calls
            .into_iter()
            .filter(|c| crate::assist::evidence::runs_program(&c.name, &c.arguments))
            .collect();
        if !programs.is_empty() {
            let assistant = self.protocol.assistant_turn(reply, &programs);
            self.messages.push(assistant);
            for call in programs {
                match self.run_call(call).await {
                    Ok(()) => {}
                    Err(Halt::Ends(outcome)) => return outcome,
                    // The answer stands as checked: what ran is in the evidence.
                    Err(Halt::Repeating(_) | Halt::AskingAgain(_) | Halt::Failing(_)) => break,
                }
            }
        } else {
            tracing::info!(
                task = self.task_id(),
                "no program came for the second way; the answer is told as not confirmed"
            );
        }
        self.back_to_the_task();
        // Two ways that disagree: asked once, with no tools, which is right.
        if let Some(message) = self.finishing.two_ways_differ() {
            self.tell(message);
            match self.answer_now().await {
                Ok(Some(again)) => {
                    tracing::info!(
                        task = self.task_id(),
                        "asked which way is right: {}",
                        clip(&again, 200)
                    );
                    self.finishing.second_way_again(&again);
                }
                Ok(None) => {}
                Err(outcome) => return outcome,
            }
        }
        let text = self.final_answer(String::new());
        self.finish(text)
    }

    /// The task's conversation again, where the second way's program was asked for in
    /// one of its own.
    fn back_to_the_task(&mut self) {
        if let Some(task) = self.set_aside.take() {
            self.messages = task;
        }
    }

    /// The cap was reached: one more request that can only answer; its text is the answer.
    pub(super) async fn summarise_at_cap(&mut self) -> AgentOutcome {
        if self.ctx.cancel.is_cancelled() {
            return self.cancelled();
        }
        self.back_to_the_task();
        self.inject_user_messages();
        let max = self.ctx.settings.effective_max_iterations();
        self.finishing.stopped(&format!(
            "I stopped at the limit of {max} steps for one task."
        ));
        self.tell(prompt::MAX_ITERATIONS_PROMPT.to_string());
        match self.answer_now().await {
            Ok(answer) => {
                let answer = self.final_answer(answer.unwrap_or_default());
                self.finish(answer)
            }
            Err(outcome) => outcome,
        }
    }

    /// One request whose reply can only be an answer (no tools; the planner's schema holds
    /// only `reply`): the answer, or `None` when the model wrote none. `Err`: cancelled,
    /// or the model failed.
    pub(super) async fn answer_now(&mut self) -> Result<Option<String>, AgentOutcome> {
        let format = self.protocol.answer_format();
        self.fit_context(&format);
        let reply = self.call_model(format).await?;
        let answer = self.protocol.read_answer(&reply.text);
        Ok(Some(answer).filter(|a| !a.trim().is_empty()))
    }

    /// The model's replies could not be read even after a corrective hint. Once calls
    /// have run (a small model stalls after a refused or failed call, with an empty
    /// plan), it is asked once, with nothing it could call, to answer from what it has;
    /// with no answer, or before anything ran, the task fails with `why`.
    async fn answer_after_stalling(&mut self, last: String, why: &str) -> AgentOutcome {
        if self.steps.is_empty() {
            return self.failed(why);
        }
        tracing::info!(task = self.task_id(), "{why}; asking for an answer instead");
        // A second way's conversation of its own is left, with what stalled in it.
        if self.set_aside.is_some() {
            self.back_to_the_task();
        } else {
            self.messages.push(Message::assistant(last));
        }
        self.tell(prompt::ANSWER_AFTER_STALLING.to_string());
        match self.answer_now().await {
            Ok(Some(answer)) => {
                let answer = self.final_answer(answer);
                self.finish(answer)
            }
            Ok(None) => self.failed(why),
            Err(outcome) => outcome,
        }
    }

    /// Sends the model a message of Zeta's own (a hint, a prompt), which no answer may
    /// carry.
    /// Why a call is not run: its tool takes narrower arguments now (`Tool::arguments_now`)
    /// and these are not among them. Only a call the grammar did not write gets here: one
    /// written inside a command (seen: `ui_act(1, 'Ada')` on the label of a form, run as
    /// `{"action": "Ada"}`); the model then writes it as a call, which the grammar binds.
    fn unbound_call(&self, calls: &[crate::model::ToolCall]) -> Option<String> {
        calls.iter().find_map(|call| {
            let tool = self.tools.get(&call.name)?;
            let now = tool.arguments_now()?;
            // As it will run: read as its tool reads it (`Tool::read_as`; seen:
            // `ui_act(3, 'ada@example.com', 'text')` on the Email field is its set_text).
            let arguments = tool
                .read_as(&call.arguments, &self.ctx.task.message)
                .map_or_else(|| call.arguments.clone(), |(read, _)| read);
            let takes = jsonschema::validator_for(&now).is_ok_and(|v| v.is_valid(&arguments));
            (!takes).then(|| {
                format!(
                    "Not run: {} {} was written inside a command, and it is not a call {} takes now. Write it as a tool call instead: {{\"tool\": \"{}\", \"args\": {{…}}}}, on a number of the outline.",
                    call.name, call.arguments, call.name, call.name
                )
            })
        })
    }

    pub(super) fn tell(&mut self, text: String) {
        self.finishing.said(&text);
        self.messages.push(Message::user(text));
    }

    /// The answer the person gets for `text` (`Finishing::final_answer`), with what the
    /// checks found recorded.
    pub(super) fn final_answer(&mut self, text: String) -> String {
        let answer = self.finishing.final_answer(text);
        self.flush_checks();
        answer
    }

    /// The finishing checks' judgements since the last flush: each an event, a row of
    /// the audit (`answer_checks`) and a log line, by the check's name.
    pub(super) fn flush_checks(&mut self) {
        for record in self.finishing.take_record() {
            tracing::info!(
                task = self.task_id(),
                check = record.check,
                result = record.result.as_str(),
                "{}",
                clip(&record.detail, 200)
            );
            if let Some(audit) = &self.ctx.audit {
                if let Err(e) =
                    audit.record_check(self.task_id(), record.check, record.result, &record.detail)
                {
                    tracing::warn!("could not record the answer check: {e}");
                }
            }
            self.emit(Event::AnswerChecked {
                task_id: self.task_id(),
                check: record.check.to_string(),
                result: record.result,
                detail: record.detail,
            });
        }
    }

    pub(super) fn finish(&self, reply: String) -> AgentOutcome {
        if reply.trim().is_empty() {
            return self.failed("I stopped because the model returned an empty reply.");
        }
        AgentOutcome::Done { reply }
    }

    /// Injects user messages that arrived while the task ran.
    pub(super) fn inject_user_messages(&mut self) {
        // Not into a second way's conversation of its own, which ends with its program:
        // what is left in the inbox then is queued after the task (`worker`).
        if self.set_aside.is_some() {
            return;
        }
        for (_, text) in self.ctx.inbox.take() {
            if let Some(audit) = &self.ctx.audit {
                let noted = audit.note_added(
                    self.task_id(),
                    &text,
                    crate::store::record::AddedFate::Read,
                    None,
                );
                if let Err(e) = noted {
                    tracing::warn!("could not keep the added message on the task's record: {e}");
                }
            }
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
    pub(super) fn fit_context(&mut self, format: &ResponseFormat) -> usize {
        let specs = Arc::clone(&self.specs);
        let tools: &[ToolSpec] = match format {
            ResponseFormat::Native => &specs,
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
        // Fold older turns, keeping less and less of the recent ones and then of the
        // summary of what was folded, until it fits.
        const FOLDS: [(usize, usize); 6] = [(8, 40), (4, 40), (2, 40), (2, 16), (2, 4), (2, 0)];
        for (keep_tail, summary_lines) in FOLDS {
            if now <= hard {
                break;
            }
            let start = now;
            if crate::context::hard_compact(&mut self.messages, keep_tail, summary_lines) {
                now = self.counter.request(&self.messages, tools);
                self.compacted(CompactionKind::Hard, start, now);
            }
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

    pub(super) fn compacted(&mut self, kind: CompactionKind, before: usize, after: usize) {
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
    pub(super) async fn call_model(
        &mut self,
        format: ResponseFormat,
    ) -> Result<ModelReply, AgentOutcome> {
        let mut shrunk = false;
        loop {
            let error = match self.request_once(&format).await? {
                Ok(reply) => return Ok(reply),
                Err(e) => e,
            };
            self.metrics.llm_failures += 1;
            if error.failure == ModelFailure::ContextOverflow && !shrunk {
                shrunk = true;
                let specs = Arc::clone(&self.specs);
                let tools: &[ToolSpec] = match format {
                    ResponseFormat::Native => &specs,
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
    pub(super) async fn request_once(
        &mut self,
        format: &ResponseFormat,
    ) -> Result<Result<ModelReply, ModelError>, AgentOutcome> {
        let tools = match format {
            ResponseFormat::Native => self.specs.to_vec(),
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
    pub(super) fn interpret(&mut self, reply: &ModelReply) -> Result<Step, String> {
        let mut names = self.tools.names();
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

    pub(super) fn next_call_id(&mut self) -> String {
        self.calls_made += 1;
        format!("call_{}_{}", self.task_id(), self.calls_made)
    }

    pub(super) fn tool_names(&self) -> Vec<&str> {
        let mut names = self.tools.names();
        names.push(plan::NAME);
        names
    }

    pub(super) fn progress(&self) -> String {
        if self.steps.is_empty() {
            "No steps had run yet.".to_string()
        } else {
            format!("Steps so far:\n{}", self.steps.join("\n"))
        }
    }

    pub(super) fn cancelled(&self) -> AgentOutcome {
        AgentOutcome::Cancelled {
            progress: self.progress(),
        }
    }

    pub(super) fn failed(&self, why: &str) -> AgentOutcome {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: String::new(),
            parameters: serde_json::json!({"type": "object"}),
        }
    }

    #[test]
    fn a_small_model_gets_the_element_tools_only_for_a_request_about_a_window() {
        let all: Vec<ToolSpec> = [
            "shell",
            "read_file",
            "ui_outline",
            "ui_act",
            "mouse",
            "update_settings",
        ]
        .into_iter()
        .map(spec)
        .collect();
        let small = Capabilities {
            native_tools: false,
            images: false,
            small: true,
        };
        let names = |about: bool, caps: Capabilities| -> Vec<String> {
            planner_tools(&all, &[], caps, about, false)
                .into_iter()
                .map(|t| t.name)
                .collect()
        };
        assert_eq!(names(true, small), ["shell", "ui_outline", "ui_act"]);
        let with_code: Vec<String> = planner_tools(
            &[spec("shell"), spec("run_code"), spec("read_file")],
            &[],
            small,
            false,
            true,
        )
        .into_iter()
        .map(|t| t.name)
        .collect();
        assert_eq!(
            with_code,
            ["shell", "run_code"],
            "code actions offer run_code"
        );
        let prompt = super::prompt::planner_prompt(
            "soul",
            &[spec("shell"), spec("run_code")],
            PlanForm::Short,
        );
        assert!(
            prompt.contains(crate::prompts::CODE_RULE.trim()),
            "{prompt}"
        );
        assert_eq!(names(false, small), ["shell", "update_settings"]);
        let large = Capabilities {
            small: false,
            ..small
        };
        assert_eq!(
            names(false, large).len(),
            6,
            "a larger model gets every tool"
        );
    }
}
