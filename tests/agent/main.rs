//! The agent loop end to end: the real `zeta` binary (or the real worker), the real
//! provider client over HTTP to a scripted server on 127.0.0.1, and real shell commands in
//! temporary folders. Every scenario also checks the request log for orphaned tool results.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod asks;
mod cli;
mod confine;
mod consent;
mod context;
mod doors;
mod elements;
mod faults;
mod finish;
mod harness;
mod injection;
mod mcp;
mod memory;
mod models;
mod redteam;
mod sandbox;
mod secrets;
mod skills;
mod undo;
mod warm;
mod wayland;

use std::process::Command;
use std::time::Duration;

use harness::*;
use serde_json::json;
use zeta_core::{ApprovalScope, Event, Op};
use zeta_scripted_llm::{Step, Wire};

/// Seed 000: "Clone my repo, install deps, and run the tests" with a local git repo.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_clone_install_test_in_every_protocol_and_wire() {
    for wire in WIRES {
        for proto in PROTOS {
            let work = tempfile::tempdir().expect("work dir");
            let origin = work.path().join("origin");
            write(
                &origin.join("install.sh"),
                "#!/bin/sh\nmkdir -p deps && touch deps/a deps/b && echo 'added 2 packages'\n",
            );
            write(
                &origin.join("test.sh"),
                "#!/bin/sh\ntest -d deps && echo 'Tests: 3 passed, 0 failed'\n",
            );
            let git = |args: &[&str]| {
                let ok = Command::new("git")
                    .args(args)
                    .current_dir(&origin)
                    .output()
                    .expect("git");
                assert!(
                    ok.status.success(),
                    "git {args:?}: {}",
                    String::from_utf8_lossy(&ok.stderr)
                );
            };
            git(&["init", "-q"]);
            git(&["add", "."]);
            git(&[
                "-c",
                "user.email=t@t",
                "-c",
                "user.name=t",
                "commit",
                "-qm",
                "init",
            ]);
            Command::new("chmod")
                .args(["+x", "install.sh", "test.sh"])
                .current_dir(&origin)
                .status()
                .expect("chmod");
            let dir = work.path().display().to_string();
            let turns = [
                run(format!(
                    "cd {dir} && git clone -q origin repo && echo cloned"
                )),
                run(format!("cd {dir}/repo && sh install.sh")),
                run(format!("cd {dir}/repo && sh test.sh")),
                answer("Zeta: Repo cloned, 2 packages installed, all 3 tests passed."),
            ];
            let s = Setup::new(wire, proto, script(&turns, proto)).await;
            let out = s.zeta_run("Clone my repo, install deps, and run the tests");
            let task = finished_task(&out);
            let at = label(wire, proto);
            assert_eq!(task["status"], "done", "{at}: {task}");
            assert_eq!(
                task["reply"], "Zeta: Repo cloned, 2 packages installed, all 3 tests passed.",
                "{at}"
            );
            assert!(out.status.success(), "{at}");
            assert!(
                work.path().join("repo/deps/b").exists(),
                "{at}: commands really ran"
            );
            let requests = s.requests();
            assert_eq!(requests.len(), 4, "{at}: one model call per iteration");
            // History grows: each request carries every earlier result.
            assert!(text_of(&requests[2]).contains("added 2 packages"), "{at}");
            assert!(text_of(&requests[3]).contains("Tests: 3 passed"), "{at}");
            assert!(text_of(&requests[3]).contains("cloned"), "{at}");
            s.assert_invariants();
        }
    }
}

/// Seed 000: find the largest log file and show its last 20 lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_largest_log_in_every_protocol_and_wire() {
    for wire in WIRES {
        for proto in PROTOS {
            let logs = tempfile::tempdir().expect("logs");
            write(&logs.path().join("small.log"), "tiny\n");
            let big: String = (1..=500)
                .map(|i| format!("line {i} of the big log\n"))
                .collect();
            write(&logs.path().join("sub/big.log"), &big);
            let dir = logs.path().display().to_string();
            let turns = [
                run(format!("find {dir} -name '*.log' -type f -printf '%s %p\\n' | sort -n | tail -1")),
                run(format!("tail -20 {dir}/sub/big.log")),
                answer(format!("The largest log is {dir}/sub/big.log; its last line is 'line 500 of the big log'.")),
            ];
            let s = Setup::new(wire, proto, script(&turns, proto)).await;
            let out = s.zeta_run("Find the largest log file and show me its last 20 lines");
            let task = finished_task(&out);
            let at = label(wire, proto);
            assert_eq!(task["status"], "done", "{at}: {task}");
            let requests = s.requests();
            assert_eq!(requests.len(), 3, "{at}");
            assert!(
                text_of(&requests[1]).contains("sub/big.log"),
                "{at}: discovery result fed back"
            );
            assert!(
                text_of(&requests[2]).contains("line 500 of the big log"),
                "{at}"
            );
            assert!(
                !text_of(&requests[2]).contains("line 480 of"),
                "{at}: only the last 20 lines"
            );
            s.assert_invariants();
        }
    }
}

