//! zeta-mcp: Zeta's MCP client, on the official Rust SDK (`rmcp`).
//!
//! - [`manager`]: the servers `settings.json` names, started when a task first needs
//!   them (or with the app), supervised (a crash is reported and the server started again
//!   on the next use, a few times at most) and stopped by PID, process group and all.
//! - [`cache`]: each server's tools from its last start, so it starts when one is called.
//! - [`server`]: one server: its connection, its state and its calls (timeout, Cancel).
//! - [`connect`]: starting a stdio server or reaching a streamable-HTTP one.
//! - [`tool`]: a server's tool as one of the agent's (`server__tool`), through the same
//!   gate as Zeta's own tools.
//! - [`content`]: a tool result (text, images, resources, `isError`) as Zeta's output.
//! - [`select`]: the few tools that fit a request, so a small model gets a short list.
//! - [`reviewed`]: the servers' tool descriptions the person reviewed; a task offered
//!   others is marked as having read input they did not type.

pub mod cache;
pub mod connect;
pub mod content;
mod error;
pub mod manager;
pub mod reviewed;
pub mod select;
pub mod server;
pub mod tool;

pub use error::McpError;
pub use manager::{McpManager, SecretLookup};
pub use zeta_protocol::mcp::{ServerConfig, ServerState, ServerStatus};
