//! What MCP costs, measured side by side in one run with the real test server
//! (tests/mcp/servers/test_server.py, the official Python SDK):
//! - a stdio server's start as a task pays it (spawn, MCP handshake, tool list), against
//!   the bare start of the same Python with the SDK imported;
//! - one call of the server's `read_note` through Zeta's MCP tool, over stdio and over
//!   streamable HTTP, against Zeta's own `read_file` on the same 4 KB file, interleaved.
//!
//! `cargo bench --profile dev --bench mcp` (needs scripts/mcp-python.sh; ~1 minute).
//! `ZETA_BENCH_STARTS` (default 10) and `ZETA_BENCH_CALLS` (default 200).

// Bench code: a failed unwrap or expect is the bench failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_core::tool::{Tool, ToolContext};
use zeta_mcp::McpManager;

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn manager() -> Arc<McpManager> {
    McpManager::new(Arc::new(|_: &str| None), None, None, None)
}

fn servers(entries: Value) -> BTreeMap<String, Value> {
    serde_json::from_value(entries).expect("servers")
}

fn line(what: &str, mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = samples[samples.len() / 2];
    let p90 = samples[samples.len() * 9 / 10];
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    println!(
        "{what:<44} median {:>8.2} ms   p90 {:>8.2} ms   mean {:>8.2} ms   (n={})",
        ms(median),
        ms(p90),
        ms(mean),
        samples.len()
    );
    median
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let Some(py) = zeta_test_support::mcp::python("the MCP bench") else {
        return;
    };
    let script = zeta_test_support::mcp::server_script("test_server.py");
    let dir = tempfile::tempdir().expect("dir");
    let note = dir.path().join("note.txt");
    std::fs::write(&note, "x".repeat(4096)).expect("note");
    let stdio = json!({"notes": {"command": py, "args": [script, "stdio", dir.path()], "trustReadOnly": true}});

    // 1. Starts.
    let starts = env_count("ZETA_BENCH_STARTS", 10);
    let mut python_only = Vec::new();
    let mut server_start = Vec::new();
    for _ in 0..starts {
        let t = Instant::now();
        let ok = tokio::process::Command::new(&py)
            .args(["-c", "import mcp.server.mcpserver"])
            .status()
            .await
            .expect("python");
        assert!(ok.success());
        python_only.push(t.elapsed());
        let mcp = manager();
        mcp.configure(&servers(stdio.clone())).await;
        let t = Instant::now();
        let tools = mcp.test("notes").await.expect("start");
        server_start.push(t.elapsed());
        assert_eq!(tools.len(), 6);
        mcp.shutdown().await;
    }
    println!("== starts ({starts} each) ==");
    line("python -c 'import mcp.server.mcpserver'", python_only);
    line("stdio server: spawn + handshake + tools/list", server_start);

    // 2. Calls, interleaved: Zeta's read_file, read_note over stdio, over HTTP.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let mut http = std::process::Command::new(&py)
        .args([
            &zeta_test_support::mcp::server_script("test_server.py"),
            "http",
            &dir.path().display().to_string(),
            &port.to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("http server");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the HTTP server did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    let mcp = manager();
    let mut entries = servers(stdio);
    entries.insert(
        "web".into(),
        json!({"url": format!("http://127.0.0.1:{port}/mcp"), "trustReadOnly": true}),
    );
    mcp.configure(&entries).await;
    let offered = mcp.tools("read the note", 12).await;
    assert!(offered.unavailable.is_empty(), "{:?}", offered.unavailable);
    let find = |name: &str| {
        offered
            .tools
            .iter()
            .find(|t| t.spec().name == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} offered"))
    };
    let (over_stdio, over_http) = (find("notes__read_note"), find("web__read_note"));
    let direct = zeta_tools::files::ReadFile;
    let mut ctx = ToolContext::detached(dir.path().to_path_buf());
    ctx.max_output_length = 100_000;
    let calls = env_count("ZETA_BENCH_CALLS", 200);
    let (mut own, mut via_stdio, mut via_http) = (Vec::new(), Vec::new(), Vec::new());
    let by_name = json!({"name": "note.txt"});
    let by_path = json!({"path": note});
    for _ in 0..calls {
        let t = Instant::now();
        assert!(direct.run(by_path.clone(), &ctx).await.ok);
        own.push(t.elapsed());
        let t = Instant::now();
        let out = over_stdio.run(by_name.clone(), &ctx).await;
        assert!(out.ok && out.content.len() >= 4096, "{}", out.content);
        via_stdio.push(t.elapsed());
        let t = Instant::now();
        assert!(over_http.run(by_name.clone(), &ctx).await.ok);
        via_http.push(t.elapsed());
    }
    println!("== one call reading a 4 KB note ({calls} each, interleaved) ==");
    let base = line("Zeta's read_file", own);
    let s = line("MCP read_note over stdio", via_stdio);
    let h = line("MCP read_note over streamable HTTP", via_http);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "overhead per call against read_file (medians): stdio +{:.2} ms, HTTP +{:.2} ms",
        ms(s) - ms(base),
        ms(h) - ms(base)
    );
    mcp.shutdown().await;
    let _ = http.kill();
    let _ = http.wait();
}