/// Seed 000: a failing command the planner adapts to.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_failing_command_in_every_protocol_wire_and_stream_mode() {
    for wire in WIRES {
        for proto in PROTOS {
            for stream in [true, false] {
                let turns = [
                    run("docker-is-not-installed ps"),
                    answer("Zeta: Docker is not installed on this machine."),
                ];
                let s = Setup::with_settings(
                    wire,
                    proto,
                    script(&turns, proto),
                    json!({"provider": {"stream": stream}}),
                )
                .await;
                let out = s.zeta_run("List running Docker containers");
                let task = finished_task(&out);
                let at = format!("{} stream={stream}", label(wire, proto));
                assert_eq!(
                    task["reply"], "Zeta: Docker is not installed on this machine.",
                    "{at}"
                );
                let requests = s.requests();
                assert_eq!(requests[0].body["stream"], json!(stream), "{at}");
                let second = text_of(&requests[1]);
                assert!(
                    second.contains("exit code 127") && second.contains("command not found"),
                    "{at}: {second}"
                );
                let started = events(&out)
                    .iter()
                    .filter(|e| e["type"] == "toolCallFinished" && e["ok"] == false)
                    .count();
                assert_eq!(started, 1, "{at}");
                s.assert_invariants();
            }
        }
    }
}

/// Seed 000: at the cap, one more call without tools asks for a summary, and its reply is
/// the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_max_iterations_summary_in_every_protocol_and_wire() {
    for wire in WIRES {
        for proto in PROTOS {
            let turns = [run("echo one"), run("echo two"), run("echo three")];
            let mut steps = script(&turns, proto);
            steps.push(Step::text(
                "Zeta: I ran echo one, two and three; the task is not finished.",
            ));
            let s = Setup::with_settings(wire, proto, steps, json!({"maxIterations": 3})).await;
            let out = s.zeta_run("Keep echoing numbers");
            let task = finished_task(&out);
            let at = label(wire, proto);
            assert_eq!(task["status"], "done", "{at}: {task}");
            assert_eq!(
                task["reply"], "Zeta: I ran echo one, two and three; the task is not finished.",
                "{at}"
            );
            let requests = s.requests();
            assert_eq!(requests.len(), 4, "{at}: 3 iterations and the summary");
            let last = &requests[3];
            assert!(
                text_of(last).contains("Max iterations reached. Summarise everything."),
                "{at}"
            );
            assert!(
                offers_only_an_answer(last),
                "{at}: the summary call has no tools and asks for a reply alone: {}",
                last.body
            );
            // Anthropic has no structured-output parameter: the JSON planner relies on the prompt.
            if !(wire == Wire::Anthropic && proto == Proto::Json) {
                assert!(offers_tools_or_schema(&requests[0]), "{at}");
            }
            s.assert_invariants();
        }
    }
}

