//! `zeta undo TASK`, `zeta redo TASK` and `zeta show TASK --changes`: a task's file
//! changes taken back, brought back, and shown (zeta-core's `undo`).

use std::process::ExitCode;

use zeta_core::undo::{redo_task, undo_task, UndoStore};
use zeta_core::{TaskQueue, TaskStatus, ZetaHome};
use zeta_protocol::changes::ChangeKind;

/// A task that is still to run or running cannot be undone yet. One marked running
/// while no worker holds the lock was cut short (Zeta was stopped, or crashed): what it
/// changed until then is in its set, and can be undone.
fn settled(home: &ZetaHome, task: i64) -> anyhow::Result<()> {
    let queue = TaskQueue::open(&home.database_file())?;
    let task = queue.get(task)?;
    let cut_short = task.status == TaskStatus::Running
        && zeta_core::lock::WorkerLock::try_acquire(home).is_ok();
    if cut_short {
        out!(
            "task {} was cut short (Zeta stopped while it ran): what it changed until then is taken back",
            task.id
        );
    } else if matches!(task.status, TaskStatus::Pending | TaskStatus::Running) {
        anyhow::bail!(
            "task {} has not finished yet: undo it once it has ended (or cancel it first)",
            task.id
        );
    }
    Ok(())
}

/// Takes back task `task`'s changes (`redo`: takes back its last undo).
pub fn undo(home: &ZetaHome, task: i64, dry_run: bool, redo: bool) -> anyhow::Result<ExitCode> {
    settled(home, task)?;
    let store = UndoStore::in_home(home);
    let report = if redo {
        redo_task(&store, task, dry_run)?
    } else {
        undo_task(&store, task, dry_run)?
    };
    let lines = report.lines();
    if lines.is_empty() {
        out!("task {task}: nothing to take back: the files are already as they were");
    }
    for line in lines {
        out!("{line}");
    }
    if !report.left.is_empty() {
        out!(
            "{} path(s) were left as they are now; `zeta show {task} --changes` shows what the task did to them",
            report.left.len()
        );
        return Ok(ExitCode::from(3));
    }
    if !dry_run {
        let again = if redo { "zeta undo" } else { "zeta redo" };
        out!("done; `{again} {task}` takes this back");
    }
    Ok(ExitCode::SUCCESS)
}

/// `zeta show TASK [--changes] [--json]`.
pub fn show(
    home: &ZetaHome,
    task: i64,
    with_changes: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let queue = TaskQueue::open(&home.database_file())?;
    let shown = queue.get(task)?;
    let changes = if with_changes {
        Some(zeta_core::undo::view::for_task(
            &UndoStore::in_home(home),
            task,
        )?)
    } else {
        None
    };
    if json {
        let value = serde_json::json!({ "task": shown, "changes": changes });
        out!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(ExitCode::SUCCESS);
    }
    out!("task {} ({:?}): {}", shown.id, shown.status, shown.message);
    if let Some(reply) = shown.reply.as_deref().filter(|r| !r.is_empty()) {
        out!("reply: {reply}");
    }
    if let Some(error) = shown.error.as_deref() {
        out!("error: {error}");
    }
    let Some(changes) = changes else {
        return Ok(ExitCode::SUCCESS);
    };
    if changes.files.is_empty() {
        out!("changed no files");
    } else {
        out!("changed {} file(s):", changes.files.len());
    }
    for file in &changes.files {
        let what = match file.kind {
            ChangeKind::Created => "created",
            ChangeKind::Changed => "changed",
            ChangeKind::Deleted => "deleted",
            ChangeKind::Moved => "moved",
            ChangeKind::Permissions => "permissions",
        };
        let from = file
            .from
            .as_deref()
            .map(|f| format!(" (from {f})"))
            .unwrap_or_default();
        let note = file
            .note
            .as_deref()
            .map(|n| format!("  [{n}]"))
            .unwrap_or_default();
        out!("  {what:<11} {}{from}{note}", file.path);
        if let Some(diff) = &file.diff {
            for line in diff.lines() {
                out!("      {line}");
            }
        }
    }
    if !changes.not_undoable.is_empty() {
        out!("not undoable (effects outside files):");
        for what in &changes.not_undoable {
            out!("  {what}");
        }
    }
    match (changes.can_undo, changes.can_redo) {
        (true, _) => out!("`zeta undo {task}` takes the file changes back"),
        (false, true) => out!("undone; `zeta redo {task}` brings the changes back"),
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}
