//! Finishing what was asked (`verify`): whether an answer stands or goes back for a
//! check, what the next reply answers, and what the final answer is. The state lives in
//! one type, `Finishing`, changed only through its methods.
//!
//! An answer given before anything ran goes back once ("you have seen nothing"). After
//! calls ran, one check per stretch of new calls (two at most) quotes the request and what
//! each call printed. In the planner protocol that check is answered with a verdict; with
//! native tools the model's next answer stands. An empty final answer falls back to the
//! answer under check, or the last one the model wrote.

use super::planner::{Step, Verdict};
use super::prompt;

/// Verification turns per task at most.
const MAX_CHECKS: u32 = 2;

/// The answer being checked, if any, and how the check is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
enum UnderCheck {
    /// No answer is being checked.
    Nothing,
    /// `answer` went back to the model; its next answer replaces it, unless empty.
    Sent { answer: String },
    /// Planner protocol: the next reply is a verdict on `answer`.
    AwaitingVerdict { answer: String },
}

/// A task's verification state.
#[derive(Debug)]
pub(super) struct Finishing {
    /// `verify` is in force for this task.
    verifies: bool,
    /// The planner (JSON) protocol: checks are answered with a verdict.
    planner: bool,
    /// An answer was sent back because nothing had run (once per task).
    pushed_back: bool,
    /// Checks so far, and how many calls had run at the last one.
    checks: u32,
    checked_at: Option<usize>,
    under_check: UnderCheck,
    /// The last non-empty answer the model wrote (planner protocol).
    last_written: Option<String>,
    /// Each call with the start of what it printed, for the check.
    seen: Vec<String>,
}

impl Finishing {
    pub fn new(verifies: bool, planner: bool) -> Self {
        Self {
            verifies,
            planner,
            pushed_back: false,
            checks: 0,
            checked_at: None,
            under_check: UnderCheck::Nothing,
            last_written: None,
            seen: Vec::new(),
        }
    }

    /// A call ran: `line` is the call and the start of what it printed.
    pub fn saw(&mut self, line: String) {
        self.seen.push(line);
    }

    /// The model wrote `answer` (the planner's `reply`), kept for an empty final answer.
    pub fn wrote(&mut self, answer: String) {
        self.last_written = Some(answer);
    }

    /// The next reply is a verdict (planner protocol), not a step.
    pub fn expects_verdict(&self) -> bool {
        matches!(self.under_check, UnderCheck::AwaitingVerdict { .. })
    }

    /// The model answered `answer` after `calls_run` calls of the task `request`: the
    /// message that sends it back for a check, or `None` when it stands.
    pub fn check(&mut self, request: &str, answer: &str, calls_run: usize) -> Option<String> {
        if !self.verifies {
            return None;
        }
        let answer = answer.to_string();
        if calls_run == 0 {
            if self.pushed_back {
                return None;
            }
            self.pushed_back = true;
            self.under_check = UnderCheck::Sent { answer };
            return Some(prompt::nothing_run_prompt(self.planner));
        }
        if self.checked_at == Some(calls_run) || self.checks >= MAX_CHECKS {
            return None;
        }
        self.checks += 1;
        self.checked_at = Some(calls_run);
        if self.planner {
            let message = prompt::verdict_prompt(request, &self.seen, &answer);
            self.under_check = UnderCheck::AwaitingVerdict { answer };
            Some(message)
        } else {
            self.under_check = UnderCheck::Sent { answer };
            Some(prompt::verify_prompt(request, &self.seen))
        }
    }

    /// What the verdict on the answer under check means: a call to run (the answer is
    /// kept in case nothing better comes), the checked answer as the final one, or `Err`
    /// with the message that sends the model back to planning.
    pub fn verdict(&mut self, verdict: Verdict) -> Result<Step, String> {
        let answer = match std::mem::replace(&mut self.under_check, UnderCheck::Nothing) {
            UnderCheck::AwaitingVerdict { answer } | UnderCheck::Sent { answer } => answer,
            UnderCheck::Nothing => String::new(),
        };
        match verdict {
            Verdict::Continue(call) => {
                self.under_check = UnderCheck::Sent { answer };
                Ok(Step::Calls(vec![call]))
            }
            Verdict::Unfinished => {
                if !answer.is_empty() {
                    self.last_written = Some(answer);
                }
                Err(prompt::UNFINISHED_PROMPT.to_string())
            }
            Verdict::Finished { unable } => Ok(Step::Final(match unable {
                Some(unable) => format!("{answer}\n\nNot done: {unable}"),
                None => answer,
            })),
        }
    }

