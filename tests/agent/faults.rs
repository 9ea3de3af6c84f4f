//! Faults on purpose: Zeta killed or signalled in the middle of a side-effecting call, a
//! call that kills Zeta, a model server that never stops talking or says too much, a
//! 1 MB tool argument, settings that are not a file or not UTF-8, arguments that are not
//! JSON, and the modes of a fresh home. Each runs the real `zeta` against the scripted
//! server; processes are ended by their PID (or, for a tool's group left by a killed
//! Zeta, by that group's id).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

/// The command whose side effect must happen once: it notes its process group, appends
/// a line, then waits long enough to be interrupted.
const SLOW_APPEND: &str = "echo $$ > ~/pgid; echo once >> ~/effects.txt; sleep 30";

/// `zeta ARGS` in the background, its output in `<home>/<name>.out` / `.err`.
fn start(setup: &Setup, name: &str, args: &[&str]) -> Child {
    let home = setup.home.path();
    let out = std::fs::File::create(home.join(format!("{name}.out"))).expect("stdout file");
    let err = std::fs::File::create(home.join(format!("{name}.err"))).expect("stderr file");
    start_with(setup, args, out.into(), err.into())
}

/// `zeta ARGS` in the background with its output going to `out` and `err`.
fn start_with(setup: &Setup, args: &[&str], out: Stdio, err: Stdio) -> Child {
    let home = setup.home.path();
    Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(args)
        .env("ZETA_HOME", home)
        .env("HOME", home)
        .env_remove("ZETA_LLM_PROVIDER")
        .env_remove("ZETA_LLM_BASE_URL")
        .env_remove("ZETA_LLM_MODEL")
        .env_remove("ZETA_LLM_PROTOCOL")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("start zeta")
}

