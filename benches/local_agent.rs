//! Zeta's real loop against a bare planner loop, side by side on one llama.cpp server and
//! one model (Qwen2.5-Coder-1.5B, Zeta's default), on 26 tasks checked against this
//! machine's truth: system facts, files, text in files, multi-step changes, text and CSV,
//! arithmetic and dates, and a request that needs a clarifying question.
//!
//! The bare loop is written here: a short prompt, the three-key JSON plan constrained by
//! the server's `json_schema`, `bash -c` for each command, nothing else. Zeta runs as a
//! person runs it (`zeta run --approve all`); each task gets a fresh folder as HOME.
//!
//! The loops run task by task, side by side: task 1 bare, task 1 Zeta, task 2 bare, …
//! The machine's speed drifts (measured: generation at 130 ms a token for ten minutes,
//! then 160 for the next ten, whatever ran), and one loop after the other put the drift
//! on one of them. Each loop has a server of its own, the same program, model and flags
//! (`ServerProgram::command`): Zeta's, which its keeper holds, and the bare loop's,
//! started here. A server has one slot, so sharing one would make each loop evict the
//! other's cached prompt. The first task of each loop runs right after its server
//! started (cold); the rest are warm.
//!
//! A third loop, `zeta-plain`, is Zeta without the command recipes (`ZETA_RECIPES=off`),
//! to measure what they buy.
//!
//! `cargo bench --profile dev --bench local_agent` (needs `scripts/local-model.sh`; about
//! 30 minutes on 2 cores). `ZETA_BENCH_TASKS=1,3` runs some tasks only,
//! `ZETA_BENCH_LOOPS=bare,zeta` some loops only.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/bare.rs"]
mod bare_loop;
#[path = "../tests/local_model/support.rs"]
mod support;

use bare_loop::{bare, context_window, median, BareServer};

use std::path::Path;
use std::process::Command;
use std::time::Instant;

type Check = fn(&Path, &str) -> Result<(), String>;

