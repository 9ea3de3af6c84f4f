//! A queue worker process for the crash-recovery test: the real worker with an agent that
//! takes `SLOW_WORKER_MS` milliseconds per task and replies `reply to <message>`. It prints
//! one line per event so the test can tell when a task is under way.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use zeta_core::{spawn_worker, Agent, AgentOutcome, Event, TaskContext, WorkerOptions, ZetaHome};

struct Sleepy(Duration);

impl Agent for Sleepy {
    async fn run(&self, ctx: TaskContext) -> AgentOutcome {
        tokio::time::sleep(self.0).await;
        AgentOutcome::Done {
            reply: format!("reply to {}", ctx.task.message),
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ms = std::env::var("SLOW_WORKER_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let home = ZetaHome::from_env()?;
    let options = WorkerOptions {
        exit_when_idle: true,
        ..WorkerOptions::default()
    };
    let (_core, mut events, handle) =
        spawn_worker(home, Sleepy(Duration::from_millis(ms)), options)?;
    let printer = tokio::spawn(async move {
        while let Ok(event) = events.recv().await {
            if let Event::TaskStarted { task } = &event {
                println!("started {}", task.id);
            }
        }
    });
    handle.await??;
    printer.abort();
    Ok(())
}
