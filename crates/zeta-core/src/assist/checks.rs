//! Answer checks as named, capped types, judged against the task's evidence (what its
//! calls did and printed) and the request parsed once, never against the answer's
//! phrasing alone. Each check says why an answer cannot stand yet (the message that
//! sends it back to the model, with the evidence) and what the person is told if it
//! still does not hold once the check has sent it back `cap` times.
//!
//! | check | when an answer goes back | said to the person at the cap |
//! |---|---|---|
//! | `nothing-ran` | nothing ran yet | (the answer stands) |
//! | `named-self` | it names the assistant where no output did | (the answer stands) |
//! | `held-back` | the request orders a change, a change was not allowed, and nothing changed | "Not done:" and the call |
//! | `asked-change` | the request orders a change, its targets (if any) hold, and no call changed anything | what ran, and that nothing changed, instead of the answer |
//! | `asked-target` | a path the request asks to be written is not | "Not done:" with the facts |
//! | `asked-source` | a path the request asks things to be moved out of (or deleted in) shows nothing left it | "Not done:" with the facts |
//! | `ungrounded-value` | it gives a value no output printed | a note naming the value |
//! | `asked-count` | the request asks how many and the answer gives no number | a note that the count is missing |
//! | `no-value` | a question's answer gives no value and names nothing any output printed | what the commands printed |

use super::evidence::{printed_text, Effect, Evidence};
use super::request::{Leaves, Request};
use super::values::{ungrounded, values, Value};
use crate::policy::ShellEnv;

/// Everything a check may look at.
pub struct Case<'a> {
    pub request: &'a Request,
    pub answer: &'a str,
    pub evidence: &'a Evidence,
    /// A call of the task was held back (denied, refused, not approved).
    pub held_back: bool,
    pub env: &'a ShellEnv,
}

/// What the person is told when the answer still does not hold at the cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Honest {
    /// The answer stands as it is.
    Stands,
    /// Said before the answer.
    Before(String),
    /// Said after the answer.
    After(String),
    /// Said instead of the answer.
    Instead(String),
}

/// Why an answer does not hold yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// To the model, with the evidence.
    pub message: String,
    pub honest: Honest,
}

/// One named check.
pub trait Check: Send + Sync {
    fn name(&self) -> &'static str;
    /// Times it may send an answer back in a task.
    fn cap(&self) -> u32;
    fn judge(&self, case: &Case) -> Option<Finding>;
}

/// The checks every model gets, in the order they are judged.
pub fn standard() -> Vec<Box<dyn Check>> {
    vec![
        Box::new(NothingRan),
        Box::new(NamedSelf),
        Box::new(HeldBack),
        Box::new(AskedChange),
        Box::new(AskedTarget),
        Box::new(AskedSource),
        Box::new(UngroundedValue),
        Box::new(NoValue),
        Box::new(AskedCount),
    ]
}

/// A call as the person reads it: a plan by its name, anything else in one short line.
fn call_shown(c: &super::evidence::CallEvidence) -> String {
    if c.tool == "propose_plan" {
        let mark = c.line.chars().next().unwrap_or('✗');
        return format!("{mark} the proposed plan");
    }
    crate::text::clip(&c.line, 120)
}

/// The calls that could change things, one a line, as they went.
fn changing_calls(evidence: &Evidence) -> String {
    let lines: Vec<String> = evidence
        .calls
        .iter()
        .filter(|c| c.changes)
        .map(|c| {
            let why = if c.ran && !c.ok {
                // The last line says why (a traceback ends with its error).
                let printed = printed_text(&c.output);
                let last = printed
                    .lines()
                    .rfind(|l| !l.trim().is_empty())
                    .unwrap_or("");
                format!(" — {}", crate::text::clip(last.trim(), 160))
            } else if !c.ran {
                " — it did not run".to_string()
            } else {
                String::new()
            };
            format!("- {}{why}", call_shown(c))
        })
        .collect();
    lines.join("\n")
}

/// What the task did, for the person, when its answer cannot be shown (what is left of it
/// once Zeta's own messages are taken out gives no value): the calls and the last output.
pub fn account(evidence: &Evidence) -> String {
    let ran: Vec<String> = evidence
        .calls
        .iter()
        .map(|c| format!("- {}", call_shown(c)))
        .collect();
    let mut text = "I could not give a complete answer.".to_string();
    if !ran.is_empty() {
        text.push_str(&format!("\nWhat ran:\n{}", ran.join("\n")));
    }
    if let Some(last) = last_printed(evidence) {
        text.push_str(&format!("\nThe last output:\n{last}"));
    }
    text
}