    /// The final answer when the model ends with `text`: `text`, or, when it is empty,
    /// the answer under check or the last one the model wrote.
    pub fn final_answer(&mut self, text: String) -> String {
        let earlier = match std::mem::replace(&mut self.under_check, UnderCheck::Nothing) {
            UnderCheck::Sent { answer } | UnderCheck::AwaitingVerdict { answer } => Some(answer),
            UnderCheck::Nothing => None,
        }
        .or_else(|| self.last_written.take());
        match earlier {
            Some(earlier) if text.trim().is_empty() => earlier,
            _ => text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolCall;
    use serde_json::json;

    const REQUEST: &str = "How much free disk space do I have?";

    fn call() -> ToolCall {
        ToolCall {
            id: "call_1".into(),
            name: "shell".into(),
            arguments: json!({"command": "df -h /"}),
        }
    }

    #[test]
    fn without_verify_every_answer_stands() {
        for planner in [false, true] {
            let mut f = Finishing::new(false, planner);
            for calls in [0, 1, 5] {
                assert_eq!(f.check(REQUEST, "42 GB", calls), None);
            }
            assert!(!f.expects_verdict());
            assert_eq!(f.final_answer("42 GB".into()), "42 GB");
        }
    }

    #[test]
    fn an_answer_before_anything_ran_goes_back_once() {
        for planner in [false, true] {
            let mut f = Finishing::new(true, planner);
            let back = f.check(REQUEST, "You have 42 GB free.", 0);
            assert!(
                back.is_some_and(|m| m.contains("seen nothing")),
                "{planner}"
            );
            assert!(!f.expects_verdict(), "a push back is not a verdict turn");
            assert_eq!(f.check(REQUEST, "You have 42 GB free.", 0), None);
            // An empty confirmation keeps the answer that went back.
            assert_eq!(f.final_answer(String::new()), "You have 42 GB free.");
        }
    }

    #[test]
    fn a_check_per_stretch_of_calls_and_two_at_most() {
        for planner in [false, true] {
            let mut f = Finishing::new(true, planner);
            f.saw("✓ shell df -h /\n   printed: 42G".into());
            let first = f.check(REQUEST, "42 GB", 1);
            assert!(
                first.as_deref().is_some_and(|m| m.contains("df -h")),
                "{first:?}"
            );
            assert_eq!(f.expects_verdict(), planner);
            if planner {
                let _ = f.verdict(Verdict::Continue(call()));
            }
            assert_eq!(
                f.check(REQUEST, "42 GB", 1),
                None,
                "no new call: no new check"
            );
            assert!(
                f.check(REQUEST, "42 GB", 2).is_some(),
                "new calls: a second check"
            );
            if planner {
                let _ = f.verdict(Verdict::Continue(call()));
            }
            assert_eq!(f.check(REQUEST, "42 GB", 3), None, "two checks at most");
        }
    }

    #[test]
    fn verdicts_run_a_call_end_with_the_checked_answer_or_go_back_to_planning() {
        let checked = |f: &mut Finishing| {
            f.saw("✓ shell df -h /\n   printed: 42G".into());
            assert!(f.check(REQUEST, "42 GB free", 1).is_some());
            assert!(f.expects_verdict());
        };
        let mut f = Finishing::new(true, true);
        checked(&mut f);
        assert_eq!(
            f.verdict(Verdict::Continue(call())),
            Ok(Step::Calls(vec![call()]))
        );
        assert!(!f.expects_verdict());
        assert_eq!(f.final_answer(" ".into()), "42 GB free", "kept in case");

        let mut f = Finishing::new(true, true);
        checked(&mut f);
        let done = f.verdict(Verdict::Finished { unable: None });
        assert_eq!(done, Ok(Step::Final("42 GB free".into())));
        let mut f = Finishing::new(true, true);
        checked(&mut f);
        let unable = Some("the home folder's share".to_string());
        let done = f.verdict(Verdict::Finished { unable });
        assert_eq!(
            done,
            Ok(Step::Final(
                "42 GB free\n\nNot done: the home folder's share".into()
            ))
        );

        let mut f = Finishing::new(true, true);
        checked(&mut f);
        assert_eq!(
            f.verdict(Verdict::Unfinished),
            Err(prompt::UNFINISHED_PROMPT.to_string())
        );
        assert!(!f.expects_verdict());
        assert_eq!(f.final_answer(String::new()), "42 GB free");
    }

    #[test]
    fn a_non_empty_final_answer_always_wins() {
        let mut f = Finishing::new(true, false);
        f.wrote("earlier".into());
        assert!(f.check(REQUEST, "first", 0).is_some());
        assert_eq!(f.final_answer("second".into()), "second");
        // What the model last wrote is still there for a later empty answer.
        assert_eq!(f.final_answer(String::new()), "earlier");
        let mut f = Finishing::new(false, true);
        f.wrote("the planner's reply".into());
        assert_eq!(f.final_answer("\n".into()), "the planner's reply");
    }
}
