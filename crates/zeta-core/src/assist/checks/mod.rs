//! Answer checks as named, capped types (effects.rs: what the request asks to change;
//! answers.rs: what the answer says and gives), judged against the task's evidence (what its
//! calls did and printed) and the request parsed once, never against the answer's
//! phrasing alone. Each check says why an answer cannot stand yet (the message that
//! sends it back to the model, with the evidence) and what the person is told if it
//! still does not hold once the check has sent it back `cap` times.
//!
//! | check | when an answer goes back | said to the person at the cap |
//! |---|---|---|
//! | `nothing-ran` | nothing ran yet | (the answer stands) |
//! | `named-self` | it names the assistant where no output did | (the answer stands) |
//! | `stopped-short` | never (cap 0) | "I did not finish this:" and why, when the loop stopped the task (calls kept failing, the step limit) and the request orders a change its targets (if any) do not all show |
//! | `window-untouched` | the task is about a window on screen, the request orders a change or names no question, and no act on a window went through nor any call changed a file | "Not done:" nothing was done in the window |
//! | `held-back` | the request orders a change, a change was not allowed, and nothing changed | "Not done:" and the call |
//! | `asked-change` | the request orders a change, its targets (if any) hold, and no call changed anything | what ran, and that nothing changed, instead of the answer |
//! | `asked-target` | a path the request asks to be written is not (with what did change instead) | "Not done:" with the facts and what changed |
//! | `asked-source` | a path the request asks things to be moved out of (or deleted in) shows nothing left it (with what did change) | "Not done:" with the facts and what changed |
//! | `ungrounded-value` | it gives a value no output printed | a note naming the value |
//! | `ungrounded-path` | it names a path (`~/…`, `/…`) not on this computer that no call, output, window or the request named | a note that the path is not there |
//! | `missing-path` | it names a path (`~/…`, `/…`) not on this computer that a call of the task named (a guessed place: `/home/user/projects`), the request did not, and no effect touched | a note that the path is not there |
//! | `asked-count` | the request asks how many and the answer gives no number | a note that the count is missing |
//! | `written-differs` | a file asked to be written holds one short line with a value the answer gives and more, and the answer does not say the line | what the file holds |
//! | `act-not-shown` | a window act's read-back says its change does not show, and nothing later showed it | "Not done:" with what the window shows |
//! | `window-step-left` | the last act in a window read back a step of the request left there (one naming nothing in it, "confirm it", its default button not pressed), the window open, no input since | "Not done:" with the step and the button |
//! | `window-closed-short` | never (cap 0) | "Not done:" with what the task's last window closed without: elements the request names there no act went through on, values it gives no act entered, when no keyboard or mouse input ran |
//! | `value-not-entered` | the answer to a request that acted on a window gives a value the request gave (by its shape: a digit, an `@`, quotes, a capital mid-sentence) that no act entered or chose; or, the window last acted in still open, the request gave one no act used | "Not done:" with the values |
//! | `window-not-saved` | text landed in a window whose title names a file, and no call changed that file after | "Not saved:" with the file, after the answer |
//! | `text-dropped` | never (cap 0) | that a text set in place of all an element held (made again after it was held for it) left out words the request names, when the answer does not name them |
//! | `changes-unsaid` | never (cap 0) | what changed, when the request orders a change and the answer names none of the paths the calls touched |
//! | `no-value` | a question's answer gives no value and names nothing any output printed | what the commands printed |
//! | `second-way` | a question about files or values is answered from one way of computing it: no program (Python) printed what it found | where a program printed something else, the model's one answer (no tools) on which way is right, if the program bears it out; otherwise what the program printed, or that it was not confirmed |

mod answers;
mod effects;
mod entered;
mod left;
mod missing;
mod second_way;
mod stopped;
mod window;

