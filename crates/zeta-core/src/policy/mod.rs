//! What the agent may do. Today: commands that never run (`blocked`). Permission modes,
//! approvals and rate limits build on this (the consent issue).

pub mod blocked;

pub use blocked::{check_command, Blocked};
