//! Whether one call may run, and with which arguments: the tool exists, its arguments
//! match the schema, no command in it is blocked, it is within its rate limits, and the
//! permission policy allows it or the user approves it (perhaps with edited arguments).
//!
//! Text the model read never decides here. Once the task has read untrusted input
//! (`policy::provenance`), every side-effecting call, and every call that keeps state for
//! later tasks, asks the user even when the policy would let it run, unless the user
//! approved that exact call or plan earlier in the task. Only the user's own message
//! clears the mark; approving one call does not.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use super::{ModelSource, Run};
use crate::agent::{ApprovalAnswer, ApprovalMessage};
use crate::model::{Model, ToolCall};
use crate::policy::{
    allowance_for, covered, decide, judge_with_writes, tool_permission, Decision, ShellEnv, Verdict,
};
use crate::store::audit::{CallDecision, Decider};
use crate::tool::{Risk, Tool, ToolOutput};
use zeta_protocol::{ApprovalScope, Event};

/// A call cleared to run.
pub(super) struct Admitted {
    pub tool: Arc<dyn Tool>,
    /// The arguments to run with: the model's, or the user's edit.
    pub arguments: Value,
    pub edited: bool,
    pub decision: CallDecision,
    pub decided_by: Decider,
    /// The user approved its writes outside the writable set: its processes run
    /// unconfined.
    pub unconfined: bool,
}

/// What the checks that need no one found about a call.
pub(super) struct Checked {
    pub tool: Arc<dyn Tool>,
    /// Why what it does cannot be known before it runs, when it cannot.
    pub unknowable: Option<String>,
    /// The paths it names that it would write outside the writable set.
    pub outside: Vec<PathBuf>,
    /// Every path it names that it would write, change or remove.
    pub writes: Vec<PathBuf>,
}

/// A call that does not run: what the model reads, and the audit's decision and decider.
pub(super) struct Refused {
    pub output: ToolOutput,
    pub decision: CallDecision,
    pub decided_by: Decider,
}

impl Refused {
    fn new(output: ToolOutput, decision: CallDecision, decided_by: Decider) -> Self {
        Self {
            output,
            decision,
            decided_by,
        }
    }
}

/// What the gate knows of one task, kept from call to call.
pub(super) struct TaskConsent {
    /// Calls per tool in this task, for the per-task rate limits.
    pub task_counts: crate::policy::TaskCounts,
    /// Set once the task has read input the user did not type (`policy::provenance`),
    /// with where it came from: from then on every side-effecting call asks, whatever the
    /// policy. Cleared only by a message from the user.
    pub tainted: Option<String>,
    /// (tool, arguments) of plan steps the user approved.
    pub approved_steps: Vec<(String, Value)>,
    /// (tool, arguments) of single calls the user approved in this task.
    pub approved_calls: Vec<(String, Value)>,
    /// What the user allowed for the rest of this task ("Allow for this task", and
    /// "Always allow", which is also saved).
    pub allowances: Vec<crate::policy::Allowance>,
    /// Side-effecting calls (tool, arguments) that ran, or were cut short, in an earlier
    /// start of this task (after a crash or a signal): repeating one asks a person.
    pub earlier_calls: Vec<(String, Value)>,
    /// Where this task's tool processes may write, when writes are confined.
    pub writable: Option<Arc<crate::policy::Writable>>,
}

/// Who already said yes to a call, when the loop asks the gate about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Consent {
    /// Nobody yet: the policy decides, and may ask.
    None,
    /// The user approved it as a step of a plan.
    PlanApproved,
}

/// The user's answer, or how the wait for it ended.
pub(super) struct Answer {
    pub approved: bool,
    pub by: Decider,
    pub reason: Option<String>,
    pub steps: Vec<zeta_protocol::StepChoice>,
    pub scope: ApprovalScope,
}

impl Answer {
    /// No answer came: the wait ended by `by`.
    fn no(by: Decider) -> Self {
        Self {
            approved: false,
            by,
            reason: None,
            steps: Vec::new(),
            scope: ApprovalScope::Once,
        }
    }
}

/// Whether a question may offer "Allow for this task" and "Always allow".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Offer {
    /// Only this call: it asks for a reason an allowance does not lift (untrusted input,
    /// a write outside the writable set, a command only a person may approve).
    OnceOnly,
    /// It asks because the permission mode asks: an allowance may stand in next time.
    Allowances,
}

