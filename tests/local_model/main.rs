//! The `local` provider against the real model: Zeta starts its own llama.cpp server
//! (the one `scripts/local-model.sh` sets up) with Qwen2.5-Coder-1.5B and answers a
//! disk question, a file task, a multi-step change, a question it must ask the user
//! (answered at the terminal) and a window operated by its elements (the GTK test form,
//! checked by the file its Save button writes), checked against the truth (`df`, the real
//! folders). In the
//! disk task the server is killed mid-task; Zeta must restart it and finish; the later
//! commands reuse the server the first left warm.
//!
//! Needs the model and the server (`scripts/local-model.sh` obtains both, cached). Without
//! them the test says so and passes, unless `ZETA_LOCAL_MODEL_REQUIRED=1` (set by
//! `scripts/test.sh` when they are present), where it fails.
//! One command: `cargo test -p zeta --test local_model -- --nocapture`.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Command;

use support::{available, home, run, Outcome};

/// Every free-space figure `df -h` gives for the folders the model may ask about, as the
/// number in front of its unit ("44G" -> "44").
fn free_space_figures(work: &Path) -> Vec<String> {
    let mut figures = Vec::new();
    for target in ["/", &work.display().to_string()] {
        let out = Command::new("df")
            .args(["-h", target])
            .output()
            .expect("df");
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(avail) = text
            .lines()
            .nth(1)
            .and_then(|l| l.split_whitespace().nth(3))
        {
            figures.push(
                avail
                    .trim_end_matches(|c: char| c.is_alphabetic())
                    .to_string(),
            );
        }
    }
    figures
}

fn report(name: &str, o: &Outcome) {
    eprintln!(
        "FIGURES {name}: {:.1} s wall, {} iterations, {:.1} s per iteration",
        o.took.as_secs_f64(),
        o.iterations,
        o.took.as_secs_f64() / o.iterations.max(1) as f64
    );
}

