//! Everyday requests nobody rehearsed: Zeta's loop against the bare planner loop on the
//! real local model (Qwen2.5-Coder-1.5B, Zeta's default), over tasks made by a generator
//! (`families.rs`): 36 families of questions and changes, each with randomised fixtures
//! and phrasings and a check against the machine's truth.
//!
//! The families are split in two halves, fixed before any run: `tune` (one may read its
//! transcripts while improving Zeta) and `held-out` (reported; its transcripts are not
//! printed unless `ZETA_BENCH_SHOW_HELDOUT=1`, so that nobody tunes on them by accident).
//!
//! Per family and loop: solved, median seconds, and **false claims**: tasks whose check
//! failed while the answer does not say that something was not done (it claims the
//! effect or gives a wrong value), plus answers that carry one of Zeta's internal
//! messages (a leak, always a false claim).
//!
//! Beside the table: how many each loop solved by the answer itself, Zeta's notes after
//! it left out (`answer_alone`: a second way's "(… a Python program printed: 4)" beside
//! a wrong 5 passes the check, but is no answer). A held-out task's log lines, which
//! quote its answer, are not shown (`ZETA_SUPPORT_QUIET`).
//!
//! The loops run task by task, interleaved (bare, then Zeta), each on its own server with
//! the same program, model and flags, as in `local_agent`.
//!
//! `cargo bench --profile dev --bench everyday` (needs `scripts/local-model.sh`).
//! `ZETA_BENCH_HALF=tune|held-out|both` (default held-out), `ZETA_BENCH_PER_FAMILY=N`
//! (default 3; the generator holds 6 a family, 216 in all), `ZETA_BENCH_LOOPS=bare,zeta`,
//! `ZETA_BENCH_FAMILIES=a,b`, `ZETA_BENCH_CALLS=1` (a shown task's calls even when it
//! passed); the loop `zeta-plain` is Zeta without its command recipes
//! (`ZETA_RECIPES=off`: no skills), `zeta-code` Zeta whose small model may also act with a short
//! Python program (`ZETA_CODE_ACTIONS=on`), `zeta-yours` Zeta whose small model is
//! offered the person's skills only (`ZETA_SKILLS_SMALL=yours`; by default Zeta's own too), and
//! `zeta-without-NAME+NAME` Zeta without the answer checks or first-turn notes named
//! (`ZETA_HELP_OFF=NAME,NAME`; `zeta-one-way` is `zeta-without-second-way`), and
//! `zeta-learned`
//! Zeta in a home of its own that first made one pass over the tune half and saved a
//! skill from each task it solved (`zeta skills learn TASK --yes`), then runs the chosen
//! half with them. `ZETA_BENCH_LIST=1` only generates every task, prints the
//! count and the tune half's requests, and checks that every check fails on the untouched
//! fixtures with an empty answer (a check that cannot fail measures nothing).

// Test code: a failed unwrap or expect is the bench failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/bare.rs"]
mod bare_loop;
#[path = "../common/claims.rs"]
mod claims;
mod families;
#[path = "../../tests/local_model/support.rs"]
mod support;

use std::time::Instant;

use bare_loop::{bare, context_window, median, BareServer};
use claims::admits;
use families::{Family, Half, Rng, FAMILIES};

/// Tasks the generator holds per family.
const PER_FAMILY: usize = 6;

/// Text of Zeta's own messages to the model: never part of an answer.
const INTERNAL: &[&str] = &[
    "your answer says",
    "has not changed during this task",
    "run the command that does it now",
    "(next:",
    "[zeta]",
    "give your whole answer again",
    "no command you ran changed anything",
];

fn seed(family: usize, index: usize) -> u64 {
    0x5EED_0000 + (family as u64) * 1000 + index as u64
}

struct Row {
    family: &'static str,
    /// The answer checks that judged the task (`answerChecked` events: check, result).
    checks: Vec<(String, String)>,
    solved: bool,
    /// Solved by the answer before Zeta's notes (`answer_alone`).
    by_answer: bool,
    false_claim: bool,
    leak: bool,
    secs: f64,
}

