//! The audit log: one row per tool call with its arguments, the decision (allowed,
//! asked-approved, asked-denied, denied, blocked, invalid), who decided, and the result
//! summary. Written by the agent loop, read by `zeta audit`.
//!
//! A call that runs has its row before it starts (`begin`, state `running`), completed
//! after (`complete`: `finished`, or `interrupted` when a stop cut it short). A row still
//! `running` after a crash is settled by `recovery`, so whatever happens to the process,
//! the call is on record.

use std::path::Path;

use rusqlite::{params, Connection};
use serde::{Deserialize, Serialize};

pub use zeta_protocol::decision::{CallDecision, CallState, Decider};

use crate::error::CoreError;
use crate::store::db::SharedDb;
use crate::store::queue::now_ms;

/// One judgement a finishing check made of a task's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerCheck {
    pub id: i64,
    pub task_id: i64,
    /// The check's name (`asked-target`, `ungrounded-value`, …).
    pub check: String,
    /// `sent back` or `told`.
    pub result: String,
    pub detail: String,
}

/// One audited call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    pub task_id: i64,
    pub call_id: String,
    pub tool: String,
    /// The call's arguments as JSON text.
    pub arguments: String,
    /// allowed, plan-approved, asked-approved, user-allowed, asked-denied, denied,
    /// blocked, invalid, rate-limited or user-skipped (`CallDecision`).
    pub decision: String,
    /// policy, user, timeout, blocklist or validator.
    pub decided_by: String,
    pub ok: bool,
    pub summary: String,
    pub created_at: i64,
    /// running (the call has not ended yet), finished, or interrupted (a stop cut it
    /// short: it may have partly run).
    pub state: String,
}

/// A handle for writing entries; cheap to clone, shared by the tasks of one worker.
#[derive(Clone)]
pub struct AuditLog {
    db: SharedDb,
}

impl AuditLog {
    /// Opens the queue database (its schema includes the audit table).
    pub fn open(db: &Path) -> Result<Self, CoreError> {
        Ok(Self {
            db: SharedDb::open(db)?,
        })
    }

