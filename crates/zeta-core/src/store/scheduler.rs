//! Scheduled tasks (seeds 003, 004): a job is a message with a cron expression (five
//! fields, local time) or one time. The worker that holds the queue checks on every tick
//! and enqueues each due job as a task from `scheduler`, in the same transaction that
//! moves the job's next run on, so a job fires once per due time, also across restarts.
//!
//! Missed runs (the app was closed): a job whose time passed while no worker ran fires
//! once when the worker starts, however many times it was missed, and then keeps its
//! schedule from now on.

use std::path::Path;
use std::str::FromStr;

use chrono::{DateTime, Local, NaiveDateTime, TimeZone};
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::error::CoreError;
use crate::store::db::SharedDb;
use crate::store::queue::{now_ms, Task, TaskQueue};

/// When a job runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum When {
    /// A standard five-field cron expression, in local time.
    Cron(String),
    /// Once, at this Unix time in milliseconds.
    At(i64),
}

impl When {
    /// Parses a cron expression (`0 9 * * 1-5`) or a time (`2026-11-23 09:00`, RFC 3339).
    pub fn parse(cron: Option<&str>, at: Option<&str>) -> Result<When, String> {
        match (
            cron.map(str::trim).filter(|s| !s.is_empty()),
            at.map(str::trim).filter(|s| !s.is_empty()),
        ) {
            (Some(expr), None) => {
                schedule(expr)?;
                Ok(When::Cron(expr.to_string()))
            }
            (None, Some(time)) => parse_time(time).map(When::At),
            (Some(_), Some(_)) => Err("give either cron or at, not both".into()),
            (None, None) => {
                Err("give cron (e.g. \"0 9 * * 1-5\") or at (e.g. \"2026-11-23 09:00\")".into())
            }
        }
    }

    fn spec(&self) -> String {
        match self {
            When::Cron(expr) => format!("cron:{expr}"),
            When::At(ms) => format!("at:{ms}"),
        }
    }

    pub fn from_spec(spec: &str) -> Option<When> {
        if let Some(expr) = spec.strip_prefix("cron:") {
            return Some(When::Cron(expr.to_string()));
        }
        spec.strip_prefix("at:")?.parse().ok().map(When::At)
    }

    /// The first run strictly after `after_ms`, or `None` when there is none.
    pub fn next_after(&self, after_ms: i64) -> Option<i64> {
        match self {
            When::At(ms) => (*ms > after_ms).then_some(*ms),
            When::Cron(expr) => {
                let after = Local.timestamp_millis_opt(after_ms).single()?;
                schedule(expr)
                    .ok()?
                    .after(&after)
                    .next()
                    .map(|t| t.timestamp_millis())
            }
        }
    }
}

/// The `cron` crate wants seconds first: a five-field expression gets `0` seconds.
fn schedule(expr: &str) -> Result<cron::Schedule, String> {
    let fields = expr.split_whitespace().count();
    let full = match fields {
        5 => format!("0 {expr}"),
        6 | 7 => expr.to_string(),
        n => {
            return Err(format!(
                "a cron expression has 5 fields (minute hour day month weekday); {expr:?} has {n}"
            ))
        }
    };
    cron::Schedule::from_str(&full)
        .map_err(|e| format!("{expr:?} is not a valid cron expression: {e}"))
}

fn parse_time(text: &str) -> Result<i64, String> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t.timestamp_millis());
    }
    for format in [
        "%Y-%m-%d %H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%dT%H:%M:%S",
    ] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(text, format) {
            return Local
                .from_local_datetime(&naive)
                .earliest()
                .map(|t| t.timestamp_millis())
                .ok_or_else(|| format!("{text:?} does not exist in the local time zone"));
        }
    }
    Err(format!(
        "{text:?} is not a time: use \"YYYY-MM-DD HH:MM\" (local) or RFC 3339"
    ))
}

/// A job as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub id: i64,
    /// `cron:<expr>` or `at:<ms>`.
    pub spec: String,
    pub message: String,
    pub next_run_at: Option<i64>,
    pub last_run_at: Option<i64>,
    pub enabled: bool,
}

#[derive(Clone)]
pub struct Scheduler {
    db: SharedDb,
}

impl Scheduler {
    pub fn open(db: &Path) -> Result<Self, CoreError> {
        Ok(Self {
            db: SharedDb::open(db)?,
        })
    }

    pub fn add(&self, when: &When, message: &str) -> Result<Job, CoreError> {
        let now = now_ms();
        let next = when.next_after(now);
        let id = self.db.with(|c| {
            c.execute(
                "INSERT INTO schedules (spec, message, next_run_at, enabled, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![when.spec(), message, next, next.is_some(), now],
            )?;
            Ok(c.last_insert_rowid())
        })?;
        Ok(Job {
            id,
            spec: when.spec(),
            message: message.into(),
            next_run_at: next,
            last_run_at: None,
            enabled: next.is_some(),
        })
    }

