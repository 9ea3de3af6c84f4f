//! The real MCP servers the tests start (tests/mcp/servers, on the official Python SDK)
//! and the Python that runs them (scripts/mcp-python.sh).

use std::path::{Path, PathBuf};

use crate::{cannot_run, Needs};

/// The Python with the `mcp` SDK: `ZETA_MCP_PYTHON`, else the cached venv. `None` (with
/// the reason printed, or a failure when the suite requires it) when there is none.
pub fn python(test: &str) -> Option<String> {
    let found = std::env::var("ZETA_MCP_PYTHON").ok().or_else(|| {
        let home = std::env::var("HOME").ok()?;
        let p = PathBuf::from(home).join(".cache/zeta/mcp-venv/bin/python");
        p.exists().then(|| p.display().to_string())
    });
    if found.is_none() {
        cannot_run(
            Needs::Mcp,
            test,
            "no Python with the `mcp` SDK (scripts/mcp-python.sh makes one)",
        );
    }
    found
}

/// A server script of tests/mcp/servers, by file name.
pub fn server_script(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/mcp/servers")
        .join(name);
    path.canonicalize().unwrap_or(path).display().to_string()
}