/// Seed 000: five messages in a row, each seeing the result of the task before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_messages_in_a_row_chain_their_context() {
    let work = tempfile::tempdir().expect("work");
    let notes = work.path().join("notes.txt").display().to_string();
    let turns = [
        run(format!("echo 'hello world' > {notes}")),
        answer("Created notes.txt"),
        run("df -h / | tail -1"),
        answer("Zeta: you have free space"),
        run("hostname"),
        answer("Zeta: this machine has a hostname"),
        run("docker-missing ps"),
        answer("Zeta: Docker is not installed"),
        run(format!("echo goodbye >> {notes} && cat {notes}")),
        answer("Zeta: Done. Contents: hello world, goodbye"),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, script(&turns, Proto::Native)).await;
    let messages = [
        "Create a file called notes.txt with 'hello world'",
        "How much free disk space do I have?",
        "What is this machine called?",
        "List running Docker containers",
        "Append 'goodbye' to notes.txt and show me the final contents",
    ];
    for m in messages {
        assert!(s.zeta(&["enqueue", m]).status.success());
    }
    // Tasks 2 to 5 read command output (or start from a result that did), so their
    // changes ask even in auto mode; the user approves.
    let out = s.zeta(&["worker", "--json", "--approve", "all"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let queue: Vec<serde_json::Value> =
        serde_json::from_slice(&s.zeta(&["queue", "--json"]).stdout).expect("queue json");
    assert_eq!(queue.len(), 5);
    let mut previous = String::new();
    for (task, message) in queue.iter().zip(messages) {
        assert_eq!(task["message"], message);
        assert_eq!(task["status"], "done");
        assert_eq!(
            task["previousContext"],
            json!(previous),
            "task {}",
            task["id"]
        );
        previous = task["result"].as_str().expect("result").to_string();
    }
    assert_eq!(
        std::fs::read_to_string(work.path().join("notes.txt")).expect("notes"),
        "hello world\ngoodbye\n"
    );
    // Task 5's first request carries task 4's result as a hint.
    let requests = s.requests();
    assert!(text_of(&requests[8]).contains("User asked: List running Docker containers"));
    s.assert_invariants();
}

/// Cancel while a tool runs: the process group is gone and the task ends `cancelled`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_mid_tool_kills_the_group_and_ends_cancelled() {
    let work = tempfile::tempdir().expect("work");
    let pgid_file = work.path().join("pgid");
    let cmd = format!("echo $$ > {}; sleep 300 & sleep 300", pgid_file.display());
    let s = Setup::new(
        Wire::OpenAi,
        Proto::Native,
        vec![Step::call("shell", json!({"command": cmd}))],
    )
    .await;
    let (core, mut events, handle) = s.spawn();
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "sleep a long time".into(),
    })
    .expect("op");
    let task = loop {
        match tokio::time::timeout(Duration::from_secs(20), events.recv()).await {
            Ok(Ok(Event::ToolCallStarted { task_id, .. })) => {
                // The whole pid written, not just the file its redirection opens.
                for _ in 0..100 {
                    let written = std::fs::read_to_string(&pgid_file).unwrap_or_default();
                    if written.ends_with('\n') {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                core.submit(Op::CancelTask { id: task_id }).expect("cancel");
            }
            Ok(Ok(Event::TaskFinished { task })) => break task,
            Ok(Ok(_)) => {}
            other => panic!("no event: {other:?}"),
        }
    };
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    assert_eq!(task.status, zeta_core::TaskStatus::Cancelled);
    assert!(
        task.reply
            .as_deref()
            .unwrap_or_default()
            .contains("✗ shell"),
        "progress kept: {:?}",
        task.reply
    );
    let pgid: i32 = std::fs::read_to_string(&pgid_file)
        .expect("pgid")
        .trim()
        .parse()
        .expect("pgid");
    assert_eq!(
        live_group_members(pgid),
        Vec::<u32>::new(),
        "processes left in group {pgid}"
    );
    assert_eq!(s.requests().len(), 1, "no model call after the cancel");
}

/// A message sent while a task runs reaches the next request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_message_is_injected_at_the_next_iteration() {
    let s = Setup::new(
        Wire::Anthropic,
        Proto::Native,
        vec![
            Step::call("shell", json!({"command": "sleep 1; echo slept"})),
            Step::text("Zeta: done, and noted."),
        ],
    )
    .await;
    let (core, mut events, handle) = s.spawn();
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "sleep a bit".into(),
    })
    .expect("op");
    let mut injected = false;
    let task = loop {
        match tokio::time::timeout(Duration::from_secs(20), events.recv()).await {
            Ok(Ok(Event::ToolCallStarted { .. })) => {
                core.submit(Op::UserMessage {
                    sender: "chat".into(),
                    text: "also tell me the time".into(),
                })
                .expect("op");
            }
            Ok(Ok(Event::UserMessageInjected { text, .. })) => {
                assert_eq!(text, "also tell me the time");
                injected = true;
            }
            Ok(Ok(Event::TaskFinished { task })) => break task,
            Ok(Ok(_)) => {}
            other => panic!("no event: {other:?}"),
        }
    };
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    assert!(injected);
    assert_eq!(task.reply.as_deref(), Some("Zeta: done, and noted."));
    let requests = s.requests();
    assert!(!text_of(&requests[0]).contains("also tell me the time"));
    assert!(text_of(&requests[1]).contains("also tell me the time"));
    let queue = zeta_core::TaskQueue::open(&s.home.path().join("zeta.db"))
        .expect("db")
        .recent(10)
        .expect("list");
    assert_eq!(queue.len(), 1, "the message was injected, not queued");
    // On the task's record, as read: what the chat and Earlier chats show.
    let record = zeta_core::store::audit::AuditLog::open(&s.home.path().join("zeta.db"))
        .and_then(|log| log.record_of(task.id))
        .expect("record");
    let added: Vec<_> = record
        .added
        .iter()
        .map(|a| (a.text.as_str(), a.fate))
        .collect();
    assert_eq!(
        added,
        [(
            "also tell me the time",
            zeta_core::store::record::AddedFate::Read
        )]
    );
    s.assert_invariants();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guardrails_end_the_loop_honestly() {
    // Unparseable output: one corrective retry, then stop.
    let s = Setup::new(
        Wire::OpenAi,
        Proto::Json,
        vec![Step::text("I will list files."), Step::text("ls, I said")],
    )
    .await;
    let task = finished_task(&s.zeta_run("list my files"));
    assert_eq!(task["status"], "failed");
    assert!(
        task["error"]
            .as_str()
            .unwrap_or_default()
            .contains("could not be understood"),
        "{task}"
    );
    assert!(
        text_of(&s.requests()[1]).contains("not a JSON object"),
        "the retry carries the hint"
    );

    // One bad reply then a good one: the retry works.
    let good = step(&answer("Zeta: fine"), Proto::Json);
    let s = Setup::new(
        Wire::Ollama,
        Proto::Json,
        vec![Step::text("```\nnope\n```"), good],
    )
    .await;
    assert_eq!(finished_task(&s.zeta_run("hi"))["reply"], "Zeta: fine");

    // The same call again in a row is not run again: the model gets the earlier output
    // with a hint. A third time is not run either: the model is asked, with nothing it
    // could call, to answer from what it has, and its answer ends the task.
    let work = tempfile::tempdir().expect("work");
    let counter = work.path().join("count");
    let same = run(format!(
        "echo x >> {} && wc -l < {}",
        counter.display(),
        counter.display()
    ));
    let mut steps = script(&[same.clone(), same.clone(), same.clone()], Proto::Native);
    steps.push(Step::text("Zeta: the counter file has 1 line."));
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let task = finished_task(&s.zeta_run("loop"));
    assert_eq!(task["status"], "done", "{task}");
    assert_eq!(
        task["reply"], "Zeta: the counter file has 1 line.",
        "{task}"
    );
    let requests = s.requests();
    assert!(
        text_of(&requests[2]).contains("You just made this exact call; it was not run again"),
        "the repeat is answered with the earlier output and a hint"
    );
    assert_eq!(requests.len(), 4, "three calls and the answer");
    assert!(
        text_of(&requests[3]).contains("You asked for this same call again, so it was not run")
            && offers_only_an_answer(&requests[3]),
        "the third repeat asks for an answer alone: {}",
        requests[3].body
    );
    assert_eq!(
        std::fs::read_to_string(&counter)
            .expect("count")
            .lines()
            .count(),
        1
    );

    // When that answer is empty too, the task ends with an honest answer carrying what
    // the call printed, not a bare failure.
    let mut steps = script(&[same.clone(), same.clone(), same], Proto::Native);
    steps.push(Step::text(""));
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let task = finished_task(&s.zeta_run("loop"));
    assert_eq!(task["status"], "done", "{task}");
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(
        reply.starts_with("I stopped before finishing") && reply.contains("3 times in a row"),
        "{reply}"
    );
    assert!(
        reply.contains("What it printed:") && reply.contains('2'),
        "{reply}"
    );

    // The same with the JSON planner (small local models): the hint reaches it as a turn.
    let once = run("echo found-it".to_string());
    let s = Setup::new(
        Wire::Ollama,
        Proto::Json,
        script(&[once.clone(), once, answer("Zeta: found-it")], Proto::Json),
    )
    .await;
    let task = finished_task(&s.zeta_run("find it"));
    assert_eq!(task["reply"], "Zeta: found-it", "{task}");
    let hinted = text_of(&s.requests()[2]);
    assert!(
        hinted.contains("it was not run again") && hinted.contains("found-it"),
        "{hinted}"
    );

    // Four failures in a row: the model is asked, with nothing it could call, to answer
    // from what it has; its answer ends the task.
    let mut fails: Vec<Turn> = (1..=4).map(|i| run(format!("exit {i}"))).collect();
    fails.push(answer("Each of the four commands failed (exit 1 to 4)."));
    let s = Setup::new(
        Wire::Anthropic,
        Proto::Native,
        script(&fails, Proto::Native),
    )
    .await;
    let task = finished_task(&s.zeta_run("fail"));
    assert_eq!(task["status"], "done", "{task}");
    assert_eq!(
        task["reply"],
        "Each of the four commands failed (exit 1 to 4)."
    );
    let requests = s.requests();
    assert_eq!(requests.len(), 5);
    assert!(harness::offers_only_an_answer(&requests[4]));
    assert!(requests[4]
        .body
        .to_string()
        .contains("Several calls in a row failed"));
    // With no answer, the task fails and says why.
    let mut fails: Vec<Turn> = (1..=4).map(|i| run(format!("exit {i}"))).collect();
    fails.push(answer(""));
    let s = Setup::new(
        Wire::Anthropic,
        Proto::Native,
        script(&fails, Proto::Native),
    )
    .await;
    let task = finished_task(&s.zeta_run("fail"));
    assert_eq!(task["status"], "failed");
    assert!(
        task["error"]
            .as_str()
            .unwrap_or_default()
            .contains("4 tool calls failed in a row"),
        "{task}"
    );
    assert_eq!(s.requests().len(), 5);
    // A change the loop stopped while the model was still trying: one file of two went,
    // then four calls failed. Whatever the answer claims, the person reads first that it
    // is not finished, and why.
    let mut turns = vec![run("rm ~/scratch/a.tmp".to_string())];
    turns.extend((1..=4).map(|i| run(format!("rm ~/scratch/missing-{i}.tmp"))));
    turns.push(answer("I deleted the .tmp files in ~/scratch."));
    let s = Setup::new(
        Wire::Anthropic,
        Proto::Native,
        script(&turns, Proto::Native),
    )
    .await;
    let scratch = s.home.path().join("scratch");
    std::fs::create_dir_all(&scratch).expect("scratch");
    for name in ["a.tmp", "b.tmp"] {
        std::fs::write(scratch.join(name), "x").expect("tmp file");
    }
    let task = finished_task(&s.zeta_run("delete the .tmp files in ~/scratch"));
    assert_eq!(task["status"], "done", "{task}");
    assert!(
        task["reply"]
            .as_str()
            .unwrap_or_default()
            .starts_with("I did not finish this: I stopped after 4 tool calls failed in a row."),
        "{task}"
    );
    assert!(scratch.join("b.tmp").exists(), "nothing else ran");
    // The JSON planner: the answer request bounds its reply, and an answer cut off by the
    // token cap is shown as far as it was written, not as raw JSON.
    let fails: Vec<Turn> = (1..=4).map(|i| run(format!("exit {i}"))).collect();
    let mut steps = script(&fails, Proto::Json);
    steps.push(Step::text(
        "{\n  \"reply\": \"Each of the four commands failed, so I would need",
    ));
    let s = Setup::new(Wire::Ollama, Proto::Json, steps).await;
    let task = finished_task(&s.zeta_run("fail"));
    assert_eq!(task["status"], "done", "{task}");
    assert_eq!(
        task["reply"],
        "Each of the four commands failed, so I would need … (the model's answer was cut off here)"
    );
    let requests = s.requests();
    assert!(
        requests[4].body.to_string().contains("\"maxLength\""),
        "{}",
        requests[4].body
    );

    // An empty reply.
    let s = Setup::new(Wire::OpenAi, Proto::Native, vec![Step::text("")]).await;
    let out = s.zeta_run("say nothing");
    let task = finished_task(&out);
    assert_eq!(task["status"], "failed");
    assert!(task["error"]
        .as_str()
        .unwrap_or_default()
        .contains("empty reply"));
    assert!(!out.status.success(), "zeta run exits non-zero on failure");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_call_leaked_into_text_is_run() {
    let leaked = "I'll check.\n```json\n{\"name\": \"shell\", \"arguments\": {\"command\": \"echo leaked-and-run\"}}\n```";
    let s = Setup::new(
        Wire::OpenAi,
        Proto::Native,
        vec![
            Step::text(leaked),
            Step::text("Zeta: it printed leaked-and-run"),
        ],
    )
    .await;
    let task = finished_task(&s.zeta_run("run it"));
    assert_eq!(task["reply"], "Zeta: it printed leaked-and-run");
    assert!(
        text_of(&s.requests()[1]).contains("leaked-and-run\\n"),
        "its output went back to the model"
    );
    s.assert_invariants();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transient_provider_failures_are_retried_within_the_budget() {
    for wire in WIRES {
        let steps = vec![
            Step::ServerError,
            Step::RateLimited {
                retry_after_secs: 0.2,
            },
            Step::call("shell", json!({"command": "echo recovered"})),
            Step::CutStream,
            Step::MalformedJson,
            Step::text("Zeta: recovered"),
        ];
        let s = Setup::with_settings(
            wire,
            Proto::Native,
            steps,
            json!({"provider": {"maxAttempts": 3}}),
        )
        .await;
        let task = finished_task(&s.zeta_run("survive"));
        assert_eq!(task["status"], "done", "{wire:?}: {task}");
        assert_eq!(task["reply"], "Zeta: recovered");
        assert_eq!(s.requests().len(), 6, "{wire:?}");
        s.assert_invariants();
    }

    // A hang is cut off by the idle timeout and retried.
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        vec![Step::Hang, Step::text("Zeta: after the hang")],
        json!({"provider": {"idleTimeoutMs": 500}}),
    )
    .await;
    assert_eq!(
        finished_task(&s.zeta_run("wait"))["reply"],
        "Zeta: after the hang"
    );

    // Past the budget the task fails with a clear error.
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        vec![Step::ServerError, Step::ServerError, Step::ServerError],
        json!({"provider": {"maxAttempts": 3}}),
    )
    .await;
    let out = s.zeta_run("doomed");
    let task = finished_task(&out);
    assert_eq!(task["status"], "failed");
    let error = task["error"].as_str().unwrap_or_default();
    let said = error.lines().next().unwrap_or_default();
    assert!(
        said.starts_with("The model server at 127.0.0.1:")
            && said.ends_with("had an error (HTTP 500)."),
        "one plain sentence first: {error}"
    );
    assert!(
        error.contains("server error HTTP 500"),
        "then the details: {error}"
    );
    assert_eq!(task["fix"], "retry");
    let retries = events(&out)
        .into_iter()
        .filter(|e| e["type"] == "modelRetrying")
        .count();
    assert_eq!(retries, 2, "each retry is told as it happens");
    assert!(!out.status.success());
    assert_eq!(s.requests().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_provider_falls_back_to_the_next() {
    let backup = zeta_scripted_llm::ScriptedServer::start(vec![Step::text(
        "Zeta: answered by the fallback",
    )])
    .await
    .expect("backup");
    let fallback = provider_section(&backup, Wire::Ollama, Proto::Native);
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        vec![Step::ServerError],
        json!({"provider": {"maxAttempts": 1}, "fallbackProviders": [fallback]}),
    )
    .await;
    let task = finished_task(&s.zeta_run("anyone there?"));
    assert_eq!(task["reply"], "Zeta: answered by the fallback");
    assert_eq!(s.requests().len(), 1);
    assert_eq!(backup.requests().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_key_is_sent_but_never_printed() {
    let s = Setup::new(Wire::OpenAi, Proto::Native, vec![Step::text("Zeta: hi")]).await;
    let out = Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(["run", "--json", "hello"])
        .env("ZETA_HOME", s.home.path())
        .env("ZETA_LLM_API_KEY", "sk-secret-123")
        .env("RUST_LOG", "debug")
        .output()
        .expect("zeta");
    assert_eq!(finished_task(&out)["reply"], "Zeta: hi");
    let auth = s.requests()[0]
        .headers
        .iter()
        .find(|(k, _)| k == "authorization")
        .map(|(_, v)| v.clone());
    assert_eq!(auth.as_deref(), Some("Bearer sk-secret-123"));
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!printed.contains("sk-secret-123"));
    let logs = std::fs::read_dir(s.home.path().join("logs"))
        .expect("logs")
        .flatten();
    for log in logs {
        assert!(!std::fs::read_to_string(log.path())
            .unwrap_or_default()
            .contains("sk-secret-123"));
    }
}

/// Settings are read at the start of each task: pointing the provider elsewhere between
/// two tasks switches the endpoint without a restart, and the soul's prompt is a file the
/// user can edit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provider_switch_and_soul_prompt_take_effect_on_the_next_task() {
    let s = Setup::new(
        Wire::OpenAi,
        Proto::Native,
        vec![Step::text("Zeta: from the first")],
    )
    .await;
    assert_eq!(
        finished_task(&s.zeta_run("one"))["reply"],
        "Zeta: from the first"
    );
    let system = text_of(&s.requests()[0]);
    assert!(
        system.contains("carries out tasks on the user's computer"),
        "default automation_agent soul"
    );

    let second =
        zeta_scripted_llm::ScriptedServer::start(vec![Step::text("Zeta: from the second")])
            .await
            .expect("second");
    let mut provider = provider_section(&second, Wire::Anthropic, Proto::Native);
    provider["stream"] = json!(false);
    let settings = json!({"provider": provider, "soul": "research_agent"});
    std::fs::write(s.home.path().join("settings.json"), settings.to_string()).expect("settings");
    std::fs::create_dir_all(s.home.path().join("souls")).expect("souls");
    std::fs::write(
        s.home.path().join("souls/research_agent.md"),
        "You are Zeta the librarian.",
    )
    .expect("soul");

    assert_eq!(
        finished_task(&s.zeta_run("two"))["reply"],
        "Zeta: from the second"
    );
    assert_eq!(
        s.requests().len(),
        1,
        "the first server got no second request"
    );
    let request = &second.requests()[0];
    assert_eq!(
        request.body["system"]
            .as_str()
            .map(|t| t.starts_with("You are Zeta the librarian.")),
        Some(true)
    );
    assert_eq!(request.body["stream"], json!(false));
}

/// A server that refuses `json_schema` (llama-cpp-python) gets `json_object` + `schema`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_json_schema_falls_back_to_json_object() {
    let refuse = Step::Refuse {
        status: 500,
        message: "response_format type json_schema is not supported".into(),
    };
    let plan = step(&answer("Zeta: planned"), Proto::Json);
    let s = Setup::new(Wire::OpenAi, Proto::Json, vec![refuse, plan]).await;
    assert_eq!(
        finished_task(&s.zeta_run("plan it"))["reply"],
        "Zeta: planned"
    );
    let requests = s.requests();
    assert_eq!(requests[0].body["response_format"]["type"], "json_schema");
    assert_eq!(requests[1].body["response_format"]["type"], "json_object");
    assert!(requests[1].body["response_format"]["schema"].is_object());
}

