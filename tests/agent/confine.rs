//! Write confinement through the real `zeta run`: in `auto` mode, a call that names a path
//! outside the writable set asks, naming the path; approved, it runs (unconfined), denied,
//! nothing is written. A write the judge cannot see (inside a Python program) is stopped
//! by Landlock, and the model is told how to ask. The user's home lies under the target
//! folder, outside /tmp (which is writable whole).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

struct Places {
    _dir: tempfile::TempDir,
    home: PathBuf,
    outside: PathBuf,
}

fn places() -> Places {
    let dir = outside_tmp();
    let home = dir.path().join("home");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(home.join("projects")).expect("home");
    std::fs::create_dir_all(&outside).expect("outside");
    Places {
        _dir: dir,
        home,
        outside,
    }
}

fn zeta_run(s: &Setup, home: &Path, approve: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(["run", "--json", "--approve", approve, "save the note"])
        .env("ZETA_HOME", s.home.path())
        .env("HOME", home)
        .env_remove("ZETA_LLM_PROVIDER")
        .env_remove("ZETA_LLM_BASE_URL")
        .output()
        .expect("run zeta")
}

fn asked(out: &Output) -> Vec<Value> {
    events(out)
        .into_iter()
        .filter(|e| e["type"] == "approvalRequested")
        .collect()
}

fn landlock_here() -> bool {
    match zeta_tools::confine::support() {
        zeta_tools::confine::Support::Available => true,
        zeta_tools::confine::Support::Missing(why) => {
            let why = format!("this kernel cannot confine processes: {why}");
            zeta_test_support::cannot_run(zeta_test_support::Needs::Landlock, "confinement", why);
            false
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_write_outside_asks_even_in_auto_mode_and_runs_only_when_approved() {
    for (approve, should_write) in [("none", false), ("all", true)] {
        let p = places();
        let target = p.outside.join("note.txt");
        let inside = p.home.join("projects/inside.txt");
        let steps = vec![
            Step::call(
                "shell",
                json!({"command": format!("echo kept > {}", inside.display())}),
            ),
            Step::call(
                "shell",
                json!({"command": format!("echo note > {}", target.display())}),
            ),
            Step::call(
                "write_file",
                json!({"path": p.outside.join("w.txt"), "content": "w"}),
            ),
            // A relative path in a command run in another folder (named relative to the
            // task's folder, the home) is judged from that folder.
            Step::call(
                "shell",
                json!({"command": "echo moved > moved.txt", "workdir": "../outside"}),
            ),
            Step::text("Zeta: done"),
        ];
        let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
        let out = zeta_run(&s, &p.home, approve);
        let at = format!("--approve {approve}");
        assert_eq!(finished_task(&out)["reply"], "Zeta: done", "{at}");
        assert_eq!(
            std::fs::read_to_string(&inside).ok().as_deref(),
            Some("kept\n"),
            "{at}: a write in the home runs unasked"
        );
        let asked = asked(&out);
        assert_eq!(
            asked.len(),
            3,
            "{at}: only the three writes outside ask: {asked:?}"
        );
        let moved = p.outside.join("moved.txt");
        for (request, path) in asked
            .iter()
            .zip([&target, &p.outside.join("w.txt"), &moved])
        {
            let reason = request["reason"].as_str().unwrap_or_default();
            assert!(
                reason.contains(&path.display().to_string()) && reason.contains("outside"),
                "{at}: {reason}"
            );
        }
        assert_eq!(target.exists(), should_write, "{at}");
        assert_eq!(p.outside.join("w.txt").exists(), should_write, "{at}");
        assert_eq!(
            moved.exists(),
            should_write,
            "{at}: the command ran in ../outside"
        );
        s.assert_invariants();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_the_judge_cannot_see_is_stopped_by_the_os_and_the_model_told() {
    if !landlock_here() {
        return;
    }
    let p = places();
    let target = p.outside.join("hidden.txt");
    let code = format!(
        "import os\npath = os.path.join({:?}, 'hidden' + '.txt')\nopen(path, 'w').write('x')",
        p.outside.display().to_string()
    );
    let steps = vec![
        Step::call("run_code", json!({"language": "python", "code": code})),
        Step::text("Zeta: could not"),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let out = zeta_run(&s, &p.home, "all");
    // Nothing changed: the person reads what ran and why it failed, not the model's word.
    let reply = finished_task(&out)["reply"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        reply.starts_with("I did not do this: nothing changed"),
        "{reply}"
    );
    assert!(reply.contains("PermissionError"), "{reply}");
    assert!(!target.exists(), "the confined program wrote outside");
    let second = text_of(&s.requests()[1]);
    assert!(second.contains("PermissionError"), "{second}");
    assert!(second.contains("This command ran confined"), "{second}");
    s.assert_invariants();
}