/// The last thing a call printed, for the person.
fn last_printed(evidence: &Evidence) -> Option<String> {
    evidence
        .ran()
        .map(|c| printed_text(&c.output))
        .filter(|t| !t.trim().is_empty())
        .last()
        .map(|t| crate::text::clip(t.trim(), 600))
}

// ---------------------------------------------------------------------------------------

/// A change the request orders was held back (the person did not allow it, or the
/// policy refused it) and nothing changed: the answer must say it is not done, not try
/// again.
pub struct HeldBack;

impl Check for HeldBack {
    fn name(&self) -> &'static str {
        "held-back"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let e = case.evidence;
        if !case.held_back || !case.request.asks_change || e.effects().next().is_some() {
            return None;
        }
        let calls = changing_calls(e);
        let first = e
            .calls
            .iter()
            .find(|c| c.changes && !c.ran)
            .map(|c| {
                call_shown(c)
                    .trim_start_matches(['✓', '✗', ' '])
                    .to_string()
            })
            .unwrap_or_default();
        Some(Finding {
            message: crate::prompts::fill(crate::prompts::CHECK_HELD_BACK, &[("calls", &calls)]),
            honest: Honest::Before(format!("Not done: a change was not allowed ({first}).")),
        })
    }
}

/// An answer before anything ran: once, the model is told it has seen nothing.
pub struct NothingRan;

impl Check for NothingRan {
    fn name(&self) -> &'static str {
        "nothing-ran"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        if !case.evidence.calls.is_empty() {
            return None;
        }
        Some(Finding {
            message: String::new(), // worded by the protocol (see `finish`)
            honest: Honest::Stands,
        })
    }
}

/// The assistant's own name given as data no output showed ("Your user name is Zeta").
pub struct NamedSelf;

const OWN_NAME: &str = "zeta";

impl Check for NamedSelf {
    fn name(&self) -> &'static str {
        "named-self"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let has = |text: &str, words: &[&str]| {
            text.to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| words.contains(&w))
        };
        let named = has(case.answer, &[OWN_NAME])
            && !has(&case.request.text, &[OWN_NAME, "you", "your", "yourself"])
            && !case
                .evidence
                .calls
                .iter()
                .any(|c| has(&c.output, &[OWN_NAME]) || has(&c.line, &[OWN_NAME]));
        named.then(|| Finding {
            message: crate::prompts::NAMED_SELF.to_string(),
            honest: Honest::Stands,
        })
    }
}

/// The request orders a change, and no call changed anything: no file effect was seen,
/// and no call that changes things worked.
pub struct AskedChange;

impl Check for AskedChange {
    fn name(&self) -> &'static str {
        "asked-change"
    }
    fn cap(&self) -> u32 {
        2
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let e = case.evidence;
        if !case.request.asks_change || case.held_back || e.calls.is_empty() {
            return None;
        }
        // Paths it asks to be written that do not show it are `asked-target`'s, which
        // names them. Targets that hold already ("make ~/run.sh executable": it exists)
        // do not show that anything was done.
        if !AskedTarget::unmet(case).is_empty() {
            return None;
        }
        // A call that worked and could change things, where no file effect shows (a
        // process stopped, a setting changed): only an unmet change when the request is
        // about files it names.
        if e.effects().next().is_some() || e.changed_ok() && case.request.paths.is_empty() {
            return None;
        }
        let calls = changing_calls(e);
        let ran = if calls.is_empty() {
            "No command that changes anything ran.".to_string()
        } else {
            format!("What ran:\n{calls}")
        };
        Some(Finding {
            message: crate::prompts::fill(crate::prompts::CHECK_ASKED_CHANGE, &[("ran", &ran)]),
            honest: Honest::Instead(format!(
                "I did not do this: nothing changed on this computer during the task.\n{ran}"
            )),
        })
    }
}

/// A path the request asks to be written, made, moved or copied into does not show it.
pub struct AskedTarget;

impl AskedTarget {
    fn unmet(case: &Case) -> Vec<(String, bool)> {
        let mut facts = Vec::new();
        for target in &case.request.targets {
            let text = &target.text;
            // Met at any place the target may point.
            let facts_at: Vec<Option<String>> = target
                .paths
                .iter()
                .map(|path| match std::fs::metadata(path) {
                    Err(_) => Some(format!("{text} does not exist")),
                    Ok(m) if target.wants_text && m.is_file() && m.len() == 0 => {
                        Some(format!("{text} is empty"))
                    }
                    Ok(_) if target.moved_in => {
                        let arrived = case
                            .evidence
                            .effects_at(path)
                            .any(|e| matches!(e, Effect::Moved { to, .. } if to.starts_with(path)));
                        (!arrived).then(|| format!("nothing was moved to {text} during this task"))
                    }
                    Ok(_) if target.exists_only => None,
                    Ok(_) => {
                        let landed = case
                            .evidence
                            .effects_at(path)
                            .any(|e| e.lands_at().is_some());
                        (!landed).then(|| format!("{text} was not written during this task"))
                    }
                })
                .collect();
            if facts_at.iter().all(Option::is_some) {
                if let Some(Some(fact)) = facts_at.into_iter().next() {
                    facts.push((fact, target.wants_text));
                }
            }
        }
        facts
    }
}

