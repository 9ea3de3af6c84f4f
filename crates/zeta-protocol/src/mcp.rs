//! MCP servers as `settings.json` names them: the `mcpServers` object users paste from
//! other apps (`{"name": {"command", "args", "env", "cwd"} | {"url", "headers"}}`), plus
//! Zeta's own per-server choices (`start`, `trustReadOnly`, `timeoutSecs`, `disabled`).
//! The file keeps each entry as written; [`parse_servers`] reads them into typed configs,
//! one at a time, so a bad entry is reported by field and skipped while the others work.
//! A value in `env` or `headers` may name a stored secret as `${secret:NAME}`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::settings::SettingsProblem;

/// Separates a server's name from its tool's in the names the model sees (`files__read`).
pub const TOOL_SEPARATOR: &str = "__";

/// The longest server name: with the separator and a tool name it must fit the 64
/// characters providers allow for a tool name.
pub const MAX_SERVER_NAME: usize = 24;

/// How long one call may take unless the entry says otherwise.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

/// One server, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    pub name: String,
    pub transport: Transport,
    pub start: Start,
    /// Tools the server marks `readOnlyHint` may run without asking.
    pub trust_read_only: bool,
    /// The longest one call may take before it is cancelled.
    pub timeout_secs: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A program Zeta starts, speaking MCP on its stdin and stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        cwd: Option<PathBuf>,
    },
    /// A server already running, reached over streamable HTTP.
    Http {
        url: String,
        headers: BTreeMap<String, String>,
    },
}

/// When Zeta starts a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum Start {
    /// When a task first needs its tools (the default).
    OnUse,
    /// When the app starts, so the first task does not wait for it.
    OnAppStart,
}

/// What a server is doing, as the settings window and `zeta mcp list` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum ServerState {
    /// Configured, not started yet (it starts when a task needs it).
    NotStarted,
    /// Running, with its tools listed.
    Ready { pid: Option<u32> },
    /// It failed to start or stopped; `restarts` tries are left before it is given up.
    Failed {
        error: String,
        #[serde(rename = "restartsLeft")]
        restarts_left: u32,
    },
    /// Turned off in the settings (`"disabled": true`).
    Disabled,
}

/// One server and its tools, for the settings window and `zeta mcp list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ServerStatus {
    pub name: String,
    /// The command line or the URL.
    pub target: String,
    pub state: ServerState,
    /// The tools as the model sees them (`server__tool`), once listed.
    pub tools: Vec<String>,
    /// What a review shows, once listed: each tool's description and its parameters'
    /// (the server's words, which the model reads).
    pub descriptions: Vec<ToolDescription>,
    /// The listed tools' digest, which a review records (`None` until listed).
    pub digest: Option<String>,
    /// Whether the person reviewed exactly this list: tasks offered tools from a list
    /// nobody reviewed ask before their changes.
    pub reviewed: bool,
}

/// One tool's words, as its server wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolDescription {
    /// As the model sees it (`server__tool`).
    pub name: String,
    pub description: String,
    /// Each parameter's name and description.
    pub parameters: Vec<(String, String)>,
}

/// Reads every entry of `mcpServers`. Entries that are turned off (`"disabled": true`)
/// are left out without a problem; a bad entry is named in a problem and left out.
pub fn parse_servers(
    servers: &BTreeMap<String, Value>,
) -> (Vec<ServerConfig>, Vec<SettingsProblem>) {
    let mut configs = Vec::new();
    let mut problems = Vec::new();
    for (name, entry) in servers {
        match parse_entry(name, entry) {
            Ok(Some(config)) => configs.push(config),
            Ok(None) => {}
            Err((field, message)) => problems.push(SettingsProblem {
                field: if field.is_empty() {
                    format!("mcpServers.{name}")
                } else {
                    format!("mcpServers.{name}.{field}")
                },
                message: format!("{message}; this server is skipped"),
            }),
        }
    }
    (configs, problems)
}

/// The names of the entries turned off with `"disabled": true`.
pub fn disabled_servers(servers: &BTreeMap<String, Value>) -> Vec<String> {
    servers
        .iter()
        .filter(|(_, e)| e.get("disabled").and_then(Value::as_bool) == Some(true))
        .map(|(n, _)| n.clone())
        .collect()
}

