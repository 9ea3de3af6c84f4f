//! A call's arguments parsed at the edge into the tool's own typed struct; what does not
//! fit is an error the model reads.

use serde::de::DeserializeOwned;
use serde_json::Value;
use zeta_core::tool::ToolOutput;

/// `arguments` as `T`, or the error output naming `tool`.
pub fn parse<T: DeserializeOwned>(tool: &str, arguments: Value) -> Result<T, ToolOutput> {
    serde_json::from_value(arguments)
        .map_err(|e| ToolOutput::error(format!("{tool}: bad arguments: {e}")))
}
