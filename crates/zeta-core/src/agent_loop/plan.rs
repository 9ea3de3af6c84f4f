//! `propose_plan` (seed 004): the model proposes a whole plan; a plan with side effects is
//! shown to the user before anything runs. The approved steps then run in order, here in
//! the loop, exactly as approved: a skipped step does not run, an edited step runs as
//! edited. Each step's progress is an event; the model gets one report of every step.
//! Later calls that match an approved step do not ask again; any other side-effecting
//! call goes through the policy as usual.

use crate::store::audit::{CallDecision, Decider};
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{json, Value};

use super::gate::{denied_output, Consent};
use super::{clip, ModelSource, Run};
use crate::model::{ImageData, Model, ToolCall, ToolSpec};
use crate::policy::{decide, tool_permission, wrap_untrusted, Decision};
use crate::tool::ToolOutput;
use zeta_protocol::{Event, PlanStepView, StepStatus};

pub const NAME: &str = crate::tool::PROPOSE_PLAN;

/// The tool as the model sees it.
pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME.into(),
        description: "Propose a whole plan before changing things. Use it when the task needs \
steps that change files, run commands, send requests or use the mouse or keyboard. The user \
sees every step with its target and risk, and approves, edits, skips or denies it. Approved \
steps run at once, in order, and you get every step's result. Give each step the exact \
arguments its tool takes in `params`. A failed step stops the plan unless `can_fail` is true."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "goal": {"type": "string", "minLength": 1},
                "steps": {
                    "type": "array", "minItems": 1, "maxItems": 30,
                    "items": {
                        "type": "object",
                        "properties": {
                            "description": {"type": "string"},
                            "tool": {"type": "string"},
                            "params": {"type": "object"},
                            "side_effects": {"type": "boolean"},
                            "can_fail": {"type": "boolean"},
                            "fallback": {"type": "string"}
                        },
                        "required": ["description", "tool", "params"]
                    }
                },
                "risks": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["goal", "steps"]
        }),
    }
}

fn validator() -> Option<&'static jsonschema::Validator> {
    static V: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
    V.get_or_init(|| jsonschema::validator_for(&spec().parameters).ok())
        .as_ref()
}

#[derive(Debug, Deserialize)]
struct Proposal {
    goal: String,
    steps: Vec<ProposedStep>,
    #[serde(default)]
    risks: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ProposedStep {
    description: String,
    tool: String,
    params: Value,
    #[serde(default)]
    can_fail: bool,
    #[serde(default)]
    fallback: Option<String>,
}

/// How a plan call ended, for the audit log.
pub(super) struct PlanResult {
    pub output: ToolOutput,
    pub decision: CallDecision,
    pub decided_by: Decider,
}

/// One step as it will run.
struct Step {
    tool: String,
    params: Value,
    skip: bool,
    edited: bool,
    can_fail: bool,
    fallback: Option<String>,
}

/// A refused plan: nothing showed and nothing ran.
fn refused(content: String, decision: CallDecision, decided_by: Decider) -> PlanResult {
    PlanResult {
        output: ToolOutput {
            ok: false,
            summary: content.lines().next().unwrap_or_default().to_string(),
            content,
            images: Vec::new(),
            read_back: None,
            shows: None,
        },
        decision,
        decided_by,
    }
}

/// The plan's steps as checked: how the dialog shows them, and whether the user must
/// approve before any runs.
struct Checked {
    views: Vec<PlanStepView>,
    needs_approval: bool,
}

impl<S: ModelSource, M: Model> Run<'_, S, M> {
    /// `propose_plan`: the plan is read and every step checked first; then it is shown,
    /// approved (when it must be) with the user's skips and edits, and run in order.
    pub(super) async fn run_plan(&mut self, call: &ToolCall) -> PlanResult {
        let proposal = match read_proposal(call) {
            Ok(proposal) => proposal,
            Err(refusal) => return refusal,
        };
        let Checked {
            views,
            needs_approval,
        } = match self.check_steps(&proposal) {
            Ok(checked) => checked,
            Err(refusal) => return refusal,
        };
        let timeout_secs = self.ctx.settings.permissions.approval_timeout_secs;
        let screenshot = self
            .screenshot_for(proposal.steps.iter().map(|s| s.tool.as_str()))
            .await;
        self.emit(Event::PlanProposed {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            goal: proposal.goal.clone(),
            risks: proposal.risks.clone(),
            steps: views,
            needs_approval,
            screenshot,
            timeout_secs,
            request: self.ctx.task.message.clone(),
        });

        let mut steps: Vec<Step> = proposal
            .steps
            .into_iter()
            .map(|s| Step {
                tool: s.tool,
                params: s.params,
                skip: false,
                edited: false,
                can_fail: s.can_fail,
                fallback: s.fallback,
            })
            .collect();
        let (decision, decided_by, consent) = if needs_approval {
            match self.approval(&call.id, &mut steps, timeout_secs).await {
                Ok(approved) => approved,
                Err(refusal) => return refusal,
            }
        } else {
            (CallDecision::Allowed, Decider::Policy, Consent::None)
        };

        let (report, images, all_ok) = self.run_steps(&call.id, &mut steps, consent).await;
        let changed = steps.iter().any(|s| s.skip || s.edited);
        let head = match (decided_by, changed) {
            (Decider::User, true) => {
                "The user approved the plan with changes (marked below). Results:"
            }
            (Decider::User, false) => "The user approved the plan. Results:",
            _ => "The plan ran (no approval was needed). Results:",
        };
        let ran = steps.iter().filter(|s| !s.skip).count();
        PlanResult {
            output: ToolOutput {
                ok: all_ok,
                content: format!("{head}\n{report}"),
                summary: format!("plan: {ran} of {} steps run", steps.len()),
                images,
                read_back: None,
                shows: None,
            },
            decision,
            decided_by,
        }
    }

