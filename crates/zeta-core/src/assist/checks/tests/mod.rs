//! Tests of the answer checks: the shared fixtures and the finisher here, each family
//! of checks in its own file.

mod answers;
mod effects;
mod entered;
mod second_way;
mod window;

use super::*;
use crate::assist::evidence::{CallEvidence, Effect};
use std::path::PathBuf;

struct Fixture {
    dir: tempfile::TempDir,
    env: ShellEnv,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("temp");
    let env = ShellEnv {
        home: dir.path().to_path_buf(),
        cwd: dir.path().to_path_buf(),
        user: "me".into(),
    };
    Fixture { dir, env }
}

fn call(line: &str, changes: bool, ok: bool, output: &str, effects: Vec<Effect>) -> CallEvidence {
    CallEvidence::shell(line, changes, ok, output, effects)
}

fn judge(
    check: &dyn Check,
    f: &Fixture,
    request: &str,
    answer: &str,
    calls: Vec<CallEvidence>,
) -> Option<Finding> {
    judge_in(check, f, request, answer, calls, None)
}

/// `judge`, in a task about the window titled `window` (read for the model), or none.
fn judge_in(
    check: &dyn Check,
    f: &Fixture,
    request: &str,
    answer: &str,
    calls: Vec<CallEvidence>,
    window: Option<&str>,
) -> Option<Finding> {
    let request = Request::parse(request, &f.env);
    let mut evidence = Evidence::default();
    calls.into_iter().for_each(|c| evidence.push(c));
    check.judge(&Case {
        request: &request,
        answer,
        evidence: &evidence,
        held_back: false,
        stopped: None,
        window,
        env: &f.env,
    })
}

fn p(f: &Fixture, rel: &str) -> PathBuf {
    f.dir.path().join(rel)
}

#[test]
fn the_finisher_sends_back_up_to_each_cap_then_tells_the_person() {
    let f = fixture();
    let request = Request::parse("How many lines are in ~/poem.txt?", &f.env);
    let mut evidence = Evidence::default();
    evidence.push(call(
        "✓ shell wc -l ~/poem.txt",
        false,
        true,
        "137 /home/me/poem.txt",
        vec![],
    ));
    let case = Case {
        request: &request,
        answer: "It has 1 line.",
        evidence: &evidence,
        held_back: false,
        stopped: None,
        window: None,
        env: &f.env,
    };
    // The caps of one check (`second-way` would ask for a program after it).
    let mut finisher = Finisher::new(standard_without(&["second-way".to_string()]));
    assert!(matches!(
        finisher.judge(&case),
        Judged::Back {
            check: "ungrounded-value",
            ..
        }
    ));
    assert!(finisher.has_sent("ungrounded-value"));
    match finisher.judge(&case) {
        Judged::Honest(told) => {
            assert_eq!(told.len(), 1, "{told:?}");
            assert_eq!(told[0].0, "ungrounded-value");
        }
        other => panic!("{other:?}"),
    }
    let good = Case {
        answer: "137 lines",
        ..case
    };
    assert_eq!(finisher.judge(&good), Judged::Stands);
}

#[test]
fn every_check_has_a_unique_name_and_a_cap() {
    let checks = standard();
    let mut names: Vec<&str> = checks.iter().map(|c| c.name()).collect();
    // Only a check that tells and never sends back has no cap: one that sends back has one.
    assert!(checks.iter().all(|c| c.cap() >= 1
        || [
            "changes-unsaid",
            "stopped-short",
            "window-closed-short",
            "text-dropped"
        ]
        .contains(&c.name())));
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), checks.len());
}

fn act(element: &str, shown: crate::tool::Shown) -> CallEvidence {
    CallEvidence {
        output: String::new(),
        ..CallEvidence::act_read_back(crate::tool::ReadBack::of(
            element,
            "Print",
            "set_text",
            "set its text to \"7\"",
            shown,
        ))
    }
}
