//! zeta-core: everything Zeta does without a GUI, a provider or a platform API. The words
//! it speaks (`Op` in, `Event` out, tasks, settings types, the home's layout) are
//! zeta-protocol's.
//!
//! - [`queue`]: the SQLite task queue with seed 000's semantics.
//! - [`worker`]: the one worker that takes tasks from the queue and runs them.
//! - [`recovery`]: what a restart does with a task Zeta was running when it stopped.
//! - [`agent`]: the seam between the worker and what runs a task.
//! - [`agent_loop`]: the iterative plan → act → observe loop.
//! - [`model`]: conversation types and the `Model` trait providers implement.
//! - [`tool`]: the `Tool` trait and registry tools plug into.
//! - [`settings`]: `settings.json`, read fresh for every task.
//! - [`audit`]: the audit log of tool calls and their decisions.
//! - [`metrics`]: per-task counts of model requests, tool calls, denials and tokens.
//! - [`policy`]: blocked commands and the permission decision.
//! - [`context`]: token counts, compaction and large-output compression (seed 003).
//! - [`memory`]: facts the agent saved, full-text search, the long-term summary.
//! - [`scheduler`]: scheduled jobs (cron or once) enqueued as tasks when due.
//! - [`bounded`]: size-limited reads of the text files Zeta takes from outside.

pub mod agent;
pub mod agent_loop;
pub mod audit;
pub mod bounded;
pub mod context;
pub mod db;
pub mod error;
pub mod lock;
pub mod memory;
pub mod metrics;
pub mod model;
pub mod policy;
pub mod queue;
pub mod recovery;
pub mod scheduler;
pub mod settings;
pub mod tool;
pub mod worker;

pub use agent::{Agent, AgentOutcome, CancelToken, TaskContext, Unconfigured};
pub use agent_loop::{AgentLoop, Confinement};
pub use error::CoreError;
pub use queue::TaskQueue;
pub use settings::{LoadedSettings, Settings, SettingsProblem};
pub use worker::{spawn_worker, Core, WorkerOptions};
pub use zeta_protocol::{
    ApprovalScope, ConversationSummary, Event, Op, Task, TaskStatus, WorkerState, ZetaHome,
};