/// `zeta ARGS` started on a task whose first call is `SLOW_APPEND`; returns it with the
/// call's process group once that call runs.
fn start_slow_append(setup: &Setup, name: &str, args: &[&str]) -> (Child, i32) {
    let child = start(setup, name, args);
    let pgid = wait_for_line(&setup.home.path().join("pgid"), Duration::from_secs(60))
        .parse()
        .expect("pgid");
    (child, pgid)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Waits until `path` holds a line, and returns it.
fn wait_for_line(path: &Path, timeout: Duration) -> String {
    let start = Instant::now();
    loop {
        let text = read(path);
        if text.ends_with('\n') {
            return text.trim().to_string();
        }
        assert!(
            start.elapsed() < timeout,
            "{} did not appear within {timeout:?}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits for `child` to exit, killing it (by PID) if it has not within `timeout`.
fn wait_exit(child: &mut Child, timeout: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn signal(pid: u32, name: &str) {
    let ok = Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .expect("kill");
    assert!(ok.success(), "kill -{name} {pid}");
}

/// Ends what is left of a tool's process group after Zeta itself was SIGKILLed.
fn end_group(pgid: i32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status();
}

fn tasks(setup: &Setup) -> Vec<Value> {
    let out = setup.zeta(&["queue", "--json"]);
    serde_json::from_slice(&out.stdout).expect("queue json")
}

fn audit(setup: &Setup) -> Vec<Value> {
    let out = setup.zeta(&["audit", "--json"]);
    serde_json::from_slice(&out.stdout).expect("audit json")
}

fn request_text(setup: &Setup) -> Vec<String> {
    setup.requests().iter().map(text_of).collect()
}

/// SIGKILL in the middle of a side-effecting call, then a restart: the side effect
/// happened once, the audit has the interrupted call, the task said it was interrupted,
/// and the model was told. A model that repeats the call blindly is stopped by the
/// person-only approval (`--approve all` does not cover it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_call_then_restart_runs_the_side_effect_once() {
    for proto in PROTOS {
        let turns = [run(SLOW_APPEND), run(SLOW_APPEND), answer("Appended once.")];
        let setup = Setup::new(Wire::OpenAi, proto, script(&turns, proto)).await;
        let home = setup.home.path().to_path_buf();
        let (mut first, pgid) = start_slow_append(
            &setup,
            "first",
            &["run", "--json", "--approve", "all", "append a line"],
        );
        wait_for_line(&home.join("effects.txt"), Duration::from_secs(10));
        let _ = first.kill();
        let _ = first.wait();
        end_group(pgid);

        let mid = tasks(&setup);
        assert_eq!(
            mid[0]["status"], "running",
            "{proto:?}: left running by the crash"
        );
        let rows = audit(&setup);
        assert_eq!(
            rows.len(),
            1,
            "{proto:?}: the call's row was written before it ran: {rows:?}"
        );
        assert_eq!(rows[0]["state"], "running");

        let again = setup.zeta(&["worker", "--json", "--approve", "all"]);
        let stderr = String::from_utf8_lossy(&again.stderr);
        assert!(again.status.success(), "{proto:?}: {stderr}");
        let said = events(&again).into_iter().any(|e| {
            e["type"] == "taskInterrupted"
                || (e["type"] == "taskStarted" && e["task"]["interrupted"].is_string())
        });
        assert!(said, "{proto:?}: the events say it was interrupted");
        assert_eq!(
            read(&home.join("effects.txt")),
            "once\n",
            "{proto:?}: the side effect happened once"
        );
        let task = &tasks(&setup)[0];
        assert_eq!(task["status"], "done", "{proto:?}: {task}");
        assert_eq!(task["attempts"], 2);
        let note = task["interrupted"].as_str().unwrap_or_default();
        assert!(
            note.contains("effects.txt"),
            "{proto:?}: names the call: {note}"
        );
        let rows = audit(&setup);
        assert_eq!(rows[0]["state"], "interrupted", "{proto:?}: {rows:?}");
        assert_eq!(
            rows[1]["decision"], "asked-denied",
            "{proto:?}: the repeat: {rows:?}"
        );
        let requests = request_text(&setup);
        assert!(
            requests[1].contains("Zeta stopped during an earlier start")
                && requests[1].contains("effects.txt"),
            "{proto:?}: the model was told: {}",
            requests[1]
        );
        assert!(
            requests[2].contains("only a person may approve"),
            "{proto:?}"
        );
        setup.assert_invariants();
    }
}

/// SIGTERM in the middle of a call: the call's whole process group ends, the task is
/// recorded as interrupted, the worker lock is released and the process exits cleanly
/// (143). The next start resumes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_the_group_records_the_task_and_exits_cleanly() {
    let proto = Proto::Native;
    let turns = [
        run(SLOW_APPEND),
        answer("It had appended the line already."),
    ];
    let setup = Setup::new(Wire::Anthropic, proto, script(&turns, proto)).await;
    let home = setup.home.path().to_path_buf();
    let (mut zeta, pgid) = start_slow_append(
        &setup,
        "term",
        &["run", "--json", "--approve", "all", "append a line"],
    );
    assert!(!live_group_members(pgid).is_empty(), "the call runs");
    signal(zeta.id(), "TERM");
    let status = wait_exit(&mut zeta, Duration::from_secs(20)).expect("exits after SIGTERM");
    let members = live_group_members(pgid);
    end_group(pgid);
    assert_eq!(status.code(), Some(143), "{}", read(&home.join("term.err")));
    assert!(
        members.is_empty(),
        "no process of the group is left: {members:?}"
    );
    let task = &tasks(&setup)[0];
    assert_eq!(task["status"], "pending", "{task}");
    assert!(
        task["interrupted"]
            .as_str()
            .unwrap_or_default()
            .contains("sleep 30"),
        "{task}"
    );
    assert_eq!(audit(&setup)[0]["state"], "interrupted");
    // The lock is free: the next worker takes the task and finishes it.
    let again = setup.zeta(&["worker", "--json", "--approve", "all"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(tasks(&setup)[0]["status"], "done");
    assert_eq!(read(&home.join("effects.txt")), "once\n");
    setup.assert_invariants();
}

/// SIGTERM to a `zeta run` nobody reads any more (its terminal closed, the program piping
/// its output ended): writing to the closed pipes does not panic, the run goes on, and
/// the signal still stops the call and exits 143 with the task recorded. (Found when a
/// benchmark was killed: `eprintln!` panicked in the signal handler's task and the run
/// never stopped.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_a_run_whose_reader_has_gone() {
    let proto = Proto::Native;
    let turns = [run(SLOW_APPEND), answer("Appended.")];
    let setup = Setup::new(Wire::OpenAi, proto, script(&turns, proto)).await;
    let mut zeta = start_with(
        &setup,
        &["run", "--json", "--approve", "all", "append a line"],
        Stdio::piped(),
        Stdio::piped(),
    );
    drop(zeta.stdout.take());
    drop(zeta.stderr.take());
    let pgid: i32 = wait_for_line(&setup.home.path().join("pgid"), Duration::from_secs(60))
        .parse()
        .expect("pgid");
    signal(zeta.id(), "TERM");
    let status = wait_exit(&mut zeta, Duration::from_secs(20));
    let members = live_group_members(pgid);
    end_group(pgid);
    if status.is_none() {
        let _ = zeta.kill();
    }
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(143),
        "exits after SIGTERM although nobody reads its output"
    );
    assert!(members.is_empty(), "the call's group ended: {members:?}");
    assert_eq!(tasks(&setup)[0]["status"], "pending");
}

/// Ctrl+C (SIGINT) on `zeta run`: the task is cancelled, the group ends, exit 130.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_on_zeta_run_cancels_the_task() {
    let proto = Proto::Json;
    let setup = Setup::new(Wire::Ollama, proto, script(&[run(SLOW_APPEND)], proto)).await;
    let home = setup.home.path().to_path_buf();
    let (mut zeta, pgid) =
        start_slow_append(&setup, "int", &["run", "--approve", "all", "append a line"]);
    signal(zeta.id(), "INT");
    let status = wait_exit(&mut zeta, Duration::from_secs(20)).expect("exits after SIGINT");
    let members = live_group_members(pgid);
    end_group(pgid);
    assert_eq!(status.code(), Some(130), "{}", read(&home.join("int.err")));
    assert!(members.is_empty(), "{members:?}");
    assert_eq!(tasks(&setup)[0]["status"], "cancelled");
}

/// A call that kills the worker (`kill -9 $PPID`, approved in auto mode): the task is
/// started at most 3 times, then fails with the reason; every start's call is on record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_kills_zeta_cannot_make_a_crash_loop() {
    let proto = Proto::Native;
    let turns = [
        run("kill -9 $PPID # start 1"),
        run("kill -9 $PPID # start 2"),
        run("kill -9 $PPID # start 3"),
        answer("never reached"),
    ];
    let setup = Setup::new(Wire::OpenAi, proto, script(&turns, proto)).await;
    let out = setup.zeta(&["run", "--json", "--approve", "all", "restart yourself"]);
    assert!(!out.status.success(), "killed by its own call");
    for start in 2..=3 {
        let out = setup.zeta(&["worker", "--json", "--approve", "all"]);
        assert!(!out.status.success(), "start {start} is killed too");
    }
    let last = setup.zeta(&["worker", "--json", "--approve", "all"]);
    let stderr = String::from_utf8_lossy(&last.stderr);
    assert!(last.status.success(), "{stderr}");
    let task = &tasks(&setup)[0];
    assert_eq!(task["status"], "failed", "{task}");
    assert_eq!(task["attempts"], 3);
    let error = task["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("stopped 3 times") && error.contains("start 3"),
        "{error}"
    );
    let rows = audit(&setup);
    let interrupted = rows.iter().filter(|r| r["state"] == "interrupted").count();
    assert_eq!(interrupted, 3, "{rows:?}");
    assert_eq!(setup.requests().len(), 3, "no fourth start asked the model");
}

/// The peak resident memory (VmHWM) of `pid` while it runs, in KiB, read until it exits.
fn peak_rss_kib(child: &mut Child, timeout: Duration) -> (u64, Option<std::process::ExitStatus>) {
    let start = Instant::now();
    let mut peak = 0;
    loop {
        let status = format!("/proc/{}/status", child.id());
        if let Some(kib) = read(Path::new(&status))
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kib);
        }
        if let Ok(Some(status)) = child.try_wait() {
            return (peak, Some(status));
        }
        if start.elapsed() > timeout {
            return (peak, wait_exit(child, Duration::ZERO));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A stream that never ends is stopped at the size cap (as fast as it comes) or at the
/// reply deadline (when it trickles), with a clear error and bounded memory; a single
/// oversized reply is stopped at the cap too. Not retried.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endless_and_oversized_replies_end_within_their_bounds() {
    let cases: Vec<(&str, Wire, Step, Value, &str)> = vec![
        (
            "fast endless, OpenAI",
            Wire::OpenAi,
            Step::Endless { pause_ms: 0 },
            json!({}),
            "passed 4194304 bytes",
        ),
        (
            "fast endless, Anthropic",
            Wire::Anthropic,
            Step::Endless { pause_ms: 0 },
            json!({}),
            "passed 4194304 bytes",
        ),
        (
            "fast endless, Ollama",
            Wire::Ollama,
            Step::Endless { pause_ms: 0 },
            json!({}),
            "passed 4194304 bytes",
        ),
        (
            "trickling endless",
            Wire::OpenAi,
            Step::Endless { pause_ms: 100 },
            json!({"provider": {"replyTimeoutSecs": 3}}),
            "did not end within 3 s",
        ),
        (
            "one huge reply",
            Wire::Anthropic,
            Step::text("x".repeat(5 * 1024 * 1024)),
            json!({}),
            "passed 4194304 bytes",
        ),
    ];
    for (name, wire, step, extra, expected) in cases {
        let setup =
            Setup::with_settings(wire, Proto::Native, vec![step, Step::text("unused")], extra)
                .await;
        let mut zeta = start(
            &setup,
            "bound",
            &["run", "--approve", "all", "say something"],
        );
        let (peak, status) = peak_rss_kib(&mut zeta, Duration::from_secs(120));
        let stderr = read(&setup.home.path().join("bound.err"));
        println!("{name}: peak RSS {} MiB", peak / 1024);
        assert_eq!(status.and_then(|s| s.code()), Some(1), "{name}: {stderr}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
        assert_eq!(setup.requests().len(), 1, "{name}: not retried");
        assert!(
            peak < 300 * 1024,
            "{name}: memory stayed bounded: {peak} KiB"
        );
    }
}

/// The cap is on what a reply says, not on its stream's framing: a reply sent a few
/// characters per event, whose framing is many times `maxReplyBytes` while its text is
/// under it, arrives whole; the same reply with more text than the cap is stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reply_cap_counts_what_the_reply_says_not_its_framing() {
    let per_token = |text: String| Step::Paced {
        text,
        piece_chars: 4,
        pause_ms: 0,
    };
    let small = "word ".repeat(380); // 1,900 bytes, ~475 events of ~150 bytes
    let setup = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        vec![per_token(small.clone())],
        json!({"provider": {"maxReplyBytes": 2048}}),
    )
    .await;
    let task = done_task(&setup.zeta_run("say it"));
    assert_eq!(task["reply"].as_str().map(str::trim), Some(small.trim()));
    let big = "word ".repeat(600); // 3,000 bytes of text
    let setup = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        vec![per_token(big), Step::text("unused")],
        json!({"provider": {"maxReplyBytes": 2048}}),
    )
    .await;
    let out = setup.zeta_run("say it");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("passed 2048 bytes"), "{stderr}");
}

