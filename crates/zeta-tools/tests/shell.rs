//! The shell tool against real bash: exit codes, process-group kill on timeout and on
//! cancel (no orphans), head-and-tail truncation, binary output, bad arguments.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use zeta_core::tool::{Tool, ToolContext};
use zeta_core::CancelToken;
use zeta_test_support::procs::live_group_members;
use zeta_tools::shell::Shell;

fn context(
    dir: &Path,
    timeout_ms: u64,
    max_output: usize,
) -> (
    tokio::sync::watch::Sender<bool>,
    ToolContext,
    Arc<Mutex<String>>,
) {
    let (cancel_tx, cancel) = CancelToken::new();
    let streamed = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&streamed);
    let ctx = ToolContext {
        untrusted_input: false,
        confine: None,
        keeper: None,
        session: zeta_core::tool::Session::Closed,
        at_task_end: Default::default(),
        request: "".into(),
        choose: Default::default(),
        cancel,
        workdir: dir.to_path_buf(),
        command_timeout_ms: timeout_ms,
        max_output_length: max_output,
        images_supported: false,
        screenshot: Default::default(),
        on_output: Arc::new(move |chunk: &str| {
            if let Ok(mut s) = sink.lock() {
                s.push_str(chunk);
            }
        }),
    };
    (cancel_tx, ctx, streamed)
}

fn read_pgid(dir: &Path) -> i32 {
    std::fs::read_to_string(dir.join("pgid"))
        .expect("pgid file")
        .trim()
        .parse()
        .expect("pgid")
}

#[tokio::test]
async fn exit_code_output_and_streaming() {
    let dir = tempfile::tempdir().expect("dir");
    let (_c, ctx, streamed) = context(dir.path(), 10_000, 4000);
    let out = Shell
        .run(json!({"command": "echo hello; echo oops >&2; pwd"}), &ctx)
        .await;
    assert!(out.ok, "{out:?}");
    assert!(out.content.contains("exit code 0"));
    assert!(out.content.contains("stdout:\nhello\n"), "{}", out.content);
    assert!(
        out.content.contains(&dir.path().display().to_string()),
        "runs in the workdir"
    );
    assert!(out.content.contains("stderr:\noops"), "{}", out.content);
    assert!(streamed.lock().expect("lock").contains("hello"));

    let out = Shell
        .run(json!({"command": "docker-not-here ps"}), &ctx)
        .await;
    assert!(!out.ok);
    assert!(out.content.contains("exit code 127"), "{}", out.content);
    assert_eq!(out.summary, "exit 127");
}

#[tokio::test]
async fn timeout_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().expect("dir");
    let (_c, ctx, _) = context(dir.path(), 500, 4000);
    let command = "echo $$ > pgid; (sleep 300 &); sleep 300 & sleep 300; echo never";
    let out = Shell.run(json!({"command": command}), &ctx).await;
    assert!(!out.ok);
    assert!(out.summary.contains("timed out"), "{out:?}");
    assert!(!out.content.contains("stdout:\nnever"), "{}", out.content);
    let pgid = read_pgid(dir.path());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        live_group_members(pgid),
        Vec::<u32>::new(),
        "orphans left in group {pgid}"
    );
}

#[tokio::test]
async fn cancel_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().expect("dir");
    let (cancel, ctx, _) = context(dir.path(), 60_000, 4000);
    let path = dir.path().to_path_buf();
    let canceller = tokio::spawn(async move {
        // Cancel once the command is surely running: the shell has written its whole pid
        // (the file exists, empty, from the moment the redirection opens it).
        for _ in 0..100 {
            let written = std::fs::read_to_string(path.join("pgid")).unwrap_or_default();
            if written.ends_with('\n') {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = cancel.send(true);
        cancel
    });
    let out = Shell
        .run(
            json!({"command": "echo $$ > pgid; sleep 200 & sleep 200"}),
            &ctx,
        )
        .await;
    let _keep = canceller.await.expect("canceller");
    assert!(!out.ok);
    assert_eq!(out.summary, "cancelled");
    let pgid = read_pgid(dir.path());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(live_group_members(pgid), Vec::<u32>::new());
}

#[tokio::test]
async fn long_output_keeps_head_and_tail_and_binary_is_not_dumped() {
    let dir = tempfile::tempdir().expect("dir");
    let (_c, ctx, _) = context(dir.path(), 10_000, 200);
    let out = Shell.run(json!({"command": "seq 1 100000"}), &ctx).await;
    assert!(out.ok);
    assert!(out.content.contains("stdout:\n1\n2\n3\n"), "head kept");
    assert!(out.content.trim_end().ends_with("100000"), "tail kept");
    assert!(out.content.contains("bytes cut"));
    assert!(
        out.content.len() < 1000,
        "capped: {} bytes",
        out.content.len()
    );

    let out = Shell
        .run(json!({"command": "head -c 3000 /bin/bash"}), &ctx)
        .await;
    assert!(
        out.content
            .contains("[binary output: 3000 bytes, not shown]"),
        "{}",
        out.content
    );
}

#[tokio::test]
async fn bad_arguments_are_clear_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let (_c, ctx, _) = context(dir.path(), 1000, 100);
    let out = Shell.run(json!({"cmd": "ls"}), &ctx).await;
    assert!(!out.ok);
    assert!(out.content.contains("bad arguments"), "{}", out.content);
    let out = Shell.run(json!({"command": 42}), &ctx).await;
    assert!(!out.ok && out.content.contains("bad arguments"));
    let out = Shell
        .run(json!({"command": "ls", "workdir": "/does/not/exist"}), &ctx)
        .await;
    assert!(
        !out.ok && out.content.contains("could not start bash"),
        "{}",
        out.content
    );
}

