//! What a task changed, path by path, in the words of `zeta_protocol::changes`: created,
//! changed (a text file's unified diff against what the store kept), deleted, moved,
//! permissions; paths the task made and took away again are not shown.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use zeta_protocol::changes::{ChangeKind, FileChange, TaskChanges};

use super::journal::{Change, Journal, PathState, SetKind, SetState};
use super::keep::UndoStore;
use super::originals::Originals;
use crate::error::CoreError;

/// Largest text shown as a diff, on either side.
pub(super) const DIFF_LIMIT: u64 = 512 * 1024;

/// The tools whose effects are not files on this computer: what they did stays done.
const OUTSIDE_FILES: &[&str] = &[
    "open_url",
    "open_app",
    "ui_act",
    "mouse",
    "keyboard",
    "schedule_task",
    "memory_save",
    "update_settings",
];

/// Whether a call of `tool` with `arguments` (JSON text) did something outside files: a
/// request that can change things, an app or a window acted on, a job scheduled, an MCP
/// server's tool (it runs elsewhere).
fn effect_outside_files(tool: &str, arguments: &str) -> bool {
    if tool == "http_request" {
        let method = serde_json::from_str::<serde_json::Value>(arguments)
            .ok()
            .and_then(|v| {
                v.get("method")
                    .and_then(|m| m.as_str())
                    .map(str::to_uppercase)
            })
            .unwrap_or_else(|| "GET".into());
        return !matches!(method.as_str(), "GET" | "HEAD" | "OPTIONS");
    }
    OUTSIDE_FILES.contains(&tool) || tool.contains("__")
}

/// What task `task_id` changed, with its calls read from the audit log in `store`'s
/// database (those that ran, as decided).
pub fn for_task(store: &UndoStore, task_id: i64) -> Result<TaskChanges, CoreError> {
    let calls: Vec<(String, String)> = crate::store::audit::AuditLog::open(&store.database)?
        .for_task(task_id)?
        .into_iter()
        .filter(|e| e.ok && e.state != "running")
        .filter(|e| zeta_protocol::CallDecision::parse(&e.decision).is_some_and(|d| d.lets_run()))
        .map(|e| (e.tool, e.arguments))
        .collect();
    task_changes(store, task_id, &calls)
}

/// What task `task_id` changed; `calls` are its calls that ran (tool, arguments as JSON
/// text), to name what no undo takes back.
pub fn task_changes(
    store: &UndoStore,
    task_id: i64,
    calls: &[(String, String)],
) -> Result<TaskChanges, CoreError> {
    let journal = Journal::open(&store.database)?;
    let originals = store.open_originals()?;
    let sets = journal.sets_of_task(task_id)?;
    let task_set = sets.iter().rev().find(|s| s.kind == SetKind::Task);
    let mut files = Vec::new();
    if let Some(set) = task_set {
        files = files_of(&journal, &originals, set.id)?;
    }
    let can_undo = task_set.is_some_and(|s| {
        !matches!(s.state, SetState::Undone | SetState::Expired) && !files.is_empty()
    });
    let can_redo = sets
        .iter()
        .any(|s| s.kind == SetKind::Undo && s.state == SetState::Closed);
    let not_undoable = calls
        .iter()
        .filter(|(tool, arguments)| effect_outside_files(tool, arguments))
        .map(|(tool, arguments)| {
            let call = format!("{tool} {}", crate::text::one_line(arguments, 120));
            if tool.contains("__") {
                // An MCP server's: its file changes here are kept when it runs locally.
                format!("{call} (what it changed in files here is undone; what else it did is not)")
            } else {
                call
            }
        })
        .collect();
    Ok(TaskChanges {
        task_id,
        files,
        can_undo,
        can_redo,
        not_undoable,
    })
}