/// A blocked command never runs, whatever the model says, and the model is told why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocked_commands_never_run_and_the_model_is_told() {
    let victim = tempfile::tempdir().expect("victim home");
    let canary = victim.path().join("notes.txt");
    std::fs::write(&canary, "keep me").expect("canary");
    let wipe = format!("rm -rf {}/ ~ && echo wiped", "/");
    let python = "import os\nos.system('rm -rf ~')";
    let steps = vec![
        Step::call("shell", json!({"command": wipe})),
        Step::call("run_code", json!({"language": "python", "code": python})),
        Step::text("Zeta: I will not delete your home folder."),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let out = Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(["run", "--json", "free some space"])
        .env("ZETA_HOME", s.home.path())
        .env("HOME", victim.path())
        .output()
        .expect("zeta");
    let task = finished_task(&out);
    assert_eq!(task["reply"], "Zeta: I will not delete your home folder.");
    assert_eq!(
        std::fs::read_to_string(&canary).expect("canary survives"),
        "keep me"
    );
    let finished: Vec<_> = events(&out)
        .into_iter()
        .filter(|e| e["type"] == "toolCallFinished")
        .collect();
    assert_eq!(finished.len(), 2);
    assert!(finished.iter().all(|e| e["ok"] == false
        && e["summary"]
            .as_str()
            .unwrap_or_default()
            .starts_with("blocked")));
    assert!(text_of(&s.requests()[1]).contains("Zeta never runs this"));
    s.assert_invariants();
    // Both refusals are in the audit log, with the blocklist as the decider.
    let audit: Vec<serde_json::Value> =
        serde_json::from_slice(&s.zeta(&["audit", "--json"]).stdout).expect("audit json");
    assert_eq!(audit.len(), 2);
    assert!(audit
        .iter()
        .all(|e| e["decision"] == "blocked" && e["decidedBy"] == "blocklist" && e["ok"] == false));
    assert!(audit[0]["arguments"]
        .as_str()
        .unwrap_or_default()
        .contains("rm -rf"));
}