/// The reply up to the first of Zeta's notes after the answer: a paragraph in
/// parentheses ("(I could not confirm this a second way: …)", "(Not checked: …)"), or
/// one that lists what the commands printed or asks what nobody answered.
fn answer_alone(reply: &str) -> &str {
    let mut end = reply.len();
    let mut at = 0;
    for part in reply.split("\n\n") {
        let t = part.trim_start();
        if at > 0
            && (t.starts_with('(')
                || t.starts_with("What the commands printed:")
                || t.starts_with("I needed to ask you:"))
        {
            end = at;
            break;
        }
        at += part.len() + 2;
    }
    &reply[..end.min(reply.len())]
}

fn leaks(reply: &str) -> bool {
    let lower = reply.to_lowercase();
    INTERNAL.iter().any(|m| lower.contains(m))
}

/// What a `zeta-without-A+B` loop turns off (`ZETA_HELP_OFF`): `A,B`.
fn help_off(loop_name: &str) -> Option<String> {
    if loop_name == "zeta-one-way" {
        return Some("second-way".into());
    }
    let names = loop_name.strip_prefix("zeta-without-")?;
    (!names.is_empty()).then(|| names.replace('+', ","))
}

fn chosen(half: &str) -> impl Fn(&Family) -> bool + '_ {
    move |f: &Family| match half {
        "tune" => f.half == Half::Tune,
        "both" => true,
        _ => f.half == Half::HeldOut,
    }
}

/// `ZETA_BENCH_LIST=1`: every task generated, the count, and every check failing on the
/// untouched fixtures with an empty answer.
fn list() {
    let dir = tempfile::tempdir().expect("temp");
    let mut total = 0;
    let mut cannot_fail = Vec::new();
    for (f, family) in FAMILIES.iter().enumerate() {
        for i in 0..PER_FAMILY {
            let work = dir.path().join(format!("{}-{i}", family.name));
            std::fs::create_dir_all(&work).expect("work");
            let task = (family.make)(&mut Rng::new(seed(f, i)), &work);
            total += 1;
            if family.half == Half::Tune && i < 2 {
                println!("{:<20} {}", family.name, task.request);
            }
            if (task.check)(&work, "").is_ok() {
                cannot_fail.push(format!("{} #{i}", family.name));
            }
        }
    }
    let halves = |h: Half| FAMILIES.iter().filter(|f| f.half == h).count();
    println!(
        "{total} tasks in {} families ({} tune, {} held out); checks passing with no answer and no change: {}",
        FAMILIES.len(),
        halves(Half::Tune),
        halves(Half::HeldOut),
        cannot_fail.len()
    );
    assert!(
        cannot_fail.is_empty(),
        "checks that cannot fail: {cannot_fail:?}"
    );
    // Zeta's notes after an answer are cut; an answer that opens with a parenthesis is not.
    for (reply, alone) in [
        (
            "There are 5 cities.\n\n(I could not confirm this a second way: a Python program printed:\n4)",
            "There are 5 cities.\n\n",
        ),
        (
            "None found.\n\nWhat the commands printed:\n4",
            "None found.\n\n",
        ),
        ("(a) first\n\nsecond (b)", "(a) first\n\nsecond (b)"),
        ("Just 4.", "Just 4."),
    ] {
        assert_eq!(answer_alone(reply), alone, "{reply:?}");
    }
}

