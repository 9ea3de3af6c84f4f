//! Tokens sent over a 40-iteration task whose every step prints ~4,000 characters of
//! random base64, with compaction on versus off (seed 003). Each run is the real loop
//! against the scripted server over HTTP, with the real shell tool. The token count is
//! the loop's own (cl100k) count of each request, and is cross-checked against the bytes
//! the server received.
//!
//! Run: `cargo bench -p zeta-llm --bench compaction`. Prints, per window size, the tokens
//! and bytes sent with and without compaction, the reduction, and whether the final answer
//! is the same.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;
use zeta_core::{spawn_worker, AgentLoop, Event, Op, TaskStatus, WorkerOptions, ZetaHome};
use zeta_llm::SettingsModels;
use zeta_scripted_llm::{ScriptedServer, Step};

const STEPS: usize = 40;

fn script() -> Vec<Step> {
    zeta_scripted_llm::noisy_script(STEPS)
}

struct Run {
    tokens: u64,
    bytes: usize,
    peak: u64,
    compactions: usize,
    answer: String,
}

async fn run(window: u32, compaction: bool) -> Run {
    let server = ScriptedServer::start(script()).await.expect("server");
    let home = tempfile::tempdir().expect("home");
    let settings = json!({
        "maxIterations": 60,
        "provider": {"kind": "openai", "baseUrl": server.openai_base_url(), "model": "scripted",
                     "protocol": "tools", "stream": true, "contextWindow": window},
        "permissions": {"mode": "auto"},
        "context": {"compaction": compaction}
    });
    std::fs::write(home.path().join("settings.json"), settings.to_string()).expect("settings");
    let zh = ZetaHome::at(home.path()).expect("home");
    let agent = AgentLoop::new(
        SettingsModels::env_only(),
        zeta_tools::registry(),
        home.path().join("souls"),
        home.path().to_path_buf(),
    );
    let (core, mut events, handle) =
        spawn_worker(zh, agent, WorkerOptions::default()).expect("worker");
    core.submit(Op::EnqueueTask {
        sender: "bench".into(),
        message: "Take 40 random samples".into(),
    })
    .expect("op");
    let (mut tokens, mut peak, mut compactions) = (0u64, 0u64, 0usize);
    let answer = loop {
        match events.recv().await {
            Ok(Event::IterationStarted { context_tokens, .. }) => {
                tokens += u64::from(context_tokens);
                peak = peak.max(u64::from(context_tokens));
            }
            Ok(Event::Compacted { .. }) => compactions += 1,
            Ok(Event::TaskFinished { task }) => {
                assert_eq!(task.status, TaskStatus::Done, "{:?}", task.error);
                break task.reply.unwrap_or_default();
            }
            Ok(_) => {}
            Err(e) => panic!("events: {e}"),
        }
    };
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    let bytes = server
        .requests()
        .iter()
        .map(|r| r.body.to_string().len())
        .sum();
    assert!(
        server.violations().is_empty(),
        "orphans: {:?}",
        server.violations()
    );
    Run {
        tokens,
        bytes,
        peak,
        compactions,
        answer,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    println!("40-iteration task, ~4,000 characters of random output per step");
    for window in [8_192u32, 32_768] {
        let off = run(window, false).await;
        let on = run(window, true).await;
        let saved = 100.0 * (1.0 - on.tokens as f64 / off.tokens as f64);
        let saved_bytes = 100.0 * (1.0 - on.bytes as f64 / off.bytes as f64);
        println!(
            "window {window:>6}: off {:>8} tokens ({:>9} B, peak {:>6})  on {:>8} tokens ({:>9} B, peak {:>6}, {} compactions)  fewer tokens {saved:.1} %, bytes {saved_bytes:.1} %, same answer: {}",
            off.tokens, off.bytes, off.peak, on.tokens, on.bytes, on.peak, on.compactions, off.answer == on.answer
        );
    }
}
