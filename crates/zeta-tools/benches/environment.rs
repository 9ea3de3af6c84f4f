//! What the environment snapshot costs per task (it is taken at the start of every task).
//!
//! Run: `cargo bench -p zeta-tools --bench environment` (with `DISPLAY` set to include the
//! screen query). Prints the median, min and max of 20 snapshots.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

fn main() {
    let dir = std::env::temp_dir();
    let _ = zeta_tools::environment::snapshot(&dir); // warm up (first process scan)
    let mut samples: Vec<f64> = (0..20)
        .map(|_| {
            let start = Instant::now();
            let text = zeta_tools::environment::snapshot(&dir);
            std::hint::black_box(text);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(|a, b| a.total_cmp(b));
    println!(
        "environment snapshot (display: {}): median {:.1} ms (min {:.1}, max {:.1}, 20 runs)",
        std::env::var("DISPLAY").unwrap_or_else(|_| "none".into()),
        samples[10],
        samples[0],
        samples[19]
    );
    println!("{}", zeta_tools::environment::snapshot(&dir));
}