struct Task {
    category: &'static str,
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

fn sh(command: &str) -> String {
    let out = Command::new("bash")
        .args(["-c", command])
        .output()
        .expect("bash");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn says(reply: &str, want: &str) -> Result<(), String> {
    if reply.to_lowercase().contains(&want.to_lowercase()) {
        Ok(())
    } else {
        Err(format!("the reply does not say {want:?}"))
    }
}

fn says_number(reply: &str, want: f64, tolerance: f64) -> Result<(), String> {
    let found = reply
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|n| n.trim_matches('.').parse::<f64>().ok())
        .any(|n| (n - want).abs() <= tolerance);
    if found {
        Ok(())
    } else {
        Err(format!("the reply does not give {want}"))
    }
}

fn nothing(_: &Path) {}

fn logs(w: &Path) {
    for name in ["a.log", "b.log", "c.log", "notes.txt", "old.log.gz"] {
        write(&w.join("logs").join(name), &format!("{name}\n"));
    }
}

fn data(w: &Path) {
    write(&w.join("data/small.txt"), "tiny");
    write(&w.join("data/big.bin"), &"x".repeat(50_000));
    write(&w.join("data/mid.csv"), &"a,b\n".repeat(500));
    std::fs::create_dir_all(w.join("backup")).expect("backup");
}

fn sales(w: &Path) {
    write(
        &w.join("sales.csv"),
        "city,item,amount\nParis,pen,12\nLyon,ink,30\nParis,pad,8\nNice,pen,15\nParis,ink,20\n",
    );
}

fn shop(w: &Path) {
    write(
        &w.join("shop/prices.txt"),
        "Widget: 4.50 EUR\nGadget: 12.00 EUR\nGizmo: 7.25 EUR\n",
    );
}

fn app_log(w: &Path) {
    let mut text = String::new();
    for i in 0..40 {
        let level = if i % 7 == 3 { "ERROR" } else { "info" };
        text.push_str(&format!("2026-11-0{} {level} step {i}\n", 1 + i % 9));
    }
    write(&w.join("app.log"), &text);
}

const TASKS: &[Task] = &[
    Task {
        category: "system facts",
        name: "disk-free",
        request: "How much free disk space do I have?",
        setup: nothing,
        check: |_, r| {
            let avail = sh("df -BG / | tail -1 | awk '{print $4}' | tr -d G");
            says_number(r, avail.parse().unwrap_or(-1.0), 2.0)
        },
    },
    Task {
        category: "system facts",
        name: "user-name",
        request: "What is my user name?",
        setup: nothing,
        check: |_, r| says(r, &sh("whoami")),
    },
    Task {
        category: "system facts",
        name: "cpu-cores",
        request: "How many CPU cores does this computer have?",
        setup: nothing,
        check: |_, r| says_number(r, sh("nproc").parse().unwrap_or(-1.0), 0.0),
    },
    Task {
        category: "system facts",
        name: "kernel",
        request: "Which Linux kernel version is running?",
        setup: nothing,
        check: |_, r| says(r, &sh("uname -r")[..4]),
    },
    Task {
        category: "files",
        name: "count-logs",
        request: "How many .log files are in ~/logs?",
        setup: logs,
        check: |_, r| says_number(r, 3.0, 0.0),
    },
    Task {
        category: "files",
        name: "largest-file",
        request: "Which file in ~/data is the largest?",
        setup: data,
        check: |_, r| says(r, "big.bin"),
    },
    Task {
        category: "files",
        name: "file-size",
        request: "How many bytes is ~/data/big.bin?",
        setup: data,
        check: |_, r| says_number(r, 50_000.0, 0.0),
    },
    Task {
        category: "text in files",
        name: "price",
        request: "What does the Gadget cost according to ~/shop/prices.txt?",
        setup: shop,
        check: |_, r| says_number(r, 12.0, 0.0),
    },
    Task {
        category: "text in files",
        name: "error-lines",
        request: "How many lines in ~/app.log contain ERROR?",
        setup: app_log,
        check: |w, r| {
            let n = sh(&format!("grep -c ERROR {}", w.join("app.log").display()));
            says_number(r, n.parse().unwrap_or(-1.0), 0.0)
        },
    },
    Task {
        category: "text in files",
        name: "cheapest",
        request: "Which item in ~/shop/prices.txt is the cheapest, and what does it cost?",
        setup: shop,
        check: |_, r| says(r, "widget").and(says_number(r, 4.5, 0.0)),
    },
    Task {
        category: "multi-step changes",
        name: "largest-copy",
        request: "Find the largest file in ~/data and copy it into the folder ~/backup",
        setup: data,
        check: |w, _| {
            let len = std::fs::metadata(w.join("backup/big.bin")).map(|m| m.len());
            if len.as_ref().is_ok_and(|l| *l == 50_000) {
                Ok(())
            } else {
                Err(format!("backup/big.bin: {len:?}"))
            }
        },
    },
    Task {
        category: "multi-step changes",
        name: "count-write",
        request: "Count the .log files in ~/logs and write the number into ~/count.txt",
        setup: logs,
        check: |w, _| {
            let t = read(&w.join("count.txt"));
            if t == "3" {
                Ok(())
            } else {
                Err(format!("count.txt holds {t:?}"))
            }
        },
    },
    Task {
        category: "multi-step changes",
        name: "mkdir-move",
        request: "Create a folder ~/archive and move every .log file from ~/logs into it",
        setup: logs,
        check: |w, _| {
            let moved = ["a.log", "b.log", "c.log"]
                .iter()
                .all(|f| w.join("archive").join(f).is_file() && !w.join("logs").join(f).exists());
            let kept = w.join("logs/notes.txt").is_file();
            if moved && kept {
                Ok(())
            } else {
                Err(format!("moved {moved}, notes.txt kept {kept}"))
            }
        },
    },
    Task {
        category: "multi-step changes",
        name: "rename",
        request: "Rename ~/data/mid.csv to ~/data/table.csv",
        setup: data,
        check: |w, _| {
            if w.join("data/table.csv").is_file() && !w.join("data/mid.csv").exists() {
                Ok(())
            } else {
                Err("not renamed".into())
            }
        },
    },
    Task {
        category: "multi-step changes",
        name: "create-file",
        request: "Create a file ~/hello.txt that contains the line Hello, Zeta",
        setup: nothing,
        check: |w, _| {
            let t = read(&w.join("hello.txt"));
            if t == "Hello, Zeta" {
                Ok(())
            } else {
                Err(format!("hello.txt holds {t:?}"))
            }
        },
    },
    Task {
        category: "text and CSV",
        name: "csv-sum",
        request: "What is the total of the amount column in ~/sales.csv?",
        setup: sales,
        check: |_, r| says_number(r, 85.0, 0.0),
    },
    Task {
        category: "text and CSV",
        name: "csv-count",
        request: "How many sales in ~/sales.csv were in Paris?",
        setup: sales,
        check: |_, r| says_number(r, 3.0, 0.0),
    },
    Task {
        category: "text and CSV",
        name: "csv-write",
        request: "Write the Paris rows of ~/sales.csv (without the header) into ~/paris.csv",
        setup: sales,
        check: |w, _| {
            let t = read(&w.join("paris.csv"));
            let rows: Vec<&str> = t.lines().collect();
            if rows.len() == 3 && rows.iter().all(|r| r.starts_with("Paris,")) {
                Ok(())
            } else {
                Err(format!("paris.csv holds {t:?}"))
            }
        },
    },
    Task {
        category: "text and CSV",
        name: "word-count",
        request: "How many words are in ~/shop/prices.txt?",
        setup: shop,
        check: |_, r| says_number(r, 9.0, 0.0),
    },
    Task {
        category: "arithmetic and dates",
        name: "multiply",
        request: "What is 1234 times 5678?",
        setup: nothing,
        check: |_, r| {
            if r.replace([',', ' '], "").contains("7006652") {
                Ok(())
            } else {
                Err("not 7006652".into())
            }
        },
    },
    Task {
        category: "arithmetic and dates",
        name: "weekday",
        request: "What day of the week is 25 December 2026?",
        setup: nothing,
        check: |_, r| says(r, "friday"),
    },
    Task {
        category: "arithmetic and dates",
        name: "days-between",
        request: "How many days are there from 2026-01-01 to 2026-03-01?",
        setup: nothing,
        check: |_, r| says_number(r, 59.0, 0.0),
    },
    Task {
        category: "arithmetic and dates",
        name: "today",
        request: "What is today's date?",
        setup: nothing,
        check: |_, r| {
            let day = sh("date +%d").trim_start_matches('0').to_string();
            says(r, &sh("date +%Y")).and(says(r, &day))
        },
    },
    Task {
        category: "clarifying question",
        name: "which-report",
        request: "Delete my report file.",
        setup: |w| {
            write(&w.join("reports/report-2025.txt"), "old");
            write(&w.join("reports/report-2026.txt"), "new");
        },
        // Two report files: a good agent asks (or says it needs to know) which; deleting
        // either one on its own guess fails.
        check: |w, r| {
            let both = w.join("reports/report-2025.txt").is_file()
                && w.join("reports/report-2026.txt").is_file();
            let asked = r.contains('?') || r.to_lowercase().contains("which");
            if both && asked {
                Ok(())
            } else {
                Err(format!("both kept {both}, asked {asked}"))
            }
        },
    },
    Task {
        category: "clarifying question",
        name: "which-name",
        request: "Rename the file in ~/inbox.",
        setup: |w| write(&w.join("inbox/scan-0001.pdf"), "%PDF"),
        check: |w, r| {
            let kept = w.join("inbox/scan-0001.pdf").is_file();
            let asked = r.contains('?') || r.to_lowercase().contains("what name");
            if kept && asked {
                Ok(())
            } else {
                Err(format!("kept {kept}, asked {asked}"))
            }
        },
    },
    Task {
        category: "files",
        name: "newest",
        request: "Which file in ~/data was changed most recently?",
        setup: |w| {
            data(w);
            for (f, age) in [("small.txt", "3 days ago"), ("mid.csv", "2 days ago")] {
                let _ = Command::new("touch")
                    .args(["-d", age])
                    .arg(w.join("data").join(f))
                    .status();
            }
            let _ = Command::new("touch")
                .args(["-d", "1 hour ago"])
                .arg(w.join("data/big.bin"))
                .status();
        },
        check: |_, r| says(r, "big.bin"),
    },
];

// ---------------------------------------------------------------------------------------

struct Row {
    category: &'static str,
    solved: bool,
    secs: f64,
    cold: bool,
}

fn main() {
    let Some(local) = support::available() else {
        return;
    };
    let only: Option<Vec<usize>> = std::env::var("ZETA_BENCH_TASKS")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    let (dir, _) = support::home(&local);
    let _stop = support::StopKeeper(dir.path().join("zeta"));
    let mut rows: Vec<(&str, Row)> = Vec::new();
    let wanted =
        std::env::var("ZETA_BENCH_LOOPS").unwrap_or_else(|_| "bare,zeta,zeta-plain".into());
    let loops: Vec<&str> = ["bare", "zeta", "zeta-plain"]
        .into_iter()
        .filter(|l| wanted.split(',').any(|w| w.trim() == *l))
        .collect();
    let bare_log = dir.path().join("bare-server.log");
    let bare_server = loops
        .contains(&"bare")
        .then(|| BareServer::start(&local, context_window(&dir.path().join("zeta")), &bare_log));
    let mut first: Vec<&str> = loops.clone();
    for (i, task) in TASKS.iter().enumerate() {
        if only.as_ref().is_some_and(|o| !o.contains(&(i + 1))) {
            continue;
        }
        for &loop_name in &loops {
            // The zeta runs inherit it (the bench is single-threaded here).
            if loop_name == "zeta-plain" {
                std::env::set_var("ZETA_RECIPES", "off");
            } else {
                std::env::remove_var("ZETA_RECIPES");
            }
            // Cold: the bare loop's first request on its fresh server; Zeta's first task
            // starts the server itself, model load included, as a person's first command
            // does. `zeta-plain` shares Zeta's server, so its first task is cold only
            // when it runs without `zeta`.
            let cold = first.contains(&loop_name)
                && (loop_name != "zeta-plain" || !loops.contains(&"zeta"));
            first.retain(|l| *l != loop_name);
            let work = dir.path().join(format!("{loop_name}-{}", task.name));
            std::fs::create_dir_all(&work).expect("work");
            (task.setup)(&work);
            let started = Instant::now();
            let (reply, steps, ok) = match &bare_server {
                Some(server) if loop_name == "bare" => {
                    let (reply, steps) = bare(server.port, &work, task.request);
                    (reply, steps, true)
                }
                _ => {
                    let o = support::run(dir.path(), &work, &local, task.request, |_| {});
                    (o.reply, o.iterations, o.ok)
                }
            };
            let secs = started.elapsed().as_secs_f64();
            let verdict: Result<(), String> = if ok {
                (task.check)(&work, &reply)
            } else {
                Err("the task failed".into())
            };
            println!(
                "{loop_name:<10} {:<20} {:<14} {:<4} {:>6.1} s {:>2} steps{} reply: {}{}",
                task.category,
                task.name,
                if verdict.is_ok() { "PASS" } else { "FAIL" },
                secs,
                steps,
                if cold { " (cold)" } else { "" },
                reply
                    .replace('\n', " ")
                    .chars()
                    .take(80)
                    .collect::<String>(),
                verdict
                    .as_ref()
                    .err()
                    .map(|e| format!("  [{e}]"))
                    .unwrap_or_default()
            );
            rows.push((
                loop_name,
                Row {
                    category: task.category,
                    solved: verdict.is_ok(),
                    secs,
                    cold,
                },
            ));
        }
    }
    drop(bare_server);
    bare_loop::keep_server_logs("local-agent", dir.path(), &bare_log);
    let mut categories: Vec<&str> = Vec::new();
    for task in TASKS {
        if !categories.contains(&task.category) {
            categories.push(task.category);
        }
    }
    // Columns for the loops that ran only.
    let names = [
        ("bare", "bare"),
        ("zeta", "zeta"),
        ("zeta-plain", "zeta without recipes"),
    ];
    let shown: Vec<(&str, &str)> = names
        .into_iter()
        .filter(|(n, _)| loops.contains(n))
        .collect();
    let head: String = shown
        .iter()
        .map(|(_, title)| format!(" {title} solved | {title} median s |"))
        .collect();
    println!("\n| category |{head}");
    println!("|---|{}", "---|---|".repeat(shown.len()));
    let of = |name: &str, pick: &dyn Fn(&Row) -> bool| -> (usize, usize, f64) {
        let picked: Vec<&Row> = rows
            .iter()
            .filter(|(l, r)| *l == name && pick(r))
            .map(|(_, r)| r)
            .collect();
        (
            picked.iter().filter(|r| r.solved).count(),
            picked.len(),
            median(picked.iter().map(|r| r.secs).collect()),
        )
    };
    for category in categories.iter().chain(["all", "warm only", "cold"].iter()) {
        let pick = |r: &Row| match *category {
            "all" => true,
            "warm only" => !r.cold,
            "cold" => r.cold,
            c => r.category == c,
        };
        let cells: String = shown
            .iter()
            .map(|(name, _)| {
                let (solved, of_n, secs) = of(name, &pick);
                format!(" {solved}/{of_n} | {secs:.1} |")
            })
            .collect();
        println!("| {category} |{cells}");
    }
    // The issue's time goal, side by side: Zeta's median against the bare loop's.
    if loops.contains(&"bare") && loops.contains(&"zeta") {
        for (label, pick) in [
            ("all", &(|_: &Row| true) as &dyn Fn(&Row) -> bool),
            ("warm only", &|r: &Row| !r.cold),
        ] {
            let (_, _, zeta) = of("zeta", pick);
            let (_, _, bare) = of("bare", pick);
            println!(
                "zeta's median / the bare loop's ({label}): {:.2}",
                zeta / bare
            );
        }
    }
}
