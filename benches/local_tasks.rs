//! How often the real local model (Qwen2.5-Coder-1.5B through Zeta's own llama.cpp
//! server) finishes multi-step requests, with the verification turn after every answer
//! (`verify: always`), only where it pays (`auto`, the default for a small model: after a
//! change, or for a request that asks several things) and without it (`never`). Each task runs in a fresh home and folder and is checked in the
//! real folder afterwards. Prints one line per run and the totals.
//!
//! `cargo bench --profile dev --bench local_tasks` (needs `scripts/local-model.sh` first;
//! about 30 minutes on 2 cores). `ZETA_BENCH_TASKS=1,3` runs some tasks only.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/local_model/support.rs"]
mod support;

use std::path::Path;

type Check = fn(&Path, &str) -> Result<(), String>;

struct Task {
    name: &'static str,
    request: &'static str,
    setup: fn(&Path),
    check: Check,
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("folder");
    }
    std::fs::write(path, text).expect("write");
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .trim()
        .to_string()
}

fn expect(ok: bool, what: String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what)
    }
}

const TASKS: &[Task] = &[
    Task {
        name: "largest-copy",
        request: "Find the largest file in ~/data and copy it into the folder ~/backup",
        setup: |w| {
            write(&w.join("data/small.txt"), "tiny");
            write(&w.join("data/big.bin"), &"x".repeat(50_000));
            write(&w.join("data/mid.csv"), &"a,b\n".repeat(500));
            std::fs::create_dir_all(w.join("backup")).expect("backup");
        },
        check: |w, _| {
            let copied = std::fs::metadata(w.join("backup/big.bin")).map(|m| m.len());
            expect(
                copied.as_ref().is_ok_and(|n| *n == 50_000),
                format!("backup/big.bin: {copied:?}"),
            )?;
            expect(
                w.join("data/big.bin").exists(),
                "the original was moved, not copied".into(),
            )
        },
    },
    Task {
        name: "count-write",
        request: "Count the .md files in ~/notes and write the number into ~/total.txt",
        setup: |w| {
            for f in ["a.md", "b.md", "c.md", "d.md", "e.md", "x.txt", "y.pdf"] {
                write(&w.join("notes").join(f), "note");
            }
        },
        check: |w, _| {
            let t = read(&w.join("total.txt"));
            expect(t == "5", format!("total.txt holds {t:?}"))
        },
    },
    Task {
        name: "mkdir-move",
        request: "Make a folder ~/old-logs and move the .log files from ~/var into it",
        setup: |w| {
            for f in ["app.log", "db.log", "web.log", "keep.conf"] {
                write(&w.join("var").join(f), f);
            }
        },
        check: |w, _| {
            for f in ["app.log", "db.log", "web.log"] {
                expect(
                    w.join("old-logs").join(f).exists(),
                    format!("old-logs/{f} missing"),
                )?;
                expect(
                    !w.join("var").join(f).exists(),
                    format!("var/{f} still there"),
                )?;
            }
            expect(
                w.join("var/keep.conf").exists(),
                "keep.conf was moved".into(),
            )
        },
    },
    Task {
        name: "lines-save",
        request: "How many lines are in ~/poem.txt? Save the number in ~/lines.txt",
        setup: |w| {
            write(
                &w.join("poem.txt"),
                "one\ntwo\nthree\nfour\nfive\nsix\nseven\n",
            )
        },
        check: |w, reply| {
            let t = read(&w.join("lines.txt"));
            expect(t == "7", format!("lines.txt holds {t:?}"))?;
            expect(
                reply.contains('7'),
                format!("the reply does not say 7: {reply}"),
            )
        },
    },
    Task {
        name: "create-size",
        request:
            "Create a file ~/greeting.txt that contains hello world, then tell me its size in bytes",
        setup: |_| {},
        check: |w, reply| {
            let t = read(&w.join("greeting.txt"));
            expect(
                t.eq_ignore_ascii_case("hello world"),
                format!("greeting.txt holds {t:?}"),
            )?;
            let size = std::fs::metadata(w.join("greeting.txt"))
                .map(|m| m.len())
                .unwrap_or(0);
            expect(
                reply.contains(&size.to_string()),
                format!("the reply does not say {size}: {reply}"),
            )
        },
    },
    Task {
        name: "newest-name",
        request: "Which file in ~/src was changed most recently? Write its name into ~/newest.txt",
        setup: |w| {
            for (f, age) in [
                ("old.rs", "3 days ago"),
                ("new.rs", "1 hour ago"),
                ("mid.rs", "2 days ago"),
            ] {
                let path = w.join("src").join(f);
                write(&path, "fn main() {}");
                let touched = std::process::Command::new("touch")
                    .args(["-d", age])
                    .arg(&path)
                    .status();
                assert!(touched.is_ok_and(|s| s.success()), "touch {f}");
            }
        },
        check: |w, _| {
            let t = read(&w.join("newest.txt"));
            expect(t.ends_with("new.rs"), format!("newest.txt holds {t:?}"))
        },
    },
];

fn set_verify(home: &Path, verify: &str) {
    let path = home.join("zeta").join("settings.json");
    let mut settings: serde_json::Value = serde_json::from_str(&read(&path)).expect("settings");
    settings["verify"] = serde_json::Value::from(verify);
    write(&path, &settings.to_string());
}

fn main() {
    let Some(local) = support::available() else {
        return;
    };
    let only: Option<Vec<usize>> = std::env::var("ZETA_BENCH_TASKS")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    let mut totals = Vec::new();
    for verify in ["always", "auto", "never"] {
        let (mut passed, mut runs, mut secs, mut iterations) = (0, 0, 0.0, 0);
        for (i, task) in TASKS.iter().enumerate() {
            if only.as_ref().is_some_and(|o| !o.contains(&(i + 1))) {
                continue;
            }
            let (dir, work) = support::home(&local);
            set_verify(dir.path(), verify);
            (task.setup)(&work);
            let o = support::run(dir.path(), &work, &local, task.request, |_| {});
            let verdict = if o.ok {
                (task.check)(&work, &o.reply)
            } else {
                Err("the task failed".into())
            };
            runs += 1;
            secs += o.took.as_secs_f64();
            iterations += o.iterations;
            if verdict.is_ok() {
                passed += 1;
            }
            println!(
                "verify={verify:<6} {:<13} {:<4} {:>6.1} s {:>2} iterations  reply: {}{}",
                task.name,
                if verdict.is_ok() { "PASS" } else { "FAIL" },
                o.took.as_secs_f64(),
                o.iterations,
                o.reply
                    .replace('\n', " ")
                    .chars()
                    .take(90)
                    .collect::<String>(),
                verdict
                    .err()
                    .map(|e| format!("  [{e}]"))
                    .unwrap_or_default()
            );
        }
        totals.push(format!(
            "verify={verify}: {passed}/{runs} passed, {:.1} s per task, {:.1} s per iteration",
            secs / runs.max(1) as f64,
            secs / iterations.max(1) as f64
        ));
    }
    for line in totals {
        println!("{line}");
    }
}