    /// Every step checked before anything shows (schema, blocked commands, policy): a plan
    /// with an impossible step is refused whole, with the decision of its worst step.
    fn check_steps(&self, proposal: &Proposal) -> Result<Checked, PlanResult> {
        let mut views = Vec::new();
        let mut problems = Vec::new();
        // What refused each impossible step; a blocked one makes the whole refusal a block.
        let mut refusals: Vec<CallDecision> = Vec::new();
        let mut needs_approval = false;
        let permissions = &self.ctx.settings.permissions;
        for (i, step) in proposal.steps.iter().enumerate() {
            let n = i + 1;
            if step.tool == NAME {
                problems.push(format!("step {n}: a plan cannot contain another plan"));
                refusals.push(CallDecision::Invalid);
                continue;
            }
            let tool = match self.static_checks(&step.tool, &step.params) {
                Ok(checked) => {
                    // Such a step asks a person again when it is reached.
                    needs_approval |= checked.unknowable.is_some();
                    // Writes outside the writable set need the plan's approval.
                    needs_approval |= !checked.outside.is_empty();
                    checked.tool
                }
                Err(refused) => {
                    problems.push(format!("step {n}: {}", refused.output.content));
                    refusals.push(refused.decision);
                    continue;
                }
            };
            let side_effects = tool.changes_things(&step.params);
            let changes = side_effects || tool.keeps_state();
            let per_tool = tool_permission(permissions, self.ctx.settings.soul, &step.tool);
            match decide(permissions.mode, per_tool, side_effects, &step.tool) {
                Decision::Deny(reason) => {
                    problems.push(format!("step {n}: {reason}"));
                    refusals.push(CallDecision::Denied);
                }
                Decision::Ask => needs_approval = true,
                Decision::Allow if changes && self.consent.tainted.is_some() => {
                    needs_approval = true
                }
                Decision::Allow => {}
            }
            let workdir = tool.workdir(&step.params, &self.agent.workdir);
            let change = tool
                .writes_text(&step.params, &workdir)
                .map(|write| crate::undo::preview::preview_write(&write));
            views.push(PlanStepView {
                index: i as u32,
                description: step.description.clone(),
                tool: step.tool.clone(),
                params: step.params.clone(),
                target: tool.target(&step.params),
                risk: tool.risk(&step.params, &workdir),
                side_effects,
                can_fail: step.can_fail,
                fallback: step.fallback.clone(),
                change,
            });
        }
        if !problems.is_empty() {
            let blocked = refusals.contains(&CallDecision::Blocked);
            return Err(refused(
                format!(
                    "The plan was not shown to the user and nothing ran:\n{}\nPropose a plan without these steps, or tell the user.",
                    problems.join("\n")
                ),
                if blocked {
                    CallDecision::Blocked
                } else {
                    CallDecision::Denied
                },
                if blocked {
                    Decider::Blocklist
                } else {
                    Decider::Policy
                },
            ));
        }
        Ok(Checked {
            views,
            needs_approval,
        })
    }

    /// Waits for the user's answer; `Ok` with how it was decided once the user's skips and
    /// edits are applied to `steps`, `Err` when the plan was not approved (every step
    /// marked skipped).
    async fn approval(
        &mut self,
        plan_id: &str,
        steps: &mut [Step],
        timeout_secs: u32,
    ) -> Result<(CallDecision, Decider, Consent), PlanResult> {
        let answer = self.wait_for_answer(plan_id, timeout_secs).await;
        if !answer.approved {
            for i in 0..steps.len() {
                self.step_update(
                    plan_id,
                    i,
                    StepStatus::Skipped,
                    "not run: the plan was not approved",
                );
            }
            let mut output = denied_output(&answer, timeout_secs);
            output.content = format!("The plan was not run. {}", output.content);
            return Err(PlanResult {
                output,
                decision: CallDecision::AskedDenied,
                decided_by: answer.by,
            });
        }
        for choice in answer.steps {
            let Some(step) = steps.get_mut(choice.index as usize) else {
                continue;
            };
            step.skip = choice.skip;
            if let Some(params) = choice.params.filter(|p| *p != step.params) {
                step.params = params;
                step.edited = true;
            }
        }
        Ok((
            CallDecision::AskedApproved,
            Decider::User,
            Consent::PlanApproved,
        ))
    }

