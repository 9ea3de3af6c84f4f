//! How the CLI answers approval requests and proposed plans: on the terminal (a prompt
//! on stderr, answers read from stdin), or all yes / all no for scripts (`--approve`).

use zeta_core::policy::Allowance;
use zeta_core::Op;
use zeta_protocol::{ApprovalScope, PlanStepView, StepChoice};

/// How the CLI answers approval requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Approve {
    /// Ask on the terminal.
    Ask,
    /// Approve everything (blocked commands still never run).
    All,
    /// Deny everything that asks.
    None,
    /// Nobody to ask: stdin is not a terminal and no `--approve` was given. Denies,
    /// saying so.
    #[value(skip)]
    NoTerminal,
}

impl Approve {
    /// `ask` when stdin is a terminal, else `none`: a script never hangs on a question.
    pub fn or_default(choice: Option<Approve>) -> Approve {
        use std::io::IsTerminal;
        match choice {
            Some(choice) => choice,
            None if std::io::stdin().is_terminal() => Approve::Ask,
            None => Approve::NoTerminal,
        }
    }

    /// Why a call was not run when this choice refuses without asking.
    fn refusal(self) -> Option<&'static str> {
        match self {
            Approve::None => Some("approvals are off (--approve none)"),
            Approve::NoTerminal => Some(
                "there is no terminal to ask you on; run it in a terminal, or pass --approve all",
            ),
            Approve::Ask | Approve::All => None,
        }
    }
}

/// Denies `what` without asking, saying why on stderr (a script's log) and to the model.
fn deny(approve: Approve, call_id: String, what: &str) -> Op {
    let reason = approve.refusal().map(str::to_string);
    if let Some(why) = &reason {
        err!("zeta: not run: {what}: {why}");
    }
    Op::Deny { call_id, reason }
}

/// Reads one line from stdin after printing `prompt` on stderr; `None` at end of input.
async fn ask_line(prompt: String) -> Option<String> {
    tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let _ = write!(std::io::stderr(), "{prompt}");
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        match std::io::stdin().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        }
    })
    .await
    .ok()
    .flatten()
}

/// One call's approval request, as the terminal answers it.
pub struct CallAsked<'a> {
    pub call_id: &'a str,
    pub target: &'a str,
    pub tool: &'a str,
    pub reason: Option<&'a str>,
    pub requires_person: bool,
    /// What "for this task" and "always" would cover, when they may be offered.
    pub allowance: Option<&'a Allowance>,
    /// The files it would change, where known before it runs.
    pub files: &'a [String],
    /// The call's arguments: a command or program is shown whole from them.
    pub arguments: &'a serde_json::Value,
}

/// The answer to one call's approval request. A call that `requires_person` is not
/// covered by `--approve all`: it is denied, saying so.
pub async fn answer_call(approve: Approve, asked: CallAsked<'_>) -> Op {
    let CallAsked {
        call_id,
        target,
        tool,
        reason,
        requires_person,
        allowance,
        files,
        arguments,
    } = asked;
    let call_id = call_id.to_string();
    match approve {
        Approve::All if requires_person => {
            err!(
                "zeta: `{tool}` {target} needs a person's approval ({}); --approve all does not cover it",
                reason.unwrap_or("it may repeat what already ran")
            );
            Op::Deny {
                call_id,
                reason: Some(
                    "only a person may approve this call, and approvals come from --approve all"
                        .into(),
                ),
            }
        }
        Approve::All => Op::Approve {
            call_id,
            steps: Vec::new(),
            scope: ApprovalScope::Once,
        },
        Approve::None | Approve::NoTerminal => {
            deny(approve, call_id, &format!("`{tool}` {target}"))
        }
        Approve::Ask => {
            if let Some(reason) = reason {
                err!("zeta: this call asks because {reason}");
            }
            // The whole command or program, with whatever could hide part of it on a
            // terminal (carriage returns, escapes) made visible.
            let whole = ["command", "code"]
                .iter()
                .find_map(|k| arguments.get(*k).and_then(|v| v.as_str()));
            if let Some(whole) = whole {
                err!(
                    "zeta: `{tool}` would run:\n{}",
                    zeta_core::policy::shown::visible(whole)
                );
            }
            if !files.is_empty() {
                err!(
                    "zeta: it would change {} (undoable: zeta undo)",
                    files.join(", ")
                );
            }
            let named = match whole {
                Some(_) => "it".to_string(),
                None => format!("`{tool}` {}", zeta_core::policy::shown::visible(target)),
            };
            let question = match allowance {
                Some(a) => format!(
                    "zeta: allow {named}? [y] once, [t] all `{}` for this task, [a] always, [N] no: ",
                    a.describe()
                ),
                None => format!("zeta: allow {named}? [y/N] "),
            };
            let line = ask_line(question).await;
            let scope = match (line.as_deref(), allowance) {
                (Some("y" | "Y" | "yes"), _) => Some(ApprovalScope::Once),
                (Some("t" | "T"), Some(_)) => Some(ApprovalScope::Task),
                (Some("a" | "A"), Some(_)) => Some(ApprovalScope::Always),
                _ => None,
            };
            match scope {
                Some(scope) => Op::Approve {
                    call_id,
                    steps: Vec::new(),
                    scope,
                },
                None => deny(approve, call_id, &format!("`{tool}` {target}")),
            }
        }
    }
}

