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

use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};
use rusqlite_migration::{Migrations, M};

pub use zeta_protocol::task::{ConversationSummary, Fix, Task, TaskStatus};

use crate::error::CoreError;

/// Schema history. Append only: never edit a migration that has shipped.
const MIGRATIONS: &[M<'static>] = &[
    M::up(
    "CREATE TABLE tasks (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        sender           TEXT    NOT NULL,
        message          TEXT    NOT NULL,
        status           TEXT    NOT NULL CHECK (status IN ('pending','running','done','failed','cancelled')),
        previous_context TEXT,
        result           TEXT,
        reply            TEXT,
        error            TEXT,
        created_at       INTEGER NOT NULL,
        started_at       INTEGER,
        finished_at      INTEGER
    );
    CREATE INDEX tasks_status ON tasks(status, id);",
    ),
    M::up(
        "CREATE TABLE audit (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id     INTEGER NOT NULL,
        call_id     TEXT    NOT NULL,
        tool        TEXT    NOT NULL,
        arguments   TEXT    NOT NULL,
        decision    TEXT    NOT NULL,
        decided_by  TEXT    NOT NULL,
        ok          INTEGER NOT NULL,
        summary     TEXT    NOT NULL,
        created_at  INTEGER NOT NULL
    );
    CREATE INDEX audit_task ON audit(task_id, id);",
    ),
    M::up(
        "CREATE TABLE task_metrics (
        task_id        INTEGER PRIMARY KEY,
        llm_requests   INTEGER NOT NULL,
        llm_failures   INTEGER NOT NULL,
        tool_calls     INTEGER NOT NULL,
        tool_failures  INTEGER NOT NULL,
        denials        INTEGER NOT NULL,
        compactions    INTEGER NOT NULL,
        tokens_in      INTEGER NOT NULL,
        tokens_out     INTEGER NOT NULL
    );",
    ),
    M::up(
        "CREATE TABLE memory_facts (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        text        TEXT    NOT NULL,
        tags        TEXT    NOT NULL DEFAULT '',
        task_id     INTEGER,
        created_at  INTEGER NOT NULL
    );
    CREATE VIRTUAL TABLE memory_fts USING fts5(text, tags, content='memory_facts', content_rowid='id');
    CREATE TRIGGER memory_facts_ai AFTER INSERT ON memory_facts BEGIN
        INSERT INTO memory_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
    END;
    CREATE TRIGGER memory_facts_ad AFTER DELETE ON memory_facts BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, text, tags) VALUES ('delete', old.id, old.text, old.tags);
    END;
    CREATE TABLE memory_summary (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        text        TEXT    NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE TABLE schedules (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        spec        TEXT    NOT NULL,
        message     TEXT    NOT NULL,
        next_run_at INTEGER,
        last_run_at INTEGER,
        enabled     INTEGER NOT NULL DEFAULT 1,
        created_at  INTEGER NOT NULL
    );",
    ),
    // Recovery that knows what happened (a crash, a signal): how often a task was
    // started, what was running when it stopped, and each audit row's own state, written
    // before the call starts ('running') and completed after ('finished' or
    // 'interrupted').
    M::up(
        "ALTER TABLE tasks ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tasks ADD COLUMN interrupted TEXT;
    ALTER TABLE audit ADD COLUMN state TEXT NOT NULL DEFAULT 'finished';",
    ),
    // Provenance: a task that read input the user did not type is marked, and what it
    // leaves for later tasks (its result as their previous context, the facts it saved)
    // stays marked.
    M::up(
        "ALTER TABLE tasks ADD COLUMN untrusted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tasks ADD COLUMN previous_untrusted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE memory_facts ADD COLUMN untrusted INTEGER NOT NULL DEFAULT 0;",
    ),
    // Conversations: "New chat" starts one; a task belongs to the one that was newest when
    // it was enqueued, and only that conversation's last answer is its previous context.
    // Everything before this migration is conversation 1.
    M::up(
        "CREATE TABLE conversations (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at  INTEGER NOT NULL
    );
    INSERT INTO conversations (id, created_at) VALUES (1, CAST(strftime('%s','now') AS INTEGER) * 1000);
    ALTER TABLE tasks ADD COLUMN conversation INTEGER NOT NULL DEFAULT 1;",
    ),
    // What fixes a failed task (`model::Fix`), offered as a button beside its error.
    M::up("ALTER TABLE tasks ADD COLUMN fix TEXT;"),
];

/// A connection to the queue database. Open one per thread or producer.
pub struct TaskQueue {
    conn: Connection,
    path: PathBuf,
}

/// A task's columns, and its refused and failed calls counted from the audit.
static COLUMNS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    use crate::audit::CallDecision;
    format!(
        "id, sender, message, status, previous_context, result, reply, error, created_at, \
         started_at, finished_at, attempts, interrupted, untrusted, previous_untrusted, \
         (SELECT COUNT(*) FROM audit a WHERE a.task_id = tasks.id AND a.decision IN ({})), \
         (SELECT COUNT(*) FROM audit a WHERE a.task_id = tasks.id AND a.ok = 0 \
            AND a.state != 'running' AND a.decision IN ({})), conversation, fix",
        CallDecision::sql_list(CallDecision::refused),
        CallDecision::sql_list(|d| d.lets_run() || d == CallDecision::Invalid),
    )
});

impl TaskQueue {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self, CoreError> {
        let db_err = |source| CoreError::Database {
            path: path.to_path_buf(),
            source,
        };
        // Created owner-only before SQLite opens it: SQLite gives its WAL and shared-memory
        // files the database file's mode.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(source) => {
                return Err(CoreError::Io {
                    what: "create the database",
                    path: path.to_path_buf(),
                    source,
                })
            }
        }
        let mut conn = Connection::open(path).map_err(db_err)?;
        conn.busy_timeout(Duration::from_secs(10)).map_err(db_err)?;
        {
            // Switching to WAL and migrating are not safe to race between connections
            // opening a new database: one process at a time, under an OS file lock.
            let _setup = SetupLock::take(path)?;
            conn.pragma_update(None, "journal_mode", "WAL")
                .map_err(db_err)?;
            Migrations::from_slice(MIGRATIONS)
                .to_latest(&mut conn)
                .map_err(|source| CoreError::Migration {
                    path: path.to_path_buf(),
                    source,
                })?;
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(db_err)?;
        Ok(Self {
            conn,
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

/// A blocking OS lock on `<db>.setup-lock`, held while a connection sets up the schema.
struct SetupLock(std::fs::File);

impl SetupLock {
    fn take(db: &Path) -> Result<Self, CoreError> {
        let mut name = db.as_os_str().to_owned();
        name.push(".setup-lock");
        let path = PathBuf::from(name);
        let io_err = |what, source| CoreError::Io {
            what,
            path: path.clone(),
            source,
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| io_err("open database setup lock", e))?;
        file.lock()
            .map_err(|e| io_err("lock database setup lock", e))?;
        Ok(Self(file))
    }
}

impl Drop for SetupLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
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
    })
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
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
