//! Which skills each task used, and each skill's record from how those tasks ended: a
//! skill is used by a task that was shown it in its first turn (`task_skills`) or read
//! it with the `skill` tool (its calls in the audit). The task succeeded when it ended
//! done, no answer check told the person something was not done, and its changes were
//! not undone; it failed when it ended failed, told "not done", or was undone.
//! Cancelled and unfinished tasks count as used only.

use std::collections::BTreeMap;

use rusqlite::params;

use crate::error::CoreError;
use crate::store::audit::AuditLog;
use crate::store::queue::now_ms;

/// The name of the tool that reads a skill (its calls count as uses).
pub const SKILL_TOOL: &str = "skill";

/// A skill's record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkillRecord {
    pub used: u32,
    pub succeeded: u32,
    pub failed: u32,
}

impl SkillRecord {
    /// It keeps failing: at least two failures, and more failures than successes.
    pub fn flagged(&self) -> bool {
        self.failed >= 2 && self.failed > self.succeeded
    }
}

/// Why a task is not one to learn a skill from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotWorked {
    Unknown,
    NotDone,
    ToldNotDone,
    Undone,
}

impl std::fmt::Display for NotWorked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Unknown => "there is no such task",
            Self::NotDone => "the task did not end done",
            Self::ToldNotDone => "the task ended saying something was not done",
            Self::Undone => "the task's changes were undone",
        })
    }
}

