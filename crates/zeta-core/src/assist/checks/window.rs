//! The check of what a window shows after the calls that acted on it: `act-not-shown`.
//! Each `ui_act` reads its element and window back after acting and says whether the
//! intended change shows (`ReadBack`), and so does the keyboard's typing (the focused
//! field read back); an act that failed says so too. An answer given
//! while an act's change does not show, and nothing later showed it (the same element's
//! change shown; for an act that failed, an act of the same kind in the same window that
//! worked) or acted on the window another way, goes back once with what the window
//! shows; at the cap the person reads that it was not done.

use super::{Case, Check, Finding, Honest};
use crate::assist::evidence::CallEvidence;
use crate::tool::{ReadBack, Shown};

/// Tools that act on windows without a read-back of their own: after one of them, an
/// earlier act that did not show may have been done another way.
const BLIND_INPUT: &[&str] = &["keyboard", "mouse"];

/// An act the window does not show, and nothing later settled.
pub struct ActNotShown;

impl ActNotShown {
    /// The read-backs that said "not shown" and stand at the end of the task: no later
    /// read-back of the same element showed its change, and no input without a read-back
    /// followed.
    pub fn unsettled(calls: &[CallEvidence]) -> Vec<&ReadBack> {
        let mut out = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            let Some(rb) = c
                .read_back
                .as_ref()
                .filter(|r| matches!(r.shown, Shown::No(_)))
            else {
                continue;
            };
            let later = &calls[i + 1..];
            let settled = later.iter().any(|l| {
                l.ran && BLIND_INPUT.contains(&l.tool.as_str())
                    || l.read_back.as_ref().is_some_and(|r| {
                        let same = r.element == rb.element && matches!(r.shown, Shown::Yes(_));
                        // A failed act done another way: the same kind of act in the
                        // same window, which worked and did not show otherwise.
                        let instead = !c.ok
                            && l.ok
                            && r.window == rb.window
                            && kind(&r.action) == kind(&rb.action)
                            && !matches!(r.shown, Shown::No(_));
                        same || instead
                    })
            });
            if !settled {
                out.push(rb);
            }
        }
        out
    }
}

/// The kind of an act for telling whether another did it instead: a value typed or set is
/// one kind.
fn kind(action: &str) -> &str {
    match action {
        "type" | "set_text" => "value",
        other => other,
    }
}

/// "spin button "Copies" in "Print": set its text to "7" — it shows "1"".
fn fact(rb: &ReadBack) -> String {
    let shows = match &rb.shown {
        Shown::Yes(s) | Shown::No(s) | Shown::Unclear(s) => s,
    };
    format!("{}: {} — {}", rb.element, rb.intended, shows)
}

impl Check for ActNotShown {
    fn name(&self) -> &'static str {
        "act-not-shown"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let unsettled = Self::unsettled(&case.evidence.calls);
        if unsettled.is_empty() {
            return None;
        }
        let facts: Vec<String> = unsettled
            .iter()
            .map(|rb| format!("- {}", fact(rb)))
            .collect();
        let facts = facts.join("\n");
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_ACT_NOT_SHOWN,
                &[("facts", &facts)],
            ),
            honest: Honest::Before(format!("Not done: the window does not show it.\n{facts}")),
        })
    }
}
