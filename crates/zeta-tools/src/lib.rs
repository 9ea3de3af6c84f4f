//! zeta-tools: the tools the agent acts with, each a `zeta_core::tool::Tool`.
//!
//! - [`shell`]: `bash -c` in its own process group, with timeout, kill and capped output.
//! - [`capture`]: capped output capture (head and tail kept, binary detected).

pub mod capture;
pub mod shell;

use std::sync::Arc;

use zeta_core::tool::ToolRegistry;

/// Every tool this crate provides, ready for the agent loop.
pub fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(Arc::new(shell::Shell));
    tools
}
