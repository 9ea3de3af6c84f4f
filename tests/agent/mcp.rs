//! MCP servers end to end: real servers on the official Python SDK (tests/mcp/servers,
//! over stdio and streamable HTTP), the real `zeta` binary, and the scripted model calling
//! their tools. The write asks and runs when approved and not when denied; `isError` is a
//! failure; a hang times out and Cancel stops it; an image reaches the model as an image;
//! a crash, a missing command, garbage on stdout and a malformed entry each give a clear
//! error while the other servers work; the request carries only the tools that fit it;
//! and nothing is left running.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_core::{Event, Op};
use zeta_scripted_llm::{Step, Wire};
use zeta_test_support::procs::processes_using;

use crate::harness::*;

/// The Python with the `mcp` SDK (scripts/mcp-python.sh), or `None` with the reason
/// printed; the README's test command sets `ZETA_MCP_REQUIRED`, which makes it a failure.
fn python() -> Option<String> {
    let found = std::env::var("ZETA_MCP_PYTHON").ok().or_else(|| {
        let home = std::env::var("HOME").ok()?;
        let p = PathBuf::from(home).join(".cache/zeta/mcp-venv/bin/python");
        p.exists().then(|| p.display().to_string())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("ZETA_MCP_REQUIRED").is_none(),
            "ZETA_MCP_REQUIRED is set but there is no Python with `mcp` (scripts/mcp-python.sh)"
        );
        eprintln!("SKIPPED: no Python with the `mcp` SDK; scripts/mcp-python.sh makes one");
    }
    found
}

fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mcp/servers")
        .join(name)
        .display()
        .to_string()
}

fn notes_server(py: &str, notes: &Path, extra: Value) -> Value {
    let mut entry = json!({"command": py, "args": [script("test_server.py"), "stdio", notes]});
    if let (Some(e), Value::Object(extra)) = (entry.as_object_mut(), extra) {
        e.extend(extra);
    }
    entry
}

/// The tool names a request offered (native tools).
fn offered(r: &zeta_scripted_llm::Recorded) -> Vec<String> {
    r.body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The tool results the model was sent in the request at `i` (OpenAI wire).
fn tool_results(r: &zeta_scripted_llm::Recorded) -> Vec<String> {
    r.body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].to_string())
        .collect()
}

fn assert_nothing_left(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_using(dir);
        if left.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "MCP server processes left running: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Read (trusted read-only: no question), write (asks; approved), fail (a failure the
/// model reads), picture (an image the model sees); then the same write denied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_tools_run_through_the_gate_and_their_results_reach_the_model() {
    let Some(py) = python() else { return };
    let notes = tempfile::tempdir().expect("notes");
    std::fs::write(notes.path().join("a.txt"), "the meeting is at 3pm").expect("note");
    let steps = vec![
        Step::call("notes__read_note", json!({"name": "a.txt"})),
        Step::call(
            "notes__write_note",
            json!({"name": "b.txt", "text": "hello"}),
        ),
        Step::call("notes__fail", json!({"reason": "the disk is full"})),
        Step::call("notes__picture", json!({})),
        Step::text("Done: read a.txt, wrote b.txt, one failure, one picture."),
    ];
    let settings = json!({
        "permissions": {"mode": "ask"},
        "mcpServers": {"notes": notes_server(&py, notes.path(), json!({"trustReadOnly": true}))},
    });
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    let out = s.zeta_run(
        "read note a.txt, write a note b.txt, fail because the disk is full, and draw a picture",
    );
    let task = finished_task(&out);
    assert_eq!(
        task["status"],
        "done",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(notes.path().join("b.txt")).expect("b.txt written"),
        "hello"
    );
    s.assert_invariants();
    let requests = s.requests();
    let tools = offered(&requests[0]);
    for t in [
        "notes__read_note",
        "notes__write_note",
        "notes__fail",
        "notes__picture",
    ] {
        assert!(tools.contains(&t.to_string()), "{t} offered: {tools:?}");
    }
    assert!(
        !tools.contains(&"notes__hang".to_string()),
        "a tool that does not fit the request is not offered: {tools:?}"
    );
    let results = tool_results(&requests[4]);
    assert!(
        results[0].contains("the meeting is at 3pm") && results[0].contains("untrusted_data"),
        "{results:?}"
    );
    assert!(results[1].contains("saved 5 characters"), "{results:?}");
    assert!(
        results[2].contains("reported an error") && results[2].contains("the disk is full"),
        "{results:?}"
    );
    let last = text_of(&requests[4]);
    assert!(
        last.contains("data:image/png;base64,iVBORw0KGgo"),
        "the picture reaches the model as an image"
    );
    let rows = audit_rows(&s);
    let row = |tool: &str| {
        rows.iter()
            .find(|r| r.0 == tool)
            .cloned()
            .unwrap_or_else(|| panic!("no audit row for {tool}: {rows:?}"))
    };
    assert_eq!(row("notes__read_note").1, "allowed", "{rows:?}");
    assert_eq!(
        row("notes__write_note").2,
        "user",
        "the write asked: {rows:?}"
    );
    assert_eq!(row("notes__fail").1, row("notes__write_note").1);

    // The same write, denied: nothing is written.
    let steps = vec![
        Step::call("notes__write_note", json!({"name": "c.txt", "text": "no"})),
        Step::text("The write was refused."),
    ];
    let settings = json!({"permissions": {"mode": "ask"}, "mcpServers": {"notes": notes_server(&py, notes.path(), json!({}))}});
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    let out = s.zeta(&["run", "--json", "--approve", "none", "write a note c.txt"]);
    finished_task(&out);
    assert!(
        !notes.path().join("c.txt").exists(),
        "a denied write does not run"
    );
    let rows = audit_rows(&s);
    assert!(
        rows.iter()
            .any(|r| r.0 == "notes__write_note" && r.1 == "asked-denied"),
        "{rows:?}"
    );
    assert_nothing_left(notes.path());
}

