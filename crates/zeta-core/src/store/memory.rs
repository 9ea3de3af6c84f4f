//! What the agent remembers across tasks and restarts (seeds 001, 004), in the queue's
//! SQLite file: facts it saved (`memory_save`), searched with full-text search
//! (`memory_search`, FTS5 with BM25 ranking), and a long-term summary of recent tasks that
//! opens every task's conversation. The user lists and forgets facts (`zeta memory`, UI).

use std::path::Path;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use crate::error::CoreError;
use crate::store::db::SharedDb;
use crate::store::queue::now_ms;

/// One remembered fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Fact {
    pub id: i64,
    pub text: String,
    pub tags: String,
    pub task_id: Option<i64>,
    pub created_at: i64,
    /// Saved by a task that had read input the user did not type: it reaches later tasks
    /// as untrusted data.
    pub untrusted: bool,
}

/// Starts a summary line from a task that had read input the user did not type.
pub const UNTRUSTED_LINE: &str = "(untrusted) ";

/// Longest long-term summary kept, in characters (the oldest lines go first).
pub const SUMMARY_MAX_CHARS: usize = 2000;

#[derive(Clone)]
pub struct MemoryStore {
    db: SharedDb,
}

impl MemoryStore {
    pub fn open(db: &Path) -> Result<Self, CoreError> {
        Ok(Self {
            db: SharedDb::open(db)?,
        })
    }

    pub fn save(
        &self,
        text: &str,
        tags: &str,
        task_id: Option<i64>,
        untrusted: bool,
    ) -> Result<Fact, CoreError> {
        let created_at = now_ms();
        let id = self.db.with(|c| {
            c.execute(
                "INSERT INTO memory_facts (text, tags, task_id, created_at, untrusted) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![text, tags, task_id, created_at, untrusted],
            )?;
            Ok(c.last_insert_rowid())
        })?;
        Ok(Fact {
            id,
            text: text.into(),
            tags: tags.into(),
            task_id,
            created_at,
            untrusted,
        })
    }

    /// Facts matching any word of `query` (prefix matches; common words ignored), those
    /// matching more and rarer words first (BM25).
    pub fn search(&self, query: &str, limit: u32) -> Result<Vec<Fact>, CoreError> {
        let Some(fts) = fts_query(query) else {
            return Ok(Vec::new());
        };
        self.db.with(|c| {
            let mut stmt = c.prepare(
                "SELECT f.id, f.text, f.tags, f.task_id, f.created_at, f.untrusted FROM memory_fts
                 JOIN memory_facts f ON f.id = memory_fts.rowid
                 WHERE memory_fts MATCH ?1 ORDER BY bm25(memory_fts) LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![fts, limit], row_to_fact)?;
            rows.collect()
        })
    }

    /// Every fact, newest first.
    pub fn list(&self, limit: u32) -> Result<Vec<Fact>, CoreError> {
        self.db.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id, text, tags, task_id, created_at, untrusted FROM memory_facts ORDER BY id DESC LIMIT ?1",
            )?;
            let rows = stmt.query_map([limit], row_to_fact)?;
            rows.collect()
        })
    }

    /// Deletes fact `id`; false when there was none.
    pub fn forget(&self, id: i64) -> Result<bool, CoreError> {
        self.db.with(|c| {
            c.execute("DELETE FROM memory_facts WHERE id = ?1", [id])
                .map(|n| n > 0)
        })
    }

    pub fn summary(&self) -> Result<String, CoreError> {
        self.db.with(|c| {
            let mut stmt = c.prepare("SELECT text FROM memory_summary WHERE id = 1")?;
            let mut rows = stmt.query([])?;
            Ok(match rows.next()? {
                Some(row) => row.get(0)?,
                None => String::new(),
            })
        })
    }

    /// Adds one line to the long-term summary, dropping the oldest lines past the cap. A
    /// line from a task that read untrusted input starts with `UNTRUSTED_LINE`.
    pub fn note_task(&self, line: &str, untrusted: bool) -> Result<(), CoreError> {
        let mut lines: Vec<String> = self.summary()?.lines().map(str::to_string).collect();
        let mark = if untrusted { UNTRUSTED_LINE } else { "" };
        lines.push(format!("{mark}{}", crate::text::one_line(line, 400)));
        while lines.iter().map(|l| l.len() + 1).sum::<usize>() > SUMMARY_MAX_CHARS
            && lines.len() > 1
        {
            lines.remove(0);
        }
        let text = lines.join("\n");
        self.db.with(|c| {
            c.execute(
                "INSERT INTO memory_summary (id, text, updated_at) VALUES (1, ?1, ?2)
                 ON CONFLICT(id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at",
                params![text, now_ms()],
            )
            .map(|_| ())
        })
    }

    /// Clears the long-term summary (the user asked to forget everything).
    pub fn clear_summary(&self) -> Result<(), CoreError> {
        self.db
            .with(|c| c.execute("DELETE FROM memory_summary", []).map(|_| ()))
    }
}

