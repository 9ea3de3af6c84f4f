//! The database's schema and how a connection to it is opened: every table's migrations
//! (append only), owner-only creation, WAL, the busy timeout, and the lock that keeps two
//! processes from migrating a new database at once.

use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::Connection;
use rusqlite_migration::{Migrations, M};

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
    // Each judgement a finishing check made of a task's answer, by the check's name.
    M::up(
        "CREATE TABLE answer_checks (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id     INTEGER NOT NULL,
        check_name  TEXT NOT NULL,
        result      TEXT NOT NULL,
        detail      TEXT NOT NULL,
        created_at  INTEGER NOT NULL
    );
    CREATE INDEX answer_checks_task ON answer_checks (task_id);",
    ),
    // Undo (`crate::undo`): what each task's calls changed on disk, as change sets (a
    // task's, or an undo's, which a redo takes back), each change written before it
    // happened, how far an undo of the set got (`progress`: the oldest change it took
    // back), and each touched path's state when its set was last settled.
    M::up(
        "CREATE TABLE change_sets (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id     INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        of_set      INTEGER,
        state       TEXT NOT NULL,
        bytes       INTEGER NOT NULL DEFAULT 0,
        progress    INTEGER,
        created_at  INTEGER NOT NULL,
        finished_at INTEGER
    );
    CREATE INDEX change_sets_task ON change_sets (task_id);
    CREATE TABLE file_changes (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        set_id      INTEGER NOT NULL,
        call        INTEGER NOT NULL,
        op          TEXT NOT NULL,
        path        BLOB NOT NULL,
        other       BLOB,
        object      TEXT,
        kind        TEXT,
        mode        INTEGER,
        size        INTEGER,
        ino         INTEGER
    );
    CREATE INDEX file_changes_set ON file_changes (set_id);
    CREATE TABLE file_after (
        set_id      INTEGER NOT NULL,
        path        BLOB NOT NULL,
        state       TEXT NOT NULL,
        PRIMARY KEY (set_id, path)
    );",
    ),
    // The messages the person added while a task ran, and what became of each
    // (`store::record`): read by the task, run as a task of their own, or held after a
    // Stop until the person sends them.
    M::up(
        "CREATE TABLE added_messages (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id     INTEGER NOT NULL,
        text        TEXT NOT NULL,
        fate        TEXT NOT NULL,
        new_task_id INTEGER,
        created_at  INTEGER NOT NULL
    );
    CREATE INDEX added_messages_task ON added_messages (task_id);",
    ),
    // The skills each task was shown in its first turn (`store::skill_uses`); the ones a
    // model read on demand are its `skill` calls in the audit.
    M::up(
        "CREATE TABLE task_skills (
        task_id     INTEGER NOT NULL,
        skill       TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (task_id, skill)
    );
    CREATE INDEX task_skills_skill ON task_skills (skill);",
    ),
];

/// Opens (creating if needed) the database at `path`, owner-only, in WAL mode with a busy
/// timeout, and brings its schema up to date (one process at a time).
pub fn open(path: &Path) -> Result<Connection, CoreError> {
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
    Ok(conn)
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

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