    pub fn list(&self) -> Result<Vec<Job>, CoreError> {
        self.db.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id, spec, message, next_run_at, last_run_at, enabled FROM schedules ORDER BY id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(Job {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                    message: r.get(2)?,
                    next_run_at: r.get(3)?,
                    last_run_at: r.get(4)?,
                    enabled: r.get(5)?,
                })
            })?;
            rows.collect()
        })
    }

    pub fn remove(&self, id: i64) -> Result<bool, CoreError> {
        self.db.with(|c| {
            c.execute("DELETE FROM schedules WHERE id = ?1", [id])
                .map(|n| n > 0)
        })
    }

    /// Enqueues every job due at `now` (see the module doc) and returns the new tasks.
    pub fn fire_due(&self, now: i64) -> Result<Vec<Task>, CoreError> {
        // Called on every worker tick: a plain read first, so the write lock is taken
        // only when a job is due.
        if self.next_due()?.is_none_or(|due| due > now) {
            return Ok(Vec::new());
        }
        let ids = self.db.with(|c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let due: Vec<(i64, String, String)> = {
                let mut stmt = tx.prepare(
                    "SELECT id, spec, message FROM schedules
                     WHERE enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ?1 ORDER BY next_run_at, id",
                )?;
                let rows = stmt.query_map([now], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
                rows.collect::<Result<_, _>>()?
            };
            let mut ids = Vec::new();
            for (id, spec, message) in due {
                let task_id: i64 = tx.query_row(
                    "INSERT INTO tasks (sender, message, status, created_at) VALUES ('scheduler', ?1, 'pending', ?2) RETURNING id",
                    params![message, now],
                    |r| r.get(0),
                )?;
                let next = When::from_spec(&spec).and_then(|w| w.next_after(now));
                tx.execute(
                    "UPDATE schedules SET last_run_at = ?1, next_run_at = ?2, enabled = ?3 WHERE id = ?4",
                    params![now, next, next.is_some(), id],
                )?;
                ids.push(task_id);
            }
            tx.commit()?;
            Ok(ids)
        })?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let queue = TaskQueue::open(self.db.path())?;
        ids.into_iter().map(|id| queue.get(id)).collect()
    }

    /// The next time any job is due, if one is.
    pub fn next_due(&self) -> Result<Option<i64>, CoreError> {
        self.db.with(|c| {
            c.query_row(
                "SELECT MIN(next_run_at) FROM schedules WHERE enabled = 1",
                [],
                |r| r.get::<_, Option<i64>>(0),
            )
            .optional()
            .map(Option::flatten)
        })
    }
}

/// One line per job: id, when, next run, message.
pub fn describe(job: &Job) -> String {
    let next = job
        .next_run_at
        .and_then(|ms| Local.timestamp_millis_opt(ms).single())
        .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_else(|| "never (done)".into());
    let when = match When::from_spec(&job.spec) {
        Some(When::Cron(expr)) => format!("cron {expr}"),
        Some(When::At(_)) => "once".into(),
        None => job.spec.clone(),
    };
    format!("[{}] {when}, next {next}: {}", job.id, job.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cron_and_time_specs_parse_and_bad_ones_say_why() {
        assert!(matches!(
            When::parse(Some("0 9 * * 1-5"), None),
            Ok(When::Cron(_))
        ));
        assert!(matches!(
            When::parse(None, Some("2030-01-02 09:30")),
            Ok(When::At(_))
        ));
        assert!(When::parse(Some("every day"), None)
            .unwrap_err()
            .contains("5 fields"));
        assert!(When::parse(Some("61 * * * *"), None).is_err());
        assert!(When::parse(None, Some("tomorrow"))
            .unwrap_err()
            .contains("YYYY-MM-DD"));
        assert!(When::parse(None, None).is_err());
        let hourly = When::Cron("0 * * * *".into());
        let next = hourly.next_after(0).expect("next");
        assert_eq!(next % 3_600_000 % 60_000, 0, "on a whole minute");
    }

    #[test]
    fn a_due_job_fires_once_and_a_missed_one_once_on_start() {
        let dir = tempfile::tempdir().expect("dir");
        let db = dir.path().join("zeta.db");
        let s = Scheduler::open(&db).expect("open");
        let now = now_ms();
        let once = s.add(&When::At(now + 1_000), "say hello").expect("add");
        let every_minute = s.add(&When::Cron("* * * * *".into()), "tick").expect("add");
        assert!(s.fire_due(now).expect("fire").is_empty(), "nothing due yet");
        // Far in the future: the once-job and the minute job (missed many times) fire once each.
        let later = now + 3_600_000;
        let fired = s.fire_due(later).expect("fire");
        // They fire in the order they fell due; which came first depends on where in
        // the minute `now` is (the cron job is due on the next whole minute).
        let mut expected = vec![
            (once.next_run_at, ("scheduler", "say hello")),
            (every_minute.next_run_at, ("scheduler", "tick")),
        ];
        expected.sort_by_key(|(due, _)| *due);
        let expected: Vec<_> = expected.into_iter().map(|(_, m)| m).collect();
        let messages: Vec<_> = fired
            .iter()
            .map(|t| (t.sender.as_str(), t.message.as_str()))
            .collect();
        assert_eq!(messages, expected);
        assert!(
            s.fire_due(later).expect("again").is_empty(),
            "not twice for one due time"
        );
        // Reopened (a restart): nothing fires again for the same time.
        let reopened = Scheduler::open(&db).expect("reopen");
        assert!(reopened.fire_due(later).expect("after restart").is_empty());
        let jobs = reopened.list().expect("list");
        assert!(!jobs.iter().find(|j| j.id == once.id).expect("once").enabled);
        let minute = jobs
            .iter()
            .find(|j| j.id == every_minute.id)
            .expect("minute");
        assert!(minute.next_run_at.expect("next") > later);
        assert!(reopened.remove(minute.id).expect("remove"));
    }
}
