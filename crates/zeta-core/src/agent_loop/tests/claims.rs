//! An answer held against what the task's calls did: a write the request asks for that no
//! call made goes back with the evidence (twice at most), and the person is then told
//! what happened instead of the claim; a write the calls made stands untouched; a change
//! the person denied is said to be not done.

use std::sync::Arc;

use serde_json::{json, Value};

use super::scripted::{run_given, settings, text, Given, Person};
use crate::agent::AgentOutcome;
use crate::model::ToolSpec;
use crate::policy::PermissionMode::Auto;
use crate::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

fn small_planner() -> crate::settings::Settings {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    s.verify = crate::settings::Verify::Auto;
    s
}

fn answer(path: &str) -> String {
    json!({"command": "", "reply": format!("There are 7 lines; I wrote 7 into {path}.")})
        .to_string()
}

/// A tool that writes `text` into `path`, for real.
struct WriteNote;

impl Tool for WriteNote {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "write_note".into(),
            description: "write a file".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}},
                "required": ["path", "text"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        false
    }
    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let path = arguments["path"].as_str().unwrap_or_default().to_string();
            let text = arguments["text"].as_str().unwrap_or_default().to_string();
            match std::fs::write(&path, text) {
                Ok(()) => ToolOutput::ok("written", "written"),
                Err(e) => ToolOutput::error(format!("{e}")),
            }
        })
    }
}

#[tokio::test]
async fn a_write_no_call_made_goes_back_then_the_person_is_told_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("lines.txt");
    std::fs::write(&target, "4\n").unwrap();
    let path = target.display().to_string();
    let count =
        json!({"command": "", "tool": "touch", "args": {"command": "wc -l poem.txt"}}).to_string();
    let script = vec![
        Ok(text(&count)),
        Ok(text(&answer(&path))),
        Ok(text(&answer(&path))),
        Ok(text(&answer(&path))),
        Ok(text(&answer(&path))),
    ];
    let given = Given {
        message: format!("Count the lines of poem.txt and save the number into {path}"),
        small: true,
        ..Given::default()
    };
    let ran = run_given(small_planner(), script, Person::Approves, given).await;
    let told = format!("Checked on this computer: {path} was not written during this task.");
    for n in [2, 3] {
        let sent = ran.model.request_text(n);
        assert!(sent.contains(&told), "request {n}: {sent}");
    }
    // Twice for the write; once more for the 7 no output printed (the tool said "done").
    assert_eq!(ran.model.requests.lock().unwrap().len(), 5);
    assert!(ran.model.request_text(4).contains("no output shows 7"));
    match &ran.outcome {
        AgentOutcome::Done { reply } => {
            assert!(reply.starts_with("I did not finish this"), "{reply}");
            assert!(
                reply.contains(&format!("{path} was not written")),
                "{reply}"
            );
            assert!(
                !reply.contains("I wrote 7"),
                "the claim is not shown as done: {reply}"
            );
        }
        other => panic!("{other:?}"),
    }
    let checks: Vec<(String, zeta_protocol::CheckResult)> = ran
        .events
        .iter()
        .filter_map(|e| match e {
            zeta_protocol::Event::AnswerChecked { check, result, .. } => {
                Some((check.clone(), *result))
            }
            _ => None,
        })
        .collect();
    use zeta_protocol::CheckResult::{SentBack, Told};
    assert_eq!(
        checks,
        [
            ("asked-target".to_string(), SentBack),
            ("asked-target".to_string(), SentBack),
            ("ungrounded-value".to_string(), SentBack),
            ("asked-target".to_string(), Told)
        ],
        "each judgement is an event, by the check's name"
    );
}

#[tokio::test]
async fn a_write_the_calls_made_is_not_sent_back() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("lines.txt");
    let path = target.display().to_string();
    let script = vec![
        Ok(text(
            &json!({"command": "", "tool": "write_note", "args": {"path": path, "text": "7"}})
                .to_string(),
        )),
        Ok(text(&answer(&path))),
        Ok(text(
            &json!({"checked": "yes", "next_command": "", "unable": ""}).to_string(),
        )),
    ];
    let given = Given {
        message: format!("Write the number 7 into {path}"),
        small: true,
        tools: vec![Arc::new(WriteNote)],
        ..Given::default()
    };
    let ran = run_given(small_planner(), script, Person::Approves, given).await;
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "7");
    let requests = ran.model.requests.lock().unwrap().len();
    for n in 0..requests {
        assert!(!ran
            .model
            .request_text(n)
            .contains("Checked on this computer"));
    }
    match &ran.outcome {
        AgentOutcome::Done { reply } => {
            assert_eq!(reply, &format!("There are 7 lines; I wrote 7 into {path}."));
        }
        other => panic!("{other:?}"),
    }
}

/// A change the person denied changed nothing: the answer goes back once to say so, and
/// the person reads that it was not done.
#[tokio::test]
async fn a_change_the_person_denied_is_said_to_be_not_done() {
    let script = vec![
        Ok(text(
            &json!({"tool": "touch", "args": {"command": "cp a.txt keep/"}, "command": ""})
                .to_string(),
        )),
        Ok(text(
            &json!({"command": "", "reply": "The file was copied into the folder keep."})
                .to_string(),
        )),
        Ok(text(
            &json!({"command": "", "reply": "Nothing was copied: the copy was denied."})
                .to_string(),
        )),
    ];
    let given = Given {
        message: "Copy a.txt into the folder keep".into(),
        small: true,
        ..Given::default()
    };
    let mut s = small_planner();
    s.permissions.mode = crate::policy::PermissionMode::Ask;
    let ran = run_given(s, script, Person::Denies, given).await;
    assert!(ran.runs.is_empty(), "the denied call did not run");
    let sent = ran.model.request_text(2);
    assert!(
        sent.contains("A change was not allowed, so it is not done"),
        "{sent}"
    );
    match &ran.outcome {
        AgentOutcome::Done { reply } => {
            assert!(
                reply.starts_with("Not done: a change was not allowed"),
                "{reply}"
            );
            assert!(reply.contains("Nothing was copied"), "{reply}");
        }
        other => panic!("{other:?}"),
    }
}