impl AuditLog {
    /// Whether task `task_id` worked: ended done, told nothing as not done, and its
    /// changes were not undone (what a skill may be learned from).
    pub fn worked(&self, task_id: i64) -> Result<Result<(), NotWorked>, CoreError> {
        self.with_conn(|conn| {
            let row = conn.query_row(
                "SELECT t.status,
                        EXISTS (SELECT 1 FROM answer_checks c WHERE c.task_id = t.id AND c.result = 'told'),
                        EXISTS (SELECT 1 FROM change_sets s WHERE s.task_id = t.id AND s.kind = 'task'
                                  AND s.state IN ('undoing', 'undone'))
                   FROM tasks t WHERE t.id = ?1",
                [task_id],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?, r.get::<_, bool>(2)?)),
            );
            Ok(match row {
                Err(rusqlite::Error::QueryReturnedNoRows) => Err(NotWorked::Unknown),
                Err(e) => return Err(e),
                Ok((status, _, _)) if status != "done" => Err(NotWorked::NotDone),
                Ok((_, true, _)) => Err(NotWorked::ToldNotDone),
                Ok((_, _, true)) => Err(NotWorked::Undone),
                Ok(_) => Ok(()),
            })
        })
    }

    /// Records that task `task_id` was shown these skills.
    pub fn record_skills(&self, task_id: i64, skills: &[String]) -> Result<(), CoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction()?;
            for skill in skills {
                tx.execute(
                    "INSERT OR IGNORE INTO task_skills (task_id, skill, created_at)
                     VALUES (?1, ?2, ?3)",
                    params![task_id, skill, now_ms()],
                )?;
            }
            tx.commit()
        })
    }

    /// Every skill's record, by name.
    pub fn skill_records(&self) -> Result<BTreeMap<String, SkillRecord>, CoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(
                "WITH uses AS (
                     SELECT task_id, skill FROM task_skills
                     UNION
                     SELECT task_id, json_extract(arguments, '$.name') FROM audit
                      WHERE tool = ?1 AND ok = 1 AND json_valid(arguments)
                        AND json_extract(arguments, '$.name') IS NOT NULL
                 )
                 SELECT u.skill, t.status,
                        EXISTS (SELECT 1 FROM answer_checks c
                                 WHERE c.task_id = u.task_id AND c.result = 'told'),
                        EXISTS (SELECT 1 FROM change_sets s
                                 WHERE s.task_id = u.task_id AND s.kind = 'task'
                                   AND s.state IN ('undoing', 'undone'))
                   FROM uses u LEFT JOIN tasks t ON t.id = u.task_id",
            )?;
            let rows = stmt.query_map([SKILL_TOOL], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get::<_, bool>(3)?,
                ))
            })?;
            let mut records: BTreeMap<String, SkillRecord> = BTreeMap::new();
            for row in rows {
                let (skill, status, told, undone) = row?;
                let record = records.entry(skill).or_default();
                record.used += 1;
                match status.as_deref() {
                    Some("done") if !told && !undone => record.succeeded += 1,
                    Some("done") | Some("failed") => record.failed += 1,
                    _ => {}
                }
            }
            Ok(records)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::queue::TaskQueue;

    #[test]
    fn a_record_counts_successes_failures_told_and_undone() {
        let dir = tempfile::tempdir().expect("dir");
        let db = dir.path().join("zeta.db");
        let queue = TaskQueue::open(&db).expect("queue");
        let log = AuditLog::open(&db).expect("log");
        let mut ids = Vec::new();
        for text in ["a", "b", "c", "d", "e"] {
            ids.push(queue.enqueue("user", text).expect("enqueue").id);
        }
        let skills = vec!["largest-file".to_string()];
        for id in &ids {
            log.record_skills(*id, &skills).expect("record");
        }
        // Recording twice counts once.
        log.record_skills(ids[0], &skills).expect("again");
        log.with_conn(|c| {
            for (id, status) in ids
                .iter()
                .zip(["done", "done", "failed", "done", "running"])
            {
                c.execute(
                    "UPDATE tasks SET status = ?1 WHERE id = ?2",
                    params![status, id],
                )?;
            }
            c.execute(
                "INSERT INTO answer_checks (task_id, check_name, result, detail, created_at)
                 VALUES (?1, 'asked-target', 'told', 'Not done', 0)",
                [ids[1]],
            )?;
            c.execute(
                "INSERT INTO change_sets (task_id, kind, state, created_at)
                 VALUES (?1, 'task', 'undone', 0)",
                [ids[3]],
            )?;
            Ok(())
        })
        .expect("outcomes");
        // A read through the tool by a sixth task, which succeeded; a failed read does
        // not count.
        let six = queue.enqueue("user", "f").expect("enqueue").id;
        log.with_conn(|c| c.execute("UPDATE tasks SET status = 'done' WHERE id = ?1", [six]))
            .expect("done");
        log.record(
            six,
            "c1",
            SKILL_TOOL,
            &serde_json::json!({"name": "largest-file"}),
            crate::store::audit::CallDecision::Allowed,
            crate::store::audit::Decider::Policy,
            true,
            "read",
        )
        .expect("call");
        log.record(
            six,
            "c2",
            SKILL_TOOL,
            &serde_json::json!({"name": "other"}),
            crate::store::audit::CallDecision::Allowed,
            crate::store::audit::Decider::Policy,
            false,
            "no",
        )
        .expect("call");
        let records = log.skill_records().expect("records");
        let record = records["largest-file"];
        assert_eq!(
            record,
            SkillRecord {
                used: 6,
                succeeded: 2,
                failed: 3
            }
        );
        assert!(record.flagged());
        assert!(!records.contains_key("other"));
        assert!(!SkillRecord {
            used: 5,
            succeeded: 3,
            failed: 2
        }
        .flagged());
        // What a skill may be learned from.
        assert_eq!(log.worked(ids[0]).expect("read"), Ok(()));
        assert_eq!(
            log.worked(ids[1]).expect("read"),
            Err(NotWorked::ToldNotDone)
        );
        assert_eq!(log.worked(ids[2]).expect("read"), Err(NotWorked::NotDone));
        assert_eq!(log.worked(ids[3]).expect("read"), Err(NotWorked::Undone));
        assert_eq!(log.worked(999).expect("read"), Err(NotWorked::Unknown));
    }
}
