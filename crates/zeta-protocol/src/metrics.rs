//! Per-task metrics (seed 001): model requests and failures, tool calls and failures,
//! denials, compactions, and tokens in and out, as `Event::TaskMetrics` carries them.

use serde::{Deserialize, Serialize};

use crate::decision::CallDecision;

/// What one task used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TaskMetrics {
    pub task_id: i64,
    pub llm_requests: u32,
    pub llm_failures: u32,
    pub tool_calls: u32,
    pub tool_failures: u32,
    /// Calls refused: denied by policy or the user, blocked, or rate-limited.
    pub denials: u32,
    pub compactions: u32,
    pub tokens_in: u64,
    pub tokens_out: u64,
}

impl TaskMetrics {
    /// Counts one call by how it was decided and whether it succeeded.
    pub fn count_call(&mut self, decision: CallDecision, ok: bool) {
        // A step the user skipped did not run: it is no call.
        if decision == CallDecision::Skipped {
            return;
        }
        self.tool_calls += 1;
        if !ok {
            self.tool_failures += 1;
        }
        if decision.refused() {
            self.denials += 1;
        }
    }
}