impl<S: ModelSource, M: Model> Run<'_, S, M> {
    /// Checks `call` (see the module doc). Rate limits count only calls that get this far.
    pub(super) async fn admit(
        &mut self,
        call: &ToolCall,
        consent: Consent,
    ) -> Result<Admitted, Refused> {
        let Checked {
            tool,
            unknowable,
            outside,
            writes,
        } = self.static_checks(&call.name, &call.arguments)?;
        let settings = &self.ctx.settings.permissions;
        if let Err(limited) = self.agent.session.admit(
            &mut self.consent.task_counts,
            &call.name,
            &settings.rate_limits,
            settings.default_rate_limit,
        ) {
            let output = ToolOutput {
                ok: false,
                content: format!(
                    "Not run: {limited}. Finish with what you have, or tell the user."
                ),
                summary: format!("rate-limited ({} per {})", limited.limit, limited.scope),
                images: Vec::new(),
                read_back: None,
                shows: None,
            };
            return Err(Refused::new(
                output,
                CallDecision::RateLimited,
                Decider::RateLimit,
            ));
        }
        let side_effects = tool.changes_things(&call.arguments);
        // A question of this task went unanswered: a change now would rest on a guess at
        // what only the user knows (seen: a 1.5B model with no answer to "which name?"
        // made up a file, then renamed it). Fails closed, whatever the mode.
        if side_effects && self.finishing.nobody_answers() {
            let output = ToolOutput {
                ok: false,
                content: UNANSWERED_REFUSAL.to_string(),
                summary: "refused: a question to the user went unanswered".into(),
                images: Vec::new(),
                read_back: None,
                shows: None,
            };
            return Err(Refused::new(output, CallDecision::Denied, Decider::Policy));
        }
        // What must not happen unattended after untrusted input: side effects, what Zeta
        // keeps for later tasks, and data handed to another process or off the machine.
        let changes = side_effects || tool.keeps_state() || tool.sends_out(&call.arguments);
        let per_tool = tool_permission(settings, self.ctx.settings.soul, &call.name);
        let decision = decide(settings.mode, per_tool, side_effects, &call.name);
        let admitted = |decision, decided_by| Admitted {
            tool: Arc::clone(&tool),
            arguments: call.arguments.clone(),
            edited: false,
            decision,
            decided_by,
            unconfined: false,
        };
        if let (Some(why), false) = (&unknowable, matches!(decision, Decision::Deny(_))) {
            // Fails closed: whatever the mode, a plan approval or a standing "approve all".
            let reason = format!(
                "Zeta cannot tell before it runs what this does ({why}), so only a person may approve it"
            );
            let mut answer = self.ask_user(call, tool, Some(reason), true).await;
            // A small model's broken command (a lone backslash, an unclosed quote) is
            // refused for what it is, so that the model rewrites it instead of giving up.
            // One whose effect hangs on its input (`… | xargs cp ~/backup/`) is refused
            // with the way to write it so it can be judged: seen, a 1.5B model told only
            // "ask the user" asked for the approval itself and gave up.
            if let Err(refused) = &mut answer {
                refused
                    .output
                    .content
                    .push_str(if why.contains("could not be parsed") {
                        SYNTAX_HINT
                    } else {
                        UNKNOWABLE_HINT
                    });
            }
            return answer;
        }
        if !matches!(decision, Decision::Deny(_)) && side_effects {
            if let Some(i) = self.repeats_earlier_start(call) {
                let reason = format!(
                    "this exact `{}` call already ran, or was cut short, when Zeta stopped during an \
                     earlier start of this task; running it again may repeat what it did",
                    call.name
                );
                let answer = self.ask_user(call, tool, Some(reason), true).await;
                if answer.is_ok() {
                    self.consent.earlier_calls.remove(i);
                }
                return answer;
            }
        }
        if !outside.is_empty() && !matches!(decision, Decision::Deny(_)) {
            return self.admit_outside(call, tool, consent, &outside).await;
        }
        // What it would overwrite or remove is more than undo may keep: it asks first,
        // in every mode, saying it could not be undone.
        if side_effects
            && !matches!(decision, Decision::Deny(_))
            && consent != Consent::PlanApproved
            && !self.user_approved(call)
        {
            if let Some(why) = self.beyond_undo(&writes, call, &tool) {
                return self.ask_user(call, tool, Some(why), false).await;
            }
        }
        match decision {
            Decision::Deny(reason) => {
                let output = ToolOutput {
                    ok: false,
                    content: format!("Not run: {reason}. Tell the user what you wanted to do."),
                    summary: "denied by policy".into(),
                    images: Vec::new(),
                    read_back: None,
                    shows: None,
                };
                Err(Refused::new(output, CallDecision::Denied, Decider::Policy))
            }
            _ if consent == Consent::PlanApproved => {
                Ok(admitted(CallDecision::PlanApproved, Decider::User))
            }
            _ if tool.asks_always() => {
                let reason = Some("it changes Zeta's own settings".to_string());
                self.ask_user_offering(call, tool, reason, false, Offer::OnceOnly)
                    .await
            }
            _ if changes && self.consent.tainted.is_some() && !self.user_approved(call) => {
                let reason = self.consent.tainted.clone();
                self.ask_user(call, tool, reason, false).await
            }
            Decision::Allow => Ok(admitted(CallDecision::Allowed, Decider::Policy)),
            Decision::Ask if side_effects && self.in_approved_plan(call) => {
                Ok(admitted(CallDecision::PlanApproved, Decider::User))
            }
            Decision::Ask if self.allowed_by_user(&tool, call) => {
                Ok(admitted(CallDecision::UserAllowed, Decider::User))
            }
            Decision::Ask => {
                let offer = match self.consent.tainted {
                    Some(_) => Offer::OnceOnly,
                    None => Offer::Allowances,
                };
                let reason = self.consent.tainted.clone();
                self.ask_user_offering(call, tool, reason, false, offer)
                    .await
            }
        }
    }

    /// A call that writes outside the writable set runs only with the user's approval of
    /// it (asked now, or given earlier in the task, alone or in a plan), and then runs
    /// unconfined; even in `auto` mode.
    async fn admit_outside(
        &mut self,
        call: &ToolCall,
        tool: Arc<dyn Tool>,
        consent: Consent,
        outside: &[PathBuf],
    ) -> Result<Admitted, Refused> {
        let unconfined = |decision| Admitted {
            tool: Arc::clone(&tool),
            arguments: call.arguments.clone(),
            edited: false,
            decision,
            decided_by: Decider::User,
            unconfined: true,
        };
        if consent == Consent::PlanApproved || self.in_approved_plan(call) {
            return Ok(unconfined(CallDecision::PlanApproved));
        }
        if self.user_approved(call) {
            return Ok(unconfined(CallDecision::AskedApproved));
        }
        let paths: Vec<String> = outside.iter().map(|p| p.display().to_string()).collect();
        let allowed = self
            .consent
            .writable
            .as_ref()
            .map(|w| w.describe())
            .unwrap_or_default();
        let reason = format!(
            "it writes outside the folders Zeta lets commands change on their own ({allowed}): {}. \
             Approving runs this call without that limit",
            paths.join(", ")
        );
        let mut admitted = self
            .ask_user(call, Arc::clone(&tool), Some(reason), false)
            .await?;
        admitted.unconfined = true;
        Ok(admitted)
    }

    /// The checks that need no one: the tool exists, the arguments fit its schema, and no
    /// command in them is blocked (`policy::shell`). Also returns why a command's effect
    /// cannot be known before it runs, when it cannot (such a call asks a person), and the
    /// paths it names outside the writable set.
    pub(super) fn static_checks(&self, name: &str, arguments: &Value) -> Result<Checked, Refused> {
        let Some(tool) = self.tools.get(name) else {
            let output = ToolOutput::error(format!(
                "There is no tool named `{name}`. Available tools: {}.",
                self.tool_names().join(", ")
            ));
            return Err(Refused::new(
                output,
                CallDecision::Invalid,
                Decider::Validator,
            ));
        };
        if let Err(problem) = self.tools.validate(name, arguments) {
            return Err(Refused::new(
                ToolOutput::error(problem),
                CallDecision::Invalid,
                Decider::Validator,
            ));
        }
        let env = ShellEnv::current(&tool.workdir(arguments, &self.agent.workdir));
        let mut unknowable = None;
        let mut outside: Vec<PathBuf> = Vec::new();
        let mut all_writes: Vec<PathBuf> = Vec::new();
        for command in tool.commands(arguments) {
            if let Some(why) = crate::policy::shown::unshowable(&command) {
                let output = ToolOutput {
                    ok: false,
                    content: format!("Not run: {why}. Write the command with plain characters."),
                    summary: "refused: cannot be shown as it would run".into(),
                    images: Vec::new(),
                    read_back: None,
                    shows: None,
                };
                return Err(Refused::new(
                    output,
                    CallDecision::Blocked,
                    Decider::Blocklist,
                ));
            }
            let (verdict, writes) = judge_with_writes(&command, &env);
            if let Some(writable) = &self.consent.writable {
                for path in &writes {
                    if !writable.allows(path, &env.cwd) && !outside.contains(path) {
                        outside.push(path.clone());
                    }
                }
            }
            all_writes.extend(writes);
            match verdict {
                Verdict::Allow => {}
                Verdict::Ask(why) => unknowable = unknowable.or(Some(why.asked())),
                Verdict::Block(blocked) => {
                    tracing::warn!(task = self.task_id(), tool = %name, "{blocked}");
                    let output = ToolOutput {
                        ok: false,
                        content: format!(
                            "{blocked}. Zeta never runs this, whatever the settings. Do not try another \
                             spelling; tell the user what you wanted to do and why."
                        ),
                        summary: format!("blocked: {}", blocked.rule),
                        images: Vec::new(),
                        read_back: None,
                        shows: None,
                    };
                    return Err(Refused::new(
                        output,
                        CallDecision::Blocked,
                        Decider::Blocklist,
                    ));
                }
            }
        }
        Ok(Checked {
            tool: Arc::clone(tool),
            unknowable,
            outside,
            writes: all_writes,
        })
    }

    /// Why a call that overwrites or removes `writes` could not be undone: what they hold
    /// is more than the undo budget. `None` when it fits, or nothing is kept. A file only
    /// appended to costs nothing to keep (its size is kept), so it does not count.
    fn beyond_undo(
        &self,
        writes: &[PathBuf],
        call: &ToolCall,
        tool: &Arc<dyn Tool>,
    ) -> Option<String> {
        self.undo.as_ref()?;
        let budget = self.ctx.settings.undo.budget_mb.saturating_mul(1024 * 1024);
        if crate::undo::budget::size_up_to(writes, budget) <= budget {
            return None;
        }
        let env = ShellEnv::current(&tool.workdir(&call.arguments, &self.agent.workdir));
        let mut kept: Vec<PathBuf> = writes.to_vec();
        for command in tool.commands(&call.arguments) {
            for appended in crate::policy::shell::appended_paths(&command, &env) {
                if let Some(at) = kept.iter().position(|p| *p == appended) {
                    kept.remove(at);
                }
            }
        }
        let size = crate::undo::budget::size_up_to(&kept, budget);
        (size > budget).then(|| {
            format!(
                "what it would overwrite or remove holds more than {} MB, the most Zeta keeps to \
                 undo a task (settings: undo.budgetMb), so this call could not be undone",
                self.ctx.settings.undo.budget_mb
            )
        })
    }

    /// What a call would write, where that is known before it runs: the paths its
    /// commands name as the shell judge reads them, or the tool's own (`write_file`).
    /// Empty when any of its commands cannot be known until it runs.
    fn named_writes(&self, call: &ToolCall, tool: &Arc<dyn Tool>) -> Vec<String> {
        let workdir = tool.workdir(&call.arguments, &self.agent.workdir);
        let env = ShellEnv::current(&workdir);
        let mut paths = tool.named_writes(&call.arguments, &workdir);
        for command in tool.commands(&call.arguments) {
            match judge_with_writes(&command, &env) {
                (Verdict::Allow, writes) => paths.extend(writes),
                _ => return Vec::new(),
            }
        }
        let mut shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        shown.dedup();
        shown
    }

    /// Which earlier start's call this one repeats exactly, if any.
    fn repeats_earlier_start(&self, call: &ToolCall) -> Option<usize> {
        self.consent
            .earlier_calls
            .iter()
            .position(|(name, args)| *name == call.name && *args == call.arguments)
    }

    /// The user approved this exact call earlier in the task, alone or in a plan.
    fn user_approved(&self, call: &ToolCall) -> bool {
        self.in_approved_plan(call)
            || self
                .consent
                .approved_calls
                .iter()
                .any(|(name, args)| *name == call.name && *args == call.arguments)
    }

    fn in_approved_plan(&self, call: &ToolCall) -> bool {
        self.consent
            .approved_steps
            .iter()
            .any(|(name, args)| *name == call.name && *args == call.arguments)
    }

    /// An allowance the user gave, for this task or always, covers this call.
    fn allowed_by_user(&self, tool: &Arc<dyn Tool>, call: &ToolCall) -> bool {
        let commands = tool.commands(&call.arguments);
        covered(&self.consent.allowances, &call.name, &commands)
            || covered(
                &self.ctx.settings.permissions.always_allow,
                &call.name,
                &commands,
            )
    }

    /// Asks about one call, offering only "Allow once".
    async fn ask_user(
        &mut self,
        call: &ToolCall,
        tool: Arc<dyn Tool>,
        reason: Option<String>,
        requires_person: bool,
    ) -> Result<Admitted, Refused> {
        self.ask_user_offering(call, tool, reason, requires_person, Offer::OnceOnly)
            .await
    }

    /// Asks about one call (the dialog with one step) and applies an edit the user made
    /// and the allowance they gave with it. With `requires_person`, a standing "approve
    /// all" does not count.
    async fn ask_user_offering(
        &mut self,
        call: &ToolCall,
        tool: Arc<dyn Tool>,
        reason: Option<String>,
        requires_person: bool,
        offer: Offer,
    ) -> Result<Admitted, Refused> {
        let timeout_secs = self.ctx.settings.permissions.approval_timeout_secs;
        let risk = tool.risk(
            &call.arguments,
            &tool.workdir(&call.arguments, &self.agent.workdir),
        );
        // A high-risk call (a delete, an overwrite) is approved one at a time: no standing
        // "allow `rm`" is offered for it.
        let allowance = match offer {
            Offer::Allowances if risk != Risk::High => {
                allowance_for(&call.name, &tool.commands(&call.arguments))
            }
            _ => None,
        };
        let screenshot = self.screenshot_for([call.name.as_str()]).await;
        let files = self.named_writes(call, &tool);
        let change = tool
            .writes_text(
                &call.arguments,
                &tool.workdir(&call.arguments, &self.agent.workdir),
            )
            .map(|write| crate::undo::preview::preview_write(&write));
        self.emit(Event::ApprovalRequested {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            target: tool.target(&call.arguments),
            risk,
            reason,
            screenshot,
            timeout_secs,
            requires_person,
            allowance: allowance.clone(),
            high_risk: risk == Risk::High,
            files,
            change,
            request: self.ctx.task.message.clone(),
        });
        let answer = self.wait_for_answer(&call.id, timeout_secs).await;
        if !answer.approved {
            return Err(Refused::new(
                denied_output(&answer, timeout_secs),
                CallDecision::AskedDenied,
                answer.by,
            ));
        }
        // Approving this call vouches for this call only: the task stays marked.
        self.consent
            .approved_calls
            .push((call.name.clone(), call.arguments.clone()));
        if let Some(allowance) = allowance.filter(|_| answer.scope != ApprovalScope::Once) {
            self.grant(allowance, answer.scope);
        }
        let edit = answer
            .steps
            .into_iter()
            .find(|s| s.index == 0)
            .and_then(|s| s.params);
        match edit {
            Some(arguments) if arguments != call.arguments => {
                let Checked { tool, .. } =
                    self.static_checks(&call.name, &arguments)
                        .map_err(|mut r| {
                            r.output.content = format!(
                                "Your call, as the user edited it, was not run: {}",
                                r.output.content
                            );
                            r
                        })?;
                Ok(Admitted {
                    tool,
                    arguments,
                    edited: true,
                    decision: CallDecision::AskedApproved,
                    decided_by: Decider::User,
                    unconfined: false,
                })
            }
            _ => Ok(Admitted {
                tool,
                arguments: call.arguments.clone(),
                edited: false,
                decision: CallDecision::AskedApproved,
                decided_by: Decider::User,
                unconfined: false,
            }),
        }
    }

    /// Keeps `allowance` for the rest of the task and, for `Always`, in settings.json.
    fn grant(&mut self, allowance: crate::policy::Allowance, scope: ApprovalScope) {
        if scope == ApprovalScope::Always {
            if let Some(path) = &self.ctx.settings_file {
                if let Err(e) = crate::settings::add_always_allow(path, &allowance) {
                    tracing::warn!(
                        "could not save \"always allow {}\": {e}",
                        allowance.describe()
                    );
                    self.emit(Event::Error {
                        message: format!(
                            "\"Always allow {}\" holds for this task only: it could not be saved ({e})",
                            allowance.describe()
                        ),
                    });
                }
            }
        }
        if !self.consent.allowances.contains(&allowance) {
            self.consent.allowances.push(allowance);
        }
    }

    /// Waits for the answer to `call_id`: the user's, a timeout (a deny) or a cancel.
    pub(super) async fn wait_for_answer(&mut self, call_id: &str, timeout_secs: u32) -> Answer {
        let mut deadline = Some(
            tokio::time::Instant::now() + std::time::Duration::from_secs(u64::from(timeout_secs)),
        );
        let mut cancel = self.ctx.cancel.clone();
        let answer = loop {
            // Held (the user is editing): no time limit until they answer.
            let limit = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                message = self.ctx.approvals.recv() => match message {
                    Some(ApprovalMessage::Answer(ApprovalAnswer { call_id: id, approved, reason, steps, scope })) if id == call_id => {
                        break Answer { approved, by: Decider::User, reason, steps, scope };
                    }
                    Some(ApprovalMessage::Hold { call_id: id }) if id == call_id => deadline = None,
                    Some(_) => continue,
                    None => break Answer::no(Decider::Nobody),
                },
                _ = limit => break Answer::no(Decider::Timeout),
                _ = cancel.cancelled() => break Answer::no(Decider::Cancel),
            }
        };
        self.emit(Event::ApprovalResolved {
            task_id: self.task_id(),
            call_id: call_id.to_string(),
            approved: answer.approved,
            by: answer.by.as_str().to_string(),
        });
        answer
    }
}

