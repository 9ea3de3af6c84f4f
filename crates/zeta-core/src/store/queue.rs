//! The task queue: one SQLite table with seed 000's semantics.
//!
//! - FIFO by id, strictly one task `running` at a time (the claim is one IMMEDIATE
//!   transaction that refuses while another task runs).
//! - `previous_context` is resolved when a task starts: the `result` of the task that most
//!   recently finished `done`.
//! - `recover_running` settles the `running` rows a dead worker left (see `recovery`). It
//!   is called by whoever takes the worker lock, so only a dead worker's rows are touched.
//! - Many producers may enqueue at once, each with its own connection; WAL and a busy
//!   timeout serialise them and the AUTOINCREMENT id fixes the order.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};

pub use zeta_protocol::task::{ConversationSummary, Fix, Task, TaskStatus};

pub(crate) use super::schema::now_ms;
use crate::error::CoreError;

/// A connection to the queue database. Open one per thread or producer.
pub struct TaskQueue {
    conn: Connection,
    path: PathBuf,
}

/// A task's columns, and its refused and failed calls and skipped steps counted from the
/// audit.
static COLUMNS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    use crate::store::audit::CallDecision;
    format!(
        "id, sender, message, status, previous_context, result, reply, error, created_at, \
         started_at, finished_at, attempts, interrupted, untrusted, previous_untrusted, \
         (SELECT COUNT(*) FROM audit a WHERE a.task_id = tasks.id AND a.decision IN ({})), \
         (SELECT COUNT(*) FROM audit a WHERE a.task_id = tasks.id AND a.ok = 0 \
            AND a.state != 'running' AND a.decision IN ({})), conversation, fix, \
         (SELECT COUNT(*) FROM audit a WHERE a.task_id = tasks.id AND a.decision = '{}')",
        CallDecision::sql_list(CallDecision::refused),
        CallDecision::sql_list(|d| d.lets_run() || d == CallDecision::Invalid),
        CallDecision::Skipped.as_str(),
    )
});

