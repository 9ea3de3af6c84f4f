//! The command line's rough edges, as a person meets them: no panic without a display or
//! on an unknown flag, `-v` is the version, a failure is said once, a call refused because
//! no terminal was attached says so (with the task's id, not an internal one), and
//! alsa-lib's and the keyring's own noise stays off the terminal.

use std::process::{Command, Output, Stdio};

use serde_json::json;
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

fn zeta_bare(home: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(args)
        .env("ZETA_HOME", home)
        .env("HOME", home)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("run zeta")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn no_display_unknown_flags_and_the_version_never_panic() {
    let home = tempfile::tempdir().expect("home");
    let app = zeta_bare(home.path(), &[]);
    let said = text(&app);
    assert_eq!(app.status.code(), Some(1), "{said}");
    assert!(said.contains("no display to open the window on"), "{said}");
    assert!(
        said.contains("zeta run"),
        "it says what to do instead: {said}"
    );
    assert_eq!(said.trim().lines().count(), 1, "one line: {said}");

    let flag = zeta_bare(home.path(), &["--bogus"]);
    let said = text(&flag);
    assert_eq!(flag.status.code(), Some(2), "{said}");
    assert!(said.contains("Usage: zeta"), "{said}");

    for v in ["-v", "-V", "--version"] {
        let out = zeta_bare(home.path(), &[v]);
        assert!(out.status.success(), "{v}");
        assert!(text(&out).starts_with("zeta "), "{v}: {}", text(&out));
    }
    for out in [&app, &flag] {
        assert!(!text(out).contains("panicked"), "{}", text(out));
    }
}

#[test]
fn doctor_keeps_library_noise_off_the_terminal() {
    let home = tempfile::tempdir().expect("home");
    let out = zeta_bare(home.path(), &["doctor"]);
    let said = text(&out);
    assert!(said.contains("microphone"), "{said}");
    assert!(!said.contains("ALSA lib"), "{said}");
    assert!(!said.contains("WARN"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_is_said_once_and_no_terminal_is_named_as_such() {
    let (_work, made, s) = touch_in_ask_mode("Zeta: could not make it").await;
    // No --approve and no terminal on stdin.
    let out = zeta_bare(s.home.path(), &["run", "make a file"]);
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!made.exists());
    assert!(said.contains("no terminal to ask you on"), "{said}");
    assert!(said.contains("task 1: the call was not approved"), "{said}");
    assert!(!said.contains("call_"), "no internal call ids: {said}");
    assert!(!said.contains("denied (user)"), "{said}");
    assert!(text_of(&s.requests()[1]).contains("no terminal to ask you on"));

    // A task that fails: its line once.
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        vec![Step::ServerError],
        json!({"provider": {"maxAttempts": 1}}),
    )
    .await;
    let out = zeta_bare(s.home.path(), &["run", "doomed"]);
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success());
    assert_eq!(said.matches("task 1 failed").count(), 1, "{said}");
}

/// A task whose calls were refused or failed says so, whatever the model claims: in
/// `zeta run` and in `zeta queue --json`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_and_failed_calls_are_told_whatever_the_reply_claims() {
    let work = tempfile::tempdir().expect("work");
    let made = work.path().join("made.txt");
    let steps = vec![
        Step::call("read_file", json!({"path": "/no/such/file"})),
        Step::call(
            "shell",
            json!({"command": format!("touch {}", made.display())}),
        ),
        Step::text("Zeta: I made the file."),
    ];
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        steps,
        json!({"permissions": {"mode": "ask"}}),
    )
    .await;
    let out = zeta_bare(s.home.path(), &["run", "--approve", "none", "make a file"]);
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!made.exists());
    assert!(
        said.contains("task 1 done, but 1 call was not allowed to run, 1 failed"),
        "{said}"
    );
    // Without a terminal: the exit code says something was refused, and which call.
    assert_eq!(out.status.code(), Some(3), "{said}");
    assert!(
        said.contains(&format!(
            "not done: shell `touch {}` was refused",
            made.display()
        )),
        "{said}"
    );
    let queue: Vec<serde_json::Value> =
        serde_json::from_slice(&zeta_bare(s.home.path(), &["queue", "--json"]).stdout)
            .expect("queue json");
    assert_eq!(queue[0]["deniedCalls"], 1, "{}", queue[0]);
    assert_eq!(queue[0]["failedCalls"], 1, "{}", queue[0]);
    let table = String::from_utf8_lossy(&zeta_bare(s.home.path(), &["queue"]).stdout).to_string();
    assert!(
        table.contains("!! 1 call was not allowed to run, 1 failed"),
        "{table}"
    );
}

/// `zeta run --json` ends with the run's outcome: what was refused, and the exit code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_call_is_in_the_json_and_the_exit_code() {
    let (_work, made, s) = touch_in_ask_mode("Zeta: I made the file.").await;
    let out = zeta_bare(
        s.home.path(),
        &["run", "--json", "--approve", "none", "make a file"],
    );
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let outcome = events(&out)
        .into_iter()
        .find(|e| e["type"] == "runOutcome")
        .expect("a runOutcome line");
    assert_eq!(outcome["exitCode"], 3, "{outcome}");
    assert_eq!(outcome["refused"][0]["tool"], "shell", "{outcome}");
    assert_eq!(
        outcome["refused"][0]["decision"], "asked-denied",
        "{outcome}"
    );
    assert!(
        outcome["refused"][0]["target"]
            .as_str()
            .unwrap_or_default()
            .contains("made.txt"),
        "{outcome}"
    );
    assert!(!made.exists());
}

/// `zeta run` beside a running Zeta (the app, here a worker holding the queue) hands its
/// task over and waits for it: no false "the queue worker stopped" on the way, and the
/// reply and a clean exit at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zeta_run_beside_a_running_zeta_says_no_false_error() {
    let s = Setup::new(
        Wire::OpenAi,
        Proto::Native,
        vec![Step::text("Zeta: hello from the app")],
    )
    .await;
    let (core, _events, handle) = s.spawn();
    let home = s.home.path().to_path_buf();
    let out = tokio::task::spawn_blocking(move || zeta_bare(&home, &["run", "say hello"]))
        .await
        .expect("zeta run");
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("another Zeta"), "{said}");
    assert!(
        !said.contains("stopped") && !said.contains("Restart Zeta"),
        "a handover is no failure: {said}"
    );
    assert!(said.contains("Zeta: hello from the app"), "{said}");
    core.submit(zeta_core::Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
}
