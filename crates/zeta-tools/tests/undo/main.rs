//! Undo against a corpus (corpus.rs: over 200 commands and Python programs that change
//! files in every way: in place, across folders, through links, permissions, archives
//! extracted over files, git, make, patch): each runs through the real `shell` tool,
//! watched, in a fresh copy of the fixture; undo must give back the tree byte for byte
//! (content, modes, links); every third is redone (the tree as the command left it) and
//! undone again.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod corpus;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use zeta_core::tool::{Tool, ToolContext};
use zeta_core::undo::journal::{SetKind, SetState};
use zeta_core::undo::{redo_task, undo_task, SetKeeper, UndoStore};
use zeta_test_support::tree::{differences, snapshot};

/// Makes every folder writable again so the temporary tree can be removed.
fn unlock(root: &Path) {
    for entry in walkdir::WalkDir::new(root).into_iter().flatten() {
        if entry.file_type().is_dir() {
            let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o755));
        }
    }
}

async fn run_watched(store: &UndoStore, task: i64, home: &Path, command: &str) -> (bool, String) {
    let keeper = Arc::new(SetKeeper::new(store, task, SetKind::Task, None, None).expect("keeper"));
    let mut ctx = ToolContext::detached(home.to_path_buf());
    ctx.keeper = Some(keeper.clone());
    let output = zeta_tools::shell::Shell
        .run(json!({ "command": command }), &ctx)
        .await;
    keeper.close(SetState::Closed);
    let trouble = keeper.trouble();
    (
        trouble.is_empty(),
        format!("{}{}", output.content, trouble.join("; ")),
    )
}

#[tokio::test]
async fn every_command_of_the_corpus_is_undone_byte_for_byte() {
    let work = tempfile::tempdir().expect("tempdir");
    let template = work.path().join("template");
    std::fs::create_dir_all(&template).expect("template dir");
    let made = std::process::Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/undo/fixture.sh"))
        .current_dir(&template)
        .status()
        .expect("fixture script");
    assert!(made.success(), "the fixture could not be made");
    let zeta = work.path().join("zeta");
    std::fs::create_dir_all(&zeta).expect("zeta home");
    let store = UndoStore {
        database: zeta.join("zeta.db"),
        originals: zeta.join("originals"),
    };

    let entries = corpus::entries();
    assert!(
        entries.len() >= 200,
        "the corpus has {} commands",
        entries.len()
    );
    let mut failures = Vec::new();
    let mut per_family: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for (i, entry) in entries.iter().enumerate() {
        let task = i as i64 + 1;
        let home = work.path().join(format!("t{task}"));
        let copied = std::process::Command::new("cp")
            .args(["-a"])
            .arg(&template)
            .arg(&home)
            .status()
            .expect("cp");
        assert!(copied.success());
        let before = snapshot(&home);
        let (kept_all, output) = run_watched(&store, task, &home, &entry.command).await;
        let after = snapshot(&home);
        let tally = per_family.entry(entry.family).or_default();
        tally.0 += 1;
        let mut fail = |why: String| {
            failures.push(format!(
                "[{}] {}: {why}\n    output: {}",
                entry.family,
                entry.command,
                output.trim()
            ))
        };
        if !kept_all {
            fail("something could not be kept".into());
        }
        if before == after && !entry.may_be_unchanged {
            fail("the command changed nothing (a broken corpus entry)".into());
            continue;
        }
        match undo_task(&store, task, false) {
            Ok(report) if report.left.is_empty() => {}
            Ok(report) => fail(format!("undo left paths: {:?}", report.left)),
            Err(e) => {
                if !(entry.may_be_unchanged && before == after) {
                    fail(format!("undo failed: {e}"));
                }
            }
        }
        let undone = snapshot(&home);
        let diff = differences(&before, &undone);
        if !diff.is_empty() {
            fail(format!(
                "after undo the tree differs:\n      {}",
                diff.join("\n      ")
            ));
            continue;
        }
        if i % 3 == 0 && before != after {
            if let Err(e) = redo_task(&store, task, false) {
                fail(format!("redo failed: {e}"));
                continue;
            }
            let redone = differences(&after, &snapshot(&home));
            if !redone.is_empty() {
                fail(format!(
                    "after redo the tree differs from the command's:\n      {}",
                    redone.join("\n      ")
                ));
                continue;
            }
            match undo_task(&store, task, false) {
                Ok(_) => {
                    let again = differences(&before, &snapshot(&home));
                    if !again.is_empty() {
                        fail(format!(
                            "the second undo differs:\n      {}",
                            again.join("\n      ")
                        ));
                        continue;
                    }
                }
                Err(e) => {
                    fail(format!("the second undo failed: {e}"));
                    continue;
                }
            }
        }
        per_family.entry(entry.family).or_default().1 += 1;
        unlock(&home);
    }
    for (family, (ran, undone)) in &per_family {
        println!("{family:<12} {undone}/{ran} undone byte for byte");
    }
    println!(
        "{} of {} commands undone byte for byte",
        entries.len() - failures.len(),
        entries.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
