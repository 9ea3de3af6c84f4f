//! What a command leaves running: a call nobody approved cannot leave its session
//! (`setsid` refused), so every way of leaving a process behind (`&`, `nohup`, a double
//! fork, `setsid`, Python's `os.setsid`/daemon, `disown`) ends with the task; the model
//! is told what is still running. A call a person approved leaves its processes alone.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use serde_json::json;
use zeta_core::tool::{Session, Tool, ToolContext};
use zeta_test_support::procs::{processes_using, stat};
use zeta_tools::shell::Shell;

fn ctx(dir: &Path, session: Session) -> ToolContext {
    let mut ctx = ToolContext::detached(dir.to_path_buf());
    ctx.session = session;
    ctx
}

fn alive(dir: &Path) -> Vec<u32> {
    processes_using(dir)
        .into_iter()
        .filter(|pid| stat(*pid).is_some_and(|p| !p.is_zombie()))
        .collect()
}

fn end(pids: &[u32]) {
    for pid in pids {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(*pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn what_an_unapproved_command_leaves_running_ends_with_the_task() {
    // `napper` is sleep under a name in this test's folder: what it started is found by
    // its command line and ended by PID.
    let ways = [
        ("background", "{n} 300 & echo started"),
        ("nohup", "nohup {n} 300 > /dev/null 2>&1 & echo started"),
        ("double fork", "( ( {n} 300 & ) & ) ; echo started"),
        ("disown", "{n} 300 & disown; echo started"),
        ("setsid -f", "setsid -f {n} 300 ; echo started"),
        ("setsid &", "setsid {n} 300 & echo started"),
        (
            "python daemon",
            "python3 -c 'import os,subprocess,sys\nif os.fork()==0:\n  try: os.setsid()\n  except OSError: pass\n  subprocess.Popen([sys.argv[1],\"300\"]); os._exit(0)' {n}; echo started",
        ),
    ];
    let mut table = Vec::new();
    let mut failures = Vec::new();
    for (way, template) in ways {
        let dir = tempfile::tempdir().unwrap();
        let napper = dir.path().join("napper");
        std::fs::copy("/bin/sleep", &napper).unwrap();
        let command = template.replace("{n}", &napper.display().to_string());
        let ctx = ctx(dir.path(), Session::Closed);
        let out = Shell.run(json!({ "command": command }), &ctx).await;
        std::thread::sleep(std::time::Duration::from_millis(300));
        let during = alive(dir.path());
        ctx.at_task_end.run();
        let after = alive(dir.path());
        end(&after);
        table.push(format!(
            "{way}: running after the call {}, after the task {}",
            during.len(),
            after.len()
        ));
        if !after.is_empty() {
            failures.push(format!(
                "{way}: {} left after the task: {}",
                after.len(),
                out.content
            ));
        }
        if !during.is_empty() && !out.content.contains("still running in the background") {
            failures.push(format!("{way}: the model was not told: {}", out.content));
        }
    }
    println!("{}", table.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn what_an_approved_command_leaves_running_stays() {
    let dir = tempfile::tempdir().unwrap();
    let napper = dir.path().join("napper");
    std::fs::copy("/bin/sleep", &napper).unwrap();
    let ctx = ctx(dir.path(), Session::Open);
    let command = format!(
        "setsid -f {} 300; {} 300 & echo started",
        napper.display(),
        napper.display()
    );
    let out = Shell.run(json!({ "command": command }), &ctx).await;
    ctx.at_task_end.run();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let after = alive(dir.path());
    end(&after);
    assert_eq!(after.len(), 2, "both stay: {}", out.content);
    assert!(
        out.content.contains("keep running after this task"),
        "{}",
        out.content
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_command_that_leaves_nothing_says_nothing_about_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = Shell
        .run(
            json!({ "command": "sleep 0.1 & wait; echo done" }),
            &ctx(dir.path(), Session::Closed),
        )
        .await;
    assert!(out.ok, "{}", out.content);
    assert!(!out.content.contains("background"), "{}", out.content);
}
