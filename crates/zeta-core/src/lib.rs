//! zeta-core: everything Zeta does without a GUI, a provider or a platform API. The words
//! it speaks (`Op` in, `Event` out, tasks, settings types, the home's layout) are
//! zeta-protocol's.
//!
//! - [`worker`]: the one worker that takes tasks from the queue and runs them.
//! - [`recovery`]: what a restart does with a task Zeta was running when it stopped.
//! - [`agent`]: the seam between the worker and what runs a task.
//! - [`agent_loop`]: the iterative plan → act → observe loop.
//! - [`assist`]: what the loop knows of a task beyond the conversation: the request parsed
//!   once, the evidence of what its calls did, and the named checks an answer must pass.
//! - [`model`]: conversation types and the `Model` trait providers implement.
//! - [`tool`]: the `Tool` trait and registry tools plug into.
//! - [`store`]: everything in the database: the schema, the task queue (seed 000's
//!   semantics), the audit log and metrics, memory, scheduled jobs.
//! - [`settings`]: `settings.json`, read fresh for every task.
//! - [`policy`]: blocked commands and the permission decision.
//! - [`context`]: token counts, compaction and large-output compression (seed 003).
//! - [`prompts`]: the texts the model reads, as files in `prompts/`.
//! - [`text`]: text cut to fit where it is shown.
//! - [`undo`]: what each call changed on disk, kept so a task can be undone.
//! - [`bounded`]: size-limited reads of the text files Zeta takes from outside.

pub mod agent;
pub mod agent_loop;
pub mod assist;
pub mod bounded;
pub mod context;
pub mod error;
pub mod lock;
pub mod model;
pub mod policy;
pub mod prompts;
pub mod recovery;
pub mod settings;
pub mod store;
pub mod text;
pub mod tool;
pub mod undo;
pub mod worker;

pub use agent::{Agent, AgentOutcome, CancelToken, TaskContext, Unconfigured};
pub use agent_loop::{AgentLoop, Confinement};
pub use error::CoreError;
pub use settings::{LoadedSettings, Settings, SettingsProblem};
pub use store::queue::TaskQueue;
pub use worker::{spawn_worker, Core, WorkerOptions};
pub use zeta_protocol::{
    ApprovalScope, ConversationSummary, Event, Op, Task, TaskStatus, WorkerState, ZetaHome,
};