/// In `ask` mode a side-effecting call waits for an answer. The CLI's `--approve none`
/// denies it, `--approve all` allows it; the model is told either way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_answers_approvals_for_scripts() {
    for (flag, should_run) in [("none", false), ("all", true)] {
        let (_work, made, s) = touch_in_ask_mode("Zeta: finished").await;
        let out = s.zeta(&["run", "--json", "--approve", flag, "make a file"]);
        // A change that did not run is said to be not done, before the model's answer.
        let reply = if should_run {
            "Zeta: finished".to_string()
        } else {
            format!(
                "Not done: a change was not allowed (shell touch {}).\n\nZeta: finished",
                made.display()
            )
        };
        assert_eq!(finished_task(&out)["reply"], reply, "--approve {flag}");
        assert_eq!(made.exists(), should_run, "--approve {flag}");
        let resolved: Vec<_> = events(&out)
            .into_iter()
            .filter(|e| e["type"] == "approvalResolved")
            .collect();
        assert_eq!(resolved.len(), 1);
        assert_eq!(resolved[0]["approved"], json!(should_run));
        if !should_run {
            assert!(
                text_of(&s.requests()[1]).contains("Not run: the user denied it"),
                "the model is told"
            );
        }
    }
}

/// Approval through Ops; read-only tools never ask; no answer is a deny; read-only mode
/// refuses without asking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approvals_through_ops_timeouts_and_read_only_mode() {
    let work = tempfile::tempdir().expect("work");
    let first = work.path().join("first.txt");
    let second = work.path().join("second.txt");
    let steps = vec![
        Step::call("list_directory", json!({"path": work.path()})),
        Step::call(
            "shell",
            json!({"command": format!("touch {}", first.display())}),
        ),
        Step::call(
            "shell",
            json!({"command": format!("touch {}", second.display())}),
        ),
        Step::text("Zeta: one file made"),
    ];
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        steps,
        json!({"permissions": {"mode": "ask", "approvalTimeoutSecs": 1}}),
    )
    .await;
    let (core, mut events, handle) = s.spawn();
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "make files".into(),
    })
    .expect("op");
    let mut asked = Vec::new();
    let mut resolved = Vec::new();
    let task = loop {
        match tokio::time::timeout(Duration::from_secs(20), events.recv()).await {
            Ok(Ok(Event::ApprovalRequested { call_id, tool, .. })) => {
                assert_eq!(tool, "shell", "read-only tools never ask");
                // Approve the first request; let the second time out.
                if asked.is_empty() {
                    core.submit(Op::Approve {
                        call_id: call_id.clone(),
                        steps: Vec::new(),
                        scope: ApprovalScope::Once,
                    })
                    .expect("approve");
                }
                asked.push(call_id);
            }
            Ok(Ok(Event::ApprovalResolved { approved, by, .. })) => resolved.push((approved, by)),
            Ok(Ok(Event::TaskFinished { task })) => break task,
            Ok(Ok(_)) => {}
            other => panic!("no event: {other:?}"),
        }
    };
    assert_eq!(task.reply.as_deref(), Some("Zeta: one file made"));
    assert_eq!(asked.len(), 2);
    assert_eq!(
        resolved,
        vec![(true, "user".to_string()), (false, "timeout".to_string())]
    );
    assert!(first.exists() && !second.exists());
    assert!(text_of(&s.requests()[3]).contains("nobody approved it within 1 s"));
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    let audit: Vec<serde_json::Value> =
        serde_json::from_slice(&s.zeta(&["audit", "--json"]).stdout).expect("audit");
    let decisions: Vec<(String, String)> = audit
        .iter()
        .map(|e| {
            (
                e["decision"].as_str().unwrap_or("").to_string(),
                e["decidedBy"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let expected = [
        ("allowed", "policy"),
        ("asked-approved", "user"),
        ("asked-denied", "timeout"),
    ];
    assert_eq!(
        decisions,
        expected.map(|(d, b)| (d.to_string(), b.to_string()))
    );

    // Read-only mode: refused without asking.
    let third = work.path().join("third.txt");
    let steps = vec![
        Step::call(
            "shell",
            json!({"command": format!("touch {}", third.display())}),
        ),
        Step::text("Zeta: could not"),
    ];
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        steps,
        json!({"permissions": {"mode": "readOnly"}}),
    )
    .await;
    let out = s.zeta(&["run", "--json", "--approve", "all", "make a file"]);
    assert_eq!(
        finished_task(&out)["reply"],
        format!(
            "Not done: a change was not allowed (shell touch {}).\n\nZeta: could not",
            third.display()
        )
    );
    assert!(!third.exists());
    assert!(!harness::events(&out)
        .iter()
        .any(|e| e["type"] == "approvalRequested"));
    assert!(text_of(&s.requests()[1]).contains("read-only mode"));
}

/// How many tasks the queue holds.
fn tasks(s: &Setup) -> usize {
    zeta_core::store::queue::TaskQueue::open(&s.home.path().join("zeta.db"))
        .and_then(|q| q.recent(100))
        .map_or(0, |t| t.len())
}

/// A message added to a running task that the person stops before it reads the message
/// is not dropped, nor run without asking: it is held on the stopped task's record, and
/// runs as a task of its own only when the person sends it (once). A message the task
/// read is on its record as read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_added_to_a_task_that_is_stopped_is_held_until_sent() {
    use zeta_core::store::record::AddedFate;
    let steps = vec![
        Step::call("shell", json!({"command": "sleep 30"})),
        Step::text("Zeta: noted, the report is in French now"),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let (core, mut events, handle) = s.spawn();
    core.submit(Op::EnqueueTask {
        sender: "chat".into(),
        message: "write the report".into(),
    })
    .expect("op");
    let mut requeued = None;
    let mut finished = Vec::new();
    let audit =
        zeta_core::store::audit::AuditLog::open(&s.home.path().join("zeta.db")).expect("audit");
    loop {
        match tokio::time::timeout(Duration::from_secs(20), events.recv()).await {
            Ok(Ok(Event::ToolCallStarted { task_id, .. })) => {
                core.submit(Op::UserMessage {
                    sender: "chat".into(),
                    text: "make it French".into(),
                })
                .expect("message");
                core.submit(Op::CancelTask { id: task_id }).expect("cancel");
            }
            Ok(Ok(Event::UserMessageRequeued {
                task_id,
                new_task_id,
                text,
            })) => requeued = Some((task_id, new_task_id, text)),
            Ok(Ok(Event::TaskFinished { task })) => {
                finished.push((task.id, task.status.to_string(), task.message.clone()));
                if finished.len() == 1 {
                    // Nothing runs on its own: the message is held on the record.
                    tokio::time::sleep(Duration::from_millis(800)).await;
                    let record = audit.record_of(1).expect("record");
                    assert_eq!(record.added.len(), 1, "{record:?}");
                    assert_eq!(record.added[0].fate, AddedFate::Held);
                    assert_eq!(record.added[0].text, "make it French");
                    assert_eq!(tasks(&s), 1, "no task was made");
                    let id = record.added[0].id;
                    core.submit(Op::SendHeld { id }).expect("send");
                    core.submit(Op::SendHeld { id }).expect("send again");
                }
                if finished.len() == 2 {
                    break;
                }
            }
            Ok(Ok(_)) => {}
            other => panic!("no event: {other:?} (finished so far: {finished:?})"),
        }
    }
    assert_eq!(requeued, None, "nothing was requeued by itself");
    assert_eq!(
        finished,
        vec![
            (1, "cancelled".to_string(), "write the report".to_string()),
            (2, "done".to_string(), "make it French".to_string())
        ]
    );
    let record = audit.record_of(1).expect("record");
    assert_eq!(record.added[0].fate, AddedFate::Requeued);
    assert_eq!(record.added[0].new_task_id, Some(2));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(tasks(&s), 2, "sent once");
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
}
