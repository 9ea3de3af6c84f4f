//! Skills end to end with the real `zeta`: a skill folder pasted into the home between
//! two tasks is listed in the second's first turn (read again between tasks); a large
//! model reads it with the `skill` tool; a skill from elsewhere marks the task as having
//! read untrusted input (listed by name only, its text wrapped); its script runs through
//! the same gate as any command, trusted or not; each use is on the skill's record. And a
//! small (local) model is shown the built-in skill whose description is nearest its
//! request in meaning, with the real embedding model (and none when it is offered the
//! person's skills only).

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

fn skills_json(s: &Setup) -> Value {
    let out = s.zeta(&["skills", "list", "--json"]);
    serde_json::from_slice(&out.stdout).expect("skills json")
}

fn skill<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["skills"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["name"] == name))
        .unwrap_or_else(|| panic!("no skill {name} in {list}"))
}

fn first_turn(s: &Setup, request: usize) -> String {
    let requests = s.requests();
    let body = &requests[request].body;
    body["messages"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["role"] == "user"))
        .map(|m| m["content"].to_string())
        .unwrap_or_default()
}

fn run_none(s: &Setup, task: &str) -> Output {
    s.zeta(&["run", "--json", "--approve", "none", task])
}

/// The decisions of the audit's shell calls, in order.
fn shell_decisions(s: &Setup) -> Vec<String> {
    audit_rows(s)
        .into_iter()
        .filter(|(tool, _, _)| tool == "shell")
        .map(|(_, decision, _)| decision)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_skill_is_read_marks_the_task_and_its_script_is_gated() {
    let folder_of = |home: &Path| home.join("skills").join("tidy-downloads");
    let tidied = |home: &Path| home.join("tidied");
    // The scripted model's turns for four tasks: one before the skill exists, then three
    // that read it and run its script.
    let mut steps = vec![Step::text("I can follow the skills listed.")];
    let script = |home: &Path| format!("bash {}/scripts/tidy.sh", folder_of(home).display());
    // The script's path depends on the home, known only after setup: the steps are
    // written against a home made first, then the server is started with them.
    let s0 = Setup::new(Wire::OpenAi, Proto::Native, vec![]).await;
    let home: PathBuf = s0.home.path().to_path_buf();
    for _ in 0..3 {
        steps.push(Step::call("skill", json!({"name": "tidy-downloads"})));
        steps.push(Step::call("shell", json!({"command": script(&home)})));
        steps.push(Step::text("Your downloads are tidied."));
    }
    let server = zeta_scripted_llm::ScriptedServer::start(steps)
        .await
        .expect("scripted server");
    let settings = json!({
        "provider": provider_section(&server, Wire::OpenAi, Proto::Native),
        "permissions": {"mode": "auto"},
    });
    std::fs::write(home.join("settings.json"), settings.to_string()).expect("settings");
    let s = Setup {
        home: s0.home,
        server,
    };

    // Before the skill exists: the first turn lists the built-in ones only.
    done_task(&s.zeta_run("which skills do you have?"));
    let before = first_turn(&s, 0);
    assert!(
        before.contains("Skills: procedures that worked before"),
        "{before}"
    );
    assert!(before.contains("disk-space"), "{before}");
    assert!(!before.contains("tidy-downloads"), "{before}");

    // Pasted in from elsewhere between tasks, with a script beside it.
    let folder = folder_of(&home);
    write(
        &folder.join("SKILL.md"),
        "---\nname: tidy-downloads\ndescription: Tidy the Downloads folder by moving old files away.\n---\n# Tidy downloads\n\nRun `scripts/tidy.sh`.\n",
    );
    write(
        &folder.join("scripts/tidy.sh"),
        &format!("touch {}\n", tidied(&home).display()),
    );

    // Untrusted: listed by name only, its text wrapped, and the task marked, so its
    // script (a change) asks; nobody answers: not run.
    let first = finished_task(&run_none(&s, "tidy my downloads"));
    let shown = first_turn(&s, 1);
    assert!(
        shown.contains("tidy-downloads (from a folder the person did not write"),
        "{shown}"
    );
    assert!(
        !shown.contains("moving old files away"),
        "an untrusted skill's description is its author's text: {shown}"
    );
    let read = tool_results(&s);
    assert!(
        read.first()
            .is_some_and(|r| r.contains("untrusted_data") && r.contains("scripts/tidy.sh")),
        "{read:?}"
    );
    assert!(!tidied(&home).exists(), "the script did not run: {first}");

    // Trusted now: its description is shown; the script still goes through the gate as
    // any command does (nobody to answer: not run).
    assert!(s
        .zeta(&["skills", "trust", "tidy-downloads"])
        .status
        .success());
    run_none(&s, "tidy my downloads");
    let shown = first_turn(&s, 4);
    assert!(
        shown.contains("tidy-downloads: Tidy the Downloads folder"),
        "{shown}"
    );
    let decisions = shell_decisions(&s);
    assert_eq!(
        decisions.first(),
        decisions.get(1),
        "the same gate, trusted or not: {decisions:?}"
    );
    assert!(!tidied(&home).exists());

    // With the person's yes it runs.
    done_task(&s.zeta_run("tidy my downloads"));
    assert!(tidied(&home).exists(), "{:?}", shell_decisions(&s));

    // Each read is on the skill's record.
    let list = skills_json(&s);
    let record = skill(&list, "tidy-downloads");
    assert_eq!(record["used"], 3, "{record}");
    assert!(record["succeeded"].as_u64() >= Some(1), "{record}");
    assert_eq!(record["trusted"], true);
    s.assert_invariants();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_model_is_shown_zetas_skill_nearest_its_request_by_default() {
    let Some(model) = zeta_test_support::skills::model("a small model and skills") else {
        return;
    };
    let s = Setup::small(
        script(
            &[
                answer("You have 2 processor cores."),
                answer("You have 2 processor cores."),
            ],
            Proto::Json,
        ),
        json!({}),
    )
    .await;
    let ask = |offer: &str| {
        s.small_command(&[
            "run",
            "--json",
            "--approve",
            "none",
            "how many processor cores do I have?",
        ])
        .env("ZETA_SKILLS_MODEL", &model)
        .env("ZETA_SKILLS_SMALL", offer)
        .output()
        .expect("zeta run")
    };
    // Offered the person's skills only, it gets none here (the home has none).
    done_task(&ask("yours"));
    assert!(
        !first_turn(&s, 0).contains("nproc"),
        "{}",
        first_turn(&s, 0)
    );
    // By default Zeta's own are offered too: the one nearest in meaning, well ahead of
    // the next.
    done_task(&ask(""));
    let first = first_turn(&s, 1);
    assert!(first.contains("nproc"), "{first}");
    assert!(
        first.contains("They are examples, not the answer"),
        "{first}"
    );
    let list = skills_json(&s);
    assert_eq!(skill(&list, "cpu-cores")["used"], 1, "{list}");
    // The descriptions' vectors are kept in the home for the next run.
    let kept = std::fs::read_to_string(s.home.path().join("skill-vectors.json"))
        .expect("the skills' vectors are kept");
    assert!(kept.contains("\"vectors\""), "{kept}");
    // Keeper and server end with the home (keepWarmSecs 0).
    s.stop_small();
}

/// `zeta skills match REQUEST`: what a small model would be shown for a request, and how
/// near each skill is; without the choosing model, a clear error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_match_says_which_skill_a_small_model_would_be_shown_and_why() {
    let Some(model) = zeta_test_support::skills::model("zeta skills match") else {
        return;
    };
    let s = Setup::new(Wire::OpenAi, Proto::Native, vec![]).await;
    let matched = |request: &str, offer: &str| {
        let out = s
            .command(&["skills", "match", request])
            .env("ZETA_SKILLS_MODEL", &model)
            .env("ZETA_SKILLS_SMALL", offer)
            .output()
            .expect("zeta skills match");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let cores = matched("how many processor cores do I have?", "");
    let first = cores.lines().next().unwrap_or_default();
    assert!(
        first.contains("cpu-cores") && first.contains("(shown)"),
        "{cores}"
    );
    assert_eq!(cores.lines().count(), 5, "the five nearest: {cores}");
    // Two about as near: neither is shown, and it says so.
    let room = matched("How much room is left on my drive?", "");
    assert!(!room.contains("(shown)"), "{room}");
    assert!(room.contains("none is near enough"), "{room}");
    // The descriptions' vectors are kept for the next run.
    assert!(s.home.path().join("skill-vectors.json").is_file());
    // Offered only the person's skills (none here): nothing to match.
    let yours = matched("how many processor cores do I have?", "yours");
    assert!(
        yours.contains("no skill a small model may be offered"),
        "{yours}"
    );
    // Without the model: a clear error, not a panic.
    let out = s
        .command(&["skills", "match", "how many cores"])
        .env("ZETA_SKILLS_MODEL", "/nonexistent")
        .env("HOME", s.home.path())
        .output()
        .expect("zeta skills match");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("scripts/skills-model.sh"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
