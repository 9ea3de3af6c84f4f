//! The doctor's MCP line: how many servers are configured (turned off, or skipped as bad),
//! and any token written in plain text in `settings.json` that belongs in the keyring.
//! It starts no server: `zeta mcp list` does.

use serde_json::Value;
use zeta_core::settings::Settings;
use zeta_protocol::mcp::{disabled_servers, looks_secret, parse_servers};

use super::{check, Check, Level};

pub(super) fn servers(settings: Option<&Settings>) -> Check {
    let Some(settings) = settings else {
        return check("mcp", Level::Ok, "", None);
    };
    let entries = &settings.mcp_servers;
    if entries.is_empty() {
        return check("mcp", Level::Ok, "", None);
    }
    let (configs, problems) = parse_servers(entries);
    let off = disabled_servers(entries).len();
    let mut detail = format!(
        "{} MCP server{} configured",
        configs.len(),
        if configs.len() == 1 { "" } else { "s" }
    );
    if off > 0 {
        detail.push_str(&format!(", {off} turned off"));
    }
    if !problems.is_empty() {
        detail.push_str(&format!(", {} skipped (see settings)", problems.len()));
    }
    let plain = plain_secrets(entries);
    if plain.is_empty() {
        detail.push_str("; `zeta mcp list` starts them and lists their tools");
        return check("mcp", Level::Ok, detail, None);
    }
    detail.push_str(&format!(
        "; in plain text in settings.json: {}",
        plain.join(", ")
    ));
    check(
        "mcp",
        Level::Warn,
        detail,
        Some("save the settings once from the settings window (or re-add the server with `zeta mcp add`): the values move to the keyring"),
    )
}

/// `server.env.KEY` / `server.headers.NAME` for each secret-looking value written out.
fn plain_secrets(entries: &std::collections::BTreeMap<String, Value>) -> Vec<String> {
    let mut found = Vec::new();
    for (server, entry) in entries {
        for field in ["env", "headers"] {
            let Some(map) = entry.get(field).and_then(Value::as_object) else {
                continue;
            };
            for (key, value) in map {
                let text = value.as_str().unwrap_or_default();
                if looks_secret(key) && !text.is_empty() && !text.contains("${secret:") {
                    found.push(format!("{server}.{field}.{key}"));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_tokens_are_named_and_references_are_not() {
        let settings = Settings {
            mcp_servers: serde_json::from_value(json!({
            "gh": {"command": "x", "env": {"GITHUB_TOKEN": "ghp_1", "DEBUG": "1"}},
            "web": {"url": "https://x", "headers": {"Authorization": "${secret:mcp-web-Authorization}"}},
            "off": {"command": "y", "disabled": true},
            }))
            .expect("servers"),
            ..Settings::default()
        };
        let c = servers(Some(&settings));
        assert_eq!(c.level, Level::Warn);
        assert!(
            c.detail.contains("2 MCP servers configured, 1 turned off"),
            "{}",
            c.detail
        );
        assert!(
            c.detail.contains("gh.env.GITHUB_TOKEN") && !c.detail.contains("web.headers"),
            "{}",
            c.detail
        );
        assert!(servers(Some(&Settings::default())).detail.is_empty());
    }
}