/// A tool call whose argument is 1 MB of unbroken text (a DNA sequence): no panic, the
/// file is written and the task is done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_megabyte_argument_without_a_break_is_handled() {
    let dna = "ACGT".repeat(256 * 1024);
    let steps = vec![
        Step::call("write_file", json!({"path": "dna.txt", "content": dna})),
        Step::text("Saved the sequence to dna.txt."),
    ];
    let setup = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let out = setup.zeta_run("save this sequence");
    let task = finished_task(&out);
    assert_eq!(
        task["status"],
        "done",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::metadata(setup.home.path().join("dna.txt")).expect("written");
    assert_eq!(written.len(), 1024 * 1024);
}

/// Settings that are not a regular file (a link to /dev/zero) or not UTF-8 are reported
/// and the defaults used, like truncated JSON; the task still runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusable_settings_files_fall_back_to_defaults_with_a_warning() {
    for (name, expected) in [("dev-zero", "not a regular file"), ("latin-1", "not UTF-8")] {
        let setup = Setup::new(Wire::OpenAi, Proto::Native, vec![Step::text("Fine.")]).await;
        let settings: PathBuf = setup.home.path().join("settings.json");
        std::fs::remove_file(&settings).expect("remove");
        match name {
            "dev-zero" => std::os::unix::fs::symlink("/dev/zero", &settings).expect("link"),
            _ => std::fs::write(&settings, b"{\"soul\": \"caf\xe9\"}").expect("write"),
        }
        let out = Command::new(env!("CARGO_BIN_EXE_zeta"))
            .args(["run", "--json", "hello"])
            .env("ZETA_HOME", setup.home.path())
            .env("HOME", setup.home.path())
            .env("ZETA_LLM_PROVIDER", "openai")
            .env("ZETA_LLM_BASE_URL", setup.server.openai_base_url())
            .env("ZETA_LLM_MODEL", "scripted")
            .env("ZETA_LLM_PROTOCOL", "tools")
            .output()
            .expect("run zeta");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(
            stderr.contains(expected) && stderr.contains("using defaults"),
            "{name}: {stderr}"
        );
        assert_eq!(finished_task(&out)["reply"], "Fine.");
    }
}

