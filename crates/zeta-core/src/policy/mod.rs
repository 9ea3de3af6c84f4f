//! What the agent may do: standing approvals the user gave (`allowance`), whether a call
//! runs, asks first or is refused (`permission`), how often a tool may run
//! (`rate_limit`), how risky a command is (`risk`), how untrusted data is wrapped and
//! instruction-like text noticed (`injection`), where tool processes may write
//! (`writable`), and how a call's text is shown for approval, whole and with what would
//! hide part of it made visible (`shown`). What a command line will do is the judge's
//! (the `zeta-judge` crate, here as `shell`, with `read_only`, `provenance` and
//! `session`).

pub mod allowance;
pub mod injection;
pub mod permission;
pub mod rate_limit;
pub mod risk;
pub mod shown;
pub mod writable;

/// The judge of command lines (`zeta-judge`).
pub use zeta_judge as shell;
pub use zeta_judge::{provenance, read_only, session};

pub use allowance::{allowance_for, covered, Allowance};
pub use injection::{instruction_like, wrap_untrusted};
pub use permission::{decide, tool_permission, Decision, PermissionMode, ToolPermission};
pub use provenance::reports_metadata_only;
pub use rate_limit::{DefaultRateLimit, RateLimit, RateLimited, SessionCounts, TaskCounts};
pub use read_only::reads_only;
pub use risk::command_risk;
pub use shell::{check_command, judge, judge_with_writes, Blocked, ShellEnv, Verdict};
pub use writable::{Grant, Writable};
