//! Everything Zeta keeps in `$ZETA_HOME/zeta.db`: the schema and its migrations
//! ([`schema`]), and one store a table or two: the task queue ([`queue`]), the audit of
//! tool calls ([`audit`]) with per-task [`metrics`], saved facts and the long-term
//! summary ([`memory`]), scheduled jobs ([`scheduler`]), and a task's record beside its
//! row ([`record`]: its calls, added messages, checks' notes), the skills each task used
//! and how those tasks ended ([`skill_uses`]). [`db`] is the shared
//! connection the stores beside the queue use.

pub mod audit;
pub mod db;
pub mod memory;
pub mod metrics;
pub mod queue;
pub mod record;
pub mod scheduler;
pub mod schema;
pub mod skill_uses;
