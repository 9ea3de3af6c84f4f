//! The desktop session through the real `zeta run` (auto mode): a command nobody
//! approved cannot reach it (a socket in the runtime folder, a real tmux server), a
//! command that only asks the session for information runs with it on its own (`tmux
//! ls`), and one that acts in it (`tmux new-window`) runs only once a person approved it,
//! with its effect seen in the real tmux server; refused, nothing happens.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::process::Command;

use std::time::Duration;

use serde_json::Value;
use zeta_core::{ApprovalScope, Event, Op};
use zeta_scripted_llm::Wire;

use crate::harness::*;

/// A tmux server the test started, ended by its PID.
struct Tmux(u32);

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", &self.0.to_string()])
            .status();
    }
}

fn windows(tmp: &std::path::Path) -> String {
    let out = Command::new("tmux")
        .args(["list-windows", "-t", "work", "-F", "#{window_name}"])
        .env("TMUX_TMPDIR", tmp)
        .output()
        .expect("tmux list-windows");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_session_is_reached_only_for_reading_or_with_approval() {
    if !zeta_tools::doors::namespaces_work() {
        eprintln!("SKIPPED doors through zeta: this kernel refuses user namespaces");
        return;
    }
    let tmp = tempfile::tempdir().expect("tmux dir");
    let runtime = tempfile::tempdir().expect("runtime dir");
    // As a real runtime folder is (XDG: owner-only).
    std::fs::set_permissions(runtime.path(), std::fs::Permissions::from_mode(0o700))
        .expect("chmod");
    let _listener = UnixListener::bind(runtime.path().join("canary.sock")).expect("listen");
    assert!(Command::new("tmux")
        .args(["new-session", "-d", "-s", "work", "sleep 600"])
        .env("TMUX_TMPDIR", tmp.path())
        .status()
        .expect("tmux")
        .success());
    let pid = Command::new("tmux")
        .args(["display-message", "-p", "#{pid}"])
        .env("TMUX_TMPDIR", tmp.path())
        .output()
        .expect("tmux pid");
    let _tmux = Tmux(
        String::from_utf8_lossy(&pid.stdout)
            .trim()
            .parse()
            .expect("pid"),
    );
    let env = [
        ("TMUX_TMPDIR", tmp.path()),
        ("XDG_RUNTIME_DIR", runtime.path()),
    ];
    let proto = Proto::Native;
    let steps = script(
        &[
            run("test -S \"$XDG_RUNTIME_DIR/canary.sock\" && echo SOCKET-SEEN || echo SOCKET-HIDDEN"),
            run("tmux ls"),
            run("tmux new-window -t work -n refused-window"),
            answer("Done."),
        ],
        proto,
    );
    let s = Setup::new(Wire::OpenAi, proto, steps).await;
    let out = s.zeta_env(
        &["run", "--json", "--approve", "none", "Look at my tmux"],
        &env,
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let finished: Vec<Value> = events(&out)
        .into_iter()
        .filter(|e| e["type"] == "toolCallFinished")
        .collect();
    let output = |i: usize| {
        finished
            .get(i)
            .map(|e| e["output"].to_string())
            .unwrap_or_default()
    };
    assert!(
        output(0).contains("SOCKET-HIDDEN") && !output(0).contains("SOCKET-SEEN"),
        "{text}"
    );
    assert!(
        output(1).contains("work: 1 windows"),
        "tmux ls ran with the session: {text}"
    );
    assert!(
        !windows(tmp.path()).contains("refused-window"),
        "a refused act did nothing: {text}"
    );

    // The same act approved by a person (the worker in this process: its commands see
    // this test's tmux folder).
    std::env::set_var("TMUX_TMPDIR", tmp.path());
    let steps = script(
        &[
            run("tmux new-window -t work -n approved-window"),
            answer("Done."),
        ],
        proto,
    );
    let s = Setup::new(Wire::OpenAi, proto, steps).await;
    let (core, mut events, _handle) = s.spawn();
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "Open a window in my tmux".into(),
    })
    .expect("op");
    loop {
        match tokio::time::timeout(Duration::from_secs(30), events.recv()).await {
            Ok(Ok(Event::ApprovalRequested { call_id, .. })) => core
                .submit(Op::Approve {
                    call_id,
                    scope: ApprovalScope::Once,
                    steps: Vec::new(),
                })
                .expect("approve"),
            Ok(Ok(Event::TaskFinished { .. })) => break,
            Ok(Ok(_)) => {}
            other => panic!("no event: {other:?}"),
        }
    }
    assert!(
        windows(tmp.path()).contains("approved-window"),
        "the approved act reached tmux"
    );
}