impl TaskQueue {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self, CoreError> {
        Ok(Self {
            conn: super::schema::open(path)?,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, schema in place (for other stores in the same database).
    pub fn into_connection(self) -> Connection {
        self.conn
    }

    fn err(&self, source: rusqlite::Error) -> CoreError {
        CoreError::Database {
            path: self.path.clone(),
            source,
        }
    }

    /// Appends a pending task and returns it.
    pub fn enqueue(&self, sender: &str, message: &str) -> Result<Task, CoreError> {
        let id = self
            .conn
            .query_row(
                "INSERT INTO tasks (sender, message, status, created_at, conversation) VALUES \
                 (?1, ?2, 'pending', ?3, (SELECT COALESCE(MAX(id), 1) FROM conversations)) RETURNING id",
                params![sender, message, now_ms()],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.err(e))?;
        self.get(id)
    }

    /// Takes the oldest pending task and marks it running, resolving its
    /// `previous_context` now. `None` when nothing is pending or a task is already running.
    pub fn claim_next(&mut self) -> Result<Option<Task>, CoreError> {
        let path = self.path.clone();
        let err = |source| CoreError::Database {
            path: path.clone(),
            source,
        };
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let running: bool = tx
            .query_row(
                "SELECT EXISTS(SELECT 1 FROM tasks WHERE status = 'running')",
                [],
                |r| r.get(0),
            )
            .map_err(err)?;
        if running {
            return Ok(None);
        }
        let next: Option<i64> = tx
            .query_row(
                "SELECT id FROM tasks WHERE status = 'pending' ORDER BY id LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(err)?;
        let Some(id) = next else { return Ok(None) };
        let (context, untrusted): (Option<String>, bool) = tx
            .query_row(
                "SELECT result, untrusted FROM tasks WHERE status = 'done' \
                 AND conversation = (SELECT conversation FROM tasks WHERE id = ?1) \
                 ORDER BY finished_at DESC, id DESC LIMIT 1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(err)?
            .unwrap_or((None, false));
        tx.execute(
            "UPDATE tasks SET status = 'running', started_at = ?2, previous_context = ?3,
             previous_untrusted = ?4, attempts = attempts + 1 WHERE id = ?1",
            params![id, now_ms(), context.unwrap_or_default(), untrusted],
        )
        .map_err(err)?;
        tx.commit().map_err(err)?;
        self.get(id).map(Some)
    }

    /// Marks a running task done with the reply the user sees.
    pub fn finish_done(&self, id: i64, reply: &str) -> Result<Task, CoreError> {
        let task = self.get(id)?;
        let result = format!("User asked: {}\nZeta replied: {}", task.message, reply);
        self.finish(id, TaskStatus::Done, Some(&result), Some(reply), None)
    }

    /// Marks a running task failed with its error.
    pub fn finish_failed(
        &self,
        id: i64,
        error: &str,
        fix: Option<crate::model::Fix>,
    ) -> Result<Task, CoreError> {
        self.conn
            .execute(
                "UPDATE tasks SET fix = ?2 WHERE id = ?1",
                params![id, fix.map(crate::model::Fix::as_str)],
            )
            .map_err(|e| self.err(e))?;
        self.finish(id, TaskStatus::Failed, None, None, Some(error))
    }

    /// Marks a running task cancelled, keeping what it had done so far.
    pub fn finish_cancelled(&self, id: i64, progress: &str) -> Result<Task, CoreError> {
        self.finish(
            id,
            TaskStatus::Cancelled,
            None,
            Some(progress),
            Some("cancelled by the user"),
        )
    }

    fn finish(
        &self,
        id: i64,
        status: TaskStatus,
        result: Option<&str>,
        reply: Option<&str>,
        error: Option<&str>,
    ) -> Result<Task, CoreError> {
        let changed = self
            .conn
            .execute(
                "UPDATE tasks SET status = ?2, result = ?3, reply = ?4, error = ?5, finished_at = ?6
                 WHERE id = ?1 AND status = 'running'",
                params![id, status.as_str(), result, reply, error, now_ms()],
            )
            .map_err(|e| self.err(e))?;
        let task = self.get(id)?;
        if changed == 0 {
            return Err(CoreError::WrongTaskState {
                id,
                status: task.status.to_string(),
                allowed: "running",
                action: "finished",
            });
        }
        Ok(task)
    }

    /// Cancels a task that has not started yet.
    pub fn cancel_pending(&self, id: i64) -> Result<Task, CoreError> {
        let changed = self
            .conn
            .execute(
                "UPDATE tasks SET status = 'cancelled', error = 'cancelled before it started', finished_at = ?2
                 WHERE id = ?1 AND status = 'pending'",
                params![id, now_ms()],
            )
            .map_err(|e| self.err(e))?;
        let task = self.get(id)?;
        if changed == 0 {
            return Err(CoreError::WrongTaskState {
                id,
                status: task.status.to_string(),
                allowed: "pending",
                action: "cancelled here",
            });
        }
        Ok(task)
    }

    /// Settles every `running` row a dead worker left (see `recovery`). Call only while
    /// holding the worker lock.
    pub fn recover_running(&mut self) -> Result<Vec<crate::recovery::Recovered>, CoreError> {
        let path = self.path.clone();
        crate::recovery::recover(&mut self.conn)
            .map_err(|source| CoreError::Database { path, source })
    }

    /// A running task this worker stopped on a signal: back to `pending`, marked
    /// interrupted (see `recovery`), to be resumed on the next start.
    pub fn interrupt(&mut self, id: i64) -> Result<Task, CoreError> {
        let path = self.path.clone();
        crate::recovery::interrupt(&mut self.conn, id)
            .map_err(|source| CoreError::Database { path, source })?;
        self.get(id)
    }

    pub fn get(&self, id: i64) -> Result<Task, CoreError> {
        self.conn
            .query_row(
                &format!("SELECT {} FROM tasks WHERE id = ?1", *COLUMNS),
                [id],
                task_from_row,
            )
            .optional()
            .map_err(|e| self.err(e))?
            .ok_or(CoreError::NoSuchTask(id))
    }

    /// The newest `limit` tasks, oldest first.
    pub fn recent(&self, limit: u32) -> Result<Vec<Task>, CoreError> {
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT * FROM (SELECT {} FROM tasks ORDER BY id DESC LIMIT ?1) ORDER BY id",
                *COLUMNS
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([limit], task_from_row)
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e));
        rows
    }

    /// The conversation new tasks join.
    pub fn current_conversation(&self) -> Result<i64, CoreError> {
        self.conn
            .query_row("SELECT COALESCE(MAX(id), 1) FROM conversations", [], |r| {
                r.get(0)
            })
            .map_err(|e| self.err(e))
    }

    /// Starts a new conversation ("New chat") and returns its id; the current one is kept
    /// when it has no task yet, so pressing New chat twice makes one.
    pub fn new_conversation(&self) -> Result<i64, CoreError> {
        let current = self.current_conversation()?;
        let used: bool = self
            .conn
            .query_row(
                "SELECT EXISTS(SELECT 1 FROM tasks WHERE conversation = ?1)",
                [current],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        if !used {
            return Ok(current);
        }
        self.conn
            .query_row(
                "INSERT INTO conversations (created_at) VALUES (?1) RETURNING id",
                [now_ms()],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// Conversations that have tasks, newest first, at most `limit`.
    pub fn conversations(&self, limit: u32) -> Result<Vec<ConversationSummary>, CoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT conversation, \
                   (SELECT message FROM tasks f WHERE f.conversation = t.conversation ORDER BY id LIMIT 1), \
                   COUNT(*), MAX(created_at) \
                 FROM tasks t GROUP BY conversation ORDER BY conversation DESC LIMIT ?1",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([limit], |r| {
                Ok(ConversationSummary {
                    id: r.get(0)?,
                    title: r.get(1)?,
                    tasks: r.get(2)?,
                    last_at: r.get(3)?,
                })
            })
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e));
        rows
    }

