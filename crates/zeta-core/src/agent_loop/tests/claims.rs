//! An answer that claims a file was written is checked against the file: sent back with
//! what the file holds (twice at most), and when the model insists, the answer carries
//! what the check found. A true claim goes through untouched.

use serde_json::json;

use super::scripted::{run_given, settings, text, Given, Person};
use crate::agent::AgentOutcome;
use crate::policy::PermissionMode::Auto;

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

#[tokio::test]
async fn a_claimed_write_the_file_contradicts_goes_back_then_stands_with_the_facts() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("lines.txt");
    std::fs::write(&target, "4\n").unwrap();
    let path = target.display().to_string();
    let count = json!({"command": "wc -l poem.txt"}).to_string();
    let script = vec![
        Ok(text(&count)),
        Ok(text(&answer(&path))),
        Ok(text(&answer(&path))),
        Ok(text(&answer(&path))),
    ];
    let given = Given {
        message: format!("Count the lines of poem.txt and save the number in {path}"),
        small: true,
        ..Given::default()
    };
    let ran = run_given(small_planner(), script, Person::Approves, given).await;
    let told = format!(
        "Checked on this computer: {path} holds \"4\", not 7. Your answer says it is done, but \
         it is not. Run the command that does it now: echo 7 > {path}, or answer"
    );
    // Sent back twice with the file's content, then it stands with what was found.
    for n in [2, 3] {
        let sent = ran.model.request_text(n);
        assert!(sent.contains(&told), "request {n}: {sent}");
    }
    assert_eq!(ran.model.requests.lock().unwrap().len(), 4);
    match &ran.outcome {
        AgentOutcome::Done { reply } => {
            assert!(reply.contains("I wrote 7"), "{reply}");
            assert!(
                reply.contains(&format!(
                    "(Checked on this computer: {path} holds \"4\", not 7.)"
                )),
                "{reply}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_claimed_write_the_file_bears_out_is_not_sent_back() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("lines.txt");
    std::fs::write(&target, "7\n").unwrap();
    let path = target.display().to_string();
    let script = vec![
        Ok(text(&json!({"command": "wc -l poem.txt"}).to_string())),
        Ok(text(&answer(&path))),
        // The usual check where it pays (a request in two parts), answered yes.
        Ok(text(
            &json!({"checked": "yes", "next_command": "", "unable": ""}).to_string(),
        )),
    ];
    let given = Given {
        message: format!("Count the lines of poem.txt and save the number in {path}"),
        small: true,
        ..Given::default()
    };
    let ran = run_given(small_planner(), script, Person::Approves, given).await;
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

/// A change the person denied changed nothing: an answer claiming it goes back as a claim
/// no call bears out (seen: "The file was copied into ~/backup" after a denied `cp`).
#[tokio::test]
async fn a_claimed_change_after_a_denied_one_goes_back() {
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
        sent.contains(crate::agent_loop::prompt::CLAIMED_CHANGE_PROMPT),
        "{sent}"
    );
    match &ran.outcome {
        AgentOutcome::Done { reply } => assert!(reply.starts_with("Nothing was copied"), "{reply}"),
        other => panic!("{other:?}"),
    }
}
