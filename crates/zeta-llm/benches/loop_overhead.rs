//! The agent loop's own cost per iteration, with the model and the tool made as cheap as
//! possible, so what is measured is Zeta: history building, request encoding, HTTP on
//! loopback, stream parsing, events, guardrails.
//!
//! Run: `cargo bench -p zeta-llm --bench loop_overhead` (release). Prints the median and
//! spread of the time per iteration for:
//!   A. an in-process model that answers at once, and a no-op tool (the loop alone);
//!   B. the scripted server over HTTP, OpenAI format, streamed, and a no-op tool;
//!   C. B with the real `shell` tool running `true` (adds a bash spawn per step).

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_core::agent_loop::FixedModel;
use zeta_core::model::{Model, ModelError, ModelReply, ModelRequest, ToolCall, ToolSpec, Usage};
use zeta_core::tool::{Tool, ToolContext, ToolFuture, ToolOutput, ToolRegistry};
use zeta_core::{spawn_worker, Agent, AgentLoop, Op, TaskStatus, WorkerOptions, ZetaHome};
use zeta_llm::SettingsModels;
use zeta_scripted_llm::{ScriptedServer, Step};

const ITERATIONS: u32 = 50;
const RUNS: usize = 15;

/// Answers with a `noop` call until the cap, then a summary.
struct Instant_;

impl Model for Instant_ {
    async fn complete(
        &self,
        req: &ModelRequest,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ModelReply, ModelError> {
        on_delta("ok");
        let call_no = req.messages.len();
        Ok(if req.tools.is_empty() {
            ModelReply {
                text: "summary".into(),
                tool_calls: vec![],
                usage: Usage::default(),
            }
        } else {
            ModelReply {
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: format!("c{call_no}"),
                    name: "noop".into(),
                    arguments: json!({"n": call_no}),
                }],
                usage: Usage::default(),
            }
        })
    }
    fn capabilities(&self) -> zeta_core::model::Capabilities {
        zeta_core::model::Capabilities {
            native_tools: true,
            ..Default::default()
        }
    }
}

struct Noop;

impl Tool for Noop {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "noop".into(),
            description: "does nothing".into(),
            parameters: json!({"type": "object"}),
        }
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn run<'a>(&'a self, _arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async { ToolOutput::ok("done", "done") })
    }
}

fn noop_tools() -> ToolRegistry {
    let mut t = ToolRegistry::new();
    t.register(Arc::new(Noop));
    t
}

/// Runs one task of `ITERATIONS` tool steps plus the summary; returns the time per model call.
async fn one_task<A: Agent>(home: &tempfile::TempDir, agent: A) -> Duration {
    let zh = ZetaHome::at(home.path()).expect("home");
    let (core, mut events, handle) =
        spawn_worker(zh, agent, WorkerOptions::default()).expect("worker");
    let start = Instant::now();
    core.submit(Op::EnqueueTask {
        sender: "bench".into(),
        message: "go".into(),
    })
    .expect("op");
    loop {
        match events.recv().await {
            Ok(zeta_core::Event::TaskFinished { task }) => {
                assert_eq!(task.status, TaskStatus::Done, "{:?}", task.error);
                break;
            }
            Ok(_) => {}
            Err(e) => panic!("events: {e}"),
        }
    }
    let elapsed = start.elapsed();
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    elapsed / (ITERATIONS + 1)
}

fn settings(home: &tempfile::TempDir, base: &str) {
    let s = json!({"maxIterations": ITERATIONS, "provider": {"kind": "openai", "baseUrl": base, "model": "scripted", "protocol": "tools", "stream": true}, "permissions": {"mode": "auto"}});
    std::fs::write(home.path().join("settings.json"), s.to_string()).expect("settings");
}

/// `ITERATIONS` calls, each with different arguments (the same call three times in a row
/// would trip the guardrail), then the summary.
fn script(tool: &str, args: impl Fn(u32) -> Value) -> Vec<Step> {
    let mut steps: Vec<Step> = (0..ITERATIONS).map(|i| Step::call(tool, args(i))).collect();
    steps.push(Step::text("summary"));
    steps
}

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "{name:<58} median {:>8.1} µs/iteration  (min {:.1}, max {:.1}, {} tasks × {} calls)",
        us(samples[samples.len() / 2]),
        us(samples[0]),
        us(samples[samples.len() - 1]),
        samples.len(),
        ITERATIONS + 1
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut a = Vec::new();
    for _ in 0..RUNS {
        let home = tempfile::tempdir().expect("home");
        settings(&home, "http://127.0.0.1:9/v1");
        let agent = AgentLoop::new(
            FixedModel(Arc::new(Instant_)),
            noop_tools(),
            home.path().join("souls"),
            home.path().to_path_buf(),
        );
        a.push(one_task(&home, agent).await);
    }
    report("A. loop alone (in-process model, no-op tool)", a);

    let mut b = Vec::new();
    for _ in 0..RUNS {
        let server = ScriptedServer::start(script("noop", |i| json!({ "n": i })))
            .await
            .expect("server");
        let home = tempfile::tempdir().expect("home");
        settings(&home, &server.openai_base_url());
        let agent = AgentLoop::new(
            SettingsModels::env_only(),
            noop_tools(),
            home.path().join("souls"),
            home.path().to_path_buf(),
        );
        b.push(one_task(&home, agent).await);
    }
    report(
        "B. + scripted server over HTTP (OpenAI, streamed), no-op tool",
        b,
    );

    let mut c = Vec::new();
    for _ in 0..RUNS {
        let server = ScriptedServer::start(script(
            "shell",
            |i| json!({ "command": format!("true {i}") }),
        ))
        .await
        .expect("server");
        let home = tempfile::tempdir().expect("home");
        settings(&home, &server.openai_base_url());
        let agent = AgentLoop::new(
            SettingsModels::env_only(),
            zeta_tools::registry(),
            home.path().join("souls"),
            home.path().to_path_buf(),
        );
        c.push(one_task(&home, agent).await);
    }
    report("C. + real shell tool running `true`", c);
}
