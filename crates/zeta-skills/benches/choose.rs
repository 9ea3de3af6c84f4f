//! What choosing skills by meaning costs: loading the model, the first choice (every
//! description placed once), a later choice (the request only), and the memory the
//! model holds (resident set before and after).
//!
//! `cargo bench -p zeta-skills --bench choose` (needs `scripts/skills-model.sh`).

// Bench code: a failed unwrap is the bench failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use zeta_skills::choose::{Chooser, Tuning};
use zeta_skills::embed::MiniLm;
use zeta_skills::Skills;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let cache =
        std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache/zeta/models"));
    let dir = match zeta_skills::embed::locate(cache.as_deref()) {
        Ok(dir) => dir,
        Err(e) => {
            println!("SKIPPED: {e}");
            return;
        }
    };
    let skills = Skills::built_in_only();
    let catalog = skills.current();
    let usable: Vec<_> = catalog.enabled().collect();
    let before = rss_kib();
    let started = Instant::now();
    let model = MiniLm::load(&dir).unwrap();
    let load = started.elapsed();
    let chooser = Chooser::new(Some(Box::new(model)), Tuning::default());
    let started = Instant::now();
    let first = chooser.choose("How much room is left on my drive?", &usable);
    let first_ms = started.elapsed();
    let requests = [
        "which program is hogging the processor",
        "count the .txt files in ~/notes",
        "what weekday is 2027-03-01",
        "replace cat with dog in story.txt",
        "open firefox",
    ];
    let started = Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        for r in requests {
            chooser.choose(r, &usable);
        }
    }
    let later = started.elapsed().as_secs_f64() * 1000.0 / (rounds * requests.len()) as f64;
    let after = rss_kib();
    drop(chooser);
    // The app's model is let go when idle (`embed::Lazy`): what stays after.
    let lazy = zeta_skills::embed::Lazy::keeping(
        dir.parent().map(|p| p.to_path_buf()),
        std::time::Duration::from_millis(400),
    );
    let start_lazy = rss_kib();
    zeta_skills::embed::Embedder::embed(&lazy, "free disk space");
    let loaded = rss_kib();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let let_go = rss_kib();
    println!(
        "idle release: resident {} MiB before the first use, {} MiB loaded, {} MiB after it was let go",
        start_lazy / 1024,
        loaded / 1024,
        let_go / 1024
    );
    println!(
        "{} skills; model load {:.0} ms; first choice (every description placed) {:.0} ms -> {:?}; later choice {later:.1} ms; resident memory +{} MiB",
        usable.len(),
        load.as_secs_f64() * 1000.0,
        first_ms.as_secs_f64() * 1000.0,
        first.iter().map(|e| e.skill.name.as_str()).collect::<Vec<_>>(),
        (after.saturating_sub(before)) / 1024
    );
}
