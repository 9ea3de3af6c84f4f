//! What a restart does with a task that was running when Zeta stopped (a crash, SIGKILL,
//! a power cut, or a signal Zeta handled), so that nothing runs twice blindly and nothing
//! crash-loops:
//!
//! - the audit row of a call that was running (every call has one before it starts) is
//!   marked `interrupted`: that call may have partly run;
//! - the task goes back to `pending`, marked `interrupted` with what was running. Its next
//!   start tells the model what ran before, and the loop asks a person before it repeats a
//!   side-effecting call of an earlier attempt;
//! - a task already started [`MAX_ATTEMPTS`] times fails with the reason instead of
//!   running again, so a call that kills Zeta cannot make it loop.

use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};

use crate::store::queue::now_ms;

/// Starts per task at most: the first run and two resumptions.
pub const MAX_ATTEMPTS: u32 = 3;

/// A task that was running when Zeta stopped, as recovery left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    pub id: i64,
    /// Failed for good (too many starts) rather than pending again.
    pub failed: bool,
    /// What was running, as the task's `interrupted` says it.
    pub interrupted: String,
}

/// Settles every `running` task a dead worker left. Call only under the worker lock.
pub(crate) fn recover(conn: &mut Connection) -> rusqlite::Result<Vec<Recovered>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let running: Vec<(i64, u32)> = {
        let mut stmt = tx.prepare("SELECT id, attempts FROM tasks WHERE status = 'running'")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    let mut recovered = Vec::new();
    for (id, attempts) in running {
        let call = settle_running_calls(
            &tx,
            id,
            "interrupted: Zeta stopped (it crashed or was killed) while this call ran; it may have partly run",
        )?;
        recovered.push(settle_task(&tx, id, attempts, call)?);
    }
    tx.commit()?;
    Ok(recovered)
}

/// A running task this worker stopped on a signal: the call the stop cut short was
/// already recorded as `interrupted` by the loop; the task is settled as after a crash.
pub(crate) fn interrupt(conn: &mut Connection, id: i64) -> rusqlite::Result<Recovered> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let attempts: u32 = tx.query_row(
        "SELECT attempts FROM tasks WHERE id = ?1 AND status = 'running'",
        [id],
        |r| r.get(0),
    )?;
    let mut call = settle_running_calls(
        &tx,
        id,
        "interrupted: Zeta was stopped while this call ran; it may have partly run",
    )?;
    if call.is_none() {
        // The call the signal cut short, if the stop came during one.
        call = tx
            .query_row(
                "SELECT a.tool, a.arguments FROM audit a JOIN tasks t ON t.id = a.task_id
                 WHERE a.task_id = ?1 AND a.state = 'interrupted' AND a.created_at >= t.started_at
                 ORDER BY a.id DESC LIMIT 1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
    }
    let recovered = settle_task(&tx, id, attempts, call)?;
    tx.commit()?;
    Ok(recovered)
}

