//! Undo through the real `zeta`: a task's shell call (confined, as in use) and Zeta's own
//! file tool change files; `zeta show --changes` shows them with a diff; `zeta undo` gives
//! the tree back byte for byte; `zeta redo` brings the task's tree back; a file the user
//! changed after the task is left, and named; an undo killed half way is finished by the
//! next; a task cut short by a killed Zeta is undone from what it had changed.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_scripted_llm::Wire;
use zeta_test_support::tree::{differences, snapshot, Snapshot};

use crate::harness::*;

/// `work/` in the home: a text, a table, a log and a folder.
fn fixture(home: &Path) -> std::path::PathBuf {
    let work = home.join("work");
    write(&work.join("notes.txt"), "status: draft\nowner: sam\n");
    write(&work.join("data/a.csv"), "name,qty\napple,3\n");
    write(&work.join("old.log"), "old\n");
    work
}

const CHANGE: &str = "cd ~/work && sed -i s/draft/final/ notes.txt && mv data/a.csv data/b.csv \
                      && rm old.log && mkdir out && echo made > out/made.txt && chmod 600 notes.txt";

fn same(a: &Snapshot, b: &Snapshot, what: &str) {
    let diff = differences(a, b);
    assert!(diff.is_empty(), "{what}:\n{}", diff.join("\n"));
}