pub use answers::{AskedCount, NamedSelf, NoValue, NothingRan, UngroundedPath, UngroundedValue};
pub use effects::{AskedChange, AskedSource, AskedTarget, ChangesUnsaid, HeldBack, WrittenDiffers};
pub use entered::{misread, values_given, ValueNotEntered};
pub use left::{ClosedShort, StepLeft};
pub use missing::MissingPath;
pub use second_way::{asked_apart, program_says, ProgramSays, SecondWay, UNCONFIRMED};
pub use stopped::StoppedShort;
pub use window::{
    done_in_window, titled_file, ActNotShown, TextDropped, WindowNotSaved, WindowUntouched,
};

use super::evidence::{printed_text, Evidence};
use super::request::Request;
use crate::policy::ShellEnv;

/// Everything a check may look at.
pub struct Case<'a> {
    pub request: &'a Request,
    pub answer: &'a str,
    pub evidence: &'a Evidence,
    /// A call of the task was held back (denied, refused, not approved).
    pub held_back: bool,
    /// Why the loop stopped the task before the model finished (its calls kept failing,
    /// the step limit), in words for the person.
    pub stopped: Option<&'a str>,
    /// The title of the window on screen the task is about, read for the model before
    /// its first step ("" when the request names none and the active one was read).
    pub window: Option<&'a str>,
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
    /// It holds an answer against effects the calls did not have (a change not made, a
    /// window that does not show an act): the person is told even where a model gets
    /// no checks.
    fn of_effects(&self) -> bool {
        false
    }
    /// It sends an answer back even where a model gets no checks (`verify: never`): it
    /// is part of how a task of its kind is done (a window task is done in the window),
    /// not a second look at the answer.
    fn part_of_the_task(&self) -> bool {
        false
    }
    /// Its send-back asks for an act on the window and words cannot stand in for one:
    /// the next step may only call a tool (`Finisher::answered_by_acting`).
    fn answered_by_acting(&self) -> bool {
        false
    }
}

/// The checks every model gets, in the order they are judged.
pub fn standard() -> Vec<Box<dyn Check>> {
    vec![
        Box::new(NothingRan),
        Box::new(NamedSelf),
        // Never sends back (cap 0); first of what the person is told before the answer.
        Box::new(StoppedShort),
        Box::new(WindowUntouched),
        Box::new(HeldBack),
        Box::new(AskedChange),
        Box::new(AskedTarget),
        Box::new(AskedSource),
        Box::new(WrittenDiffers),
        Box::new(ActNotShown),
        Box::new(StepLeft),
        // Never sends back (cap 0): the window is gone.
        Box::new(ClosedShort),
        Box::new(ValueNotEntered),
        Box::new(WindowNotSaved),
        Box::new(TextDropped),
        Box::new(UngroundedValue),
        Box::new(UngroundedPath),
        Box::new(MissingPath),
        Box::new(NoValue),
        Box::new(AskedCount),
        Box::new(SecondWay),
        Box::new(ChangesUnsaid),
    ]
}

/// The standard checks but those named in `off` (a measuring aid: `ZETA_HELP_OFF`).
pub fn standard_without(off: &[String]) -> Vec<Box<dyn Check>> {
    standard()
        .into_iter()
        .filter(|c| !off.iter().any(|o| o == c.name()))
        .collect()
}

/// A call as the person reads it: a plan by its name, anything else in one short line.
pub(super) fn call_shown(c: &super::evidence::CallEvidence) -> String {
    if c.tool == "propose_plan" {
        let mark = c.line.chars().next().unwrap_or('✗');
        return format!("{mark} the proposed plan");
    }
    crate::text::clip(&c.line, 120)
}