    /// The tasks of conversation `id`, oldest first (at most the newest `limit`).
    pub fn conversation_tasks(&self, id: i64, limit: u32) -> Result<Vec<Task>, CoreError> {
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT * FROM (SELECT {} FROM tasks WHERE conversation = ?1 ORDER BY id DESC LIMIT ?2) ORDER BY id",
                *COLUMNS
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![id, limit], task_from_row)
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e));
        rows
    }

    /// How many tasks are pending.
    pub fn pending_count(&self) -> Result<i64, CoreError> {
        self.conn
            .query_row(
                "SELECT COUNT(*) FROM tasks WHERE status = 'pending'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// Writes that the person added `text` to task `task_id`, and what became of it
    /// (`store::record`).
    pub fn note_added(
        &self,
        task_id: i64,
        text: &str,
        fate: crate::store::record::AddedFate,
        new_task_id: Option<i64>,
    ) -> Result<(), CoreError> {
        crate::store::record::note_added(&self.conn, task_id, text, fate, new_task_id)
            .map_err(|e| self.err(e))
    }

    /// Sends the message held after a Stop (`id`, see `store::record`) as a task of its
    /// own, once: `Ok(None)` when it is not held (sent already, or no such message).
    pub fn send_held(&self, id: i64, sender: &str) -> Result<Option<Task>, CoreError> {
        let Some(text) =
            crate::store::record::held_text(&self.conn, id).map_err(|e| self.err(e))?
        else {
            return Ok(None);
        };
        let task = self.enqueue(sender, &text)?;
        crate::store::record::sent_held(&self.conn, id, task.id).map_err(|e| self.err(e))?;
        Ok(Some(task))
    }

    /// Changes whenever another connection commits to the database (`PRAGMA data_version`):
    /// how a running app notices tasks the CLI enqueued.
    pub fn data_version(&self) -> Result<i64, CoreError> {
        self.conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }
}

/// Marks task `id` as having read input the user did not type (see `Task::untrusted`).
pub(crate) fn mark_untrusted(conn: &rusqlite::Connection, id: i64) -> rusqlite::Result<()> {
    conn.execute("UPDATE tasks SET untrusted = 1 WHERE id = ?1", [id])
        .map(|_| ())
}

fn task_from_row(r: &Row<'_>) -> rusqlite::Result<Task> {
    let status: String = r.get(3)?;
    let status = TaskStatus::parse(&status).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            3,
            rusqlite::types::Type::Text,
            format!("unknown task status {status:?}").into(),
        )
    })?;
    Ok(Task {
        id: r.get(0)?,
        sender: r.get(1)?,
        message: r.get(2)?,
        status,
        previous_context: r.get(4)?,
        result: r.get(5)?,
        reply: r.get(6)?,
        error: r.get(7)?,
        created_at: r.get(8)?,
        started_at: r.get(9)?,
        finished_at: r.get(10)?,
        attempts: r.get(11)?,
        interrupted: r.get(12)?,
        untrusted: r.get(13)?,
        previous_untrusted: r.get(14)?,
        denied_calls: r.get(15)?,
        failed_calls: r.get(16)?,
        conversation: r.get(17)?,
        fix: r
            .get::<_, Option<String>>(18)?
            .as_deref()
            .and_then(crate::model::Fix::parse),
        skipped_steps: r.get(19)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_conversation_carries_no_previous_context() {
        let dir = tempfile::tempdir().expect("dir");
        let mut q = TaskQueue::open(&dir.path().join("q.db")).expect("open");
        assert_eq!(
            q.new_conversation().expect("new"),
            1,
            "an empty one is reused"
        );
        let a = q.enqueue("chat", "first").expect("a");
        q.claim_next().expect("claim");
        q.finish_done(a.id, "one").expect("done");
        q.enqueue("chat", "second").expect("b");
        let b = q.claim_next().expect("claim").expect("b runs");
        assert!(b
            .previous_context
            .as_deref()
            .is_some_and(|c| c.contains("one")));
        q.finish_done(b.id, "two").expect("done");

        let second = q.new_conversation().expect("new");
        assert_eq!(second, 2);
        assert_eq!(
            q.new_conversation().expect("again"),
            2,
            "pressing twice makes one"
        );
        let c = q.enqueue("chat", "fresh").expect("c");
        assert_eq!(c.conversation, 2);
        let c = q.claim_next().expect("claim").expect("c runs");
        assert_eq!(
            c.previous_context.as_deref(),
            Some(""),
            "nothing from the old chat"
        );

        let list = q.conversations(10).expect("list");
        let titles: Vec<(&str, u32)> = list.iter().map(|c| (c.title.as_str(), c.tasks)).collect();
        assert_eq!(titles, [("fresh", 1), ("first", 2)]);
        let old = q.conversation_tasks(1, 100).expect("old");
        assert_eq!(
            old.iter().map(|t| t.message.as_str()).collect::<Vec<_>>(),
            ["first", "second"]
        );
    }

    fn queue() -> (tempfile::TempDir, TaskQueue) {
        let dir = tempfile::tempdir().expect("temp dir");
        let q = TaskQueue::open(&dir.path().join("zeta.db")).expect("open");
        (dir, q)
    }

    #[test]
    fn one_running_at_a_time_and_context_from_last_done() {
        let (_d, mut q) = queue();
        q.enqueue("cli", "first").expect("enqueue");
        q.enqueue("cli", "second").expect("enqueue");
        let a = q.claim_next().expect("claim").expect("a task");
        assert_eq!(a.message, "first");
        assert_eq!(a.previous_context.as_deref(), Some(""));
        assert!(
            q.claim_next().expect("claim").is_none(),
            "second claim while one runs"
        );
        q.finish_done(a.id, "hello").expect("done");
        let b = q.claim_next().expect("claim").expect("b task");
        assert_eq!(
            b.previous_context.as_deref(),
            Some("User asked: first\nZeta replied: hello")
        );
        q.finish_failed(b.id, "boom", None).expect("failed");
        let b = q.get(b.id).expect("get");
        assert_eq!(b.status, TaskStatus::Failed);
        assert_eq!(b.error.as_deref(), Some("boom"));
    }

    #[test]
    fn failed_tasks_do_not_feed_context() {
        let (_d, mut q) = queue();
        for m in ["a", "b", "c"] {
            q.enqueue("cli", m).expect("enqueue");
        }
        let a = q.claim_next().expect("claim").expect("a");
        q.finish_done(a.id, "ra").expect("done");
        let b = q.claim_next().expect("claim").expect("b");
        q.finish_failed(b.id, "nope", Some(crate::model::Fix::Retry))
            .expect("fail");
        let c = q.claim_next().expect("claim").expect("c");
        assert_eq!(
            c.previous_context.as_deref(),
            Some("User asked: a\nZeta replied: ra")
        );
    }

    #[test]
    fn wrong_state_transitions_are_refused() {
        let (_d, mut q) = queue();
        let t = q.enqueue("cli", "x").expect("enqueue");
        assert!(matches!(
            q.finish_done(t.id, "r"),
            Err(CoreError::WrongTaskState { .. })
        ));
        q.cancel_pending(t.id).expect("cancel");
        assert!(q.claim_next().expect("claim").is_none());
        assert!(matches!(
            q.cancel_pending(t.id),
            Err(CoreError::WrongTaskState { .. })
        ));
        assert!(matches!(q.get(99), Err(CoreError::NoSuchTask(99))));
    }
}