fn stdout(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_shown_undone_and_redone_byte_for_byte() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let steps = script(&[run(CHANGE), answer("Done.")], proto);
        let s = Setup::new(Wire::OpenAi, proto, steps).await;
        let work = fixture(s.home.path());
        let before = snapshot(&work);
        done_task(&s.zeta_run("Mark the notes final, rename the table, clear the old log"));
        let after = snapshot(&work);
        assert_ne!(before, after, "{at}: the task changed the files");

        let shown = s.zeta(&["show", "1", "--changes", "--json"]);
        let value: Value = serde_json::from_slice(&shown.stdout).expect("show json");
        let files = value["changes"]["files"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let kind_of = |end: &str| {
            files
                .iter()
                .find(|f| f["path"].as_str().is_some_and(|p| p.ends_with(end)))
                .map(|f| f["kind"].as_str().unwrap_or_default().to_string())
        };
        for (end, kind) in [
            ("notes.txt", "changed"),
            ("data/b.csv", "moved"),
            ("old.log", "deleted"),
            ("out/made.txt", "created"),
        ] {
            assert_eq!(kind_of(end).as_deref(), Some(kind), "{at}: {files:?}");
        }
        let notes = files
            .iter()
            .find(|f| f["path"].as_str().is_some_and(|p| p.ends_with("notes.txt")));
        let diff = notes.and_then(|f| f["diff"].as_str()).unwrap_or_default();
        assert!(
            diff.contains("-status: draft") && diff.contains("+status: final"),
            "{at}: {diff}"
        );
        assert_eq!(value["changes"]["canUndo"], true, "{at}");
        let text = stdout(&s.zeta(&["show", "1", "--changes"]));
        assert!(text.contains("changed 5 file(s)"), "{at}: {text}");

        let dry = s.zeta(&["undo", "1", "--dry-run"]);
        assert!(dry.status.success(), "{at}: {}", stdout(&dry));
        assert!(
            stdout(&dry).contains("would restore"),
            "{at}: {}",
            stdout(&dry)
        );
        same(
            &after,
            &snapshot(&work),
            &format!("{at}: a dry run changes nothing"),
        );

        let undone = s.zeta(&["undo", "1"]);
        assert!(undone.status.success(), "{at}: {}", stdout(&undone));
        same(&before, &snapshot(&work), &format!("{at}: after undo"));
        let again = s.zeta(&["undo", "1"]);
        assert!(!again.status.success(), "{at}: a second undo is refused");
        assert!(
            stdout(&again).contains("already undone"),
            "{at}: {}",
            stdout(&again)
        );

        let redone = s.zeta(&["redo", "1"]);
        assert!(redone.status.success(), "{at}: {}", stdout(&redone));
        same(&after, &snapshot(&work), &format!("{at}: after redo"));
        let undone = s.zeta(&["undo", "1"]);
        assert!(undone.status.success(), "{at}: {}", stdout(&undone));
        same(
            &before,
            &snapshot(&work),
            &format!("{at}: after the second undo"),
        );
        s.assert_invariants();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_file_tool_s_writes_are_undone_too() {
    let proto = Proto::Native;
    let steps = vec![
        tool_step(
            proto,
            "write_file",
            json!({"path": "work/notes.txt", "content": "rewritten\n"}),
        ),
        tool_step(
            proto,
            "write_file",
            json!({"path": "work/new/deep/plan.md", "content": "# plan\n"}),
        ),
        step(&answer("Written."), proto),
    ];
    let s = Setup::new(Wire::OpenAi, proto, steps).await;
    let work = fixture(s.home.path());
    let before = snapshot(&work);
    done_task(&s.zeta_run("Rewrite the notes and start a plan"));
    assert_eq!(
        std::fs::read_to_string(work.join("notes.txt"))
            .ok()
            .as_deref(),
        Some("rewritten\n")
    );
    let undone = s.zeta(&["undo", "1"]);
    assert!(undone.status.success(), "{}", stdout(&undone));
    same(&before, &snapshot(&work), "the file tool's writes undone");
    s.assert_invariants();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_changed_after_the_task_is_left_and_named() {
    let proto = Proto::Json;
    let steps = script(&[run(CHANGE), answer("Done.")], proto);
    let s = Setup::new(Wire::OpenAi, proto, steps).await;
    let work = fixture(s.home.path());
    let before = snapshot(&work);
    done_task(&s.zeta_run("Mark the notes final, rename the table, clear the old log"));
    // The user edits the notes after the task.
    write(
        &work.join("notes.txt"),
        "status: final\nowner: sam\nreviewed: yes\n",
    );
    let undone = s.zeta(&["undo", "1"]);
    let text = stdout(&undone);
    assert_eq!(undone.status.code(), Some(3), "{text}");
    assert!(
        text.contains("notes.txt: it changed after the task"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(work.join("notes.txt"))
            .ok()
            .as_deref(),
        Some("status: final\nowner: sam\nreviewed: yes\n"),
        "the user's edit stays"
    );
    // Everything else is back.
    let mut expected = before.clone();
    let now = snapshot(&work);
    expected.insert(
        "notes.txt".into(),
        now.get(Path::new("notes.txt")).cloned().unwrap_or_default(),
    );
    same(&expected, &now, "all but the edited file undone");
    s.assert_invariants();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_killed_half_way_is_finished_by_the_next() {
    let proto = Proto::Json;
    let make = "cd ~/work && mkdir many && seq 1 3000 | split -l 1 -a 4 - many/f \
                && sed -i s/draft/final/ notes.txt";
    let steps = script(&[run(make), answer("Made them.")], proto);
    let s = Setup::new(Wire::OpenAi, proto, steps).await;
    let work = fixture(s.home.path());
    let before = snapshot(&work);
    done_task(&s.zeta_run("Make three thousand numbered files"));
    let count = || std::fs::read_dir(work.join("many")).map_or(0, |d| d.count());
    assert_eq!(count(), 3000);
    let mut undo = std::process::Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(["undo", "1"])
        .env("ZETA_HOME", s.home.path())
        .env("HOME", s.home.path())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("zeta undo");
    let started = Instant::now();
    while count() == 3000 && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_micros(200));
    }
    // Killed by its PID, half way through.
    let _ = nix_kill(undo.id());
    let _ = undo.wait();
    let left = count();
    assert!(
        left > 0 && left < 3000,
        "the undo was killed half way ({left} files left)"
    );
    let finished = s.zeta(&["undo", "1"]);
    assert!(finished.status.success(), "{}", stdout(&finished));
    same(
        &before,
        &snapshot(&work),
        "after the undo that finished the killed one",
    );
    s.assert_invariants();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_cut_short_by_a_killed_zeta_is_undone_from_what_it_changed() {
    let proto = Proto::Json;
    let slow = "cd ~/work && rm old.log && seq 1 40 | split -l 1 - part- && sleep 30";
    let steps = script(&[run(slow), answer("Done.")], proto);
    let s = Setup::new(Wire::OpenAi, proto, steps).await;
    let work = fixture(s.home.path());
    let before = snapshot(&work);
    let mut zeta = std::process::Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args([
            "run",
            "--json",
            "--approve",
            "all",
            "Make forty numbered files",
        ])
        .env("ZETA_HOME", s.home.path())
        .env("HOME", s.home.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("zeta run");
    let started = Instant::now();
    let parts = || {
        std::fs::read_dir(&work).map_or(0, |d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("part-"))
                .count()
        })
    };
    while parts() < 40 && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(parts(), 40, "the call ran");
    // Zeta dies mid-call (SIGKILL); the call's shell, in a group of its own, lives on
    // until the test ends it by its PID.
    let shells = zeta_test_support::procs::descendants(zeta.id());
    let _ = nix_kill(zeta.id());
    let _ = zeta.wait();
    for pid in shells {
        let _ = nix_kill(pid);
    }
    let undone = s.zeta(&["undo", "1"]);
    let text = stdout(&undone);
    assert!(undone.status.success(), "{text}");
    assert!(text.contains("cut short"), "{text}");
    same(
        &before,
        &snapshot(&work),
        "what the cut-short task changed, undone",
    );
    s.assert_invariants();
}

fn nix_kill(pid: u32) -> std::io::Result<()> {
    let status = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other("kill failed"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_beyond_the_undo_budget_asks_first_saying_it_could_not_be_undone() {
    let proto = Proto::Json;
    let steps = script(&[run("rm -r ~/work/big"), answer("Removed.")], proto);
    let s =
        Setup::with_settings(Wire::OpenAi, proto, steps, json!({"undo": {"budgetMb": 1}})).await;
    let work = fixture(s.home.path());
    std::fs::create_dir_all(work.join("big")).unwrap();
    std::fs::write(work.join("big/blob"), vec![7u8; 2 * 1024 * 1024]).unwrap();
    // Auto mode, and nobody to say yes: the call is not run.
    let out = s.zeta(&[
        "run",
        "--json",
        "--approve",
        "none",
        "Remove the big folder",
    ]);
    let asked = events(&out)
        .into_iter()
        .find(|e| e["type"] == "approvalRequested")
        .expect("an approval was asked");
    let why = asked.to_string();
    assert!(why.contains("could not be undone"), "{why}");
    assert!(work.join("big/blob").exists(), "nothing was removed");
    // Within the budget the same call runs unasked (auto mode) and can be undone.
    let steps = script(&[run("rm -r ~/work/big"), answer("Removed.")], proto);
    let s = Setup::new(Wire::OpenAi, proto, steps).await;
    let work = fixture(s.home.path());
    std::fs::create_dir_all(work.join("big")).unwrap();
    std::fs::write(work.join("big/blob"), vec![7u8; 2 * 1024 * 1024]).unwrap();
    let before = snapshot(&work);
    let out = s.zeta(&[
        "run",
        "--json",
        "--approve",
        "none",
        "Remove the big folder",
    ]);
    done_task(&out);
    assert!(!work.join("big").exists());
    let undone = s.zeta(&["undo", "1"]);
    assert!(undone.status.success(), "{}", stdout(&undone));
    same(&before, &snapshot(&work), "the removed folder is back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_names_the_files_a_call_would_change() {
    let proto = Proto::Json;
    let steps = script(
        &[
            run("rm ~/work/old.log && touch ~/work/made.txt"),
            answer("Done."),
        ],
        proto,
    );
    let s = Setup::with_settings(
        Wire::OpenAi,
        proto,
        steps,
        json!({"permissions": {"mode": "ask"}}),
    )
    .await;
    let work = fixture(s.home.path());
    let out = s.zeta(&["run", "--json", "--approve", "none", "Clear the old log"]);
    let asked = events(&out)
        .into_iter()
        .find(|e| e["type"] == "approvalRequested")
        .expect("an approval was asked");
    let files: Vec<String> = asked["files"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let named = |p: &Path| p.display().to_string();
    assert!(files.contains(&named(&work.join("old.log"))), "{files:?}");
    assert!(files.contains(&named(&work.join("made.txt"))), "{files:?}");
    assert!(work.join("old.log").exists(), "denied: nothing ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_to_a_file_beyond_the_budget_runs_unasked_and_is_undone() {
    let proto = Proto::Json;
    let steps = script(
        &[run("echo more >> ~/work/big.log"), answer("Appended.")],
        proto,
    );
    let s =
        Setup::with_settings(Wire::OpenAi, proto, steps, json!({"undo": {"budgetMb": 1}})).await;
    let work = fixture(s.home.path());
    std::fs::write(work.join("big.log"), vec![b'x'; 2 * 1024 * 1024]).unwrap();
    let before = snapshot(&work);
    let out = s.zeta(&[
        "run",
        "--json",
        "--approve",
        "none",
        "Add a line to the big log",
    ]);
    done_task(&out);
    assert!(
        !events(&out)
            .iter()
            .any(|e| e["type"] == "approvalRequested"),
        "an append keeps only the size: nothing to ask"
    );
    assert_eq!(
        std::fs::metadata(work.join("big.log")).unwrap().len(),
        2 * 1024 * 1024 + 5
    );
    let undone = s.zeta(&["undo", "1"]);
    assert!(undone.status.success(), "{}", stdout(&undone));
    same(&before, &snapshot(&work), "the append cut back");
}
