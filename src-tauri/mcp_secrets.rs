//! MCP servers' secrets out of `settings.json`: a value of `env` or `headers` whose name
//! says it is a secret (`Authorization`, `GITHUB_TOKEN`, ...) is stored in the secret
//! store (the OS keyring, like API keys) as `mcp-SERVER-NAME`, and the entry keeps a
//! `${secret:mcp-SERVER-NAME}` reference that zeta-mcp fills when it starts the server.
//! `zeta mcp add` and the settings window's Save do this before writing the file.

use serde_json::{Map, Value};
use zeta_llm::{Secret, SecretError, SecretStore};
use zeta_protocol::mcp::looks_secret;

/// The store's name for a server's secret.
pub fn secret_name(server: &str, key: &str) -> String {
    format!("mcp-{server}-{key}")
}

/// Moves the secret-looking values of one entry's `env` and `headers` to `store`.
/// Returns the keys moved.
pub fn keep_secrets(
    store: &SecretStore,
    server: &str,
    entry: &mut Map<String, Value>,
) -> Result<Vec<String>, SecretError> {
    let mut moved = Vec::new();
    for field in ["env", "headers"] {
        let Some(Value::Object(map)) = entry.get_mut(field) else {
            continue;
        };
        for (key, value) in map.iter_mut() {
            let Value::String(text) = value else { continue };
            if !looks_secret(key) || text.is_empty() || text.contains("${secret:") {
                continue;
            }
            let name = secret_name(server, key);
            store.set(&name, &Secret::new(text.clone()))?;
            *value = Value::String(format!("${{secret:{name}}}"));
            moved.push(key.clone());
        }
    }
    Ok(moved)
}

/// `keep_secrets` for every entry of a settings object's `mcpServers`; returns
/// (server, key) for each value moved.
pub fn keep_all_secrets(
    store: &SecretStore,
    settings: &mut Value,
) -> Result<Vec<(String, String)>, SecretError> {
    let mut moved = Vec::new();
    let Some(Value::Object(servers)) = settings.get_mut("mcpServers") else {
        return Ok(moved);
    };
    for (server, entry) in servers.iter_mut() {
        if let Value::Object(entry) = entry {
            for key in keep_secrets(store, server, entry)? {
                moved.push((server.clone(), key));
            }
        }
    }
    Ok(moved)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_looking_values_move_to_the_store_and_the_rest_stay() {
        let home = tempfile::tempdir().expect("home");
        std::env::set_var("ZETA_SECRETS", "file");
        let store = SecretStore::for_home(home.path());
        let mut settings = json!({"mcpServers": {
            "gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_abc", "DEBUG": "1"}},
            "web": {"url": "https://x", "headers": {"Authorization": "Bearer t0k", "Accept": "json"}},
            "kept": {"url": "https://y", "headers": {"Authorization": "${secret:mine}"}},
        }});
        let moved = keep_all_secrets(&store, &mut settings).expect("moved");
        assert_eq!(moved.len(), 2, "{moved:?}");
        let text = settings.to_string();
        assert!(!text.contains("ghp_abc") && !text.contains("t0k"), "{text}");
        assert_eq!(settings["mcpServers"]["gh"]["env"]["DEBUG"], "1");
        assert_eq!(
            settings["mcpServers"]["web"]["headers"]["Authorization"],
            "${secret:mcp-web-Authorization}"
        );
        assert_eq!(
            settings["mcpServers"]["kept"]["headers"]["Authorization"],
            "${secret:mine}"
        );
        assert_eq!(
            store
                .get("mcp-gh-GITHUB_TOKEN")
                .expect("get")
                .map(|s| s.expose().to_string())
                .as_deref(),
            Some("ghp_abc")
        );
    }
}
