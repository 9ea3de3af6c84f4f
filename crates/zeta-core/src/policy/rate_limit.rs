//! Rate limits per tool, per task and per session (seed 001): how many calls of one tool
//! may run in one task, and in the life of one worker. A call over a limit does not run;
//! the model reads why.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

pub use zeta_protocol::settings::{DefaultRateLimit, RateLimit};

/// A call that went over a limit; its `Display` is what the model reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimited {
    pub tool: String,
    pub limit: u32,
    pub scope: &'static str,
}

impl std::fmt::Display for RateLimited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rate limit: `{}` may run at most {} times per {}, and that many calls were made",
            self.tool, self.limit, self.scope
        )
    }
}

/// Calls counted per tool for the session (shared by every task of one worker).
#[derive(Debug, Clone, Default)]
pub struct SessionCounts(Arc<Mutex<HashMap<String, u32>>>);

/// Calls counted per tool within one task.
#[derive(Debug, Clone, Default)]
pub struct TaskCounts(HashMap<String, u32>);

impl SessionCounts {
    /// Admits one call of `tool` and counts it, or refuses it without counting.
    pub fn admit(
        &self,
        task: &mut TaskCounts,
        tool: &str,
        limits: &BTreeMap<String, RateLimit>,
        default: DefaultRateLimit,
    ) -> Result<(), RateLimited> {
        let own = limits.get(tool).copied().unwrap_or_default();
        let per_task = own.per_task.unwrap_or(default.per_task);
        let per_session = own.per_session.unwrap_or(default.per_session);
        let used_in_task = task.0.get(tool).copied().unwrap_or(0);
        if used_in_task >= per_task {
            return Err(RateLimited {
                tool: tool.to_string(),
                limit: per_task,
                scope: "task",
            });
        }
        // A poisoned lock only means another task panicked mid-count; the counts stand.
        let mut session = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let used_in_session = session.get(tool).copied().unwrap_or(0);
        if used_in_session >= per_session {
            return Err(RateLimited {
                tool: tool.to_string(),
                limit: per_session,
                scope: "session",
            });
        }
        session.insert(tool.to_string(), used_in_session + 1);
        task.0.insert(tool.to_string(), used_in_task + 1);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(
        tool: &str,
        per_task: Option<u32>,
        per_session: Option<u32>,
    ) -> BTreeMap<String, RateLimit> {
        BTreeMap::from([(
            tool.to_string(),
            RateLimit {
                per_task,
                per_session,
            },
        )])
    }

    #[test]
    fn a_task_limit_refuses_the_call_over_it_and_resets_per_task() {
        let session = SessionCounts::default();
        let l = limits("shell", Some(2), None);
        let d = DefaultRateLimit::default();
        let mut task = TaskCounts::default();
        assert!(session.admit(&mut task, "shell", &l, d).is_ok());
        assert!(session.admit(&mut task, "shell", &l, d).is_ok());
        let refused = session.admit(&mut task, "shell", &l, d).unwrap_err();
        assert_eq!(refused.scope, "task");
        assert_eq!(refused.limit, 2);
        assert!(
            session.admit(&mut task, "read_file", &l, d).is_ok(),
            "other tools are counted apart"
        );
        let mut next_task = TaskCounts::default();
        assert!(session.admit(&mut next_task, "shell", &l, d).is_ok());
    }

    #[test]
    fn a_session_limit_spans_tasks_and_refused_calls_are_not_counted() {
        let session = SessionCounts::default();
        let l = limits("mouse", None, Some(3));
        let d = DefaultRateLimit::default();
        let mut a = TaskCounts::default();
        let mut b = TaskCounts::default();
        assert!(session.admit(&mut a, "mouse", &l, d).is_ok());
        assert!(session.admit(&mut a, "mouse", &l, d).is_ok());
        assert!(session.admit(&mut b, "mouse", &l, d).is_ok());
        assert_eq!(
            session.admit(&mut b, "mouse", &l, d).unwrap_err().scope,
            "session"
        );
        assert_eq!(
            session.admit(&mut a, "mouse", &l, d).unwrap_err().scope,
            "session"
        );
    }

    #[test]
    fn the_default_applies_to_tools_without_their_own_limit() {
        let session = SessionCounts::default();
        let d = DefaultRateLimit {
            per_task: 1,
            per_session: 10,
        };
        let mut task = TaskCounts::default();
        assert!(session
            .admit(&mut task, "http_request", &BTreeMap::new(), d)
            .is_ok());
        let refused = session
            .admit(&mut task, "http_request", &BTreeMap::new(), d)
            .unwrap_err();
        assert!(
            refused.to_string().contains("at most 1 times per task"),
            "{refused}"
        );
    }
}
