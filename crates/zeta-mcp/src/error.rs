//! What went wrong with a server, said so a person can act on it.

#[derive(Debug, thiserror::Error)]
pub enum McpError {
    #[error("MCP server `{server}`: could not start `{command}`: {source}")]
    Spawn {
        server: String,
        command: String,
        #[source]
        source: std::io::Error,
    },
    #[error("MCP server `{server}`: {message}")]
    Config { server: String, message: String },
    #[error("MCP server `{server}` did not complete the MCP handshake: {message}")]
    Handshake { server: String, message: String },
    #[error("MCP server `{server}` did not answer within {secs} s while starting")]
    StartTimeout { server: String, secs: u64 },
    #[error("MCP server `{server}` could not list its tools: {message}")]
    ListTools { server: String, message: String },
    #[error("MCP server `{server}` failed {failures} times in a row and is not started again until the settings change or Zeta restarts; last error: {last}")]
    GaveUp {
        server: String,
        failures: u32,
        last: String,
    },
    #[error("no MCP server is named `{0}`")]
    Unknown(String),
}
