//! zeta-protocol: the words Zeta's parts speak to each other, with no SQLite, no async
//! runtime and no tokenizer. The core, the app, the CLI, voice and the tests all depend on
//! it; it depends on nothing of theirs.
//!
//! - [`op`]: what goes into the core (`Op`).
//! - [`event`]: what comes out of it (`Event`).
//! - [`task`]: tasks, their status, conversations, and what fixes a failed one.
//! - [`decision`]: what was decided about a tool call, and by whom (the audit's words).
//! - [`metrics`]: what one task used.
//! - [`risk`]: how much harm a call could do.
//! - [`settings`]: the settings' types and defaults.
//! - [`voice`]: push-to-talk's state, events and hotkey.
//! - [`changes`]: what a task changed on disk, file by file.
//! - [`control`]: the running app's control socket, typed.
//! - [`home`]: where every file lives (`$ZETA_HOME`), owner-only.
//! - [`mcp`]: MCP servers as `settings.json` names them, read into typed configs.

pub mod changes;
pub mod control;
pub mod decision;
pub mod event;
pub mod home;
pub mod mcp;
pub mod metrics;
pub mod op;
pub mod risk;
pub mod settings;
pub mod task;
pub mod voice;

pub use decision::{CallDecision, CallState, Decider};
pub use event::{CheckResult, CompactionKind, Event, PlanStepView, StepStatus, WorkerState};
pub use home::{HomeError, ZetaHome};
pub use metrics::TaskMetrics;
pub use op::{ApprovalScope, Op, StepChoice};
pub use risk::Risk;
pub use settings::{Settings, SettingsProblem};
pub use task::{ConversationSummary, Fix, Task, TaskStatus};
