//! The app package's library: the composition root ([`agent`]) that the `zeta` binary
//! (app and CLI) and the integration tests build the agent with, and [`mcp_secrets`],
//! which keeps MCP servers' secrets out of the settings file.

pub mod agent;
pub mod mcp_secrets;
