//! File, code, HTTP and URL tools on real files, real interpreters and a real HTTP server
//! on 127.0.0.1, including the clear errors bad arguments get.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use zeta_core::tool::{Tool, ToolContext};
use zeta_core::CancelToken;
use zeta_tools::files::{ListDirectory, ReadFile, SearchFiles, WriteFile};

fn ctx(dir: &Path, max_output: usize) -> ToolContext {
    let (tx, cancel) = CancelToken::new();
    std::mem::forget(tx);
    ToolContext {
        untrusted_input: false,
        confine: None,
        keeper: None,
        session: zeta_core::tool::Session::Closed,
        at_task_end: Default::default(),
        request: "".into(),
        choose: Default::default(),
        cancel,
        workdir: dir.to_path_buf(),
        command_timeout_ms: 10_000,
        max_output_length: max_output,
        images_supported: false,
        screenshot: Default::default(),
        on_output: Arc::new(|_: &str| {}),
    }
}

#[tokio::test]
async fn files_are_written_read_listed_and_searched() {
    let dir = tempfile::tempdir().expect("dir");
    let c = ctx(dir.path(), 4000);
    let out = WriteFile
        .run(
            json!({"path": "notes/a.txt", "content": "hello world\n"}),
            &c,
        )
        .await;
    assert!(out.ok, "{out:?}");
    let out = WriteFile
        .run(
            json!({"path": "notes/a.txt", "content": "goodbye\n", "append": true}),
            &c,
        )
        .await;
    assert!(out.ok);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes/a.txt")).expect("read"),
        "hello world\ngoodbye\n"
    );

    let out = ReadFile.run(json!({"path": "notes/a.txt"}), &c).await;
    assert!(
        out.ok && out.content.ends_with("hello world\ngoodbye\n"),
        "{}",
        out.content
    );
    let long: String = (1..=1000).map(|i| format!("row {i}\n")).collect();
    std::fs::write(dir.path().join("long.log"), long).expect("write");
    let out = ReadFile
        .run(
            json!({"path": "long.log", "start_line": 10, "max_lines": 3}),
            &c,
        )
        .await;
    assert!(
        out.content.contains("row 10\nrow 11\nrow 12\n") && !out.content.contains("row 13\n"),
        "{}",
        out.content
    );
    assert!(
        out.content.contains("lines 10-12 of 1000"),
        "{}",
        out.content
    );
    std::fs::write(dir.path().join("blob.bin"), [0u8, 1, 2, 3, 255]).expect("write");
    let out = ReadFile.run(json!({"path": "blob.bin"}), &c).await;
    assert!(
        out.content.contains("binary file (5 bytes)"),
        "{}",
        out.content
    );
    let out = ReadFile.run(json!({"path": "/does/not/exist"}), &c).await;
    assert!(
        !out.ok && out.content.contains("cannot read /does/not/exist"),
        "{out:?}"
    );

    let out = ListDirectory.run(json!({}), &c).await;
    assert!(
        out.content.contains("notes/\n"),
        "folders first, marked: {}",
        out.content
    );
    assert!(out.content.contains("long.log  "), "{}", out.content);
    let out = ListDirectory.run(json!({"path": "missing"}), &c).await;
    assert!(!out.ok);

    let out = SearchFiles.run(json!({"name": "*.LOG"}), &c).await;
    assert!(
        out.content.contains("long.log") && !out.content.contains("a.txt"),
        "{}",
        out.content
    );
    let out = SearchFiles.run(json!({"content": "GOODBYE"}), &c).await;
    assert!(out.content.contains("a.txt:2: goodbye"), "{}", out.content);
    let out = SearchFiles
        .run(json!({"content": "row 1", "max_results": 5}), &c)
        .await;
    assert!(
        out.content.contains("stopped at 5 results"),
        "{}",
        out.content
    );
    let out = SearchFiles.run(json!({}), &c).await;
    assert!(!out.ok && out.content.contains("give `name`"), "{out:?}");
}

#[tokio::test]
async fn run_code_runs_python_bash_and_node_with_limits() {
    let dir = tempfile::tempdir().expect("dir");
    let c = ctx(dir.path(), 4000);
    let code = zeta_tools::run_code::RunCode;
    let out = code
        .run(
            json!({"language": "python", "code": "import sys\nprint(sum(range(10)))\nsys.exit(3)"}),
            &c,
        )
        .await;
    assert!(
        !out.ok && out.content.contains("stdout:\n45") && out.content.contains("exit code 3"),
        "{}",
        out.content
    );
    let out = code
        .run(
            json!({"language": "bash", "code": "for i in 1 2 3; do echo n$i; done"}),
            &c,
        )
        .await;
    assert!(
        out.ok && out.content.contains("n1\nn2\nn3"),
        "{}",
        out.content
    );
    if which("node") {
        let out = code.run(json!({"language": "node", "code": "console.log([1,2,3].map(x => x * 2).join(','))"}), &c).await;
        assert!(out.ok && out.content.contains("2,4,6"), "{}", out.content);
    } else {
        eprintln!("node part skipped: node is not on PATH");
    }
    let mut quick = ctx(dir.path(), 4000);
    quick.command_timeout_ms = 300;
    let out = code
        .run(
            json!({"language": "python", "code": "import time\ntime.sleep(30)"}),
            &quick,
        )
        .await;
    assert!(!out.ok && out.summary.contains("timed out"), "{out:?}");
    let out = code
        .run(json!({"language": "cobol", "code": "x"}), &c)
        .await;
    assert!(!out.ok && out.content.contains("bad arguments"), "{out:?}");
}

