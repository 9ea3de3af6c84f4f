//! The first answer on a new home, with and without setup's warm state, against a warm
//! answer, on the real local model (Qwen2.5-Coder-1.5B through Zeta's own llama.cpp
//! server), side by side in one run. Each round uses two fresh homes:
//! - cold: `zeta run` of the first question, as a home that skipped the warm-up;
//! - warmed: `zeta local-server warm` (setup's step, timed apart), then the same first
//!   question; then a second question in that home (the server still loaded): the warm
//!   answer; then the first question again there: the same work warm (a question whose
//!   answer is checked a second way takes more steps than the second question, whatever
//!   the warm state does).
//!
//! Then, where there is a display (run it under Xvfb in `dbus-run-session`), the app as a
//! person meets it: a fresh home warmed at setup, the app started (it warms in the
//! background), the first question asked 10 s after the start, then a second: each
//! answer timed from the request entering the queue (`zeta enqueue`) to the task done.
//!
//! Prints each round and the medians, and the ratios first/warm (the goal: ≤ 1.3 with the
//! warm state). `cargo bench --profile dev --bench first_answer` (needs
//! `scripts/local-model.sh`; about 5 minutes on 2 cores). `ZETA_BENCH_ROUNDS` (default 5).

// Bench code: a failed unwrap or expect is the bench failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/local_model/support.rs"]
mod support;

#[path = "common/bare.rs"]
#[allow(dead_code)]
mod bare;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const FIRST: &str = "How much free disk space do I have?";
const SECOND: &str = "What is my user name?";

fn stop_keeper(dir: &Path, work: &Path, local: &support::Local) {
    let out = support::zeta(dir, work, &local.server)
        .args(["local-server", "stop"])
        .output()
        .expect("zeta local-server stop");
    assert!(out.status.success(), "{out:?}");
}

fn timed(dir: &Path, work: &Path, local: &support::Local, request: &str) -> f64 {
    let started = Instant::now();
    let outcome = support::run(dir, work, local, request, |_| {});
    assert!(outcome.ok, "{request}: {}", outcome.stderr);
    started.elapsed().as_secs_f64()
}

/// The app started on `dir`'s home; ended by PID when dropped.
struct App(std::process::Child);

impl Drop for App {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

/// `request` entered into the running app's queue; seconds until its task is done.
fn asked_in_app(dir: &Path, work: &Path, local: &support::Local, request: &str) -> f64 {
    let started = Instant::now();
    let out = support::zeta(dir, work, &local.server)
        .args(["enqueue", request])
        .output()
        .expect("zeta enqueue");
    assert!(out.status.success(), "{out:?}");
    loop {
        let out = support::zeta(dir, work, &local.server)
            .args(["queue", "--json", "--limit", "1"])
            .output()
            .expect("zeta queue");
        let tasks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let task = &tasks[0];
        match task["status"].as_str() {
            Some("done") if task["message"] == request => return started.elapsed().as_secs_f64(),
            Some("failed" | "cancelled") if task["message"] == request => {
                panic!("{request}: {task}")
            }
            _ => {}
        }
        assert!(
            started.elapsed().as_secs() < 300,
            "{request}: no answer in 5 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The app's rounds: (first answer, (warm answer, the first question again)) each.
fn app_rounds(local: &support::Local, rounds: usize) -> Vec<(f64, (f64, f64))> {
    (1..=rounds)
        .map(|round| {
            let (dir, work) = support::home(local);
            let out = support::zeta(dir.path(), &work, &local.server)
                .args(["local-server", "warm"])
                .output()
                .expect("zeta local-server warm");
            assert!(out.status.success(), "{out:?}");
            std::fs::write(dir.path().join("zeta").join("onboarded"), "bench\n")
                .expect("onboarded");
            let app = App(support::zeta(dir.path(), &work, &local.server)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start the app"));
            std::thread::sleep(std::time::Duration::from_secs(10));
            let first = asked_in_app(dir.path(), &work, local, FIRST);
            let warm = asked_in_app(dir.path(), &work, local, SECOND);
            let again = asked_in_app(dir.path(), &work, local, FIRST);
            drop(app);
            stop_keeper(dir.path(), &work, local);
            println!(
                "app round {round}: first answer {first:.1} s; warm answer {warm:.1} s; the first question again {again:.1} s"
            );
            (first, (warm, again))
        })
        .collect()
}

fn main() {
    let local = match support::local() {
        Ok(local) => local,
        Err(why) => {
            println!("first_answer: skipped: {why}");
            return;
        }
    };
    let rounds: usize = std::env::var("ZETA_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let (mut cold, mut warming, mut first, mut warm) = (vec![], vec![], vec![], vec![]);
    let mut again = vec![];
    for round in 1..=rounds {
        let (dir, work) = support::home(&local);
        cold.push(timed(dir.path(), &work, &local, FIRST));
        stop_keeper(dir.path(), &work, &local);

        let (dir, work) = support::home(&local);
        let started = Instant::now();
        let out = support::zeta(dir.path(), &work, &local.server)
            .args(["local-server", "warm"])
            .output()
            .expect("zeta local-server warm");
        assert!(out.status.success(), "{out:?}");
        warming.push(started.elapsed().as_secs_f64());
        first.push(timed(dir.path(), &work, &local, FIRST));
        warm.push(timed(dir.path(), &work, &local, SECOND));
        again.push(timed(dir.path(), &work, &local, FIRST));
        stop_keeper(dir.path(), &work, &local);
        println!(
            "round {round}: first answer without the warm state {:.1} s; warm-up {:.1} s; first answer with it {:.1} s; warm answer {:.1} s; the first question again, warm {:.1} s",
            cold[round - 1],
            warming[round - 1],
            first[round - 1],
            warm[round - 1],
            again[round - 1]
        );
    }
    let (cold, warming, first, warm, again) = (
        bare::median(cold),
        bare::median(warming),
        bare::median(first),
        bare::median(warm),
        bare::median(again),
    );
    println!(
        "first_answer, medians of {rounds}: without the warm state {cold:.1} s, with it {first:.1} s (warm-up at setup {warming:.1} s), warm answer {warm:.1} s"
    );
    println!(
        "first_answer: ratio first/warm {:.2} with the warm state, {:.2} without",
        first / warm,
        cold / warm
    );
    println!(
        "first_answer: the same question warm {again:.1} s; ratio first/same question warm {:.2} with the warm state, {:.2} without",
        first / again,
        cold / again
    );
    if std::env::var_os("DISPLAY").is_none() {
        println!("first_answer: the app's rounds skipped: no display (run under Xvfb)");
        return;
    }
    let (first, later): (Vec<f64>, Vec<(f64, f64)>) =
        app_rounds(&local, rounds).into_iter().unzip();
    let (warm, again): (Vec<f64>, Vec<f64>) = later.into_iter().unzip();
    let (first, warm, again) = (bare::median(first), bare::median(warm), bare::median(again));
    println!(
        "first_answer, the app, medians of {rounds}: first answer {first:.1} s (asked 10 s after the start), warm answer {warm:.1} s, ratio {:.2}; the first question again {again:.1} s, ratio {:.2}",
        first / warm,
        first / again
    );
}
