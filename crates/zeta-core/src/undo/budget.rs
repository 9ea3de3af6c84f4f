//! The originals store held to its budget (settings' `undo`: a size and an age): the
//! oldest settled sets are let go first, and a set let go says so (`expired`) instead of
//! pretending it can be undone. Sets still open or being undone are never let go.

use super::journal::{Change, Journal, SetState};
use super::keep::UndoStore;
use crate::error::CoreError;

/// How much the store may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub max_bytes: u64,
    pub max_age_ms: i64,
}

/// What pruning let go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pruned {
    pub sets: Vec<i64>,
    pub tasks: Vec<i64>,
    pub bytes: u64,
}

/// Lets go of the oldest sets until the rest fit `budget` (`now_ms`: the time now).
pub fn prune(store: &UndoStore, budget: Budget, now_ms: i64) -> Result<Pruned, CoreError> {
    let journal = Journal::open(&store.database)?;
    let originals = store.open_originals()?;
    let sets = journal.all_sets()?;
    let mut total: i64 = sets
        .iter()
        .filter(|s| s.state != SetState::Expired)
        .map(|s| s.bytes)
        .sum();
    let mut pruned = Pruned::default();
    for set in &sets {
        if matches!(
            set.state,
            SetState::Expired | SetState::Open | SetState::Undoing
        ) {
            continue;
        }
        let too_old = now_ms - set.created_at > budget.max_age_ms;
        if !too_old && total <= budget.max_bytes as i64 {
            continue;
        }
        journal.set_state(set.id, SetState::Expired)?;
        for change in journal.changes(set.id)? {
            if let Change::Kept {
                object: Some(object),
                ..
            } = change
            {
                if !journal.object_needed(&object, set.id)? {
                    originals.remove(&object);
                }
            }
        }
        total -= set.bytes;
        pruned.sets.push(set.id);
        pruned.tasks.push(set.task_id);
        pruned.bytes += set.bytes.max(0) as u64;
    }
    Ok(pruned)
}

/// The bytes the files at and under `paths` hold, counted until they pass `limit` (a
/// call about to overwrite or remove them would need that much kept). Links are not
/// followed.
pub fn size_up_to(paths: &[std::path::PathBuf], limit: u64) -> u64 {
    let mut total = 0u64;
    let mut stack: Vec<std::path::PathBuf> = paths.to_vec();
    while let Some(path) = stack.pop() {
        if total > limit {
            break;
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&path) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
        } else if meta.is_file() {
            total = total.saturating_add(meta.len());
        }
    }
    total
}