    /// Runs `f` on the connection, naming the database in any error.
    pub(crate) fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, rusqlite::Error>,
    ) -> Result<T, CoreError> {
        self.db.with(f)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &self,
        task_id: i64,
        call_id: &str,
        tool: &str,
        arguments: &serde_json::Value,
        decision: CallDecision,
        decided_by: Decider,
        ok: bool,
        summary: &str,
    ) -> Result<(), CoreError> {
        let row = self.begin(task_id, call_id, tool, arguments, decision, decided_by)?;
        self.complete(row, CallState::Finished, ok, summary)
    }

    /// Writes the row of a call about to run (state `running`) and returns its id, for
    /// `complete`.
    pub fn begin(
        &self,
        task_id: i64,
        call_id: &str,
        tool: &str,
        arguments: &serde_json::Value,
        decision: CallDecision,
        decided_by: Decider,
    ) -> Result<i64, CoreError> {
        self.with_conn(|conn| {
            conn.query_row(
                "INSERT INTO audit (task_id, call_id, tool, arguments, decision, decided_by, ok, summary, created_at, state)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 'running', ?7, 'running') RETURNING id",
                params![task_id, call_id, tool, arguments.to_string(), decision.as_str(), decided_by.as_str(), now_ms()],
                |r| r.get(0),
            )
        })
    }

    /// Completes a row `begin` wrote. A row recovery already settled stays as it is.
    pub fn complete(
        &self,
        row: i64,
        state: CallState,
        ok: bool,
        summary: &str,
    ) -> Result<(), CoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE audit SET state = ?2, ok = ?3, summary = ?4 WHERE id = ?1 AND state = 'running'",
                params![row, state.as_str(), ok, summary],
            )
            .map(|_| ())
        })
    }

    /// Marks the task as having read input the user did not type (it then feeds later
    /// tasks as untrusted data).
    pub fn mark_task_untrusted(&self, task_id: i64) -> Result<(), CoreError> {
        self.with_conn(|conn| crate::store::queue::mark_untrusted(conn, task_id))
    }

    /// The newest `limit` entries, oldest first.
    pub fn recent(&self, limit: u32) -> Result<Vec<AuditEntry>, CoreError> {
        self.query(
            "SELECT * FROM (SELECT id, task_id, call_id, tool, arguments, decision, decided_by, ok, summary, created_at, state
             FROM audit ORDER BY id DESC LIMIT ?1) ORDER BY id",
            i64::from(limit),
        )
    }

    /// Every call of one task, in order (the task's transcript of actions).
    pub fn for_task(&self, task_id: i64) -> Result<Vec<AuditEntry>, CoreError> {
        self.query(
            "SELECT id, task_id, call_id, tool, arguments, decision, decided_by, ok, summary, created_at, state
             FROM audit WHERE task_id = ?1 ORDER BY id",
            task_id,
        )
    }

    /// Records that the finishing check `check` judged task `task_id`'s answer.
    pub fn record_check(
        &self,
        task_id: i64,
        check: &str,
        result: zeta_protocol::CheckResult,
        detail: &str,
    ) -> Result<(), CoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO answer_checks (task_id, check_name, result, detail, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![task_id, check, result.as_str(), detail, now_ms()],
            )
            .map(|_| ())
        })
    }

    /// The newest `limit` judgements of the finishing checks, oldest first.
    pub fn recent_checks(&self, limit: u32) -> Result<Vec<AnswerCheck>, CoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, task_id, check_name, result, detail FROM
                 (SELECT * FROM answer_checks ORDER BY id DESC LIMIT ?1) ORDER BY id",
            )?;
            let rows = stmt.query_map([limit], |r| {
                Ok(AnswerCheck {
                    id: r.get(0)?,
                    task_id: r.get(1)?,
                    check: r.get(2)?,
                    result: r.get(3)?,
                    detail: r.get(4)?,
                })
            })?;
            rows.collect()
        })
    }

    fn query(&self, sql: &str, param: i64) -> Result<Vec<AuditEntry>, CoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(sql)?;
            let rows = stmt.query_map([param], |r| {
                Ok(AuditEntry {
                    id: r.get(0)?,
                    task_id: r.get(1)?,
                    call_id: r.get(2)?,
                    tool: r.get(3)?,
                    arguments: r.get(4)?,
                    decision: r.get(5)?,
                    decided_by: r.get(6)?,
                    ok: r.get(7)?,
                    summary: r.get(8)?,
                    created_at: r.get(9)?,
                    state: r.get(10)?,
                })
            })?;
            rows.collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_checks_are_written_and_the_newest_read_back_in_order() {
        let dir = tempfile::tempdir().expect("dir");
        let log = AuditLog::open(&dir.path().join("zeta.db")).expect("open");
        for (task, check) in [(1, "nothing-ran"), (2, "asked-target"), (2, "asked-target")] {
            log.record_check(task, check, zeta_protocol::CheckResult::SentBack, "d")
                .expect("write");
        }
        log.record_check(
            2,
            "asked-target",
            zeta_protocol::CheckResult::Told,
            "Not done",
        )
        .expect("write");
        let newest = log.recent_checks(2).expect("read");
        assert_eq!(newest.len(), 2);
        assert_eq!(
            (newest[0].task_id, newest[0].result.as_str()),
            (2, "sent back")
        );
        assert_eq!(
            (newest[1].check.as_str(), newest[1].result.as_str()),
            ("asked-target", "told")
        );
    }

    #[test]
    fn entries_are_written_and_read_back_in_order() {
        let dir = tempfile::tempdir().expect("dir");
        let log = AuditLog::open(&dir.path().join("zeta.db")).expect("open");
        log.record(
            1,
            "c1",
            "shell",
            &serde_json::json!({"command": "ls"}),
            CallDecision::Allowed,
            Decider::Policy,
            true,
            "exit 0",
        )
        .expect("write");
        log.record(
            1,
            "c2",
            "shell",
            &serde_json::json!({"command": "rm -rf /"}),
            CallDecision::Blocked,
            Decider::Blocklist,
            false,
            "blocked: wipe",
        )
        .expect("write");
        let entries = log.recent(10).expect("read");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].decision, "blocked");
        assert_eq!(entries[1].arguments, r#"{"command":"rm -rf /"}"#);
        assert!(!entries[1].ok);
    }

    #[test]
    fn decisions_keep_their_stored_text() {
        for d in CallDecision::ALL {
            assert_eq!(CallDecision::parse(d.as_str()), Some(d));
        }
        assert_eq!(CallDecision::parse("maybe"), None);
        let stored: Vec<&str> = CallDecision::ALL.iter().map(|d| d.as_str()).collect();
        assert_eq!(
            stored,
            [
                "allowed",
                "plan-approved",
                "asked-approved",
                "user-allowed",
                "asked-denied",
                "denied",
                "blocked",
                "invalid",
                "rate-limited",
                "user-skipped"
            ]
        );
    }
}