/// A call that never answers times out at the server's limit; the next one is Cancelled
/// by the user while it hangs, and the task stops at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_call_times_out_and_cancel_stops_it() {
    let Some(py) = python() else { return };
    let notes = tempfile::tempdir().expect("notes");
    let entry = notes_server(
        &py,
        notes.path(),
        json!({"timeoutSecs": 2, "trustReadOnly": true}),
    );
    let steps = vec![
        Step::call("notes__hang", json!({})),
        Step::call("notes__hang", json!({"label": "again"})),
        Step::text("unreached"),
    ];
    let settings = json!({"mcpServers": {"notes": entry}});
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    let (core, mut events, handle) = s.spawn();
    core.submit(Op::EnqueueTask {
        message: "call the hang tool".into(),
        sender: "test".into(),
    })
    .expect("enqueue");
    let started = notes.path().join("hang.started");
    let (mut timed_out, mut cancelled_at, mut task_id) = (false, None, 0);
    let outcome = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let event = tokio::select! {
                e = events.recv() => e,
                _ = tokio::time::sleep(Duration::from_millis(50)) => {
                    // The second call hangs: the user cancels.
                    if timed_out && cancelled_at.is_none() && started.exists() {
                        core.submit(Op::CancelTask { id: task_id }).expect("cancel");
                        cancelled_at = Some(Instant::now());
                    }
                    continue;
                }
            };
            match event {
                Ok(Event::ToolCallFinished {
                    output,
                    task_id: id,
                    ..
                }) if !timed_out => {
                    assert!(output.contains("did not answer within 2 s"), "{output}");
                    std::fs::remove_file(&started).expect("the first call had started");
                    (timed_out, task_id) = (true, id);
                }
                Ok(Event::ApprovalRequested { call_id, .. }) => core
                    .submit(Op::Approve {
                        call_id,
                        steps: Vec::new(),
                        scope: zeta_core::ApprovalScope::Once,
                    })
                    .expect("approve"),
                Ok(Event::TaskFinished { task }) => return task,
                Ok(_) => {}
                Err(e) => panic!("events: {e}"),
            }
        }
    })
    .await
    .expect("the task ends");
    assert_eq!(outcome.status, zeta_core::TaskStatus::Cancelled);
    let waited = cancelled_at.expect("cancelled").elapsed();
    assert!(
        waited < Duration::from_secs(2),
        "Cancel did not wait for the call's limit: {waited:?}"
    );
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    assert_nothing_left(notes.path());
}