/// Marks the task's calls still `running` as `interrupted`; returns the last one's tool
/// and arguments.
fn settle_running_calls(
    tx: &Transaction<'_>,
    task_id: i64,
    summary: &str,
) -> rusqlite::Result<Option<(String, String)>> {
    let last = tx
        .query_row(
            "SELECT tool, arguments FROM audit WHERE task_id = ?1 AND state = 'running'
             ORDER BY id DESC LIMIT 1",
            [task_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    tx.execute(
        "UPDATE audit SET state = 'interrupted', ok = 0, summary = ?2
         WHERE task_id = ?1 AND state = 'running'",
        params![task_id, summary],
    )?;
    Ok(last)
}

fn settle_task(
    tx: &Transaction<'_>,
    id: i64,
    attempts: u32,
    call: Option<(String, String)>,
) -> rusqlite::Result<Recovered> {
    let interrupted = describe(call.as_ref());
    let failed = attempts >= MAX_ATTEMPTS;
    if failed {
        let error = format!(
            "Zeta stopped {attempts} times while running this task (the last time, {interrupted}). \
             It is not started again: check what it did, then retry it if you still want it."
        );
        tx.execute(
            "UPDATE tasks SET status = 'failed', error = ?2, interrupted = ?3, finished_at = ?4
             WHERE id = ?1",
            params![id, error, interrupted, now_ms()],
        )?;
    } else {
        tx.execute(
            "UPDATE tasks SET status = 'pending', started_at = NULL, previous_context = NULL,
             interrupted = ?2 WHERE id = ?1",
            params![id, interrupted],
        )?;
    }
    Ok(Recovered {
        id,
        failed,
        interrupted,
    })
}

/// What was running, in a sentence for the user and the model.
fn describe(call: Option<&(String, String)>) -> String {
    match call {
        Some((tool, arguments)) => {
            let arguments: String = if arguments.chars().count() > 300 {
                let head: String = arguments.chars().take(300).collect();
                format!("{head}…")
            } else {
                arguments.clone()
            };
            format!("while `{tool}` {arguments} was running; that call may have partly run")
        }
        None => "between steps; no call was running".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::audit::{AuditLog, CallState};
    use crate::store::queue::{TaskQueue, TaskStatus};

    fn setup() -> (tempfile::TempDir, TaskQueue, AuditLog) {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("zeta.db");
        let q = TaskQueue::open(&db).expect("open");
        let audit = AuditLog::open(&db).expect("audit");
        (dir, q, audit)
    }

    #[test]
    fn a_task_stopped_between_steps_is_pending_again_and_says_so() {
        let (_d, mut q, _a) = setup();
        q.enqueue("cli", "x").expect("enqueue");
        let t = q.claim_next().expect("claim").expect("task");
        assert_eq!(t.attempts, 1);
        let recovered = q.recover_running().expect("recover");
        assert_eq!(recovered.len(), 1);
        assert!(!recovered[0].failed);
        let t = q.get(t.id).expect("get");
        assert_eq!(t.status, TaskStatus::Pending);
        assert_eq!(t.started_at, None);
        assert!(t
            .interrupted
            .as_deref()
            .unwrap_or("")
            .contains("between steps"));
    }

    #[test]
    fn the_running_call_is_marked_interrupted_and_named() {
        let (_d, mut q, audit) = setup();
        q.enqueue("cli", "x").expect("enqueue");
        let t = q.claim_next().expect("claim").expect("task");
        let args = serde_json::json!({"command": "echo hi >> f"});
        let row = audit
            .begin(
                t.id,
                "c1",
                "shell",
                &args,
                crate::store::audit::CallDecision::Allowed,
                crate::store::audit::Decider::Policy,
            )
            .expect("begin");
        assert_eq!(audit.for_task(t.id).expect("read")[0].state, "running");
        q.recover_running().expect("recover");
        let entries = audit.for_task(t.id).expect("read");
        assert_eq!(entries[0].state, "interrupted");
        assert!(!entries[0].ok);
        let t = q.get(t.id).expect("get");
        let note = t.interrupted.expect("marked");
        assert!(
            note.contains("`shell`") && note.contains("echo hi >> f"),
            "{note}"
        );
        // A later completion (the row is settled) does not undo the mark.
        audit
            .complete(row, CallState::Finished, true, "exit 0")
            .expect("complete");
        assert_eq!(audit.for_task(t.id).expect("read")[0].state, "interrupted");
    }

    #[test]
    fn a_task_started_too_often_fails_with_the_reason() {
        let (_d, mut q, _a) = setup();
        q.enqueue("cli", "x").expect("enqueue");
        for attempt in 1..=MAX_ATTEMPTS {
            let t = q.claim_next().expect("claim").expect("task");
            assert_eq!(t.attempts, attempt);
            let r = q.recover_running().expect("recover");
            assert_eq!(r[0].failed, attempt == MAX_ATTEMPTS, "attempt {attempt}");
        }
        let t = q.recent(1).expect("recent").remove(0);
        assert_eq!(t.status, TaskStatus::Failed);
        let error = t.error.expect("error");
        assert!(error.contains("stopped 3 times"), "{error}");
        assert!(q.claim_next().expect("claim").is_none());
    }

    #[test]
    fn a_signal_stop_resumes_later_with_the_cut_call_named() {
        let (_d, mut q, audit) = setup();
        q.enqueue("cli", "x").expect("enqueue");
        let t = q.claim_next().expect("claim").expect("task");
        let row = audit
            .begin(
                t.id,
                "c1",
                "shell",
                &serde_json::json!({"command": "sleep 9"}),
                crate::store::audit::CallDecision::Allowed,
                crate::store::audit::Decider::Policy,
            )
            .expect("begin");
        audit
            .complete(row, CallState::Interrupted, false, "cancelled")
            .expect("complete");
        let t = q.interrupt(t.id).expect("interrupt");
        assert_eq!(t.status, TaskStatus::Pending);
        assert!(t.interrupted.as_deref().unwrap_or("").contains("sleep 9"));
        let again = q.claim_next().expect("claim").expect("resumed");
        assert_eq!(again.attempts, 2);
    }
}
