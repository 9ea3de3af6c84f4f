//! Small helpers the tools use to describe a call's target for the confirmation dialog.

use serde_json::Value;

/// The string argument `key`, or "".
pub fn text<'a>(arguments: &'a Value, key: &str) -> &'a str {
    arguments
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
}

pub use zeta_core::text::clip;

/// The number argument `key` as text, or "?".
pub fn number(arguments: &Value, key: &str) -> String {
    arguments
        .get(key)
        .and_then(Value::as_f64)
        .map(|n| format!("{n}"))
        .unwrap_or_else(|| "?".into())
}