/// Endings that make a small model give up or invent a result carry a general next step:
/// no match, a missing program, an empty success, another failure. Output that answers
/// gets none.
#[tokio::test]
async fn endings_that_stall_a_model_say_what_to_do_next() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("notes.txt"), "Milk\n").expect("notes");
    let (_c, ctx, _) = context(dir.path(), 10_000, 4000);
    let cases = [
        ("grep milk notes.txt", "nothing matched"),
        ("find . -name '*.pdf' | grep -q .", "nothing matched"),
        ("no-such-program-here --version", "program is missing"),
        ("true", "gave none"),
        ("echo ' '", "printed only blanks"),
        ("printf '\\n\\n  \\t\\n'", "gave none"),
        ("ls /no/such/folder", "the command failed"),
        // A reader given no file reads the shell's empty input, whatever it printed.
        (
            "wc -w ",
            "wc was given no file and nothing was piped into it",
        ),
        ("grep -c Milk", "grep was given no file"),
        ("sort -nr | head -1", "sort was given no file"),
    ];
    for (command, said) in cases {
        let out = Shell.run(json!({ "command": command }), &ctx).await;
        assert!(out.content.contains(said), "{command}: {}", out.content);
    }
    // Output that answers, and a change that printed nothing as changes do, get none.
    for command in [
        "grep -i milk notes.txt",
        "wc -w notes.txt",
        "wc -w < notes.txt",
        "echo 3 > count.txt",
        "mv count.txt n.txt",
    ] {
        let out = Shell.run(json!({ "command": command }), &ctx).await;
        assert!(out.ok, "{command}: {}", out.content);
        assert!(
            !out.content.contains("(next:"),
            "{command}: {}",
            out.content
        );
    }
}

/// `workdir` is taken from the task's folder, as every path a tool is given: a relative
/// one names a folder inside it, `~` the home.
#[tokio::test]
async fn a_relative_workdir_is_inside_the_task_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("sub")).expect("sub");
    let (_cancel, ctx, _) = context(dir.path(), 10_000, 10_000);
    let out = Shell
        .run(json!({"command": "pwd", "workdir": "sub"}), &ctx)
        .await;
    assert!(out.ok, "{}", out.content);
    let sub = dir.path().join("sub").canonicalize().expect("canonical");
    assert!(
        out.content.contains(&sub.display().to_string()),
        "{}",
        out.content
    );
    assert_eq!(
        Shell.workdir(&json!({"command": "ls", "workdir": "sub"}), dir.path()),
        dir.path().join("sub")
    );
    assert_eq!(
        Shell.workdir(&json!({"command": "ls"}), dir.path()),
        dir.path()
    );
}

/// A command runs in a session of its own (no controlling terminal to type into) and may
/// not push input into any terminal: `TIOCSTI` on a pseudo-terminal it opened itself is
/// refused, even for root, who the kernel would otherwise let do it.
#[tokio::test]
async fn a_command_cannot_type_into_a_terminal() {
    let dir = tempfile::tempdir().expect("dir");
    let (_c, ctx, _) = context(dir.path(), 10_000, 4000);
    let out = Shell
        .run(
            json!({"command": "test \"$(ps -o sid= -p $$ | tr -d ' ')\" = \"$$\" && echo own-session"}),
            &ctx,
        )
        .await;
    assert!(out.content.contains("own-session"), "{}", out.content);
    let inject = r#"python3 -c "
import os, fcntl, termios
m, s = os.openpty()
try:
    fcntl.ioctl(s, termios.TIOCSTI, b'x')
    print('injected')
except OSError as e:
    print('refused', e.errno)
try:
    open('/dev/tty', 'w')
    print('has a terminal')
except OSError as e:
    print('no terminal', e.errno)
""#;
    let out = Shell.run(json!({ "command": inject }), &ctx).await;
    assert!(out.content.contains("refused 1"), "EPERM: {}", out.content);
    assert!(out.content.contains("no terminal"), "{}", out.content);
    assert!(!out.content.contains("injected"), "{}", out.content);
}
