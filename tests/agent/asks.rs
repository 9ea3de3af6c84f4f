//! The design's own tools, through the real `zeta` binary against the scripted model:
//! `ask_user` answered on the terminal, and told at once that no answer is coming in a
//! run nobody can answer; `report_progress` shown as a status line; `update_settings`
//! saving a valid change the user approved, refusing an invalid one and a denied one
//! without touching the file.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

/// `zeta run --json --approve APPROVE TASK` with `stdin` typed in.
fn run_with_stdin(s: &Setup, approve: &str, task: &str, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(["run", "--json", "--approve", approve, task])
        .env("ZETA_HOME", s.home.path())
        .env("HOME", s.home.path())
        .env_remove("ZETA_LLM_PROVIDER")
        .env_remove("ZETA_LLM_BASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zeta run");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("type the answer");
    }
    child.wait_with_output().expect("zeta run ends")
}

fn of_type(out: &Output, kind: &str) -> Vec<Value> {
    events(out)
        .into_iter()
        .filter(|e| e["type"] == kind)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_is_answered_on_the_terminal_or_told_no_answer_is_coming() {
    for proto in PROTOS {
        let question = json!({"question": "Which file do you mean?"});
        let steps = vec![
            tool_step(proto, "ask_user", question.clone()),
            step(&answer("You mean report.txt."), proto),
        ];
        let s = Setup::new(Wire::OpenAi, proto, steps).await;
        let out = run_with_stdin(&s, "ask", "Open my file", "report.txt\n");
        let task = finished_task(&out);
        assert_eq!(task["status"], "done", "{proto:?}: {task}");
        let asked = of_type(&out, "questionAsked");
        assert_eq!(asked.len(), 1, "{proto:?}");
        assert_eq!(asked[0]["question"], "Which file do you mean?");
        assert_eq!(of_type(&out, "questionAnswered")[0]["answered"], true);
        let requests = s.requests();
        assert!(
            text_of(&requests[1]).contains("The user answered: report.txt"),
            "{proto:?}: {}",
            text_of(&requests[1])
        );
        assert!(
            !text_of(&requests[1]).contains("untrusted_data>The user answered"),
            "the user's own words are not marked untrusted"
        );

        // A script's run: nobody can answer, and the model hears so at once.
        let steps = vec![
            tool_step(proto, "ask_user", question.clone()),
            step(&answer("I need to know which file."), proto),
        ];
        let s = Setup::new(Wire::OpenAi, proto, steps).await;
        let out = s.zeta_run("Open my file");
        let task = finished_task(&out);
        assert_eq!(task["status"], "done");
        // The answer says what the agent needed to know.
        assert_eq!(
            task["reply"],
            "I need to know which file.\n\nI needed to ask you: Which file do you mean? (no answer came)",
            "{proto:?}"
        );
        assert_eq!(of_type(&out, "questionAnswered")[0]["answered"], false);
        assert!(
            text_of(&s.requests()[1]).contains("No answer is coming"),
            "{proto:?}"
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("nobody can answer"));

        // Asking again after that is pointless: the second question is not asked, and
        // the model is asked for its answer at once.
        let steps = vec![
            tool_step(proto, "ask_user", question.clone()),
            tool_step(proto, "ask_user", json!({"question": "Which folder then?"})),
            step(&answer("I need to know which file."), proto),
        ];
        let s = Setup::new(Wire::OpenAi, proto, steps).await;
        let out = s.zeta_run("Open my file");
        let task = finished_task(&out);
        assert_eq!(task["status"], "done", "{proto:?}: {task}");
        assert_eq!(of_type(&out, "questionAsked").len(), 1, "{proto:?}");
        let requests = s.requests();
        assert_eq!(requests.len(), 3, "{proto:?}");
        assert!(
            text_of(&requests[2]).contains("Not asked: nobody can answer questions in this run"),
            "{proto:?}: {}",
            text_of(&requests[2])
        );
        assert!(
            task["reply"]
                .as_str()
                .is_some_and(|r| r.starts_with("I need to know which file.")),
            "{task}"
        );

        // With no answer, a change would rest on a guess: it is refused, not run, and the
        // answer that follows stands with no check turn.
        let guess = fresh_path("guessed.txt");
        let steps = vec![
            tool_step(proto, "ask_user", question.clone()),
            tool_step(
                proto,
                "shell",
                json!({"command": format!("touch {}", guess.display())}),
            ),
            step(&answer("I need to know which file."), proto),
        ];
        let s = Setup::new(Wire::OpenAi, proto, steps).await;
        let out = s.zeta_run("Rename my file");
        let task = finished_task(&out);
        assert_eq!(task["status"], "done", "{proto:?}: {task}");
        assert!(!guess.exists(), "{proto:?}: the guessed change ran");
        let requests = s.requests();
        assert_eq!(requests.len(), 3, "{proto:?}: a check turn followed");
        assert!(
            text_of(&requests[2]).contains("your question to the user went unanswered"),
            "{proto:?}: {}",
            text_of(&requests[2])
        );
    }
}

/// A file in a fresh temporary folder, to see whether a refused command ran.
fn fresh_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("zeta-asks-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_is_shown_and_an_empty_line_is_refused() {
    let steps = vec![
        Step::call("report_progress", json!({"text": "Counting the files"})),
        Step::call("report_progress", json!({"text": "  "})),
        Step::text("Done."),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let out = s.zeta(&["run", "--approve", "all", "Count my files"]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Counting the files"), "{stderr}");
    let requests = s.requests();
    assert!(text_of(&requests[1]).contains("Shown to the user."));
    assert!(text_of(&requests[2]).contains("report_progress needs a non-empty"));
    let out = s.zeta(&["audit", "--json"]);
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).expect("audit json");
    assert_eq!(
        rows.iter()
            .filter(|r| r["tool"] == "report_progress")
            .count(),
        2
    );
}

fn settings_text(s: &Setup) -> String {
    std::fs::read_to_string(s.home.path().join("settings.json")).expect("settings.json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_settings_change_is_asked_about_validated_and_saved_or_nothing_changes() {
    for proto in PROTOS {
        let change =
            |changes: Value| tool_step(proto, "update_settings", json!({ "changes": changes }));
        // Approved and valid: saved, and the next task runs with it.
        let steps = vec![
            change(json!({"commandTimeoutMs": 60000})),
            step(&answer("The command timeout is now 60 seconds."), proto),
        ];
        let s = Setup::new(Wire::OpenAi, proto, steps).await;
        let out = s.zeta_run("Make the command timeout 60 seconds");
        assert_eq!(finished_task(&out)["status"], "done");
        assert_eq!(
            of_type(&out, "approvalRequested").len(),
            1,
            "{proto:?}: asked though the mode is auto"
        );
        let saved: Value = serde_json::from_str(&settings_text(&s)).expect("json");
        assert_eq!(saved["commandTimeoutMs"], 60000, "{proto:?}");
        assert!(text_of(&s.requests()[1]).contains("commandTimeoutMs is now 60000"));

        // Invalid: a wrong type, an out-of-range value, and a field that does not exist.
        for bad in [
            json!({"commandTimeoutMs": "soon"}),
            json!({"maxIterations": 0}),
            json!({"commandTimeout": 60}),
        ] {
            let steps = vec![
                change(bad.clone()),
                step(&answer("That setting could not be changed."), proto),
            ];
            let s = Setup::new(Wire::OpenAi, proto, steps).await;
            let before = settings_text(&s);
            let out = s.zeta_run("Change a setting");
            assert_eq!(finished_task(&out)["status"], "done");
            assert_eq!(
                settings_text(&s),
                before,
                "{proto:?} {bad}: the file changed"
            );
            let told = text_of(&s.requests()[1]);
            assert!(
                told.contains("Not saved, nothing changed"),
                "{proto:?} {bad}: {told}"
            );
        }

        // Denied: nothing is written.
        let steps = vec![
            change(json!({"commandTimeoutMs": 60000})),
            step(&answer("You did not allow it."), proto),
        ];
        let s = Setup::new(Wire::OpenAi, proto, steps).await;
        let before = settings_text(&s);
        let out = s.zeta(&[
            "run",
            "--json",
            "--approve",
            "none",
            "Make the timeout 60 s",
        ]);
        assert_eq!(finished_task(&out)["status"], "done");
        assert_eq!(settings_text(&s), before, "{proto:?}: denied yet changed");
        assert!(text_of(&s.requests()[1]).contains("denied"), "{proto:?}");
    }
}
