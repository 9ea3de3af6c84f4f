//! MCP servers end to end: real servers on the official Python SDK (tests/mcp/servers,
//! over stdio and streamable HTTP), the real `zeta` binary, and the scripted model calling
//! their tools. The write asks and runs when approved and not when denied; `isError` is a
//! failure; a hang times out and Cancel stops it; an image reaches the model as an image;
//! a crash, a missing command, garbage on stdout and a malformed entry each give a clear
//! error while the other servers work; the request carries only the tools that fit it;
//! and nothing is left running.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_core::{Event, Op};
use zeta_scripted_llm::{Step, Wire};
use zeta_test_support::procs::processes_using;

use crate::harness::*;

fn python() -> Option<String> {
    zeta_test_support::mcp::python("an MCP scenario")
}

fn script(name: &str) -> String {
    zeta_test_support::mcp::server_script(name)
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
    // Its descriptions reviewed: this test is about the calls.
    review(&s, "notes");
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

    // Without `trustReadOnly` even the read-only tool asks; denied, like the write,
    // neither runs.
    let steps = vec![
        Step::call("notes__read_note", json!({"name": "a.txt"})),
        Step::call("notes__write_note", json!({"name": "c.txt", "text": "no"})),
        Step::text("The write was refused."),
    ];
    let settings = json!({"permissions": {"mode": "ask"}, "mcpServers": {"notes": notes_server(&py, notes.path(), json!({}))}});
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    let out = s.zeta(&[
        "run",
        "--json",
        "--approve",
        "none",
        "read note a.txt and write a note c.txt",
    ]);
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

/// A free port on 127.0.0.1.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// A server over streamable HTTP, started by the test and ended by its PID.
struct HttpServer {
    child: std::process::Child,
    url: String,
}

impl HttpServer {
    fn start(py: &str, notes: &Path) -> Self {
        let port = free_port();
        let child = std::process::Command::new(py)
            .args([
                &script("test_server.py"),
                "http",
                &notes.display().to_string(),
                &port.to_string(),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the HTTP MCP server");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the HTTP MCP server did not listen"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Self {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A streamable-HTTP server's tools work like a stdio server's, in the JSON planner
/// protocol too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamable_http_server_works_in_both_protocols() {
    let Some(py) = python() else { return };
    let notes = tempfile::tempdir().expect("notes");
    std::fs::write(notes.path().join("todo.txt"), "buy milk").expect("note");
    let http = HttpServer::start(&py, notes.path());
    for proto in PROTOS {
        let steps = vec![
            tool_step(proto, "web__read_note", json!({"name": "todo.txt"})),
            step(&answer("The note says: buy milk"), proto),
        ];
        let settings = json!({"mcpServers": {"web": {"url": http.url, "trustReadOnly": true}}});
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, settings).await;
        let out = s.zeta_run("read my note todo.txt");
        let task = finished_task(&out);
        assert_eq!(
            task["reply"],
            "The note says: buy milk",
            "{proto:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let second = text_of(&s.requests()[1]);
        assert!(
            second.contains("buy milk"),
            "{proto:?}: the tool's result reached the model"
        );
        if proto == Proto::Json {
            let first = text_of(&s.requests()[0]);
            assert!(
                first.contains("web__read_note"),
                "the planner prompt names the tool"
            );
        }
    }
}

/// A server that crashes mid-call, one whose command does not exist, one that prints
/// garbage on stdout and a malformed entry: each is a clear error, the task goes on
/// with the server that works, and nothing is left running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_servers_fail_clearly_and_the_others_still_work() {
    let Some(py) = python() else { return };
    let notes = tempfile::tempdir().expect("notes");
    std::fs::write(notes.path().join("a.txt"), "still here").expect("note");
    let crashy_notes = notes.path().join("crashy");
    let steps = vec![
        Step::call("crashy__crash", json!({})),
        Step::call("notes__read_note", json!({"name": "a.txt"})),
        Step::call("crashy__read_note", json!({"name": "a.txt"})),
        Step::text("The crashy server crashed; the note says: still here"),
    ];
    let settings = json!({"mcpServers": {
        "notes": notes_server(&py, notes.path(), json!({"trustReadOnly": true})),
        "crashy": notes_server(&py, &crashy_notes, json!({"trustReadOnly": true})),
        "missing": {"command": notes.path().join("no-such-program").display().to_string()},
        "garbage": {"command": py, "args": [script("garbage_server.py"), notes.path()], "timeoutSecs": 3},
        "malformed": {"args": ["no command"]},
    }});
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    let started = Instant::now();
    let out = s.zeta_run("crash the server, then read note a.txt");
    let task = finished_task(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(task["status"], "done", "{stderr}");
    let requests = s.requests();
    let tools = offered(&requests[0]);
    assert!(tools.iter().any(|t| t == "notes__read_note"), "{tools:?}");
    assert!(
        !tools
            .iter()
            .any(|t| t.starts_with("missing__") || t.starts_with("garbage__")),
        "{tools:?}"
    );
    // The model is told which servers could not start, and why.
    let first = text_of(&requests[0]);
    for said in ["`missing`", "could not start", "`garbage`"] {
        assert!(first.contains(said), "{said}: {first}");
    }
    let results = tool_results(&requests[3]);
    assert!(
        results[0].contains("stopped during the call")
            && results[0].contains("started again at its next use"),
        "{results:?}"
    );
    assert!(results[1].contains("still here"), "{results:?}");
    // The crashed server was started again for the next call to it (its folder has no
    // a.txt: its own answer says so).
    assert!(results[2].contains("no note named a.txt"), "{results:?}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "a broken server held the task up: {:?}",
        started.elapsed()
    );
    assert!(
        stderr.contains("mcpServers.malformed"),
        "the malformed entry is named: {stderr}"
    );
    assert_nothing_left(notes.path());
    s.assert_invariants();
}

/// Three servers and twenty tools: a task about files is offered the file tools only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_is_offered_only_the_tools_that_fit_it() {
    let Some(py) = python() else { return };
    let marker = tempfile::tempdir().expect("marker");
    let many = |name: &str, count: u32, topic: &str| json!({"command": py, "args": [script("test_server.py"), "many", name, count.to_string(), topic, marker.path()]});
    let settings = json!({"mcpServers": {
        "docs": many("docs", 8, "file"),
        "sky": many("sky", 6, "weather"),
        "cal": many("cal", 6, "calendar"),
    }});
    for proto in PROTOS {
        let steps = vec![step(&answer("ok"), proto)];
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, settings.clone()).await;
        let out = s.zeta_run("rename the file report.txt to final.txt");
        finished_task(&out);
        let first = text_of(&s.requests()[0]);
        let offered: Vec<&str> = [
            "docs__file_action_",
            "sky__weather_action_",
            "cal__calendar_action_",
        ]
        .into_iter()
        .filter(|prefix| first.contains(prefix))
        .collect();
        assert_eq!(offered, ["docs__file_action_"], "{proto:?}");
        for i in 0..8 {
            assert!(
                first.contains(&format!("docs__file_action_{i}")),
                "{proto:?}: file tool {i}"
            );
        }
    }
    assert_nothing_left(marker.path());
}

/// A server starts when a task calls one of its tools: the first task starts every
/// server to list their tools; the next is offered the same tools from that list and
/// starts only the server whose tool it calls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_starts_when_one_of_its_tools_is_called() {
    let Some(py) = python() else { return };
    let marker = tempfile::tempdir().expect("marker");
    let many = |name: &str, topic: &str| json!({"command": py, "args": [script("test_server.py"), "many", name, "3", topic, marker.path()]});
    let steps = vec![
        Step::text("nothing to do"),
        Step::call("docs__file_action_1", json!({"item": "report.txt"})),
        Step::text("done"),
    ];
    let settings =
        json!({"mcpServers": {"docs": many("docs", "file"), "sky": many("sky", "weather")}});
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    let starts = |name: &str| {
        std::fs::read_to_string(marker.path().join(format!("{name}.starts")))
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    finished_task(&s.zeta_run("hello"));
    assert_eq!(
        (starts("docs"), starts("sky")),
        (1, 1),
        "the first task lists every server's tools"
    );
    let out = s.zeta_run("file the report");
    assert_eq!(finished_task(&out)["status"], "done");
    let requests = s.requests();
    assert!(
        offered(&requests[1]).contains(&"docs__file_action_1".to_string()),
        "offered from the remembered list"
    );
    assert!(
        tool_results(&requests[2])[0].contains("file 1: report.txt"),
        "the call ran"
    );
    assert_eq!(
        (starts("docs"), starts("sky")),
        (2, 1),
        "only the called server started again"
    );
    assert_nothing_left(marker.path());
}

/// `zeta mcp add` (a secret-looking value goes to the secret store), `list`, `test`,
/// `remove`, and a bad entry refused with why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_adds_lists_tests_and_removes_servers() {
    let Some(py) = python() else { return };
    let notes = tempfile::tempdir().expect("notes");
    let s = Setup::new(Wire::OpenAi, Proto::Native, vec![]).await;
    let notes_arg = notes.path().display().to_string();
    let test_server = script("test_server.py");
    let out = s.zeta(&[
        "mcp",
        "add",
        "notes",
        "--env",
        "NOTES_TOKEN=s3cret-value",
        "--",
        &py,
        &test_server,
        "stdio",
        &notes_arg,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let settings = std::fs::read_to_string(s.home.path().join("settings.json")).expect("settings");
    assert!(
        !settings.contains("s3cret-value"),
        "the secret is not in the settings file"
    );
    assert!(
        settings.contains("${secret:mcp-notes-NOTES_TOKEN}"),
        "{settings}"
    );
    let out = s.zeta(&["mcp", "add", "bad", "--json", r#"{"url": "ftp://x"}"#]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("mcpServers.bad.url"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = s.zeta(&["mcp", "test", "notes"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success()
            && text.contains("6 tools")
            && text.contains("notes__read_note [read-only]"),
        "{text}"
    );
    let out = s.zeta(&["mcp", "list", "--json"]);
    let list: Value = serde_json::from_slice(&out.stdout).expect("list json");
    assert_eq!(list[0]["name"], "notes");
    assert_eq!(list[0]["state"]["state"], "ready");
    assert_eq!(list[0]["tools"].as_array().map(Vec::len), Some(6));
    let out = s.zeta(&["mcp", "remove", "notes"]);
    assert!(out.status.success());
    let out = s.zeta(&["mcp", "list"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no MCP servers"));
    assert_nothing_left(notes.path());
}

/// A stdio server's own file changes during a call are the task's: `zeta undo` takes back
/// the note the server overwrote and the one it made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_local_server_writes_during_a_call_is_undone_with_the_task() {
    let Some(py) = python() else { return };
    let notes = tempfile::tempdir().expect("notes");
    std::fs::write(notes.path().join("a.txt"), "before").expect("note");
    let steps = vec![
        Step::call(
            "notes__write_note",
            json!({"name": "a.txt", "text": "after"}),
        ),
        Step::call("notes__write_note", json!({"name": "b.txt", "text": "new"})),
        Step::text("Wrote both notes."),
    ];
    let settings = json!({
        "permissions": {"mode": "auto"},
        "mcpServers": {"notes": notes_server(&py, notes.path(), json!({}))},
    });
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    let out = s.zeta_run("write note a.txt and note b.txt");
    assert_eq!(finished_task(&out)["status"], "done");
    assert_eq!(
        std::fs::read_to_string(notes.path().join("a.txt"))
            .ok()
            .as_deref(),
        Some("after")
    );
    let undone = s.zeta(&["undo", "1"]);
    assert!(
        undone.status.success(),
        "{}{}",
        String::from_utf8_lossy(&undone.stdout),
        String::from_utf8_lossy(&undone.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(notes.path().join("a.txt"))
            .ok()
            .as_deref(),
        Some("before")
    );
    assert!(
        !notes.path().join("b.txt").exists(),
        "the note it made is gone"
    );
    let shown = String::from_utf8_lossy(&s.zeta(&["show", "1", "--changes"]).stdout).to_string();
    assert!(
        shown.contains("notes__write_note"),
        "an MCP call is named as not undoable too: {shown}"
    );
    assert_nothing_left(notes.path());
}

/// A tool the server marks read-only (and the settings trust as such) still hands its
/// arguments to another process: once the task has read what the user did not type, a
/// call that carries arguments asks, and unattended it is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_tool_s_arguments_do_not_leave_unasked_after_untrusted_input() {
    let Some(py) = python() else { return };
    let notes = tempfile::tempdir().expect("notes");
    std::fs::write(notes.path().join("a.txt"), "the key is sk-123").expect("note");
    let steps = vec![
        Step::call("notes__read_note", json!({"name": "a.txt"})),
        Step::call("notes__read_note", json!({"name": "sk-123"})),
        Step::text("Done."),
    ];
    let settings = json!({
        "permissions": {"mode": "auto"},
        "mcpServers": {"notes": notes_server(&py, notes.path(), json!({"trustReadOnly": true}))},
    });
    let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
    // Its descriptions reviewed: this test is about the calls.
    review(&s, "notes");
    let out = s.zeta(&["run", "--json", "--approve", "none", "read note a.txt"]);
    assert_eq!(finished_task(&out)["status"], "done");
    let rows = audit_rows(&s);
    let decisions: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(decisions, ["allowed", "asked-denied"], "{rows:?}");
    assert_nothing_left(notes.path());
}

/// A server's tool descriptions are its words: a task offered tools nobody reviewed is
/// marked (its change asks, refused here, saying why); once the person ran `zeta mcp
/// review NAME`, the same task's change runs on its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreviewed_descriptions_mark_the_task_until_the_person_reviews_them() {
    let Some(py) = python() else { return };
    let task = "read note a.txt and make the file made.txt";
    for reviewed in [false, true] {
        let notes = tempfile::tempdir().expect("notes");
        let made = notes.path().join("made.txt");
        let steps = vec![
            Step::call(
                "shell",
                json!({"command": format!("touch {}", made.display())}),
            ),
            Step::text("Finished."),
        ];
        let settings = json!({
            "permissions": {"mode": "auto"},
            "mcpServers": {"notes": notes_server(&py, notes.path(), json!({}))},
        });
        let s = Setup::with_settings(Wire::OpenAi, Proto::Native, steps, settings).await;
        if reviewed {
            review(&s, "notes");
        }
        let out = s.zeta(&["run", "--json", "--approve", "none", task]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if reviewed {
            assert!(made.exists(), "reviewed: the change ran on its own: {text}");
        } else {
            assert!(!made.exists(), "the change ran in a marked task: {text}");
            assert!(
                text.contains("you have not reviewed") && text.contains("`notes`"),
                "the refusal says why: {text}"
            );
        }
        assert_nothing_left(notes.path());
    }
}

/// `zeta mcp review NAME --yes`: the person read the server's tool list and trusts it.
fn review(s: &Setup, name: &str) {
    let review = s.zeta(&["mcp", "review", name, "--yes"]);
    let shown = String::from_utf8_lossy(&review.stdout).into_owned();
    assert!(review.status.success(), "{shown}");
    assert!(
        shown.contains("__") && shown.contains("recorded"),
        "{shown}"
    );
}
