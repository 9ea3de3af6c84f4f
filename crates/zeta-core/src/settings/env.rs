//! The `ZETA_LLM_*` environment variables, which override the provider section for scripts.

use serde_json::Value;

use super::{ProviderSettings, Settings, SettingsProblem};

/// Applies `ZETA_LLM_PROVIDER`, `_BASE_URL`, `_MODEL` and `_PROTOCOL` from `env`.
/// A bad value is reported and ignored.
pub fn apply_env_overrides(
    settings: &mut Settings,
    env: impl Fn(&str) -> Option<String>,
    problems: &mut Vec<SettingsProblem>,
) {
    let mut parse = |name: &str, field: &str, value: String| -> Option<Value> {
        let value = Value::String(value);
        let mut candidate = serde_json::to_value(&settings.provider).ok()?;
        candidate[field] = value.clone();
        match serde_json::from_value::<ProviderSettings>(candidate) {
            Ok(_) => Some(value),
            Err(e) => {
                problems.push(SettingsProblem {
                    field: name.to_string(),
                    message: format!(
                        "{value} is not valid ({}); ignored",
                        super::merge::strip_position(&e.to_string())
                    ),
                });
                None
            }
        }
    };
    let mut provider = serde_json::to_value(&settings.provider).unwrap_or(Value::Null);
    for (name, field) in [
        ("ZETA_LLM_PROVIDER", "kind"),
        ("ZETA_LLM_BASE_URL", "baseUrl"),
        ("ZETA_LLM_MODEL", "model"),
        ("ZETA_LLM_PROTOCOL", "protocol"),
    ] {
        if let Some(value) = env(name).filter(|v| !v.is_empty()) {
            if let Some(value) = parse(name, field, value) {
                provider[field] = value;
            }
        }
    }
    if let Ok(p) = serde_json::from_value(provider) {
        settings.provider = p;
    }
}