fn which(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false)
}

#[tokio::test]
async fn http_request_reports_status_headers_and_a_capped_body() {
    use zeta_scripted_llm::{ScriptedServer, Step};
    let server = ScriptedServer::start(vec![
        Step::text("x".repeat(5000)),
        Step::RateLimited {
            retry_after_secs: 3.0,
        },
    ])
    .await
    .expect("server");
    let dir = tempfile::tempdir().expect("dir");
    let c = ctx(dir.path(), 300);
    let http = zeta_tools::http::HttpRequest;
    let out = http
        .run(
            json!({"url": format!("{}/models", server.openai_base_url())}),
            &c,
        )
        .await;
    assert!(
        out.ok && out.content.contains("status: 200 OK") && out.content.contains("scripted"),
        "{}",
        out.content
    );
    let url = format!("{}/chat/completions", server.openai_base_url());
    let body = json!({"model": "m", "messages": [], "stream": false}).to_string();
    let out = http
        .run(json!({"method": "POST", "url": url, "headers": {"content-type": "application/json"}, "body": body}), &c)
        .await;
    assert!(out.ok, "{out:?}");
    assert!(
        out.content.contains("bytes cut"),
        "body capped: {}",
        out.content
    );
    assert_eq!(server.requests()[0].body["model"], "m", "the body arrived");
    let out = http
        .run(json!({"method": "POST", "url": url, "body": "{}"}), &c)
        .await;
    assert!(
        !out.ok && out.content.contains("429") && out.content.contains("retry-after: 3"),
        "{}",
        out.content
    );
    let out = http
        .run(json!({"url": "http://127.0.0.1:9/nothing"}), &c)
        .await;
    assert!(!out.ok && out.content.contains("failed"), "{out:?}");
}

#[tokio::test]
async fn open_url_hands_the_url_to_the_desktop_and_refuses_other_schemes() {
    let dir = tempfile::tempdir().expect("dir");
    let c = ctx(dir.path(), 4000);
    let open = zeta_tools::open::OpenUrl;
    let out = open.run(json!({"url": "javascript:alert(1)"}), &c).await;
    assert!(!out.ok && out.content.contains("not an http"), "{out:?}");
    let out = open
        .run(json!({"url": "https://example.com/a b; rm -rf ~"}), &c)
        .await;
    assert!(!out.ok, "spaces are refused: {out:?}");
    if !which("xdg-open") {
        eprintln!("open_url launch part skipped: xdg-open is not installed");
        return;
    }
    // xdg-open outside a desktop environment hands http URLs to $BROWSER.
    let seen = dir.path().join("seen.txt");
    let browser = dir.path().join("browser.sh");
    std::fs::write(
        &browser,
        format!("#!/bin/sh\necho \"$1\" > {}\n", seen.display()),
    )
    .expect("script");
    std::process::Command::new("chmod")
        .args(["+x"])
        .arg(&browser)
        .status()
        .expect("chmod");
    std::env::set_var("BROWSER", &browser);
    let out = open
        .run(json!({"url": "https://example.com/?q=zeta&x=1"}), &c)
        .await;
    assert!(out.ok, "{out:?}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while std::fs::read_to_string(&seen).unwrap_or_default().trim()
        != "https://example.com/?q=zeta&x=1"
    {
        assert!(Instant::now() < deadline, "the browser never got the URL");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A named pipe with no writer, a device and a folder are refused at once by `read_file`
/// (a FIFO used to keep it waiting forever), and say what they are.
#[tokio::test]
async fn read_file_refuses_what_is_not_a_file_without_waiting() {
    let dir = tempfile::tempdir().expect("dir");
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let ctx = ctx(dir.path(), 4000);
    for (path, what) in [
        (fifo.display().to_string(), "named pipe"),
        ("/dev/zero".to_string(), "a device"),
        (dir.path().display().to_string(), "a folder"),
    ] {
        let out = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            zeta_tools::files::ReadFile.run(serde_json::json!({ "path": path }), &ctx),
        )
        .await
        .expect("read_file answers at once");
        assert!(!out.ok, "{path}: {}", out.content);
        assert!(out.content.contains(what), "{path}: {}", out.content);
    }
}
