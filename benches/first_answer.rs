//! The first answer on a new home, with and without setup's warm state, against a warm
//! answer, on the real local model (Qwen2.5-Coder-1.5B through Zeta's own llama.cpp
//! server), side by side in one run.
//!
//! A warm answer is a question asked where the server is loaded and has answered another
//! question, so what it keeps is the shared start of every task, not this question's turns
//! (llama-server keeps earlier prompts in memory: the same question asked again would find
//! its own turns there and be faster than any new question). So each round asks two
//! questions in two fresh homes, each warmed as setup does (`zeta local-server warm`,
//! timed apart), in opposite orders: A then B in one, B then A in the other. Each
//! question is a first answer in one home and a warm answer in the other; the ratio
//! first/warm compares the same questions. A third home skips the warm-up and asks A:
//! the first answer without the warm state.
//!
//! Then, where there is a display (run it under Xvfb in `dbus-run-session`), the app as a
//! person meets it: the same two homes' orders, the app started (it warms in the
//! background), the first question asked 10 s after the start, then the other: each
//! answer timed from the request entering the queue (`zeta enqueue`) to the task done.
//!
//! Prints each round and the medians, and the ratios first/warm (the goal: ≤ 1.3 with the
//! warm state). `cargo bench --profile dev --bench first_answer` (needs
//! `scripts/local-model.sh`; about 12 minutes on 2 cores). `ZETA_BENCH_ROUNDS` (default 5).

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

/// A fresh home warmed as setup warms it; the warm-up's seconds.
fn warmed_home(local: &support::Local) -> (tempfile::TempDir, std::path::PathBuf, f64) {
    let (dir, work) = support::home(local);
    let started = Instant::now();
    let out = support::zeta(dir.path(), &work, &local.server)
        .args(["local-server", "warm"])
        .output()
        .expect("zeta local-server warm");
    assert!(out.status.success(), "{out:?}");
    (dir, work, started.elapsed().as_secs_f64())
}

/// One round's answers: each question first in one home and warm in the other.
#[derive(Default)]
struct Answers {
    first: [Vec<f64>; 2],
    warm: [Vec<f64>; 2],
}

impl Answers {
    /// `times` of (questions[`first`], then questions[1 - `first`]) in one home, printed
    /// after `said`.
    fn add(&mut self, first: usize, times: (f64, f64), said: &str) {
        println!(
            "{said}first answer {:.1} s ({}), then warm {:.1} s ({})",
            times.0,
            ["A", "B"][first],
            times.1,
            ["A", "B"][1 - first]
        );
        self.first[first].push(times.0);
        self.warm[1 - first].push(times.1);
    }

    /// Medians: first A, first B, warm A, warm B; and first/warm of their sums.
    fn medians(&self) -> ([f64; 4], f64) {
        let m = |v: &Vec<f64>| bare::median(v.clone());
        let all = [
            m(&self.first[0]),
            m(&self.first[1]),
            m(&self.warm[0]),
            m(&self.warm[1]),
        ];
        (all, (all[0] + all[1]) / (all[2] + all[3]))
    }
}

/// The two questions asked in the app started on a warmed home, the first 10 s after
/// the start.
fn in_app(local: &support::Local, first: &str, then: &str) -> (f64, f64) {
    let (dir, work, _) = warmed_home(local);
    std::fs::write(dir.path().join("zeta").join("onboarded"), "bench\n").expect("onboarded");
    let app = App(support::zeta(dir.path(), &work, &local.server)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the app"));
    std::thread::sleep(std::time::Duration::from_secs(10));
    let times = (
        asked_in_app(dir.path(), &work, local, first),
        asked_in_app(dir.path(), &work, local, then),
    );
    drop(app);
    stop_keeper(dir.path(), &work, local);
    times
}

fn report(who: &str, rounds: usize, answers: &Answers) {
    let ([first_a, first_b, warm_a, warm_b], ratio) = answers.medians();
    println!(
        "first_answer, {who}, medians of {rounds}: first answer {first_a:.1} s (A) and {first_b:.1} s (B); warm answer {warm_a:.1} s (A) and {warm_b:.1} s (B); ratio first/warm {ratio:.2} (A {:.2}, B {:.2})",
        first_a / warm_a,
        first_b / warm_b
    );
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
    let questions = [FIRST, SECOND];
    let (mut cold, mut warming, mut cli) = (vec![], vec![], Answers::default());
    for round in 1..=rounds {
        let (dir, work) = support::home(&local);
        cold.push(timed(dir.path(), &work, &local, FIRST));
        stop_keeper(dir.path(), &work, &local);
        // Which question comes first alternates between rounds as well as homes.
        for first in [round % 2, 1 - round % 2] {
            let (dir, work, took) = warmed_home(&local);
            warming.push(took);
            let times = (
                timed(dir.path(), &work, &local, questions[first]),
                timed(dir.path(), &work, &local, questions[1 - first]),
            );
            stop_keeper(dir.path(), &work, &local);
            cli.add(
                first,
                times,
                &format!("round {round}: warm-up {took:.1} s; "),
            );
        }
        println!(
            "round {round}: A without the warm state {:.1} s",
            cold[round - 1]
        );
    }
    let (cold, warming) = (bare::median(cold), bare::median(warming));
    println!("first_answer: A = {FIRST:?}, B = {SECOND:?}");
    report("the CLI", rounds, &cli);
    let ([_, _, warm_a, _], _) = cli.medians();
    println!(
        "first_answer, the CLI: A without the warm state {cold:.1} s, ratio to A warm {:.2}; the warm-up at setup {warming:.1} s",
        cold / warm_a
    );
    if std::env::var_os("DISPLAY").is_none() {
        println!("first_answer: the app's rounds skipped: no display (run under Xvfb)");
        return;
    }
    let mut app = Answers::default();
    for round in 1..=rounds {
        for first in [round % 2, 1 - round % 2] {
            let times = in_app(&local, questions[first], questions[1 - first]);
            app.add(first, times, &format!("app round {round}: "));
        }
    }
    report("the app", rounds, &app);
}