impl Check for AskedTarget {
    fn name(&self) -> &'static str {
        "asked-target"
    }
    fn cap(&self) -> u32 {
        2
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        if case.held_back || case.evidence.calls.is_empty() {
            return None;
        }
        let unmet = Self::unmet(case);
        if unmet.is_empty() {
            return None;
        }

        // The one number the answer gives, where an output printed it: the command that
        // writes it (never a value the outputs do not show).
        let sources = sources(case);
        let source_refs: Vec<&str> = sources.iter().map(String::as_str).collect();
        let numbers: Vec<Value> = values(case.answer)
            .into_iter()
            .filter(|v| matches!(v, Value::Number(..)))
            .collect();
        let mut fixes = Vec::new();
        if let [number] = numbers.as_slice() {
            if ungrounded(number.as_written(), &source_refs).is_empty() {
                for target in case.request.targets.iter().filter(|t| t.wants_text) {
                    if unmet.iter().any(|(f, _)| f.starts_with(&target.text)) {
                        fixes.push(format!("echo {} > {}", number.as_written(), target.text));
                    }
                }
            }
        }
        let facts: Vec<String> = unmet.into_iter().map(|(f, _)| f).collect();
        Some(Finding {
            message: unmet_request(&facts, &fixes),
            honest: if case.request.asks_to_be_told {
                Honest::Before(format!("Not done: {}.", facts.join("; ")))
            } else {
                Honest::Instead(format!(
                    "I did not finish this: {}.{}",
                    facts.join("; "),
                    match changing_calls(case.evidence) {
                        c if c.is_empty() => String::new(),
                        c => format!("\nWhat ran:\n{c}"),
                    }
                ))
            },
        })
    }
}

/// Sent back when a path the request asks to be written does not show it, with the
/// commands that would write it where they are known. "Your whole answer": after the
/// write, the model's next answer said only that it wrote, and lost the count the
/// request had asked for first.
fn unmet_request(unmet: &[String], fixes: &[String]) -> String {
    let how = if fixes.is_empty() {
        "Run the command that does it now (for example with >, cp or mv)".to_string()
    } else {
        format!("Run the command that does it now: {}", fixes.join(" && "))
    };
    crate::prompts::fill(
        crate::prompts::CHECK_ASKED_TARGET,
        &[("facts", &unmet.join("; ")), ("how", &how)],
    )
}

/// A path the request asks things to be moved out of, or deleted in, shows nothing left
/// it ("move every .csv file from ~/projects into it", answered after `cp`: the files
/// are still there).
pub struct AskedSource;

impl Check for AskedSource {
    fn name(&self) -> &'static str {
        "asked-source"
    }
    fn cap(&self) -> u32 {
        2
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        // Nothing changed at all is `asked-change`'s.
        if case.held_back || case.evidence.effects().next().is_none() {
            return None;
        }
        let facts: Vec<String> = case
            .request
            .sources
            .iter()
            .filter(|s| s.named.path.exists() || s.leaves == Leaves::Moved)
            .filter(|s| {
                !case.evidence.effects_at(&s.named.path).any(|e| {
                    matches!(e, Effect::Deleted(_))
                        || matches!(e, Effect::Moved { from, .. } if from.starts_with(&s.named.path))
                })
            })
            .map(|s| match s.leaves {
                Leaves::Moved => format!("nothing was moved out of {}", s.named.text),
                Leaves::Deleted => format!("nothing was deleted in {}", s.named.text),
            })
            .collect();
        if facts.is_empty() {
            return None;
        }
        let text = facts.join("; ");
        Some(Finding {
            message: crate::prompts::fill(crate::prompts::CHECK_ASKED_SOURCE, &[("facts", &text)]),
            honest: Honest::Before(format!("Not done: {text}.")),
        })
    }
}

/// What values may come from: what the calls printed, the request, and the paths the
/// calls' effects touched.
fn sources(case: &Case) -> Vec<String> {
    let mut out = case.evidence.printed();
    out.extend(case.evidence.calls.iter().map(|c| c.line.clone()));
    out.push(case.request.text.clone());
    out.extend(case.evidence.effects().map(|e| e.describe(&case.env.home)));
    out
}

