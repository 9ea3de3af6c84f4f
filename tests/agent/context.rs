//! Context pressure: a 40-iteration scripted task whose every step prints about 4,000
//! characters of random base64 (which neither folds nor compresses) keeps every request
//! within a small window. Soft and hard compaction fire above their thresholds, the answer
//! is the scripted one, and the scripted server finds no orphaned tool result in any
//! request. Large outputs are compressed before they enter the history, and their full
//! text is kept on disk.

use serde_json::{json, Value};
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

pub const STEPS: usize = 40;

/// The scripted task: 40 distinct noisy commands, then the answer.
pub fn noisy_script() -> Vec<Step> {
    zeta_scripted_llm::noisy_script(STEPS)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_noisy_task_stays_within_the_window() {
    let window = 8192u64;
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        noisy_script(),
        json!({
            "provider": {"contextWindow": window},
            "maxIterations": 60,
            "context": {"largeOutputChars": 2000}
        }),
    )
    .await;
    let out = s.zeta_run("Take 40 random samples");
    let task = finished_task(&out);
    assert_eq!(task["reply"], "Zeta: 40 samples taken.", "{task}");
    let events = events(&out);
    let sizes: Vec<u64> = events
        .iter()
        .filter(|e| e["type"] == "iterationStarted")
        .map(|e| e["contextTokens"].as_u64().unwrap_or(u64::MAX))
        .collect();
    assert_eq!(sizes.len(), STEPS + 1);
    assert!(
        sizes.iter().all(|n| *n <= window),
        "every request fits: {sizes:?}"
    );
    let compactions: Vec<&Value> = events.iter().filter(|e| e["type"] == "compacted").collect();
    let soft: Vec<_> = compactions.iter().filter(|e| e["kind"] == "soft").collect();
    let hard: Vec<_> = compactions.iter().filter(|e| e["kind"] == "hard").collect();
    assert!(
        !soft.is_empty() && !hard.is_empty(),
        "both kinds fired: {compactions:?}"
    );
    for e in &soft {
        assert!(
            e["before"].as_u64().unwrap_or(0) > window * 6 / 10,
            "soft above 60 %: {e}"
        );
    }
    for e in &hard {
        assert!(
            e["before"].as_u64().unwrap_or(0) > window * 9 / 10,
            "hard above 90 %: {e}"
        );
        assert!(e["after"].as_u64().unwrap_or(u64::MAX) < e["before"].as_u64().unwrap_or(0));
    }
    let metrics = events
        .iter()
        .find(|e| e["type"] == "taskMetrics")
        .expect("metrics");
    assert_eq!(
        metrics["metrics"]["compactions"].as_u64(),
        Some(compactions.len() as u64)
    );
    // The orphan invariant, checked by the server on every request.
    s.assert_invariants();
    assert_eq!(s.requests().len(), STEPS + 1);
    // The request never lost the task or the system prompt.
    let last = text_of(s.requests().last().expect("a request"));
    assert!(last.contains("Take 40 random samples") && last.contains("compacted to save context"));
    // Large outputs were compressed and kept whole on disk.
    let kept = s.home.path().join("outputs");
    let files: Vec<_> = std::fs::read_dir(kept.join("task-1"))
        .expect("outputs kept")
        .flatten()
        .collect();
    assert_eq!(files.len(), STEPS);
    assert!(text_of(&s.requests()[1]).contains("read_file it for the parts you need"));
}

/// A server that reports a smaller window (llama-server's `/props`) is believed: the loop
/// keeps requests within the server's window, not the setting's, for the whole of a
/// long task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_a_server_reports_is_used_when_smaller() {
    // All 40 steps: the summary of folded turns must not outgrow the small window.
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        noisy_script(),
        json!({"maxIterations": 60}),
    )
    .await;
    s.server.report_context_window(6000);
    let out = s.zeta_run("Take some random samples");
    assert_eq!(finished_task(&out)["reply"], "Zeta: 40 samples taken.");
    let started: Vec<Value> = events(&out)
        .into_iter()
        .filter(|e| e["type"] == "iterationStarted")
        .collect();
    assert!(
        started.iter().all(|e| e["contextWindow"] == 6000),
        "{:?}",
        started.first()
    );
    assert!(started
        .iter()
        .all(|e| e["contextTokens"].as_u64().unwrap_or(u64::MAX) <= 6000));
    assert!(events(&out).iter().any(|e| e["type"] == "compacted"));
    s.assert_invariants();
}