/// How many prompt tokens the latest server start evaluated for its first request, from
/// llama-server's log ("prompt eval time = … / N tokens").
fn first_prompt_eval(dir: &Path) -> Option<usize> {
    let log = std::fs::read_to_string(dir.join("zeta/logs/local-server.log")).unwrap_or_default();
    let since_load = log.rsplit("loading model").next().unwrap_or_default();
    since_load
        .lines()
        .find(|l| l.contains("prompt eval time"))
        .and_then(|l| l.split(" / ").nth(1))
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

#[test]
fn the_local_model_answers_from_the_real_computer_and_survives_a_server_kill() {
    let Some(local) = available() else { return };
    let (dir, work) = home(&local);
    let _stop = support::StopKeeper(dir.path().join("zeta"));
    let status_file = dir.path().join("zeta").join("local-server.json");

    // 0. Setup's warm-up (`zeta local-server warm`) evaluates the opening every task
    // starts with and saves it; the first task on this fresh home then evaluates only
    // what is new, not the ~1,100 tokens of rules and examples.
    let warm = support::zeta(dir.path(), &work, &local.server)
        .args(["local-server", "warm"])
        .output()
        .expect("zeta local-server warm");
    println!(
        "local model: warm-up: {}",
        String::from_utf8_lossy(&warm.stdout).trim()
    );
    assert!(warm.status.success(), "{warm:?}");
    // Another question than the warm-up's own: only it, and what changed, is new.
    let first = run(
        dir.path(),
        &work,
        &local,
        "Which folder am I in right now?",
        |_| {},
    );
    report("first-after-warm", &first);
    assert!(first.ok, "the first task failed: {}", first.stderr);
    let evaluated = first_prompt_eval(dir.path());
    println!("local model: the first task after the warm-up evaluated {evaluated:?} prompt tokens");
    assert!(
        evaluated.is_some_and(|n| n < 600),
        "the warm state was used by the first task: {evaluated:?} tokens evaluated"
    );
    let stop = support::zeta(dir.path(), &work, &local.server)
        .args(["local-server", "stop"])
        .output()
        .expect("zeta local-server stop");
    assert!(stop.status.success(), "{stop:?}");

    // 1. Free disk space, with the server killed once it has answered a request.
    let mut killed = None;
    let disk = run(
        dir.path(),
        &work,
        &local,
        "How much free disk space do I have?",
        |event| {
            // The first tool call means the model has answered once: kill the server then,
            // so that the next request finds it dead.
            if killed.is_none() && event["type"] == "toolCallStarted" {
                let status: serde_json::Value = std::fs::read_to_string(&status_file)
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok())
                    .expect("local-server.json while the server runs");
                let pid = status["pid"].as_u64().expect("pid") as i32;
                // SIGKILL by PID: a crash, not a shutdown.
                let killed_ok = Command::new("kill").args(["-9", &pid.to_string()]).status();
                assert!(killed_ok.is_ok_and(|s| s.success()), "kill {pid}");
                killed = Some(pid);
            }
        },
    );
    report("disk", &disk);
    let pid = killed.expect("the server was killed mid-task");
    assert!(
        disk.stderr.contains("restarting the local model server"),
        "Zeta did not say it restarted the server: {}",
        disk.stderr
    );
    let ready_lines = disk.stderr.matches("local model server is ready").count();
    assert!(
        ready_lines >= 2,
        "the server became ready again after the kill"
    );
    assert!(disk.ok, "the disk task failed: {}", disk.stderr);
    // df's figure, give or take one unit: other processes write while the task runs.
    let figures = free_space_figures(&work);
    let said: Vec<f64> = disk
        .reply
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|n| n.trim_matches('.').parse().ok())
        .collect();
    assert!(
        figures
            .iter()
            .filter_map(|f| f.parse::<f64>().ok())
            .any(|f| said.iter().any(|n| (n - f).abs() <= 1.0)),
        "the reply {:?} does not give the free space df reports ({figures:?})",
        disk.reply
    );
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "the killed server {pid} is gone"
    );

    // 2. A file task, checked in the real folder.
    let logs = work.join("logs");
    std::fs::create_dir_all(&logs).expect("logs");
    for name in ["a.log", "b.log", "c.log", "d.log", "notes.txt", "e.log.gz"] {
        std::fs::write(logs.join(name), format!("{name}\n")).expect("write");
    }
    let files = run(
        dir.path(),
        &work,
        &local,
        "How many .log files are in ~/logs? Write the number into ~/answer.txt",
        |_| {},
    );
    report("files", &files);
    assert!(files.ok, "the file task failed: {}", files.stderr);
    let answer = std::fs::read_to_string(work.join("answer.txt")).unwrap_or_default();
    assert_eq!(
        answer.trim(),
        "4",
        "answer.txt holds {answer:?}; reply: {}\ncalls:\n{}",
        files.reply,
        files.calls.join("\n")
    );
    assert!(
        files.reply.contains('4'),
        "the reply says the count: {}",
        files.reply
    );

    // 3. A multi-step change: a folder made and files moved into it, checked on disk.
    let moved = run(
        dir.path(),
        &work,
        &local,
        "Create a folder ~/archive and move every .log file from ~/logs into it",
        |_| {},
    );
    report("mkdir-move", &moved);
    assert!(moved.ok, "the multi-step task failed: {}", moved.stderr);
    let names = |folder: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    assert_eq!(
        names(&work.join("archive")),
        ["a.log", "b.log", "c.log", "d.log"],
        "the .log files are in ~/archive; reply: {}\ncalls:\n{}",
        moved.reply,
        moved.calls.join("\n")
    );
    assert_eq!(
        names(&logs),
        ["e.log.gz", "notes.txt"],
        "only the .log files left ~/logs"
    );

    // 4. A question to the user (ask_user), answered at the terminal, then used.
    for (folder, count) in [("red", 2), ("blue", 5)] {
        for i in 0..count {
            let path = work.join(folder).join(format!("photo-{i}.jpg"));
            std::fs::create_dir_all(path.parent().expect("folder")).expect("folder");
            std::fs::write(path, "jpg").expect("write");
        }
    }
    let asked = support::run_typing(
        dir.path(),
        &work,
        &local,
        "Ask me which of my folders ~/red or ~/blue I mean, then count the files in the folder \
         I name.",
        Some("blue\n"),
        |_| {},
    );
    report("ask-user", &asked);
    assert!(asked.ok, "the question task failed: {}", asked.stderr);
    assert_eq!(
        asked.questions.len(),
        1,
        "the agent asked the user once: {:?}; reply: {}",
        asked.questions,
        asked.reply
    );
    assert!(
        asked.reply.contains('5') || asked.reply.to_lowercase().contains("five"),
        "the reply gives the count of the folder the user named (5 in ~/blue): {}",
        asked.reply
    );

    // 5. A window operated in plain words, through its elements: the GTK test form (on
    // the suite's display, with the accessibility bus), checked by the file its Save
    // button writes.
    window_task(dir.path(), &work, &local);

    // One warm server: the later commands used the server the first left loaded under
    // its keeper (the restart after the kill is the only other load; the warm-up's and
    // the first task's, each stopped after, came before).
    let log =
        std::fs::read_to_string(dir.path().join("zeta/logs/local-server.log")).unwrap_or_default();
    let loads = log.matches("loading model").count();
    assert_eq!(
        loads, 4,
        "the warm-up's, the first task's, one load, one after the kill, none for the file task"
    );
    let status: serde_json::Value = std::fs::read_to_string(&status_file)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .expect("the server stays warm between commands");
    let server = status["pid"].as_u64().expect("pid") as u32;
    assert!(zeta_llm::local::shared::alive(server));

    // `zeta local-server stop` ends the keeper and its server: nothing is left.
    let stop = support::zeta(dir.path(), &work, &local.server)
        .args(["local-server", "stop"])
        .output()
        .expect("zeta local-server stop");
    assert!(stop.status.success(), "{stop:?}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while zeta_llm::local::shared::alive(server) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        !zeta_llm::local::shared::alive(server),
        "server {server} outlived its keeper"
    );
    assert!(
        !status_file.exists(),
        "local-server.json is removed when the server stops"
    );

    // 6. The evaluated prompt was saved as the server stopped, and the next server
    // restores it: the next task's first request evaluates only what is new, not the
    // ~1,100 tokens of rules and examples again. The state saved last was the window
    // task's, whose prompt differs (its plan form): the first task after the restart
    // shares only part of it; the one after the next restart, all of its prefix.
    let kept: Vec<String> = std::fs::read_dir(dir.path().join("zeta/prompt-cache"))
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(kept.len(), 1, "one saved prompt: {kept:?}");
    let mut evaluated = Vec::new();
    for request in [
        "What is my user name?",
        "How many CPU cores does this computer have?",
    ] {
        let again = run(dir.path(), &work, &local, request, |_| {});
        report("after-restart", &again);
        assert!(
            again.ok,
            "the task after the restart failed: {}",
            again.stderr
        );
        evaluated.push(first_prompt_eval(dir.path()));
        let stop = support::zeta(dir.path(), &work, &local.server)
            .args(["local-server", "stop"])
            .output()
            .expect("zeta local-server stop");
        assert!(stop.status.success(), "{stop:?}");
    }
    println!("local model: first requests after a restart evaluated {evaluated:?} prompt tokens");
    assert!(
        evaluated[1].is_some_and(|n| n < 600),
        "the restored prompt was reused: {evaluated:?} tokens evaluated"
    );
}

