//! Per-task metrics (seed 001): model requests and failures, tool calls and failures,
//! denials, compactions, and tokens in and out. The loop counts them, emits them with
//! `Event::TaskMetrics` when the task ends, and stores them beside the audit log.

use rusqlite::params;
pub use zeta_protocol::metrics::TaskMetrics;

use crate::error::CoreError;
use crate::store::audit::AuditLog;

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
    use crate::store::audit::CallDecision;

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
