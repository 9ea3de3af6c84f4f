//! The verdict a walk builds up: the strongest of what the rules found (a block over an
//! ask over an allow), or nothing at all when the walk only collects (`Seen`).

use crate::Verdict;

#[derive(Debug)]
pub struct Findings {
    verdict: Verdict,
    /// Only collect what the line does (programs, writes), judging nothing.
    pub collect_only: bool,
}

impl Default for Findings {
    fn default() -> Self {
        Self {
            verdict: Verdict::Allow,
            collect_only: false,
        }
    }
}

impl Findings {
    /// Adds what a rule found.
    pub fn add(&mut self, verdict: Verdict) {
        if !self.collect_only {
            let current = std::mem::replace(&mut self.verdict, Verdict::Allow);
            self.verdict = current.and(verdict);
        }
    }

    /// The verdict so far.
    pub fn verdict(&self) -> Verdict {
        self.verdict.clone()
    }
}