fn row_to_fact(r: &rusqlite::Row<'_>) -> rusqlite::Result<Fact> {
    Ok(Fact {
        id: r.get(0)?,
        text: r.get(1)?,
        tags: r.get(2)?,
        task_id: r.get(3)?,
        created_at: r.get(4)?,
        untrusted: r.get(5)?,
    })
}

/// Words too common to search by.
const STOPWORDS: &[&str] = &[
    "the", "and", "for", "are", "was", "you", "your", "with", "that", "this", "what", "where",
    "when", "which", "who", "how", "why", "from", "have", "has", "can", "could", "would", "should",
    "please", "about", "into", "its", "our", "their", "them", "they", "there",
];

/// The words of `query` as an FTS5 query: each quoted (so punctuation cannot break the
/// syntax), prefix-matched, any of them.
fn fts_query(query: &str) -> Option<String> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 2 && !STOPWORDS.contains(&w.as_str()))
        .map(|w| format!("\"{w}\"*"))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

/// A task's line in the long-term summary, from what the evidence shows: what was asked,
/// what ran (and how it ended) from the audit, what did not happen (refused, skipped,
/// failed), and the reply as what Zeta said, never as a fact of its own. When something
/// did not happen, the line says so beside the reply, so a later task does not take "All
/// clean." for what was done.
pub fn task_line(
    task_id: i64,
    asked: &str,
    reply: &str,
    calls: &[crate::store::audit::AuditEntry],
) -> String {
    use crate::store::audit::CallDecision;
    use crate::text::clip;
    let brief = |c: &crate::store::audit::AuditEntry| {
        let args: serde_json::Value = serde_json::from_str(&c.arguments).unwrap_or_default();
        let what = ["command", "path", "url", "name", "query"]
            .iter()
            .find_map(|k| args.get(*k).and_then(|v| v.as_str()))
            .unwrap_or_default();
        clip(
            &crate::text::one_line(&format!("{} {what}", c.tool), 60),
            40,
        )
    };
    let (mut ran, mut failed, mut not_run) = (Vec::new(), Vec::new(), Vec::new());
    for call in calls.iter().filter(|c| c.tool != crate::tool::PROPOSE_PLAN) {
        match CallDecision::parse(&call.decision) {
            Some(d) if d.lets_run() && call.ok => ran.push(brief(call)),
            Some(d) if d.lets_run() || d == CallDecision::Invalid => failed.push(brief(call)),
            Some(_) => not_run.push(brief(call)),
            None => failed.push(brief(call)),
        }
    }
    let list = |v: &[String]| {
        let shown = v.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
        match v.len() {
            n if n > 3 => format!("{shown} and {} more", n - 3),
            _ => shown,
        }
    };
    let mut line = format!("Task {task_id}: asked \"{}\"", clip(asked, 60));
    if !ran.is_empty() {
        line.push_str(&format!("; ran {}", list(&ran)));
    }
    if !failed.is_empty() {
        line.push_str(&format!("; failed: {}", list(&failed)));
    }
    if !not_run.is_empty() {
        line.push_str(&format!(
            "; not run (refused or skipped): {}",
            list(&not_run)
        ));
    }
    let said = clip(&crate::text::one_line(reply, 200), 80);
    if failed.is_empty() && not_run.is_empty() {
        line.push_str(&format!("; Zeta replied \"{said}\""));
    } else {
        line.push_str(&format!(
            "; Zeta replied \"{said}\" (a claim: what is listed as failed or not run did not happen)"
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(
        tool: &str,
        command: &str,
        decision: &str,
        ok: bool,
    ) -> crate::store::audit::AuditEntry {
        crate::store::audit::AuditEntry {
            id: 1,
            task_id: 7,
            call_id: "c".into(),
            tool: tool.into(),
            arguments: serde_json::json!({ "command": command }).to_string(),
            decision: decision.into(),
            decided_by: "user".into(),
            ok,
            summary: String::new(),
            created_at: 0,
            state: "finished".into(),
        }
    }

    /// The summary keeps what the evidence shows: a refused, a skipped or a failed call
    /// is named as not done beside the reply, which stays a claim; a task whose calls all
    /// ran keeps its reply plainly.
    #[test]
    fn a_tasks_line_keeps_what_happened_and_marks_the_reply_as_a_claim_when_it_may_not_be() {
        let denied = task_line(
            7,
            "clean the temp folder",
            "All clean.",
            &[
                call("shell", "ls /tmp", "allowed", true),
                call("shell", "rm -rf /tmp/x", "asked-denied", false),
            ],
        );
        assert!(denied.contains("ran shell ls /tmp"), "{denied}");
        assert!(
            denied.contains("not run (refused or skipped): shell rm -rf /tmp/x"),
            "{denied}"
        );
        assert!(denied.contains("\"All clean.\" (a claim"), "{denied}");
        for (decision, ok, word) in [
            ("user-skipped", false, "not run"),
            ("blocked", false, "not run"),
            ("allowed", false, "failed:"),
            ("invalid", false, "failed:"),
        ] {
            let line = task_line(
                7,
                "do it",
                "Done.",
                &[call("shell", "touch a", decision, ok)],
            );
            assert!(
                line.contains(word) && line.contains("(a claim"),
                "{decision}: {line}"
            );
        }
        let plain = task_line(
            7,
            "list files",
            "3 files.",
            &[call("shell", "ls", "allowed", true)],
        );
        assert!(plain.ends_with("Zeta replied \"3 files.\""), "{plain}");
        let many: Vec<_> = (0..6)
            .map(|i| call("shell", &format!("echo {i}"), "allowed", true))
            .collect();
        assert!(task_line(7, "x", "y", &many).contains("and 3 more"));
    }

    #[test]
    fn facts_are_found_by_words_in_any_order_and_forgotten() {
        let dir = tempfile::tempdir().expect("dir");
        let db = dir.path().join("zeta.db");
        let store = MemoryStore::open(&db).expect("open");
        store
            .save(
                "The user's backup drive is /mnt/backup-disk",
                "backup drive",
                Some(1),
                false,
            )
            .expect("save");
        store
            .save("Preferred editor: helix", "editor", None, false)
            .expect("save");
        let found = store.search("backup drive?", 5).expect("search");
        assert_eq!(found.len(), 1);
        assert!(found[0].text.contains("/mnt/backup-disk"));
        assert_eq!(
            store.search("DRIVE backup", 5).expect("search").len(),
            1,
            "any order, any case"
        );
        assert_eq!(
            store.search("edit", 5).expect("search").len(),
            1,
            "prefixes match"
        );
        assert!(store
            .search("\"); DROP TABLE memory_facts; --", 5)
            .expect("search")
            .is_empty());
        let ranked = store.search("where is my backup drive", 5).expect("search");
        assert_eq!(ranked.len(), 1, "a question finds the fact: {ranked:?}");
        assert!(
            store
                .search("the what where", 5)
                .expect("search")
                .is_empty(),
            "stopwords alone"
        );
        // A second connection (another process, or after a restart) sees the same facts.
        let again = MemoryStore::open(&db).expect("reopen");
        assert_eq!(again.list(10).expect("list").len(), 2);
        assert!(again.forget(found[0].id).expect("forget"));
        assert!(!again.forget(found[0].id).expect("forget twice"));
        assert!(
            store.search("backup", 5).expect("search").is_empty(),
            "gone from the index too"
        );
    }

    #[test]
    fn the_summary_keeps_the_newest_lines_within_its_cap() {
        let dir = tempfile::tempdir().expect("dir");
        let store = MemoryStore::open(&dir.path().join("zeta.db")).expect("open");
        assert_eq!(store.summary().expect("empty"), "");
        for i in 0..100 {
            store
                .note_task(
                    &format!("task {i}: asked something and got an answer of some length"),
                    false,
                )
                .expect("note");
        }
        let summary = store.summary().expect("summary");
        assert!(summary.len() <= SUMMARY_MAX_CHARS);
        assert!(summary.ends_with("task 99: asked something and got an answer of some length"));
        assert!(!summary.contains("task 0:"));
    }
}