type Problem = (&'static str, String);

const KNOWN: [&str; 12] = [
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "type",
    "start",
    "trustReadOnly",
    "timeoutSecs",
    "disabled",
    "description",
];

fn parse_entry(name: &str, entry: &Value) -> Result<Option<ServerConfig>, Problem> {
    check_name(name).map_err(|m| ("", m))?;
    let Some(object) = entry.as_object() else {
        return Err(("", format!("expected an object, found {}", kind(entry))));
    };
    if let Some(unknown) = object.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err((
            "",
            format!(
                "unknown field `{unknown}` (a server has `command`, `args`, `env`, `cwd`, or `url` and `headers`)"
            ),
        ));
    }
    if optional_bool(object, "disabled")?.unwrap_or(false) {
        return Ok(None);
    }
    let kind_named = optional_string(object, "type")?;
    let transport = match (object.get("command"), object.get("url")) {
        (Some(_), Some(_)) => {
            return Err(("", "has both `command` and `url`: keep one".into()));
        }
        (None, None) => {
            return Err((
                "",
                "needs `command` (a program to start) or `url` (a running server)".into(),
            ))
        }
        (Some(_), None) => {
            if let Some(t) = kind_named.as_deref().filter(|t| *t != "stdio") {
                return Err((
                    "type",
                    format!("`{t}` does not go with `command` (use \"stdio\")"),
                ));
            }
            for field in ["headers"] {
                if object.contains_key(field) {
                    return Err((field_name(field), "only a `url` server has headers".into()));
                }
            }
            let command = optional_string(object, "command")?.unwrap_or_default();
            if command.trim().is_empty() {
                return Err(("command", "is empty".into()));
            }
            Transport::Stdio {
                command,
                args: string_list(object, "args")?,
                env: string_map(object, "env")?,
                cwd: optional_string(object, "cwd")?.map(PathBuf::from),
            }
        }
        (None, Some(_)) => {
            match kind_named.as_deref() {
                None | Some("http" | "streamable-http" | "streamableHttp") => {}
                Some("sse") => {
                    return Err((
                        "type",
                        "the old SSE transport is not supported: use the server's streamable HTTP address".into(),
                    ))
                }
                Some(t) => return Err(("type", format!("`{t}` does not go with `url` (use \"http\")"))),
            }
            for field in ["args", "env", "cwd"] {
                if object.contains_key(field) {
                    return Err((field_name(field), "only a `command` server has it".into()));
                }
            }
            let url = optional_string(object, "url")?.unwrap_or_default();
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err((
                    "url",
                    format!("`{url}` is not an http:// or https:// address"),
                ));
            }
            Transport::Http {
                url,
                headers: string_map(object, "headers")?,
            }
        }
    };
    let start = match optional_string(object, "start")?.as_deref() {
        None | Some("onUse") => Start::OnUse,
        Some("onAppStart") => Start::OnAppStart,
        Some(other) => {
            return Err((
                "start",
                format!("`{other}` is not \"onUse\" or \"onAppStart\""),
            ));
        }
    };
    let timeout_secs = match object.get("timeoutSecs") {
        None => DEFAULT_TIMEOUT_SECS,
        Some(v) => match v.as_u64() {
            Some(n @ 1..=3600) => n,
            _ => {
                return Err((
                    "timeoutSecs",
                    format!("{v} is not a whole number of seconds from 1 to 3600"),
                ))
            }
        },
    };
    optional_string(object, "description")?;
    Ok(Some(ServerConfig {
        name: name.to_string(),
        transport,
        start,
        trust_read_only: optional_bool(object, "trustReadOnly")?.unwrap_or(false),
        timeout_secs,
    }))
}

/// A server name makes tool names (`name__tool`), so it is short and plain.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_SERVER_NAME {
        return Err(format!(
            "the name must be 1 to {MAX_SERVER_NAME} characters"
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err("the name may only hold letters, digits, `-` and `_`".into());
    }
    if name.contains(TOOL_SEPARATOR) || name.ends_with('_') {
        return Err(format!(
            "the name may not hold `{TOOL_SEPARATOR}` or end with `_`"
        ));
    }
    Ok(())
}

fn field_name(field: &str) -> &'static str {
    KNOWN.iter().find(|k| **k == field).copied().unwrap_or("")
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn optional_string(o: &Map<String, Value>, field: &'static str) -> Result<Option<String>, Problem> {
    match o.get(field) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err((field, format!("expected a string, found {}", kind(v)))),
    }
}

fn optional_bool(o: &Map<String, Value>, field: &'static str) -> Result<Option<bool>, Problem> {
    match o.get(field) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err((field, format!("expected true or false, found {}", kind(v)))),
    }
}

fn string_list(o: &Map<String, Value>, field: &'static str) -> Result<Vec<String>, Problem> {
    match o.get(field) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => Ok(s.clone()),
                other => Err((
                    field,
                    format!("expected a list of strings, found {} in it", kind(other)),
                )),
            })
            .collect(),
        Some(v) => Err((
            field,
            format!("expected a list of strings, found {}", kind(v)),
        )),
    }
}

fn string_map(
    o: &Map<String, Value>,
    field: &'static str,
) -> Result<BTreeMap<String, String>, Problem> {
    match o.get(field) {
        None => Ok(BTreeMap::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                other => Err((
                    field,
                    format!("`{k}` should be a string, found {}", kind(other)),
                )),
            })
            .collect(),
        Some(v) => Err((
            field,
            format!("expected an object of strings, found {}", kind(v)),
        )),
    }
}

/// The names of the secrets `value` refers to (`${secret:NAME}`).
pub fn secret_refs(value: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = value;
    while let Some(start) = rest.find("${secret:") {
        let after = &rest[start + "${secret:".len()..];
        let Some(end) = after.find('}') else { break };
        names.push(&after[..end]);
        rest = &after[end + 1..];
    }
    names
}

/// `value` with each `${secret:NAME}` replaced by `lookup(NAME)`; `Err` names the first
/// secret that is not stored.
pub fn fill_secrets(
    value: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, String> {
    let mut out = value.to_string();
    for name in secret_refs(value) {
        let secret = lookup(name)
            .ok_or_else(|| format!("the secret `{name}` is not stored (zeta secret set {name})"))?;
        out = out.replace(&format!("${{secret:{name}}}"), &secret);
    }
    Ok(out)
}

/// Whether a header or environment variable named `key` holds a secret by its name
/// (`Authorization`, `X-Api-Key`, `GITHUB_TOKEN`, `DB_PASSWORD`, ...).
pub fn looks_secret(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    [
        "authorization",
        "token",
        "secret",
        "password",
        "passwd",
        "api-key",
        "api_key",
        "apikey",
        "cookie",
        "credential",
        "private",
    ]
    .iter()
    .any(|w| k.contains(w))
        || k.ends_with("_key")
        || k.ends_with("-key")
}

#[cfg(test)]
mod tests;
