//! The first answer on a new home, with and without setup's warm state, against a warm
//! answer, on the real local model (Qwen2.5-Coder-1.5B through Zeta's own llama.cpp
//! server), side by side in one run. Each round uses two fresh homes:
//! - cold: `zeta run` of the first question, as a home that skipped the warm-up;
//! - warmed: `zeta local-server warm` (setup's step, timed apart), then the same first
//!   question; then a second question in that home (the server still loaded): the warm
//!   answer.
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
        stop_keeper(dir.path(), &work, &local);
        println!(
            "round {round}: first answer without the warm state {:.1} s; warm-up {:.1} s; first answer with it {:.1} s; warm answer {:.1} s",
            cold[round - 1],
            warming[round - 1],
            first[round - 1],
            warm[round - 1]
        );
    }
    let (cold, warming, first, warm) = (
        bare::median(cold),
        bare::median(warming),
        bare::median(first),
        bare::median(warm),
    );
    println!(
        "first_answer, medians of {rounds}: without the warm state {cold:.1} s, with it {first:.1} s (warm-up at setup {warming:.1} s), warm answer {warm:.1} s"
    );
    println!(
        "first_answer: ratio first/warm {:.2} with the warm state, {:.2} without",
        first / warm,
        cold / warm
    );
}
