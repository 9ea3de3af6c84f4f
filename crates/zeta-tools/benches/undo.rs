//! What keeping a call's changes for undo costs: the same `shell` call run unwatched and
//! watched (the seccomp supervisor and the keeper writing the journal and the originals),
//! interleaved in one run, for a call that changes nothing, one that changes one small
//! file, one that rewrites 1,000 files, and one that deletes a 1 GiB folder; the disk the
//! originals take; and the time to undo the 1,000 rewritten files.
//!
//! Run: `cargo bench -p zeta-tools --bench undo`.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use zeta_core::tool::{Tool, ToolContext};
use zeta_core::undo::journal::{SetKind, SetState};
use zeta_core::undo::{undo_task, SetKeeper, UndoStore};
use zeta_tools::shell::Shell;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn sh(dir: &Path, command: &str) {
    let ok = std::process::Command::new("bash")
        .args(["-c", command])
        .current_dir(dir)
        .status()
        .expect("bash");
    assert!(ok.success(), "{command}");
}

struct Bench {
    runtime: tokio::runtime::Runtime,
    work: std::path::PathBuf,
    store: UndoStore,
    task: i64,
}

impl Bench {
    /// Runs `command`, watched or not; returns milliseconds.
    fn call(&mut self, command: &str, watched: bool) -> f64 {
        self.task += 1;
        let mut ctx = ToolContext::detached(self.work.clone());
        let keeper = watched.then(|| {
            Arc::new(
                SetKeeper::new(&self.store, self.task, SetKind::Task, None, None).expect("keeper"),
            )
        });
        ctx.keeper = keeper
            .clone()
            .map(|k| k as Arc<dyn zeta_core::undo::Keeper>);
        let started = Instant::now();
        let out = self
            .runtime
            .block_on(Shell.run(json!({ "command": command }), &ctx));
        if let Some(keeper) = &keeper {
            keeper.close(SetState::Closed);
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        assert!(out.ok, "{command}: {}", out.content);
        ms
    }
}

fn store_bytes(store: &UndoStore) -> u64 {
    bytes_under(&store.originals)
}

fn bytes_under(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

fn main() {
    let dir = tempfile::tempdir_in(
        std::env::var("CARGO_TARGET_TMPDIR").unwrap_or_else(|_| "/var/tmp".into()),
    )
    .expect("tempdir");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).expect("work");
    let zeta = dir.path().join("zeta");
    std::fs::create_dir_all(&zeta).expect("zeta");
    let store = UndoStore {
        database: zeta.join("zeta.db"),
        originals: zeta.join("originals"),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut b = Bench {
        runtime,
        work: work.clone(),
        store: store.clone(),
        task: 0,
    };
    sh(&work, "echo small > small.txt");

    println!(
        "{:<34} {:>12} {:>12} {:>10}",
        "call", "unwatched", "watched", "added"
    );
    for (name, command) in [
        ("changes nothing (true)", "true"),
        ("changes one small file", "echo x >> small.txt"),
    ] {
        let (mut free, mut kept) = (Vec::new(), Vec::new());
        for _ in 0..40 {
            free.push(b.call(command, false));
            kept.push(b.call(command, true));
        }
        let (f, k) = (median(free), median(kept));
        println!("{name:<34} {f:>9.2} ms {k:>9.2} ms {:>7.2} ms", k - f);
    }

    sh(
        &work,
        "mkdir many && for i in $(seq 1 1000); do echo line $i > many/f$i; done",
    );
    let rewrite = "sed -i s/line/LINE/ many/*";
    let (mut free, mut kept) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        free.push(b.call(rewrite, false));
        sh(&work, "sed -i s/LINE/line/ many/*");
        let before = store_bytes(&store);
        kept.push(b.call(rewrite, true));
        let task = b.task;
        let added = store_bytes(&store) - before;
        let started = Instant::now();
        let report = undo_task(&store, task, false).expect("undo");
        let undo_ms = started.elapsed().as_secs_f64() * 1000.0;
        println!(
            "  undo of 1,000 rewritten files: {undo_ms:.0} ms ({} restored, {} left); originals kept: {} KiB",
            report.restored.len(),
            report.left.len(),
            added / 1024
        );
    }
    let (f, k) = (median(free), median(kept));
    println!(
        "{:<34} {f:>9.0} ms {k:>9.0} ms {:>7.0} ms",
        "rewrites 1,000 files (sed -i)",
        k - f
    );

    let make_big =
        "mkdir big && for i in $(seq 1 64); do head -c 16777216 /dev/zero > big/part$i; done";
    let (mut free, mut kept) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        sh(&work, make_big);
        free.push(b.call("rm -r big", false));
        sh(&work, make_big);
        let held = store.originals.join("held");
        let copies = store.originals.join("objects");
        let (held_before, copies_before) = (bytes_under(&held), bytes_under(&copies));
        kept.push(b.call("rm -r big", true));
        println!(
            "  the deleted 1 GiB kept: {} MiB held by links, {} MiB copied",
            (bytes_under(&held) - held_before) / (1024 * 1024),
            (bytes_under(&copies) - copies_before) / (1024 * 1024)
        );
    }
    let (f, k) = (median(free), median(kept));
    println!(
        "{:<34} {f:>9.0} ms {k:>9.0} ms {:>7.0} ms",
        "deletes a 1 GiB folder (64 files)",
        k - f
    );
}
