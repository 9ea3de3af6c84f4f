//! `window-step-left`: an answer given while the last act in a window that went through
//! read back a step of the request still left there (`ReadBack::left`: one that names
//! nothing in the window, "confirm it", while its default button, which does it, was not
//! pressed), the window still open, and no input after that act. Seen on the GUI bench:
//! the password typed into the Unlock dialog, the dialog left open, and "Done" claimed
//! while the program had received nothing. The answer goes back once with the step and
//! the button; at the cap the person reads that the step was not done.

use super::window::BLIND_INPUT;
use super::{Case, Check, Finding, Honest};

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
