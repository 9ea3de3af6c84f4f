//! `stopped-short`: the loop stopped the task while the model was still acting (its
//! calls kept failing, or it reached the step limit), and the request orders a change.
//! The model was still trying when it had to answer, so the change is not known to be
//! done; the person reads that first, whatever the answer says. Paths the request asks
//! to be written that all show it are the evidence that it is done after all, and so is
//! a last act in a window after which every element the request names had been acted
//! on (`ReadBack::request_met`), the window showing it.

use super::{AskedTarget, Case, Check, Finding, Honest};

pub struct StoppedShort;

impl Check for StoppedShort {
    fn name(&self) -> &'static str {
        "stopped-short"
    }
    fn of_effects(&self) -> bool {
        true
    }
    /// The model can call nothing more: nothing to send back.
    fn cap(&self) -> u32 {
        0
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let why = case.stopped?;
        if !case.request.asks_change {
            return None;
        }
        let targets_hold = !case.request.targets.is_empty() && AskedTarget::unmet(case).is_empty();
        // The last act in a window that went through left every element the request
        // names acted on, and the window did not contradict it (seen: "answer No"
        // pressed, the dialog closed, then four calls at a window that was gone).
        let window_met = case
            .evidence
            .last_act()
            .is_some_and(crate::tool::ReadBack::met);
        if targets_hold || window_met {
            return None;
        }
        Some(Finding {
            message: String::new(),
            honest: Honest::Before(format!("I did not finish this: {why}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assist::evidence::{CallEvidence, Effect, Evidence};
    use crate::assist::request::Request;
    use crate::policy::ShellEnv;

    const WHY: &str = "I stopped after 4 tool calls failed in a row.";

    /// A call that changes things, as `line` says, that worked or not.
    fn call(tool: &str, line: &str, ok: bool, output: &str) -> CallEvidence {
        CallEvidence {
            tool: tool.into(),
            line: line.into(),
            ran: true,
            held: false,
            ok,
            changes: true,
            output: output.into(),
            effects: vec![],
            read_back: None,
            shows: None,
            program: None,
        }
    }

    /// What the check tells for `request`, answered `answer` after calls that failed, when
    /// the loop stopped the task (`stopped`) or not.
    fn told(request: &str, answer: &str, stopped: bool) -> Option<Honest> {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(dir.path().join("done.txt"), "42\n").expect("write");
        let env = ShellEnv {
            home: dir.path().to_path_buf(),
            cwd: dir.path().to_path_buf(),
            user: "me".into(),
        };
        let request = Request::parse(request, &env);
        let mut evidence = Evidence::default();
        // One call wrote ~/done.txt before the calls that failed.
        evidence.push(CallEvidence {
            effects: vec![Effect::Created(dir.path().join("done.txt"))],
            ..call("shell", "✓ shell echo 42 > ~/done.txt", true, "")
        });
        for element in 20..24 {
            evidence.push(call(
                "ui_act",
                &format!("✗ ui_act click [{element}]"),
                false,
                &format!("there is no element {element}"),
            ));
        }
        StoppedShort
            .judge(&Case {
                request: &request,
                answer,
                evidence: &evidence,
                held_back: false,
                stopped: stopped.then_some(WHY),
                window: None,
                env: &env,
            })
            .map(|f| f.honest)
    }

    #[test]
    fn a_change_the_loop_stopped_is_said_not_finished_whatever_the_answer_claims() {
        for (request, answer) in [
            (
                "In the options window, open the Advanced tab, tick Verbose, then press Apply",
                "The Verbose check box was ticked and Apply was pressed.",
            ),
            (
                "type 'hello' into the Name field and press Save",
                "I found that the Name field was not filled in.",
            ),
            ("delete every .tmp file in ~/scratch", "Done."),
        ] {
            assert_eq!(
                told(request, answer, true),
                Some(Honest::Before(format!("I did not finish this: {WHY}"))),
                "{request}"
            );
            assert_eq!(told(request, answer, false), None, "not stopped: {request}");
        }
    }

    #[test]
    fn a_window_act_that_met_every_name_of_the_request_before_the_failures_stands() {
        let dir = tempfile::tempdir().expect("temp");
        let env = ShellEnv {
            home: dir.path().to_path_buf(),
            cwd: dir.path().to_path_buf(),
            user: "me".into(),
        };
        let request = Request::parse(
            "The Draft dialog asks whether to delete the draft: answer No",
            &env,
        );
        let judged = |met: bool, shown: crate::tool::Shown| {
            let mut evidence = Evidence::default();
            evidence.push(CallEvidence {
                read_back: Some(crate::tool::ReadBack {
                    request_met: met,
                    ..crate::tool::ReadBack::of(
                        "button \"No\" in \"Draft\"",
                        "Draft",
                        "press",
                        "press it",
                        shown,
                    )
                }),
                ..call("ui_act", "✓ ui_act press [3]", true, "")
            });
            for _ in 0..4 {
                evidence.push(call(
                    "ui_act",
                    "✗ ui_act press [3]",
                    false,
                    "element 3 is gone",
                ));
            }
            StoppedShort
                .judge(&Case {
                    request: &request,
                    answer: "I answered No.",
                    evidence: &evidence,
                    held_back: false,
                    stopped: Some(WHY),
                    window: None,
                    env: &env,
                })
                .is_some()
        };
        use crate::tool::Shown;
        assert!(!judged(true, Shown::Yes("the window closed".into())));
        assert!(judged(false, Shown::Yes("the window closed".into())));
        assert!(judged(true, Shown::No("it still shows".into())));
    }

    #[test]
    fn a_question_or_a_change_its_targets_show_stands() {
        // A question: its values are the other checks' to judge.
        assert_eq!(
            told("How many files are in ~/blue?", "There are 5.", true),
            None
        );
        // Every path the request asks to be written shows it (written before the failures).
        assert_eq!(
            told("write the answer into ~/done.txt", "I wrote 42.", true),
            None
        );
        // A target that does not exist does not show it.
        assert!(told("write the answer into ~/other.txt", "I wrote 42.", true).is_some());
    }
}