/// The answer to a proposed plan: approve (with steps skipped or edited) or deny.
pub async fn answer_plan(
    approve: Approve,
    call_id: &str,
    goal: &str,
    risks: &[String],
    steps: &[PlanStepView],
) -> Op {
    let call_id = call_id.to_string();
    match approve {
        Approve::All => {
            return Op::Approve {
                call_id,
                steps: Vec::new(),
                scope: ApprovalScope::Once,
            }
        }
        Approve::None | Approve::NoTerminal => {
            return deny(approve, call_id, &format!("the plan \"{goal}\""))
        }
        Approve::Ask => {}
    }
    err!("zeta: the agent proposes a plan: {goal}");
    for step in steps {
        err!(
            "  {}. [{:?}] {}: {} ({})",
            step.index + 1,
            step.risk,
            step.tool,
            step.target,
            step.description
        );
    }
    for risk in risks {
        err!("  risk: {risk}");
    }
    let mut choices: Vec<StepChoice> = Vec::new();
    loop {
        let prompt =
            "zeta: [y] approve, [n] deny, [s N] skip step N, [e N] edit step N: ".to_string();
        let Some(line) = ask_line(prompt).await else {
            return deny(approve, call_id, &format!("the plan \"{goal}\""));
        };
        let mut words = line.split_whitespace();
        let (verb, n) = (
            words.next().unwrap_or(""),
            words.next().and_then(|n| n.parse::<u32>().ok()),
        );
        let step = n
            .and_then(|n| n.checked_sub(1))
            .filter(|i| (*i as usize) < steps.len());
        match (verb, step) {
            ("y" | "yes", _) => {
                return Op::Approve {
                    call_id,
                    steps: choices,
                    scope: ApprovalScope::Once,
                }
            }
            ("n" | "no", _) => {
                return Op::Deny {
                    call_id,
                    reason: None,
                }
            }
            ("s", Some(index)) => {
                choices.retain(|c| c.index != index);
                choices.push(StepChoice {
                    index,
                    skip: true,
                    params: None,
                });
                err!("zeta: step {} will be skipped", index + 1);
            }
            ("e", Some(index)) => {
                let current = &steps[index as usize].params;
                let prompt = format!(
                    "zeta: new parameters for step {} as JSON (now {current}): ",
                    index + 1
                );
                let Some(text) = ask_line(prompt).await else {
                    continue;
                };
                match serde_json::from_str::<serde_json::Value>(&text) {
                    Ok(params) if params.is_object() => {
                        choices.retain(|c| c.index != index);
                        choices.push(StepChoice {
                            index,
                            skip: false,
                            params: Some(params),
                        });
                    }
                    _ => err!(
                        "zeta: that is not a JSON object; step {} is unchanged",
                        index + 1
                    ),
                }
            }
            _ => err!(
                "zeta: answer y, n, s N or e N (N from 1 to {})",
                steps.len()
            ),
        }
    }
}

/// The answer to the agent's question (`ask_user`): a line typed on the terminal under
/// `ask`; under `all`, `none` or without a terminal nobody is there to answer, and the
/// model is told so at once.
pub async fn answer_question(approve: Approve, call_id: &str, question: &str) -> Op {
    let text = match approve {
        Approve::Ask => {
            err!("zeta: the agent asks: {question}");
            ask_line("zeta: your answer (empty: no answer): ".to_string()).await
        }
        Approve::All | Approve::None | Approve::NoTerminal => {
            err!("zeta: the agent asks \"{question}\"; nobody can answer in this run");
            None
        }
    };
    Op::Answer {
        call_id: call_id.to_string(),
        text: text.filter(|t| !t.trim().is_empty()),
    }
}
