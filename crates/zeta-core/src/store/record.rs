//! A task's record beside its row: the calls it made (the audit), the messages the person
//! added while it ran and what became of each, and what the finishing checks told the
//! person. Every surface that reports a finished task (the chat, Earlier chats, the queue
//! panel) reads this one record, so they all say the same.

use rusqlite::{params, Connection};
use serde::{Deserialize, Serialize};

use super::audit::{AuditEntry, AuditLog};
use crate::error::CoreError;
use crate::store::queue::now_ms;

/// What became of a message the person added while a task ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum AddedFate {
    /// The task read it at its next step.
    Read,
    /// The task ended before reading it; it ran as a task of its own (`new_task_id`).
    Requeued,
    /// The person stopped the task before it read it: kept, not sent, until they send it.
    Held,
}

impl AddedFate {
    fn as_str(self) -> &'static str {
        match self {
            AddedFate::Read => "read",
            AddedFate::Requeued => "requeued",
            AddedFate::Held => "held",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        [AddedFate::Read, AddedFate::Requeued, AddedFate::Held]
            .into_iter()
            .find(|f| f.as_str() == text)
    }
}

/// A message the person added while a task ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AddedMessage {
    pub id: i64,
    pub text: String,
    pub fate: AddedFate,
    /// The task it ran as, when it was requeued or sent later.
    pub new_task_id: Option<i64>,
    pub created_at: i64,
}

/// What a finishing check told the person about the task's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CheckNote {
    pub check: String,
    /// `sentBack` (the model was sent back to work) or `told` (the person was told).
    pub result: String,
    pub detail: String,
}

/// A task's record: its calls, the messages added to it, and its checks' notes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TaskRecord {
    pub task_id: i64,
    pub calls: Vec<AuditEntry>,
    pub added: Vec<AddedMessage>,
    pub checks: Vec<CheckNote>,
}

/// Writes that the person added `text` to task `task_id`, and what became of it.
pub fn note_added(
    conn: &Connection,
    task_id: i64,
    text: &str,
    fate: AddedFate,
    new_task_id: Option<i64>,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO added_messages (task_id, text, fate, new_task_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![task_id, text, fate.as_str(), new_task_id, now_ms()],
    )
    .map(|_| ())
}

/// Marks the held message `id` as sent: it ran as task `new_task_id`. `None` when no
/// held message has that id (sent already, or never held).
pub fn sent_held(conn: &Connection, id: i64, new_task_id: i64) -> rusqlite::Result<Option<()>> {
    let changed = conn.execute(
        "UPDATE added_messages SET fate = 'requeued', new_task_id = ?2
         WHERE id = ?1 AND fate = 'held'",
        params![id, new_task_id],
    )?;
    Ok((changed == 1).then_some(()))
}

/// The text of the held message `id`, if it is still held.
pub fn held_text(conn: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    let mut stmt =
        conn.prepare("SELECT text FROM added_messages WHERE id = ?1 AND fate = 'held'")?;
    let mut rows = stmt.query([id])?;
    rows.next()?.map(|r| r.get(0)).transpose()
}

impl AuditLog {
    /// Writes that the person added `text` to task `task_id` (see [`note_added`]).
    pub fn note_added(
        &self,
        task_id: i64,
        text: &str,
        fate: AddedFate,
        new_task_id: Option<i64>,
    ) -> Result<(), CoreError> {
        self.with_conn(|conn| note_added(conn, task_id, text, fate, new_task_id))
    }

    /// Task `task_id`'s record.
    pub fn record_of(&self, task_id: i64) -> Result<TaskRecord, CoreError> {
        let calls = self.for_task(task_id)?;
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, text, fate, new_task_id, created_at FROM added_messages
                 WHERE task_id = ?1 ORDER BY id",
            )?;
            let added = stmt
                .query_map([task_id], |r| {
                    let fate: String = r.get(2)?;
                    Ok(AddedMessage {
                        id: r.get(0)?,
                        text: r.get(1)?,
                        fate: AddedFate::parse(&fate).unwrap_or(AddedFate::Read),
                        new_task_id: r.get(3)?,
                        created_at: r.get(4)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut stmt = conn.prepare(
                "SELECT check_name, result, detail FROM answer_checks
                 WHERE task_id = ?1 ORDER BY id",
            )?;
            let checks = stmt
                .query_map([task_id], |r| {
                    Ok(CheckNote {
                        check: r.get(0)?,
                        result: r.get(1)?,
                        detail: r.get(2)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(TaskRecord {
                task_id,
                calls,
                added,
                checks,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tasks_record_holds_its_added_messages_and_a_held_one_is_sent_once() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::open(&dir.path().join("zeta.db")).unwrap();
        log.note_added(4, "also the logs", AddedFate::Read, None)
            .unwrap();
        log.note_added(4, "and tmp", AddedFate::Held, None).unwrap();
        log.note_added(5, "other task", AddedFate::Requeued, Some(6))
            .unwrap();
        let record = log.record_of(4).unwrap();
        let fates: Vec<(&str, AddedFate)> = record
            .added
            .iter()
            .map(|a| (a.text.as_str(), a.fate))
            .collect();
        assert_eq!(
            fates,
            [
                ("also the logs", AddedFate::Read),
                ("and tmp", AddedFate::Held)
            ]
        );
        let held = record.added[1].id;
        log.with_conn(|c| {
            assert_eq!(held_text(c, held)?.as_deref(), Some("and tmp"));
            assert_eq!(sent_held(c, held, 9)?, Some(()));
            assert_eq!(sent_held(c, held, 10)?, None, "sent once");
            assert_eq!(held_text(c, held)?, None);
            Ok(())
        })
        .unwrap();
        let after = log.record_of(4).unwrap();
        assert_eq!(after.added[1].fate, AddedFate::Requeued);
        assert_eq!(after.added[1].new_task_id, Some(9));
    }
}
