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
use ts_rs::TS;

use crate::db::SharedDb;
use crate::error::CoreError;
use crate::queue::now_ms;

/// One audited call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AuditEntry {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "number")]
    pub task_id: i64,
    pub call_id: String,
    pub tool: String,
    /// The call's arguments as JSON text.
    pub arguments: String,
    /// allowed, asked-approved, asked-denied, denied, blocked or invalid.
    pub decision: String,
    /// policy, user, timeout, blocklist or validator.
    pub decided_by: String,
    pub ok: bool,
    pub summary: String,
    #[ts(type = "number")]
    pub created_at: i64,
    /// running (the call has not ended yet), finished, or interrupted (a stop cut it
    /// short: it may have partly run).
    pub state: String,
}

/// What was decided about a call: the audit's `decision` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallDecision {
    /// The policy let it run.
    Allowed,
    /// It was a step of a plan the user approved.
    PlanApproved,
    /// The user was asked and said yes.
    AskedApproved,
    /// An allowance the user gave ("Allow for this task", "Always allow") covered it.
    UserAllowed,
    /// The user was asked and said no (or nobody answered).
    AskedDenied,
    /// The permission settings refuse it.
    Denied,
    /// It never runs (`policy::shell`).
    Blocked,
    /// No such tool, or arguments that do not fit its schema.
    Invalid,
    RateLimited,
}

impl CallDecision {
    const ALL: [CallDecision; 9] = [
        CallDecision::Allowed,
        CallDecision::PlanApproved,
        CallDecision::AskedApproved,
        CallDecision::UserAllowed,
        CallDecision::AskedDenied,
        CallDecision::Denied,
        CallDecision::Blocked,
        CallDecision::Invalid,
        CallDecision::RateLimited,
    ];

    /// The text stored in the database and shown in the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            CallDecision::Allowed => "allowed",
            CallDecision::PlanApproved => "plan-approved",
            CallDecision::AskedApproved => "asked-approved",
            CallDecision::UserAllowed => "user-allowed",
            CallDecision::AskedDenied => "asked-denied",
            CallDecision::Denied => "denied",
            CallDecision::Blocked => "blocked",
            CallDecision::Invalid => "invalid",
            CallDecision::RateLimited => "rate-limited",
        }
    }

    /// The decision a stored text stands for.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str() == text)
    }

    /// The call was refused: by the user, the settings, the blocklist or a rate limit.
    pub fn refused(self) -> bool {
        matches!(
            self,
            CallDecision::AskedDenied
                | CallDecision::Denied
                | CallDecision::Blocked
                | CallDecision::RateLimited
        )
    }

    /// The stored texts of the decisions `pick` selects, as an SQL list: `'a', 'b'`.
    pub fn sql_list(pick: impl Fn(CallDecision) -> bool) -> String {
        let texts: Vec<String> = Self::ALL
            .into_iter()
            .filter(|d| pick(*d))
            .map(|d| format!("'{}'", d.as_str()))
            .collect();
        texts.join(", ")
    }

    /// The call was cleared to run.
    pub fn lets_run(self) -> bool {
        matches!(
            self,
            CallDecision::Allowed
                | CallDecision::PlanApproved
                | CallDecision::AskedApproved
                | CallDecision::UserAllowed
        )
    }
}

/// Who decided: the audit's `decided_by` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    /// The permission policy (mode and per-tool settings).
    Policy,
    User,
    /// Nobody answered in time.
    Timeout,
    /// The task was cancelled while asking.
    Cancel,
    /// Nobody could be asked (the approval channel closed).
    Nobody,
    Blocklist,
    Validator,
    RateLimit,
}

impl Decider {
    /// The text stored in the database and shown in the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            Decider::Policy => "policy",
            Decider::User => "user",
            Decider::Timeout => "timeout",
            Decider::Cancel => "cancel",
            Decider::Nobody => "nobody",
            Decider::Blocklist => "blocklist",
            Decider::Validator => "validator",
            Decider::RateLimit => "rate-limit",
        }
    }
}

/// How a call that started ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallState {
    Finished,
    /// Cut short by a cancel or a stop: it may have partly run.
    Interrupted,
}

impl CallState {
    pub fn as_str(self) -> &'static str {
        match self {
            CallState::Finished => "finished",
            CallState::Interrupted => "interrupted",
        }
    }
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
        self.with_conn(|conn| crate::queue::mark_untrusted(conn, task_id))
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
                "rate-limited"
            ]
        );
    }
}
