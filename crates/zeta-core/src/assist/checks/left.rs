//! `window-step-left`: an answer given while the last act in a window that went through
//! read back a step of the request still left there (`ReadBack::left`: one that names
//! nothing in the window, "confirm it", while its default button, which does it, was not
//! pressed), the window still open, and no input after that act. Seen on the GUI bench:
//! the password typed into the Unlock dialog, the dialog left open, and "Done" claimed
//! while the program had received nothing. The answer goes back once with the step and
//! the button; at the cap the person reads that the step was not done.
//!
//! `window-closed-short`: the task's last act in a window closed it (a dialog answered)
//! while the request named elements there that no act went through on (`ReadBack::left`
//! of a closed window: a field, a box, a combo box by its option), or gave values no act
//! entered or chose (`ValueNotEntered::unentered`), and no keyboard or mouse input could
//! have done them another way. Nothing can be done in a window that is gone, so nothing
//! goes back: the person reads what the window closed without, before the answer. Seen
//! on the GUI bench: OK pressed first on a password dialog and on a colour chooser, each
//! closed as it was, and "The password has been set", "The user clicked the OK button".

use super::window::BLIND_INPUT;
use super::{Case, Check, Finding, Honest, ValueNotEntered};

pub struct StepLeft;

impl StepLeft {
    /// The step left in its window, in words: from the last act that went through,
    /// when no input came after it.
    fn left<'a>(case: &'a Case) -> Option<&'a str> {
        for call in case.evidence.calls.iter().rev() {
            if call.ran && BLIND_INPUT.contains(&call.tool.as_str()) {
                return None;
            }
            if let Some(rb) = call.read_back.as_ref().filter(|_| call.ran && call.ok) {
                return rb.left.as_deref().filter(|_| !rb.closed);
            }
        }
        None
    }
}

impl Check for StepLeft {
    fn name(&self) -> &'static str {
        "window-step-left"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn part_of_the_task(&self) -> bool {
        true
    }
    fn answered_by_acting(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let left = Self::left(case)?;
        Some(Finding {
            message: crate::prompts::fill(crate::prompts::CHECK_STEP_LEFT, &[("left", left)]),
            honest: Honest::Before(format!("Not done: {left}.")),
        })
    }
}

pub struct ClosedShort;

impl ClosedShort {
    /// What the task's last window closed without, in words.
    fn without(case: &Case) -> Option<String> {
        let calls = &case.evidence.calls;
        if calls
            .iter()
            .any(|c| c.ran && BLIND_INPUT.contains(&c.tool.as_str()))
        {
            return None;
        }
        let rb = case.evidence.last_act().filter(|rb| rb.closed)?;
        // Values the answer gives are `value-not-entered`'s to say.
        let said = ValueNotEntered::missing(case);
        let values: Vec<String> = ValueNotEntered::unentered(case)
            .into_iter()
            .filter(|v| !said.contains(v))
            .map(|v| format!("\"{v}\""))
            .collect();
        let mut parts: Vec<String> = rb.left.iter().cloned().collect();
        if !values.is_empty() {
            parts.push(format!(
                "no act entered or chose {}, which the request gives",
                values.join(", ")
            ));
        }
        if parts.is_empty() {
            return None;
        }
        if rb.left.is_none() {
            parts[0] = format!("\"{}\" closed, and {}", rb.window, parts[0]);
        }
        Some(parts.join("; "))
    }
}

impl Check for ClosedShort {
    fn name(&self) -> &'static str {
        "window-closed-short"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn part_of_the_task(&self) -> bool {
        true
    }
    /// The window is gone: nothing is sent back for an act to answer.
    fn cap(&self) -> u32 {
        0
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let without = Self::without(case)?;
        Some(Finding {
            message: String::new(),
            honest: Honest::Before(format!("Not done: {without}.")),
        })
    }
}