/// "type 'hello' into the Name field and press Save" against the test form: the model
/// reads the window's outline, fills the field and presses the button by number.
fn window_task(dir: &Path, work: &Path, local: &support::Local) {
    if let Some(why) = zeta_test_support::apps::missing() {
        zeta_test_support::cannot_run(
            zeta_test_support::Needs::Desktop,
            "the local model's window task",
            why,
        );
        return;
    }
    // The model is sampled: an attempt that ends saying it did not finish gets one more
    // (a fresh form); a claim the form contradicts fails at once.
    let out = work.join("form.json");
    let mut attempt = 0;
    let form = loop {
        attempt += 1;
        let _ = std::fs::remove_file(&out);
        let form = zeta_test_support::apps::start_form(&out, "Zeta local form", true)
            .expect("start the form");
        let gui = run(
            dir,
            work,
            local,
            "type 'hello' into the Name field and press Save",
            |event| {
                if event["type"] == "toolCallStarted" {
                    eprintln!("window task: {} {}", event["tool"], event["arguments"]);
                }
            },
        );
        report("window", &gui);
        assert!(gui.ok, "the window task failed: {}", gui.stderr);
        let saved = std::fs::read_to_string(&out).unwrap_or_default();
        let saved: serde_json::Value = serde_json::from_str(&saved).unwrap_or_default();
        if saved["name"] == "hello" {
            break form;
        }
        let said_not_done = ["Not done", "I did not do this", "I did not finish this"]
            .iter()
            .any(|s| gui.reply.starts_with(s));
        assert!(
            said_not_done && attempt < 2,
            "the form saved {saved} (attempt {attempt}); reply: {}",
            gui.reply
        );
        eprintln!("window task: attempt {attempt} not done, and said so; once more");
    };

    // A widget on a page behind a tab: the settings window opens on General; Verbose is
    // on Advanced. The form is closed first: the settings window is the one on screen.
    drop(form);
    let out = work.join("settings.json");
    let _settings = zeta_test_support::apps::start_settings(&out, "Zeta local options")
        .expect("start the settings window");
    let tab = run(
        dir,
        work,
        local,
        "In the Zeta local options window, open the Advanced tab, tick Verbose, then press Apply",
        |event| {
            if event["type"] == "toolCallStarted" {
                eprintln!("tab task: {} {}", event["tool"], event["arguments"]);
            }
        },
    );
    report("tab", &tab);
    assert!(tab.ok, "the tab task failed: {}", tab.stderr);
    let saved = std::fs::read_to_string(&out).unwrap_or_default();
    let saved: serde_json::Value = serde_json::from_str(&saved).unwrap_or_default();
    // The 1.5B model does not do this one yet (it reaches for Zeta's own settings tool):
    // what must hold is the truth of the answer. Either the application saved Verbose, or
    // the person is told it was not done; never a "done" the application contradicts.
    let done = saved["verbose"] == true;
    let said_not_done = ["Not done", "I did not do this", "I did not finish this"]
        .iter()
        .any(|s| tab.reply.starts_with(s));
    eprintln!(
        "tab task: {}",
        match (done, said_not_done) {
            (true, _) => "done",
            (false, true) => "not done, and said so",
            (false, false) => "not done, and the reply does not say so",
        }
    );
    assert!(
        done || said_not_done,
        "a claim the application contradicts: saved {saved}; reply: {}",
        tab.reply
    );
}
