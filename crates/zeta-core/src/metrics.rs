//! Per-task metrics (seed 001): model requests and failures, tool calls and failures,
//! denials, compactions, and tokens in and out. The loop counts them, emits them with
//! `Event::TaskMetrics` when the task ends, and stores them beside the audit log.

use rusqlite::params;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::audit::{AuditLog, CallDecision};
use crate::error::CoreError;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TaskMetrics {
    #[ts(type = "number")]
    pub task_id: i64,
    pub llm_requests: u32,
    pub llm_failures: u32,
    pub tool_calls: u32,
    pub tool_failures: u32,
    /// Calls refused: denied by policy or the user, blocked, or rate-limited.
    pub denials: u32,
    pub compactions: u32,
    #[ts(type = "number")]
    pub tokens_in: u64,
    #[ts(type = "number")]
    pub tokens_out: u64,
}

impl TaskMetrics {
    /// Counts one call by how it was decided and whether it succeeded.
    pub fn count_call(&mut self, decision: CallDecision, ok: bool) {
        self.tool_calls += 1;
        if !ok {
            self.tool_failures += 1;
        }
        if decision.refused() {
            self.denials += 1;
        }
    }
}

impl AuditLog {
    pub fn record_metrics(&self, m: &TaskMetrics) -> Result<(), CoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT OR REPLACE INTO task_metrics (task_id, llm_requests, llm_failures, tool_calls,
                 tool_failures, denials, compactions, tokens_in, tokens_out)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    m.task_id,
                    m.llm_requests,
                    m.llm_failures,
                    m.tool_calls,
                    m.tool_failures,
                    m.denials,
                    m.compactions,
                    m.tokens_in as i64,
                    m.tokens_out as i64
                ],
            )
            .map(|_| ())
        })
    }

    /// The newest tasks' metrics, oldest first.
    pub fn recent_metrics(&self, limit: u32) -> Result<Vec<TaskMetrics>, CoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(
                "SELECT * FROM (SELECT task_id, llm_requests, llm_failures, tool_calls, tool_failures,
                 denials, compactions, tokens_in, tokens_out FROM task_metrics
                 ORDER BY task_id DESC LIMIT ?1) ORDER BY task_id",
            )?;
            let rows = stmt.query_map([limit], |r| {
                Ok(TaskMetrics {
                    task_id: r.get(0)?,
                    llm_requests: r.get(1)?,
                    llm_failures: r.get(2)?,
                    tool_calls: r.get(3)?,
                    tool_failures: r.get(4)?,
                    denials: r.get(5)?,
                    compactions: r.get(6)?,
                    tokens_in: r.get::<_, i64>(7)?.max(0) as u64,
                    tokens_out: r.get::<_, i64>(8)?.max(0) as u64,
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
    fn metrics_are_counted_stored_and_read_back() {
        let dir = tempfile::tempdir().expect("dir");
        let log = AuditLog::open(&dir.path().join("zeta.db")).expect("open");
        let mut m = TaskMetrics {
            task_id: 7,
            llm_requests: 3,
            tokens_in: 1200,
            tokens_out: 80,
            ..TaskMetrics::default()
        };
        m.count_call(CallDecision::Allowed, true);
        m.count_call(CallDecision::Blocked, false);
        m.count_call(CallDecision::RateLimited, false);
        assert_eq!((m.tool_calls, m.tool_failures, m.denials), (3, 2, 2));
        log.record_metrics(&m).expect("record");
        m.llm_requests = 4;
        log.record_metrics(&m).expect("replace");
        assert_eq!(log.recent_metrics(10).expect("read"), vec![m]);
    }
}