/// The calls that could change things, one a line, as they went.
pub(super) fn changing_calls(evidence: &Evidence) -> String {
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

/// Effects said at most, one line each: a glob that moved a folder's worth is said by
/// its first few.
const EFFECTS_SAID: usize = 6;

/// What the task's calls changed on disk, in words ("moved ~/inbox/list.txt to
/// ~/memo.txt; created ~/inbox/memo.txt"), or `None` when nothing changed: for a check
/// that says a change the request asks for does not show, where the thing went instead
/// (seen: `mv ~/inbox/list.txt memo.txt` moved it into the working folder; told only
/// that `~/inbox/memo.txt` did not exist, the model made an empty one there).
pub(super) fn effects_said(evidence: &Evidence, home: &std::path::Path) -> Option<String> {
    let all: Vec<String> = evidence.effects().map(|e| e.describe(home)).collect();
    if all.is_empty() {
        return None;
    }
    let mut said = all[..all.len().min(EFFECTS_SAID)].join("; ");
    if all.len() > EFFECTS_SAID {
        said.push_str(&format!("; and {} more", all.len() - EFFECTS_SAID));
    }
    Some(said)
}

/// `effects_said`, to the model: what its commands changed.
pub(super) fn effects_to_model(evidence: &Evidence, home: &std::path::Path) -> String {
    match effects_said(evidence, home) {
        Some(said) => format!("Your commands changed this instead: {said}."),
        None => "Your commands changed no file.".to_string(),
    }
}

/// `effects_said`, to the person: " What changed: …." after what is not done, or nothing.
pub(super) fn effects_to_person(evidence: &Evidence, home: &std::path::Path) -> String {
    effects_said(evidence, home)
        .map(|said| format!(" What changed: {said}."))
        .unwrap_or_default()
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

/// The last thing a call printed, for the person (of a window read, what it shows: its
/// outline's numbers and places are the model's, and no value a check could ground).
pub(super) fn last_printed(evidence: &Evidence) -> Option<String> {
    evidence
        .ran()
        .map(super::evidence::CallEvidence::printed)
        .filter(|t| !t.trim().is_empty())
        .last()
        .map(|t| crate::text::clip(t.trim(), 600))
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
        self.judge_where(case, |_| true)
    }

    /// The same, with only the checks `which` keeps.
    pub fn judge_where(&mut self, case: &Case, which: impl Fn(&dyn Check) -> bool) -> Judged {
        let mut honest = Vec::new();
        for (i, check) in self.checks.iter().enumerate() {
            if !which(check.as_ref()) {
                continue;
            }
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

    /// Whether the check `name` is answered by an act, not by words.
    pub fn answered_by_acting(&self, name: &str) -> bool {
        self.checks
            .iter()
            .any(|c| c.name() == name && c.answered_by_acting())
    }

    /// Whether `name` has sent an answer back in this task.
    pub fn has_sent(&self, name: &str) -> bool {
        self.checks
            .iter()
            .zip(&self.sent)
            .any(|(c, n)| c.name() == name && *n > 0)
    }
}

/// What values may come from: what the calls printed (what a window read shows), how
/// many lines each printed (a count read off a listing: "5 cities" from `uniq`'s five
/// lines; one line counts for nothing, or `137 poem.txt` would ground "1 line"; a
/// window's lines count nothing), the request, and the paths the calls' effects touched.
pub(super) fn sources(case: &Case) -> Vec<String> {
    let mut out = case.evidence.printed();
    // A window's texts, one a line, count nothing.
    let counts: Vec<String> = case
        .evidence
        .ran()
        .filter(|c| c.shows.is_none())
        .map(|c| c.printed().lines().filter(|l| !l.trim().is_empty()).count())
        .filter(|n| *n >= 2)
        .map(|n| n.to_string())
        .collect();
    out.extend(counts);
    // A call's own line grounds what it wrote (a command's constants); a call that read
    // or acted on a window, only the text it meant to enter: its element numbers are
    // Zeta's, no value the window showed.
    out.extend(
        case.evidence
            .calls
            .iter()
            .map(|c| match (&c.shows, &c.read_back) {
                (None, _) => c.line.clone(),
                (Some(_), Some(read_back)) => read_back.intended.clone(),
                (Some(_), None) => String::new(),
            }),
    );
    out.push(case.request.text.clone());
    out.extend(case.evidence.effects().map(|e| e.describe(&case.env.home)));
    out
}

#[cfg(test)]
mod tests;
