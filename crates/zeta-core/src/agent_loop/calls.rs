//! One tool call from the model: repeats, the gate, the audit row written before it runs
//! and completed after, its events, its output compressed and marked untrusted, and what
//! the model reads of it.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::broadcast;

use super::gate::{Consent, Refused};
use super::protocol::short_args;
use super::run::{Executed, Halt, Run};
use super::{asks, gate, guard, plan, prompt, ModelSource};
use crate::agent::AgentOutcome;
use crate::assist::evidence::{kept, CallEvidence};
use crate::model::{Model, ToolCall};
use crate::policy::{instruction_like, wrap_untrusted};
use crate::store::audit::{CallDecision, Decider};
use crate::text::clip;
use crate::tool::{ToolContext, ToolOutput};
use zeta_protocol::Event;

impl<S: ModelSource, M: Model> Run<'_, S, M> {
    /// Runs one call, with cancellation checked before and after it.
    pub(super) async fn run_call(&mut self, mut call: ToolCall) -> Result<(), Halt> {
        if self.ctx.cancel.is_cancelled() {
            return Err(self.cancelled().into());
        }
        // Places read where they are (a home that is not the person's, a file the request
        // names guessed elsewhere): before the other readings, which read the call as it
        // will run.
        let places_read =
            self.finishing
                .places(&call.name, &call.arguments)
                .map(|(arguments, note)| {
                    call.arguments = arguments;
                    self.finishing.said(&note);
                    note
                });
        // A pipe of files' names where their contents were meant: run with the contents
        // where it can be written so, else said with the output (`names_piped`); Zeta's
        // words either way, never part of an answer.
        let piped = self.finishing.names_piped(&call.name, &call.arguments);
        // Readings in a row: each reads the command as the one before it runs it (`ls
        // ~/q3.csv | awk '{sum += $1} …'`: the file's contents, then awk split at its
        // commas).
        let piped_run = match piped.as_ref().and_then(|p| p.read_as()) {
            Some((command, note)) => {
                let mut read = call.arguments.clone();
                read["command"] = Value::String(command.clone());
                Some(match self.finishing.read_as(&call.name, &read) {
                    Some((again, more)) => (again, format!("{note}\n{more}")),
                    None => (command, note),
                })
            }
            None => self.finishing.read_as(&call.name, &call.arguments),
        };
        let piped_note = piped.filter(|_| piped_run.is_none()).and_then(|p| p.note());
        if let Some((_, note)) = &piped_run {
            self.finishing.said(note);
        }
        // A call its tool reads one way only is that call from here on: judged, shown,
        // recorded and run as read; the model is told how it was read.
        let read_as = self
            .tools
            .get(&call.name)
            .and_then(|t| t.read_as(&call.arguments, &self.ctx.task.message))
            .or_else(|| {
                let (command, note) = piped_run?;
                let mut arguments = call.arguments.clone();
                arguments["command"] = serde_json::Value::String(command);
                Some((arguments, note))
            });
        let read_as = read_as.map(|(arguments, note)| {
            call.arguments = arguments;
            note
        });
        let read_as = match (places_read, read_as) {
            (Some(places), Some(other)) => Some(format!("{places}\n{other}")),
            (places, other) => places.or(other),
        };
        if let Some(note) = &read_as {
            tracing::info!(task = self.task_id(), tool = %call.name, "call read as: {note}");
        }
        // The columns the call reads by number, named by its file's first line: said with
        // what it printed.
        let columns = self.finishing.columns(&call.name, &call.arguments);
        if call.name == super::planner::ASK_USER && self.finishing.nobody_answers() {
            // Seen: a 1.5B model asking three times more after "no answer is coming".
            return Err(Halt::AskingAgain(
                "the model asked the user again after a question went unanswered".into(),
            ));
        }
        let identity = self
            .tools
            .get(&call.name)
            .and_then(|t| t.identity(&call.arguments));
        match self.guard.before_call(&call, identity) {
            Err(tripped) => return Err(Halt::Repeating(tripped.0)),
            Ok(guard::Repeat::Again) => {
                self.answer_repeat(&call);
                return Ok(());
            }
            Ok(guard::Repeat::No) => {}
        }
        self.emit_started(&call);
        // What a call that can change things could touch, looked at before it runs.
        let changes = call.name == plan::NAME
            || self
                .tools
                .get(&call.name)
                .is_some_and(|t| t.changes_things(&call.arguments));
        let watch = changes.then(|| self.finishing.watch(&call.arguments));
        // Not run because it would start the window's program again: no change held
        // back from the person, only the model pointed at the window.
        let again = self.starts_window_again(&call);
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
        } else if asks::is_own(&call.name) {
            self.own_tool(&call).await
        } else if let Some(why) = &again {
            Executed {
                output: ToolOutput::error(why.clone()),
                decision: CallDecision::Skipped,
                decided_by: Decider::Policy,
                ran: false,
                audited: false,
            }
        } else {
            self.execute(&call, Consent::None).await
        };
        self.conclude(&call, &executed);
        let mut output = executed.output;
        let mark = if output.ok { "✓" } else { "✗" };
        let line = format!("{mark} {} {}", call.name, short_args(&call.arguments));
        // A plan's steps ran inside it: its report is what it printed.
        let ran = executed.ran || call.name == plan::NAME && output.ok;
        let effects = match watch {
            Some(watch) if ran => watch.after(),
            _ => Vec::new(),
        };
        // Held back by a person or the settings; a call too malformed to run is not.
        let held = !ran
            && again.is_none()
            && matches!(
                executed.decision,
                CallDecision::AskedDenied
                    | CallDecision::Denied
                    | CallDecision::Blocked
                    | CallDecision::RateLimited
                    | CallDecision::Skipped
            );
        let acted_here = ran && output.ok && output.read_back.is_some();
        // What the files the request asks to be written hold now, read back for the model.
        let written = self.finishing.written_now(&effects);
        self.finishing.observed(CallEvidence {
            tool: call.name.clone(),
            line: line.clone(),
            ran: ran || asks::is_own(&call.name),
            held,
            ok: output.ok,
            changes,
            output: kept(&output.content),
            effects,
            read_back: output.read_back.as_deref().cloned(),
            shows: output.shows.clone(),
            program: crate::assist::evidence::program_of(&call.name, &call.arguments),
        });
        // How the call was read goes to the model with what it printed, never into the
        // evidence: what a command printed is told to the person as it printed it.
        if let Some(note) = read_as {
            output.content = format!("{note}\n{}", output.content);
        }
        self.answer_next = acted_here && self.finishing.done_in_window();
        if let Some(rb) = output.read_back.as_deref().filter(|_| acted_here) {
            tracing::info!(
                task = self.task_id(),
                window = %rb.window,
                met = rb.met(),
                left = rb.left.as_deref().unwrap_or(""),
                closed = rb.closed,
                answer_next = self.answer_next,
                "acted in a window"
            );
        }
        self.steps.push(line);
        // A call away from the window in a task about a window already read: held back
        // (seen: a 1.5B model starting the dialog again with `zenity --entry …`, three
        // times in seven tasks, instead of typing into the one on screen), or failed
        // before anything was done in the window (seen: `echo 'Verbose is now ticked.' >
        // ~/.config/…` for "tick Verbose"). The model is pointed back at the window,
        // and, told once, it wrote the same command again (seen): the grammar no longer
        // offers one.
        let away = self.window_task.on_screen()
            && !super::screen::UI_TOOLS.contains(&call.name.as_str())
            && !asks::is_own(&call.name)
            && (held
                || again.is_some()
                || executed.ran && !output.ok && !self.finishing.acted_in_window());
        let mut content = if executed.ran {
            let mut printed = self.compress(&call, &output.content);
            if let Some(written) = &written {
                printed.push_str(&format!("\n\n{written}"));
            }
            wrap_untrusted(&call.name, &printed)
        } else {
            output.content.clone()
        };
        // A listing piped where it could not be run with the contents: said with the output.
        if let Some(note) = piped_note.filter(|_| executed.ran) {
            tracing::info!(task = self.task_id(), "a program read files' names: {note}");
            self.finishing.said(&note);
            content = format!("{content}\n{note}");
        }
        if let Some(note) = columns.filter(|_| executed.ran) {
            tracing::info!(task = self.task_id(), "the columns a command read: {note}");
            self.finishing.said(&note);
            content = format!("{content}\n{note}");
        }
        // An act in the window went through, in a task about a window that names no
        // path: what is left is done in the window (seen: after typing Lisbon into the
        // City dialog, `echo 'Lisbon' > ~/notes/budget_meeting_notes.txt`, a worked
        // example's file, and the example's answer).
        if self.window_only && acted_here {
            self.commands_closed = true;
        }
        if away {
            self.finishing.said(super::screen::WINDOW_INSTEAD);
            self.commands_closed = true;
            content = format!("{content}\n{}", super::screen::WINDOW_INSTEAD);
        }
        // Done in the window as it shows: the next step is the answer, said as what was
        // done there (seen: the worked example's "There are 3 .txt files …; I wrote …"
        // copied as "There are 2 lines in the file …; I saved them").
        if self.answer_next {
            // A result keyed in on a keypad is said as the window shows it.
            let note = match output.read_back.as_deref() {
                Some(rb) if rb.keyed => super::screen::RESULT_IN_WINDOW,
                _ => super::screen::DONE_IN_WINDOW,
            };
            self.finishing.said(note);
            content = format!("{content}\n{note}");
        }
        let mut result = self.protocol.result_turn(&call, mark, content.clone());
        result.images = output.images;
        self.last_result = Some((content, output.content.clone()));
        self.messages.push(result);
        if self.ctx.cancel.is_cancelled() {
            return Err(self.cancelled().into());
        }
        self.guard
            .after_call(output.ok)
            .map_err(|tripped| Halt::Failing(tripped.0))
    }

    /// Why a command is not run: in a task about a window on screen, it starts that
    /// window's program again (its `WM_CLASS` or app id), which would open a second
    /// window beside the one the request is about (seen: `yad --entry …` for "Enter 4217
    /// as the room code in the Code dialog", waiting 30 s on a new dialog).
    fn starts_window_again(&self, call: &ToolCall) -> Option<String> {
        let title = self.named_window.as_deref()?;
        if call.name != super::planner::SHELL_TOOL || !self.window_task.on_screen() {
            return None;
        }
        let command = call.arguments.get("command").and_then(Value::as_str)?;
        let (programs, _) = crate::policy::shell::programs(command);
        let program = super::screen::starts_again(&programs, &self.named_program)?;
        Some(format!(
            "Not run: the window \"{title}\" of {program} is already on screen, and this command would start {program} again."
        ))
    }

    /// A call identical to the one just made is not run again: it gets the earlier
    /// output again, with a hint to use it or take another step.
    pub(super) fn answer_repeat(&mut self, call: &ToolCall) {
        self.emit_started(call);
        let earlier = self
            .last_result
            .as_ref()
            .map(|(shown, _)| shown.clone())
            .unwrap_or_default();
        let told = "[Zeta] You just made this exact call; it was not run again. Its output is \
                    repeated below. If it answers the request, answer the user now, quoting what \
                    it printed; if not, take a different step (other arguments or another tool).";
        self.finishing.said(told);
        let content = format!("{told}\n{earlier}");
        let output = ToolOutput {
            ok: true,
            content: content.clone(),
            summary: "repeated: the earlier output was shown again".into(),
            images: Vec::new(),
            read_back: None,
            shows: None,
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

    /// The model kept asking for the same call (`calls[0]`, the rest of its turn after
    /// it): none of them runs; each gets a result saying so, and the model is asked once,
    /// with no tool it could call, to answer from the outputs it has. Without an answer,
    /// the task ends with `stopped_before_finishing`.
    pub(super) async fn answer_after_repeats(
        &mut self,
        why: &str,
        calls: &[ToolCall],
        told: &str,
    ) -> AgentOutcome {
        tracing::info!(task = self.task_id(), "{why}; asking for an answer instead");
        self.finishing.said(told);
        for (n, call) in calls.iter().enumerate() {
            let content = if n == 0 {
                told
            } else {
                "[Zeta] Not run: the call before it was a repeat."
            };
            let message = self.protocol.result_turn(call, "↻", content.to_string());
            self.messages.push(message);
        }
        match self.answer_now().await {
            Ok(Some(answer)) => {
                let answer = self.final_answer(answer);
                self.finish(answer)
            }
            Ok(None) => self.stopped_before_finishing(why),
            Err(outcome) => outcome,
        }
    }

    /// The request was met in `window` by an act that closed it, and an act at it failed
    /// since (`Finishing::met_then_failed`): the task ends with what was done there, from
    /// the read-backs (`not_run`: the rest of the model's turn). The model is not asked:
    /// told that the request was done, it said Zeta's words back (seen on the GUI bench),
    /// and those are no answer.
    pub(super) async fn answer_when_done_in(
        &mut self,
        window: &str,
        not_run: &[ToolCall],
    ) -> AgentOutcome {
        tracing::info!(
            task = self.task_id(),
            "the request was met in \"{window}\", which closed, and an act at it failed since; \
             the task ends with what was done there"
        );
        for call in not_run {
            let content = "[Zeta] Not run: the request was already done in the window.".to_string();
            let message = self.protocol.result_turn(call, "✗", content);
            self.messages.push(message);
        }
        let answer = self.finishing.done_in(window);
        let answer = self.final_answer(answer);
        self.finish(answer)
    }

    /// Calls failed `why` (too many in a row; `not_run`: the rest of the model's turn):
    /// the model is asked once, with nothing it could call, to answer from what it has:
    /// what it found, what did not work, what it would need (a question nobody could
    /// answer in this run included). The answer is held against the evidence like any
    /// other (`Run::final_answer`); no answer fails the task with `why`.
    pub(super) async fn answer_after_failures(
        &mut self,
        why: &str,
        not_run: &[ToolCall],
    ) -> AgentOutcome {
        tracing::info!(task = self.task_id(), "{why}; asking for an answer instead");
        self.finishing.stopped(why);
        for call in not_run {
            let content = "[Zeta] Not run: the calls before it failed.".to_string();
            let message = self.protocol.result_turn(call, "✗", content);
            self.messages.push(message);
        }
        self.tell(prompt::ANSWER_AFTER_FAILURES.to_string());
        match self.answer_now().await {
            Ok(Some(answer)) => {
                let answer = self.final_answer(answer);
                self.finish(answer)
            }
            Ok(None) => self.failed(why),
            Err(outcome) => outcome,
        }
    }

    /// The model kept asking for the same call (or stalled) and gave no usable answer when
    /// asked: the task ends with an honest answer that says it stopped, why, and what the
    /// last call printed, rather than a bare failure or a claim nothing backs.
    pub(super) fn stopped_before_finishing(&self, why: &str) -> AgentOutcome {
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
    pub(super) fn compress(&self, call: &ToolCall, content: &str) -> String {
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

    pub(super) fn record(
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

    pub(super) fn emit_started(&self, call: &ToolCall) {
        self.emit(Event::ToolCallStarted {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
        });
    }

    /// Records a finished call in the audit log (unless its row was written as it ran)
    /// and the metrics, and announces it.
    pub(super) fn conclude(&mut self, call: &ToolCall, executed: &Executed) {
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
    pub(super) fn begin_audit(
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

    pub(super) fn complete_audit(&self, row: Option<i64>, output: &ToolOutput) {
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

    pub(super) fn emit_finished(&self, call: &ToolCall, output: &ToolOutput) {
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
    pub(super) async fn execute(&mut self, call: &ToolCall, consent: Consent) -> Executed {
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
        // The desktop session: for a call a person approved, or one that only asks the
        // session for information (`policy::session`).
        let commands = admitted.tool.commands(&admitted.arguments);
        let approved = matches!(
            admitted.decision,
            CallDecision::AskedApproved | CallDecision::PlanApproved | CallDecision::UserAllowed
        );
        if approved
            || !commands.is_empty()
                && commands
                    .iter()
                    .all(|c| crate::policy::session::reads_session(c))
        {
            ctx.session = crate::tool::Session::Open;
        }
        let mut output = admitted.tool.run(admitted.arguments.clone(), &ctx).await;
        if let Some(undo) = &self.undo {
            undo.end_call();
        }
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
    pub(super) fn read_untrusted(&mut self, call: &ToolCall, target: String, output: &ToolOutput) {
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
    pub(super) fn tool_context(&self, on_output: Arc<dyn Fn(&str) + Send + Sync>) -> ToolContext {
        ToolContext {
            cancel: self.ctx.cancel.clone(),
            workdir: self.agent.workdir.clone(),
            command_timeout_ms: self.ctx.settings.command_timeout_ms,
            max_output_length: self.ctx.settings.max_output_length as usize,
            images_supported: self.model.capabilities().images,
            screenshot: self.ctx.settings.screenshot.clone(),
            untrusted_input: self.consent.tainted.is_some(),
            confine: self.consent.writable.clone(),
            keeper: self.undo.as_ref().map(|u| u.keeper()),
            session: crate::tool::Session::Closed,
            at_task_end: self.at_task_end.clone(),
            request: Arc::from(self.ctx.task.message.as_str()),
            choose: crate::tool::Choose::new(Arc::new(super::choose::ModelChooser(Arc::clone(
                &self.model,
            )))),
            on_output,
        }
    }

    /// The screen as the user should see it before approving a mouse or keyboard call:
    /// taken now (with the `screenshot` tool, not audited: the model does not see it),
    /// else the task's latest screenshot. `None` for other tools.
    pub(super) async fn screenshot_for<'t>(
        &self,
        tools: impl IntoIterator<Item = &'t str>,
    ) -> Option<String> {
        if !tools.into_iter().any(|t| t == "mouse" || t == "keyboard") {
            return None;
        }
        let fresh = match self.tools.get("screenshot") {
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
}