/// Added to a refused command that Zeta's shell parser could not read.
const SYNTAX_HINT: &str = "\nZeta could not parse part of this command: it is probably not \
valid shell syntax (check its quotes, backslashes and the terminators of its clauses). \
Write it again as plain, valid bash, or in simpler steps.";

/// What a change reads after a question of the task went unanswered.
const UNANSWERED_REFUSAL: &str = "Not run: your question to the user went unanswered, and \
a change now would rest on a guess at what only the user knows. Answer now: say what you \
found and what you need to know.";

/// Added to a refused command whose effect Zeta could not know before it ran.
const UNKNOWABLE_HINT: &str = "\nZeta judges a command by what it names, and this one \
takes its targets from input. Do it in two steps: first run a command that prints what you \
need (a file's path, a number), then a command with that value written out in it (for \
example cp /path/to/file ~/folder/).";

/// What the model reads when the user said no (or nobody answered).
pub(super) fn denied_output(answer: &Answer, timeout_secs: u32) -> ToolOutput {
    let why = match (answer.by, &answer.reason) {
        (Decider::Timeout, _) => format!("nobody approved it within {timeout_secs} s"),
        (Decider::Cancel, _) => "the task was cancelled while waiting for approval".to_string(),
        (_, Some(reason)) => format!("the user denied it: {reason}"),
        _ => "the user denied it".to_string(),
    };
    ToolOutput {
        ok: false,
        content: format!(
            "Not run: {why}. Do not retry it as it is; ask the user or take another way."
        ),
        summary: "denied".into(),
        images: Vec::new(),
        read_back: None,
        shows: None,
    }
}

/// Whether a failed call's output reads like the OS refused a write.
pub(super) fn looks_refused(output: &str) -> bool {
    [
        "Permission denied",
        "Operation not permitted",
        "Read-only file system",
    ]
    .iter()
    .any(|m| output.contains(m))
}

/// What the model reads after a confined call failed that way.
pub(super) fn confinement_note(writable: Option<&crate::policy::Writable>) -> String {
    let allowed = writable.map(|w| w.describe()).unwrap_or_default();
    format!(
        "\n\n[Zeta] This command ran confined: it may change files only in {allowed}. If it \
         must write somewhere else, run it again with that path written out in the command \
         (as the destination of cp, tee or a redirection, or the path of write_file): Zeta \
         will then ask the user, and run it unconfined if they approve."
    )
}
