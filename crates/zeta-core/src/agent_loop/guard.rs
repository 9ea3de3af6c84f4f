//! Guardrails that stop the loop from spinning: the same tool call again in a row (the
//! second time it is not run but answered with the earlier output and a hint, a small
//! model often only needs that, unless that call failed: a tool may hold a call once and
//! take it made again, and what failed may go through now; the third time the loop
//! stops with what it found), the
//! same call a fourth time in one task even with others between (a model alternating
//! two calls never repeats one in a row), four tool failures in a row, and unparseable
//! output after one corrective retry.

use crate::model::ToolCall;

pub const SAME_CALL_LIMIT: usize = 3;
/// The same call this many times in one task, in a row or not, stops the loop.
pub const SAME_CALL_TASK_LIMIT: usize = 4;
pub const FAILURE_STREAK_LIMIT: usize = 4;
/// Corrective retries for unparseable output before giving up.
pub const PARSE_RETRIES: usize = 1;

#[derive(Debug, Default)]
pub struct Guard {
    last_call: Option<(String, String)>,
    same_call_count: usize,
    /// Each call of the task, with how often it came.
    seen: std::collections::HashMap<(String, String), usize>,
    failure_streak: usize,
    parse_failures: usize,
    /// The last call that ran went through.
    last_ok: bool,
}

/// Whether a call repeats the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// Not the call just made: it runs.
    No,
    /// The same as the call just made: it gets that call's output again, with a hint.
    Again,
}

/// Why the loop was stopped, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tripped(pub String);

impl Guard {
    /// `call` is the call just made (same tool, same arguments).
    pub fn is_last_call(&self, call: &ToolCall) -> bool {
        self.last_call.as_ref().is_some_and(|(name, arguments)| {
            *name == call.name
                && serde_json::from_str(arguments).ok().as_ref() == Some(&call.arguments)
        })
    }

    /// Before running a call: a repeat of the call just made, or a trip when it is the
    /// third identical call in a row, or the fourth in the task of the same thing
    /// (`identity`, where the tool gives one: `Tool::identity`; else its arguments; both
    /// counts go by it).
    pub fn before_call(
        &mut self,
        call: &ToolCall,
        identity: Option<String>,
    ) -> Result<Repeat, Tripped> {
        // The tool's identity where it gives one: a keypad's "0" pressed for the second
        // digit of "100" and again for the third are two steps, not one call repeated.
        let key = (
            call.name.clone(),
            identity
                .clone()
                .unwrap_or_else(|| call.arguments.to_string()),
        );
        if self.last_call.as_ref() == Some(&key) {
            self.same_call_count += 1;
        } else {
            self.last_call = Some(key);
            self.same_call_count = 1;
        }
        if self.same_call_count >= SAME_CALL_LIMIT {
            return Err(Tripped(format!(
                "the model asked for the same `{}` call {SAME_CALL_LIMIT} times in a row ({})",
                call.name, call.arguments
            )));
        }
        let what = identity.unwrap_or_else(|| call.arguments.to_string());
        let times = self
            .seen
            .entry((call.name.clone(), what.clone()))
            .or_insert(0);
        *times += 1;
        if *times >= SAME_CALL_TASK_LIMIT {
            return Err(Tripped(format!(
                "the model kept coming back to the same `{}` call ({what}), {SAME_CALL_TASK_LIMIT} times in this task",
                call.name
            )));
        }
        // A call that failed, made again, runs again (seen: an editor's text held once
        // with "make the same call again", then answered with the refusal again).
        Ok(if self.same_call_count > 1 && self.last_ok {
            Repeat::Again
        } else {
            Repeat::No
        })
    }

    /// After a call: trips on the fourth failure in a row.
    pub fn after_call(&mut self, ok: bool) -> Result<(), Tripped> {
        self.last_ok = ok;
        self.failure_streak = if ok { 0 } else { self.failure_streak + 1 };
        if self.failure_streak >= FAILURE_STREAK_LIMIT {
            return Err(Tripped(format!(
                "I stopped after {FAILURE_STREAK_LIMIT} tool calls failed in a row."
            )));
        }
        Ok(())
    }