/// The answer gives a value (a number, a date, a version) that no output printed.
pub struct UngroundedValue;

impl Check for UngroundedValue {
    fn name(&self) -> &'static str {
        "ungrounded-value"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        case.evidence.ran().next()?;
        let sources = sources(case);
        let refs: Vec<&str> = sources.iter().map(String::as_str).collect();
        let missing = ungrounded(case.answer, &refs);
        if missing.is_empty() {
            return None;
        }
        let shown: Vec<&str> = missing.iter().map(Value::as_written).collect();
        let list = shown.join(", ");
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_UNGROUNDED_VALUE,
                &[("values", &list)],
            ),
            honest: Honest::After(format!("(Not checked: no command printed {list}.)")),
        })
    }
}

/// A question's answer names nothing any output printed ("The command completed
/// successfully" for "How many lines …?"), though the outputs are not empty.
pub struct NoValue;

/// Words of three letters or more, and values, of `text`.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || "._-".contains(c)))
        .map(|w| w.trim_matches(|c: char| ".-_".contains(c)).to_string())
        .filter(|w| w.chars().count() >= 3)
        .collect();
    out.extend(values(text).iter().map(|v| v.as_written().to_string()));
    out
}

impl Check for NoValue {
    fn name(&self) -> &'static str {
        "no-value"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        // An answer that gives a value is `ungrounded-value`'s.
        if !case.request.only_asks() || !values(case.answer).is_empty() {
            return None;
        }
        let printed: Vec<String> = case
            .evidence
            .ran()
            .filter(|c| c.ok)
            .map(|c| printed_text(&c.output))
            .filter(|t| !t.trim().is_empty())
            .collect();
        if printed.is_empty() {
            return None;
        }
        let asked = tokens(&case.request.text);
        let found: Vec<String> = printed.iter().flat_map(|p| tokens(p)).collect();
        let carries = tokens(case.answer)
            .iter()
            .any(|t| !asked.contains(t) && found.contains(t));
        if carries {
            return None;
        }
        let last = last_printed(case.evidence).unwrap_or_default();
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_NO_VALUE,
                &[("last", &crate::text::clip(&last, 400))],
            ),
            honest: Honest::After(format!("What the commands printed:\n{last}")),
        })
    }
}

/// A question asks how many, and the answer gives no number at all ("The biggest file is
/// report.md" for "Count the files and tell me which is biggest").
pub struct AskedCount;

impl Check for AskedCount {
    fn name(&self) -> &'static str {
        "asked-count"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let numbers = values(case.answer)
            .iter()
            .any(|v| matches!(v, Value::Number(..)));
        // Nothing ran, or nothing changed where a change was asked: other checks'.
        if !case.request.asks_count || numbers || case.evidence.ran().next().is_none() {
            return None;
        }
        Some(Finding {
            message: crate::prompts::CHECK_ASKED_COUNT.to_string(),
            honest: Honest::After(
                "(Not answered: the request asks how many, and the answer gives no number.)"
                    .to_string(),
            ),
        })
    }
}

// ---------------------------------------------------------------------------------------

/// How the finisher judged an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// Every check holds.
    Stands,
    /// `check` sends it back with `message`.
    Back {
        check: &'static str,
        message: String,
    },
    /// Some checks still fail at their cap: the answer stands with what the person must
    /// be told (`honest`, per check).
    Honest(Vec<(&'static str, Honest)>),
}

/// Runs the checks in order, each at most its cap times per task.
pub struct Finisher {
    checks: Vec<Box<dyn Check>>,
    sent: Vec<u32>,
}

impl Finisher {
    pub fn new(checks: Vec<Box<dyn Check>>) -> Self {
        let sent = vec![0; checks.len()];
        Self { checks, sent }
    }

    /// The first failing check under its cap sends the answer back; the failing checks
    /// past their caps say what the person is told.
    pub fn judge(&mut self, case: &Case) -> Judged {
        let mut honest = Vec::new();
        for (i, check) in self.checks.iter().enumerate() {
            let Some(finding) = check.judge(case) else {
                continue;
            };
            if self.sent[i] < check.cap() {
                self.sent[i] += 1;
                return Judged::Back {
                    check: check.name(),
                    message: finding.message,
                };
            }
            if finding.honest != Honest::Stands {
                honest.push((check.name(), finding.honest));
            }
        }
        if honest.is_empty() {
            Judged::Stands
        } else {
            Judged::Honest(honest)
        }
    }

    /// Whether `name` has sent an answer back in this task.
    pub fn has_sent(&self, name: &str) -> bool {
        self.checks
            .iter()
            .zip(&self.sent)
            .any(|(c, n)| c.name() == name && *n > 0)
    }
}

#[cfg(test)]
mod tests;