/// Tool-call arguments that are not a JSON object get an audit row (invalid, validator)
/// like every other call, and the model is told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_that_are_not_json_are_on_record() {
    let steps = vec![
        Step::call("shell", json!("rm -rf ~/x {not json")),
        Step::text("I could not."),
    ];
    let setup = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let out = setup.zeta_run("remove x");
    assert_eq!(finished_task(&out)["status"], "done");
    let rows = audit(&setup);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["decision"], "invalid");
    assert_eq!(rows[0]["decidedBy"], "validator");
    assert!(request_text(&setup)[1].contains("not a JSON object"));
}

/// A fresh home is owner-only: the folder 0700, the database (and its WAL and
/// shared-memory files while they exist), the settings and the kept outputs 0600.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_home_is_readable_by_its_owner_only() {
    let proto = Proto::Native;
    let turns = [
        run("head -c 3000 /dev/urandom | base64"),
        answer("Counted."),
    ];
    let setup = Setup::new(Wire::OpenAi, proto, script(&turns, proto)).await;
    let root = setup.home.path().join("fresh");
    let out = Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(["run", "--json", "--approve", "all", "count"])
        .env("ZETA_HOME", &root)
        .env("HOME", setup.home.path())
        .env("ZETA_LLM_PROVIDER", "openai")
        .env("ZETA_LLM_BASE_URL", setup.server.openai_base_url())
        .env("ZETA_LLM_MODEL", "scripted")
        .env("ZETA_LLM_PROTOCOL", "tools")
        .output()
        .expect("run zeta");
    assert_eq!(
        finished_task(&out)["status"],
        "done",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&root), 0o700);
    let mut checked = Vec::new();
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir").flatten() {
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).expect("meta");
            if meta.is_dir() {
                assert_eq!(mode(&path), 0o700, "{}", path.display());
                pending.push(path);
            } else if meta.is_file() {
                assert_eq!(mode(&path), 0o600, "{}", path.display());
                checked.push(
                    path.strip_prefix(&root)
                        .expect("inside")
                        .display()
                        .to_string(),
                );
            }
        }
    }
    for expected in ["zeta.db", "settings.json"] {
        assert!(
            checked.iter().any(|c| c == expected),
            "{expected} in {checked:?}"
        );
    }
    assert!(
        checked.iter().any(|c| c.starts_with("outputs/")),
        "an output was kept: {checked:?}"
    );
}