fn main() {
    if std::env::var("ZETA_BENCH_LIST").is_ok_and(|v| v == "1") {
        return list();
    }
    let Some(local) = support::available() else {
        return;
    };
    let half = std::env::var("ZETA_BENCH_HALF").unwrap_or_else(|_| "held-out".into());
    let per_family: usize = std::env::var("ZETA_BENCH_PER_FAMILY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .min(PER_FAMILY);
    let only: Option<Vec<String>> = std::env::var("ZETA_BENCH_FAMILIES")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let show_held_out = std::env::var("ZETA_BENCH_SHOW_HELDOUT").is_ok_and(|v| v == "1");
    let wanted = std::env::var("ZETA_BENCH_LOOPS").unwrap_or_else(|_| "bare,zeta".into());
    let loops: Vec<&str> = wanted
        .split(',')
        .map(str::trim)
        .filter(|l| {
            let known = [
                "bare",
                "zeta",
                "zeta-plain",
                "zeta-code",
                "zeta-yours",
                "zeta-learned",
            ]
            .contains(l)
                || help_off(l).is_some();
            if !known {
                println!("no loop is called {l:?}: left out");
            }
            known
        })
        .collect();
    // The skills' model, where the test script put it.
    if std::env::var_os("ZETA_SKILLS_MODEL").is_none() {
        if let Ok(dir) = zeta_skills::embed::locate(
            std::env::var_os("HOME")
                .map(|h| std::path::PathBuf::from(h).join(".cache/zeta/models"))
                .as_deref(),
        ) {
            std::env::set_var("ZETA_SKILLS_MODEL", dir);
        }
    }
    let (dir, _) = support::home(&local);
    let _stop = support::StopKeeper(dir.path().join("zeta"));
    // `zeta-learned`: its own home, taught by a pass over the tune half.
    let learned = loops.contains(&"zeta-learned").then(|| {
        let (home, _) = support::home(&local);
        learn_on_tune_half(home.path(), &local, per_family);
        home
    });
    let _stop_learned = learned
        .as_ref()
        .map(|h| support::StopKeeper(h.path().join("zeta")));
    let bare_log = dir.path().join("bare-server.log");
    let bare_server = loops
        .contains(&"bare")
        .then(|| BareServer::start(&local, context_window(&dir.path().join("zeta")), &bare_log));
    let picked: Vec<(usize, &Family)> = FAMILIES
        .iter()
        .enumerate()
        .filter(|(_, f)| chosen(&half)(f))
        .filter(|(_, f)| only.as_ref().is_none_or(|o| o.iter().any(|n| n == f.name)))
        .collect();
    let mut rows: Vec<(&str, Row)> = Vec::new();
    // Round-robin over the families, so that a run cut short still covers them all.
    for i in 0..per_family {
        for &(f, family) in &picked {
            for &loop_name in &loops {
                // `zeta-plain`: Zeta without its command recipes, to measure what they buy
                // (the runs inherit it; the bench is single-threaded here).
                match loop_name {
                    "zeta-plain" => std::env::set_var("ZETA_RECIPES", "off"),
                    _ => std::env::remove_var("ZETA_RECIPES"),
                }
                if loop_name == "zeta-yours" {
                    std::env::set_var("ZETA_SKILLS_SMALL", "yours");
                } else {
                    std::env::remove_var("ZETA_SKILLS_SMALL");
                }
                let home = match (&learned, loop_name) {
                    (Some(learned), "zeta-learned") => learned.path(),
                    _ => dir.path(),
                };
                // `zeta-without-A+B`: Zeta without the checks or notes named.
                match help_off(loop_name) {
                    Some(off) => std::env::set_var("ZETA_HELP_OFF", off),
                    None => std::env::remove_var("ZETA_HELP_OFF"),
                }
                // `zeta-code`: Zeta whose small model may also act with Python (CodeAct).
                if loop_name == "zeta-code" {
                    std::env::set_var("ZETA_CODE_ACTIONS", "on");
                } else {
                    std::env::remove_var("ZETA_CODE_ACTIONS");
                }
                let work = dir.path().join(format!("{loop_name}-{}-{i}", family.name));
                std::fs::create_dir_all(&work).expect("work");
                let task = (family.make)(&mut Rng::new(seed(f, i)), &work);
                let started = Instant::now();
                let mut checks: Vec<(String, String)> = Vec::new();
                let (reply, ok, calls) = match &bare_server {
                    Some(server) if loop_name == "bare" => {
                        let (reply, _) = bare(server.port, &work, &task.request);
                        (reply, true, Vec::new())
                    }
                    _ => {
                        // A held-out task's log quotes its answer: kept from the screen.
                        let hidden = family.half == Half::HeldOut && !show_held_out;
                        if hidden {
                            std::env::set_var("ZETA_SUPPORT_QUIET", "1");
                        }
                        let o = support::run(home, &work, &local, &task.request, |e| {
                            if e["type"] == "answerChecked" {
                                let field = |k: &str| e[k].as_str().unwrap_or_default().to_string();
                                checks.push((field("check"), field("result")));
                            }
                        });
                        std::env::remove_var("ZETA_SUPPORT_QUIET");
                        (o.reply, o.ok, o.calls)
                    }
                };
                let secs = started.elapsed().as_secs_f64();
                let verdict = (task.check)(&work, &reply);
                let solved = verdict.is_ok();
                // Solved by the answer itself, Zeta's notes after it left out (a second
                // way's "(… a Python program printed: 4)" beside a wrong 5 is no answer).
                let by_answer = (task.check)(&work, answer_alone(&reply)).is_ok();
                let leak = leaks(&reply);
                let false_claim = leak || (!solved && !reply.trim().is_empty() && !admits(&reply));
                let _ = ok;
                if family.half == Half::Tune || show_held_out {
                    println!(
                        "{loop_name:<5} {:<20} {:<5}{} {:>5.1} s | {} | reply: {}{}",
                        family.name,
                        if solved { "PASS" } else { "FAIL" },
                        if false_claim { " FALSE-CLAIM" } else { "" },
                        secs,
                        task.request,
                        reply
                            .replace('\n', " ")
                            .chars()
                            .take(160)
                            .collect::<String>(),
                        verdict
                            .as_ref()
                            .err()
                            .map(|e| format!("  [{e}]"))
                            .unwrap_or_default()
                    );
                    // `ZETA_BENCH_CALLS=1`: the calls of every task shown, not only failed ones.
                    let all_calls = std::env::var_os("ZETA_BENCH_CALLS").is_some();
                    if (!solved || all_calls) && loop_name != "bare" {
                        for call in calls.iter().take(12) {
                            println!("        {}", call.chars().take(200).collect::<String>());
                        }
                    }
                } else {
                    println!("{loop_name:<5} {:<20} done ({secs:.1} s)", family.name);
                }
                rows.push((
                    loop_name,
                    Row {
                        family: family.name,
                        checks,
                        solved,
                        by_answer,
                        false_claim,
                        leak,
                        secs,
                    },
                ));
            }
        }
    }
    drop(bare_server);
    bare_loop::keep_server_logs("everyday", dir.path(), &bare_log);
    table(&picked, &loops, &rows);
    fired(&loops, &rows);
}

/// Per loop, how often each answer check judged a task: sent back, told the person, in
/// how many tasks, and how many of those were solved and false claims. Counts only: a
/// held-out task's answers stay hidden.
fn fired(loops: &[&str], rows: &[(&str, Row)]) {
    for l in loops {
        let mut by_check: std::collections::BTreeMap<&str, [usize; 5]> = Default::default();
        for (_, row) in rows.iter().filter(|(n, _)| n == l) {
            let mut seen: Vec<&str> = Vec::new();
            for (check, result) in &row.checks {
                let c = by_check.entry(check.as_str()).or_default();
                match result.as_str() {
                    "sentBack" => c[0] += 1,
                    "told" => c[1] += 1,
                    _ => {}
                }
                if !seen.contains(&check.as_str()) {
                    seen.push(check);
                    c[2] += 1;
                    c[3] += usize::from(row.solved);
                    c[4] += usize::from(row.false_claim);
                }
            }
        }
        if by_check.is_empty() {
            continue;
        }
        println!(
            "\n{l}: checks that judged a task (sent back · told · tasks · solved · false claims)"
        );
        for (check, c) in by_check {
            println!(
                "  {check:<22} {} · {} · {} · {} · {}",
                c[0], c[1], c[2], c[3], c[4]
            );
        }
    }
}

/// One pass of Zeta over the tune half in `home`; each task it solved is saved as a
/// skill (`zeta skills learn TASK --yes`), as a person accepting every offer would.
fn learn_on_tune_half(home: &std::path::Path, local: &support::Local, per_family: usize) {
    let mut learned = 0;
    let mut solved = 0;
    let mut tasks = 0;
    for i in 0..per_family {
        for (f, family) in FAMILIES
            .iter()
            .enumerate()
            .filter(|(_, f)| f.half == Half::Tune)
        {
            let work = home.join(format!("learn-{}-{i}", family.name));
            std::fs::create_dir_all(&work).expect("work");
            let task = (family.make)(&mut Rng::new(seed(f, i) ^ 0x1EA2), &work);
            std::env::remove_var("ZETA_RECIPES");
            let o = support::run(home, &work, local, &task.request, |_| {});
            tasks += 1;
            if (task.check)(&work, &o.reply).is_err() {
                continue;
            }
            solved += 1;
            let Some(id) = o.task_id else { continue };
            let out = support::zeta(home, &work, &local.server)
                .args(["skills", "learn", &id.to_string(), "--yes"])
                .args(["--name", &format!("learned-{}-{i}", family.name)])
                .output()
                .expect("zeta skills learn");
            if out.status.success() {
                learned += 1;
            } else {
                println!(
                    "learn {}: {}",
                    family.name,
                    String::from_utf8_lossy(&out.stderr).trim()
                );
            }
        }
    }
    println!("learning pass over the tune half: {solved}/{tasks} solved, {learned} skills saved");
}

fn table(picked: &[(usize, &Family)], loops: &[&str], rows: &[(&str, Row)]) {
    let head: String = loops
        .iter()
        .map(|l| format!(" {l} solved | {l} median s | {l} false claims |"))
        .collect();
    println!("\n| family | kind | half |{head}");
    println!("|---|---|---|{}", "---|---|---|".repeat(loops.len()));
    let cells = |pick: &dyn Fn(&Row) -> bool| -> String {
        loops
            .iter()
            .map(|l| {
                let r: Vec<&Row> = rows
                    .iter()
                    .filter(|(n, r)| n == l && pick(r))
                    .map(|(_, r)| r)
                    .collect();
                let solved = r.iter().filter(|r| r.solved).count();
                let claims = r.iter().filter(|r| r.false_claim).count();
                let leaks = r.iter().filter(|r| r.leak).count();
                let leak_note = if leaks > 0 {
                    format!(" ({leaks} leaked)")
                } else {
                    String::new()
                };
                format!(
                    " {solved}/{} | {:.1} | {claims}{leak_note} |",
                    r.len(),
                    median(r.iter().map(|r| r.secs).collect())
                )
            })
            .collect()
    };
    for (_, family) in picked {
        let half = match family.half {
            Half::Tune => "tune",
            Half::HeldOut => "held out",
        };
        println!(
            "| {} | {} | {half} |{}",
            family.name,
            family.kind,
            cells(&|r| r.family == family.name)
        );
    }
    for (label, h) in [("all tune", Half::Tune), ("all held out", Half::HeldOut)] {
        let names: Vec<&str> = picked
            .iter()
            .filter(|(_, f)| f.half == h)
            .map(|(_, f)| f.name)
            .collect();
        if !names.is_empty() {
            println!(
                "| **{label}** | | |{}",
                cells(&|r| names.contains(&r.family))
            );
        }
    }
    for l in loops {
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|(n, _)| n == l)
            .map(|(_, r)| r)
            .collect();
        println!(
            "{l}: solved by the answer itself, its notes left out: {}/{} (with the notes: {})",
            mine.iter().filter(|r| r.by_answer).count(),
            mine.len(),
            mine.iter().filter(|r| r.solved).count()
        );
    }
    if loops.contains(&"bare") && loops.contains(&"zeta") {
        let med = |l: &str| {
            median(
                rows.iter()
                    .filter(|(n, _)| *n == l)
                    .map(|(_, r)| r.secs)
                    .collect(),
            )
        };
        println!(
            "zeta's median / the bare loop's: {:.2}",
            med("zeta") / med("bare")
        );
        let worse: Vec<&str> = picked
            .iter()
            .map(|(_, f)| f.name)
            .filter(|name| {
                let solved = |l: &str| {
                    rows.iter()
                        .filter(|(n, r)| *n == l && r.family == *name && r.solved)
                        .count()
                };
                solved("zeta") < solved("bare")
            })
            .collect();
        println!("families where zeta solved fewer than the bare loop: {worse:?}");
    }
}
