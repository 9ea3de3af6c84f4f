//! What the agent may do: standing approvals the user gave (`allowance`), commands that never run or only a person may approve (`shell`), whether a call runs, asks
//! first or is refused (`permission`), how often a tool may run (`rate_limit`), which commands only read (`read_only`), how risky a
//! command is (`risk`), which observations are untrusted input (`provenance`), and how
//! untrusted data is wrapped and instruction-like text noticed (`injection`), where tool
//! processes may write (`writable`), and how a call's text is shown for approval, whole
//! and with what would hide part of it made visible (`shown`), and which
//! commands reach the person's desktop session and how (`session`).

pub mod allowance;
pub mod injection;
pub mod permission;
pub mod provenance;
pub mod rate_limit;
pub mod read_only;
pub mod risk;
pub mod session;
pub mod shell;
pub mod shown;
pub mod writable;

pub use allowance::{allowance_for, covered, Allowance};
pub use injection::{instruction_like, wrap_untrusted};
pub use permission::{decide, tool_permission, Decision, PermissionMode, ToolPermission};
pub use provenance::reports_metadata_only;
pub use rate_limit::{DefaultRateLimit, RateLimit, RateLimited, SessionCounts, TaskCounts};
pub use read_only::reads_only;
pub use risk::command_risk;
pub use shell::{check_command, judge, judge_with_writes, Blocked, ShellEnv, Verdict};
pub use writable::{Grant, Writable};