    /// Runs the steps in order; returns the report, the images they produced, and whether
    /// every step that ran succeeded.
    async fn run_steps(
        &mut self,
        plan_id: &str,
        steps: &mut [Step],
        consent: Consent,
    ) -> (String, Vec<ImageData>, bool) {
        let mut report = Vec::new();
        let mut images = Vec::new();
        let mut all_ok = true;
        let mut stopped: Option<String> = None;
        for (i, step) in steps.iter_mut().enumerate() {
            let n = i + 1;
            let edited_note = if step.edited {
                format!(
                    " (edited by the user; it ran with {})",
                    clip(&step.params.to_string(), 300)
                )
            } else {
                String::new()
            };
            if step.skip {
                self.step_update(plan_id, i, StepStatus::Skipped, "skipped by the user");
                let call = ToolCall {
                    id: format!("{plan_id}.{n}"),
                    name: step.tool.clone(),
                    arguments: step.params.clone(),
                };
                self.record(
                    &call,
                    &ToolOutput::error("skipped by the user; it did not run"),
                    CallDecision::Skipped,
                    Decider::User,
                );
                report.push(format!(
                    "{n}. {}: skipped by the user; it did not run.",
                    step.tool
                ));
                continue;
            }
            if let Some(why) = &stopped {
                step.skip = true;
                self.step_update(plan_id, i, StepStatus::Skipped, why);
                report.push(format!("{n}. {}: not run ({why}).", step.tool));
                continue;
            }
            if self.ctx.cancel.is_cancelled() {
                stopped = Some("the task was cancelled".into());
                step.skip = true;
                self.step_update(plan_id, i, StepStatus::Skipped, "the task was cancelled");
                report.push(format!("{n}. {}: not run (cancelled).", step.tool));
                continue;
            }
            let call = ToolCall {
                id: format!("{plan_id}.{n}"),
                name: step.tool.clone(),
                arguments: step.params.clone(),
            };
            self.step_update(plan_id, i, StepStatus::Running, "");
            self.emit_started(&call);
            let executed = self.execute(&call, consent).await;
            self.conclude(&call, &executed);
            if executed.ran && executed.decision.lets_run() {
                self.consent
                    .approved_steps
                    .push((call.name.clone(), call.arguments.clone()));
            }
            let output = executed.output;
            let status = if output.ok {
                StepStatus::Done
            } else {
                StepStatus::Failed
            };
            self.step_update(plan_id, i, status, &output.summary);
            let mark = if output.ok { "✓" } else { "✗" };
            let body = if executed.ran {
                wrap_untrusted(&call.name, &output.content)
            } else {
                output.content.clone()
            };
            report.push(format!("{n}. {mark} {}{edited_note}\n{body}", call.name));
            images.extend(output.images);
            if !output.ok {
                all_ok = false;
                if !step.can_fail {
                    stopped = Some(format!("step {n} failed"));
                    if let Some(fallback) = &step.fallback {
                        report.push(format!(
                            "(Step {n}'s fallback, for you to consider: {fallback})"
                        ));
                    }
                }
            }
        }
        (report.join("\n"), images, all_ok)
    }

    fn step_update(&self, plan_id: &str, index: usize, status: StepStatus, summary: &str) {
        self.emit(Event::PlanStepUpdated {
            task_id: self.task_id(),
            call_id: plan_id.to_string(),
            index: index as u32,
            status,
            summary: summary.to_string(),
        });
    }
}

/// The plan as proposed, when it fits the schema.
fn read_proposal(call: &ToolCall) -> Result<Proposal, PlanResult> {
    if let Some(v) = validator() {
        let problems: Vec<String> = v
            .iter_errors(&call.arguments)
            .map(|e| format!("{} {e}", e.instance_path()))
            .collect();
        if !problems.is_empty() {
            return Err(refused(
                format!(
                    "The plan does not match propose_plan's schema: {}",
                    problems.join("; ")
                ),
                CallDecision::Invalid,
                Decider::Validator,
            ));
        }
    }
    serde_json::from_value(call.arguments.clone()).map_err(|e| {
        refused(
            format!("The plan could not be read: {e}"),
            CallDecision::Invalid,
            Decider::Validator,
        )
    })
}