fn files_of(
    journal: &Journal,
    originals: &Originals,
    set: i64,
) -> Result<Vec<FileChange>, CoreError> {
    let after: BTreeMap<PathBuf, PathState> = journal.after(set)?.into_iter().collect();
    let present = |p: &Path| {
        after.get(p).map_or_else(
            || PathState::now(p) != PathState::Absent,
            |s| *s != PathState::Absent,
        )
    };
    // The first change per path says whether it existed before the task; renames say
    // where what is now at a path came from.
    let mut first: BTreeMap<PathBuf, Change> = BTreeMap::new();
    let mut kept: BTreeMap<PathBuf, (String, u64)> = BTreeMap::new();
    let mut appended: BTreeMap<PathBuf, u64> = BTreeMap::new();
    let mut came_from: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut moved_away: Vec<PathBuf> = Vec::new();
    for change in journal.changes(set)? {
        match &change {
            Change::Moved { from, to, .. } => {
                let origin = came_from.remove(from).unwrap_or_else(|| from.clone());
                came_from.insert(to.clone(), origin);
                moved_away.push(from.clone());
            }
            Change::Appended { path, size } => {
                appended.entry(path.clone()).or_insert(*size);
            }
            Change::Kept {
                path,
                object: Some(object),
                size,
                ..
            } => {
                kept.entry(path.clone())
                    .or_insert_with(|| (object.clone(), *size));
            }
            _ => {}
        }
        for path in change.paths() {
            first
                .entry(path.to_path_buf())
                .or_insert_with(|| change.clone());
        }
    }
    let existed_before = |p: &Path| match first.get(p) {
        Some(Change::Created { .. }) | None => false,
        Some(Change::Moved { to, .. }) => to != p,
        Some(_) => true,
    };
    let mut files = Vec::new();
    for (path, change) in &first {
        let here = present(path);
        let origin = came_from
            .get(path)
            .filter(|o| *o != path && existed_before(o) && !present(o));
        let kind = match (existed_before(path), here) {
            (true, true) if matches!(change, Change::Mode { .. }) && !kept.contains_key(path) => {
                ChangeKind::Permissions
            }
            (true, true) => ChangeKind::Changed,
            // Moved away: shown where it went.
            (true, false) if moved_away.contains(path) && came_from.values().any(|o| o == path) => {
                continue
            }
            (true, false) => ChangeKind::Deleted,
            (false, true) if origin.is_some() => ChangeKind::Moved,
            (false, true) => ChangeKind::Created,
            // Made and taken away again by the task.
            (false, false) => continue,
        };
        let (diff, note) = match (kind, kept.get(path)) {
            (ChangeKind::Changed, Some((object, size))) => {
                diff(&originals.path_of(object), path, *size)
            }
            (ChangeKind::Changed, None) if appended.contains_key(path) => {
                appended_diff(path, appended[path])
            }
            (ChangeKind::Deleted, Some((_, size))) => (None, Some(bytes_note(*size))),
            _ => (None, None),
        };
        files.push(FileChange {
            path: path.display().to_string(),
            kind,
            from: origin.map(|f| f.display().to_string()),
            diff,
            note,
        });
    }
    Ok(files)
}

pub(super) fn bytes_note(size: u64) -> String {
    match size {
        s if s < 1024 => format!("{s} bytes"),
        s if s < 1024 * 1024 => format!("{:.1} KiB", s as f64 / 1024.0),
        s => format!("{:.1} MiB", s as f64 / (1024.0 * 1024.0)),
    }
}

/// What was appended to `path` (it held its first `before` bytes), as a diff when it is
/// text of a readable size.
fn appended_diff(path: &Path, before: u64) -> (Option<String>, Option<String>) {
    let now = std::fs::metadata(path).map_or(0, |m| m.len());
    let note = Some(format!(
        "appended {}",
        bytes_note(now.saturating_sub(before))
    ));
    if now > DIFF_LIMIT {
        return (None, note);
    }
    let Ok(bytes) = std::fs::read(path) else {
        return (None, note);
    };
    let cut = (before as usize).min(bytes.len());
    match (
        String::from_utf8(bytes[..cut].to_vec()),
        String::from_utf8(bytes.clone()),
    ) {
        (Ok(old), Ok(new)) if !new.contains('\0') => (Some(unified(&old, &new, path)), None),
        _ => (None, note),
    }
}

/// A unified diff when both sides are text of a readable size; else a note in words.
fn diff(before: &Path, after: &Path, before_size: u64) -> (Option<String>, Option<String>) {
    let after_size = std::fs::metadata(after).map_or(0, |m| m.len());
    let note = Some(format!(
        "{} → {}",
        bytes_note(before_size),
        bytes_note(after_size)
    ));
    if before_size > DIFF_LIMIT || after_size > DIFF_LIMIT {
        return (None, note);
    }
    let (Ok(old), Ok(new)) = (std::fs::read(before), std::fs::read(after)) else {
        return (None, note);
    };
    let (Ok(old), Ok(new)) = (String::from_utf8(old), String::from_utf8(new)) else {
        return (None, note.map(|n| format!("not text, {n}")));
    };
    if old.contains('\0') || new.contains('\0') {
        return (None, note.map(|n| format!("not text, {n}")));
    }
    (Some(unified(&old, &new, after)), None)
}

/// `old` → `new` as a unified diff, headed with `path` before and now.
pub(super) fn unified(old: &str, new: &str, path: &Path) -> String {
    let name = path.display().to_string();
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("{name} (before)"), &format!("{name} (now)"))
        .to_string()
}