    /// A model reply could not be understood: `Ok` means send the hint and try again.
    pub fn unparseable(&mut self, hint: &str) -> Result<(), Tripped> {
        self.parse_failures += 1;
        if self.parse_failures > PARSE_RETRIES {
            return Err(Tripped(format!(
                "I stopped because the model's reply could not be understood even after a corrective hint ({hint})."
            )));
        }
        Ok(())
    }

    /// A reply was understood: the next bad one gets its own retry again.
    pub fn parsed(&mut self) {
        self.parse_failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn two_calls_in_turn_stop_at_the_fourth_of_one() {
        let mut g = Guard::default();
        let (a, b) = (call("df -h /"), call("echo $USER"));
        for _ in 0..3 {
            assert_eq!(g.before_call(&a, None), Ok(Repeat::No));
            assert_eq!(g.before_call(&b, None), Ok(Repeat::No));
        }
        let tripped = g.before_call(&a, None).expect_err("a fourth df");
        assert!(tripped.0.contains("4 times in this task"), "{}", tripped.0);
    }

    fn call(cmd: &str) -> ToolCall {
        ToolCall {
            id: "x".into(),
            name: "shell".into(),
            arguments: json!({ "command": cmd }),
        }
    }

    #[test]
    fn third_identical_call_in_a_row_trips() {
        let mut g = Guard::default();
        assert_eq!(g.before_call(&call("ls"), None), Ok(Repeat::No));
        assert!(g.after_call(true).is_ok());
        assert_eq!(g.before_call(&call("ls"), None), Ok(Repeat::Again));
        assert_eq!(
            g.before_call(&call("pwd"), None),
            Ok(Repeat::No),
            "a different call resets"
        );
        assert!(g.after_call(true).is_ok());
        assert_eq!(g.before_call(&call("pwd"), None), Ok(Repeat::Again));
        assert!(g.before_call(&call("pwd"), None).is_err());
    }

    /// A call that failed, made again, runs again (a tool that held it once takes it
    /// then); the third in a row still trips.
    #[test]
    fn a_failed_call_made_again_runs_again() {
        let mut g = Guard::default();
        assert_eq!(g.before_call(&call("ls /x"), None), Ok(Repeat::No));
        assert!(g.after_call(false).is_ok());
        assert_eq!(g.before_call(&call("ls /x"), None), Ok(Repeat::No));
        assert!(g.after_call(false).is_ok());
        assert!(g.before_call(&call("ls /x"), None).is_err());
    }

    #[test]
    fn fourth_failure_in_a_row_trips_and_success_resets() {
        let mut g = Guard::default();
        for _ in 0..3 {
            assert!(g.after_call(false).is_ok());
        }
        assert!(g.after_call(true).is_ok());
        for _ in 0..3 {
            assert!(g.after_call(false).is_ok());
        }
        assert!(g.after_call(false).is_err());
    }

    #[test]
    fn one_corrective_retry_then_stop() {
        let mut g = Guard::default();
        assert!(g.unparseable("h").is_ok());
        assert!(g.unparseable("h").is_err());
        let mut g = Guard::default();
        assert!(g.unparseable("h").is_ok());
        g.parsed();
        assert!(g.unparseable("h").is_ok());
    }

    /// Calls whose arguments differ but act on the same thing (an OCR word renumbered at
    /// each reading) come back to it: the fourth in the task trips.
    #[test]
    fn the_same_thing_under_other_numbers_trips_at_the_fourth() {
        let mut g = Guard::default();
        let press = |n: u64| ToolCall {
            id: format!("c{n}"),
            name: "ui_act".into(),
            arguments: serde_json::json!({"element": n, "action": "press"}),
        };
        let and = || Some("press \"and\" at 580,370".to_string());
        let or = || Some("press \"or\" at 630,370".to_string());
        for (n, id) in [
            (59, and()),
            (100, or()),
            (139, and()),
            (218, or()),
            (259, and()),
        ] {
            assert_eq!(g.before_call(&press(n), id), Ok(Repeat::No), "{n}");
        }
        let tripped = g
            .before_call(&press(300), and())
            .expect_err("a fourth \"and\"");
        assert!(tripped.0.contains("\"and\""), "{}", tripped.0);
    }
}
