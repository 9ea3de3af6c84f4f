//! Reaching one server: a stdio program started in its own process group (its stderr kept
//! in `logs/mcp-NAME.log`), or a streamable-HTTP address with its headers; then the MCP
//! handshake and the list of its tools, within a time limit.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use zeta_protocol::mcp::{fill_secrets, ServerConfig, Transport};

use crate::McpError;

/// The longest starting a server (the handshake) or listing its tools may take: the
/// server's call limit, from 5 to 30 s.
pub fn start_timeout(config: &ServerConfig) -> Duration {
    Duration::from_secs(config.timeout_secs.clamp(5, 30))
}

pub type Client = RunningService<RoleClient, ()>;

/// A server that answered: its client, its process (stdio), and its tools.
pub struct Connection {
    pub client: Client,
    /// The stdio server's process id, which is also its process group's.
    pub pid: Option<u32>,
    pub tools: Vec<ToolInfo>,
    /// The stdio server's processes watched for undo: a call sets the task's keeper.
    pub watch: Option<zeta_tools::watch::Watch>,
}

/// One tool as the server listed it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ToolInfo {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    /// The server says the tool changes nothing (`annotations.readOnlyHint`).
    pub read_only: bool,
}

impl ToolInfo {
    /// Reads a tool as the protocol writes it (`name`, `description`, `inputSchema`,
    /// `annotations.readOnlyHint`); `None` without a name.
    pub fn from_json(tool: &Value) -> Option<Self> {
        let name = tool.get("name")?.as_str()?.to_string();
        let description = tool
            .get("description")
            .and_then(Value::as_str)
            .or_else(|| tool.get("title").and_then(Value::as_str))
            .unwrap_or_default()
            .to_string();
        let input_schema = match tool.get("inputSchema") {
            Some(schema @ Value::Object(_)) => schema.clone(),
            _ => serde_json::json!({"type": "object"}),
        };
        let read_only = tool
            .pointer("/annotations/readOnlyHint")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        Some(Self {
            name,
            description,
            input_schema,
            read_only,
        })
    }
}

/// Starts or reaches the server and lists its tools. `secret` fills `${secret:NAME}`.
pub async fn connect(
    config: &ServerConfig,
    secret: &(dyn Fn(&str) -> Option<String> + Send + Sync),
    logs_dir: Option<&Path>,
) -> Result<Connection, McpError> {
    let server = config.name.clone();
    let fill = |map: &BTreeMap<String, String>| -> Result<Vec<(String, String)>, McpError> {
        map.iter()
            .map(|(k, v)| {
                fill_secrets(v, secret)
                    .map(|v| (k.clone(), v))
                    .map_err(|message| McpError::Config {
                        server: server.clone(),
                        message: format!("`{k}`: {message}"),
                    })
            })
            .collect()
    };
    let limit = start_timeout(config);
    let timed_out = || McpError::StartTimeout {
        server: server.clone(),
        secs: limit.as_secs(),
    };
    let mut watch = None;
    let (client, pid) = match &config.transport {
        Transport::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let filled = fill(env)?;
            let build = |prepared: Option<&zeta_tools::watch::Prepared>| {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(args).envs(filled.clone());
                if let Some(cwd) = cwd {
                    cmd.current_dir(cwd);
                }
                // Its file changes during a call are that task's, for undo.
                if let Some(prepared) = prepared {
                    zeta_tools::watch::install(&mut cmd, prepared);
                }
                let mut wrapped = process_wrap::tokio::CommandWrap::from(cmd);
                wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
                TokioChildProcess::builder(wrapped)
                    .stderr(stderr_log(logs_dir, &server))
                    .spawn()
            };
            let prepared = zeta_tools::watch::prepare()
                .inspect_err(|e| tracing::info!(server = %server, "{e}"))
                .ok();
            let spawned = match build(prepared.as_ref()) {
                Ok((transport, _)) => Ok((transport, prepared)),
                // Where the kernel refuses the watch, the server runs unwatched.
                Err(e) if prepared.is_some() => {
                    tracing::info!(server = %server, "not watched for undo: {e}");
                    build(None).map(|(transport, _)| (transport, None))
                }
                Err(e) => Err(e),
            };
            let (transport, prepared) = spawned.map_err(|source| McpError::Spawn {
                server: server.clone(),
                command: command.clone(),
                source,
            })?;
            let pid = transport.id();
            watch = prepared.and_then(|p| {
                zeta_tools::watch::start_keeping(p, None)
                    .inspect_err(|e| tracing::info!(server = %server, "{e}"))
                    .ok()
            });
            let handshake = tokio::time::timeout(limit, ().serve(transport)).await;
            let client = match handshake {
                Ok(Ok(client)) => Ok(client),
                Ok(Err(e)) => Err(McpError::Handshake {
                    server: server.clone(),
                    message: format!("{e} (its own messages are in logs/mcp-{server}.log)"),
                }),
                Err(_) => Err(timed_out()),
            };
            if client.is_err() {
                if let Some(pid) = pid {
                    crate::server::stop_group(pid);
                }
            }
            (client?, pid)
        }
        Transport::Http { url, headers } => {
            let mut custom = HashMap::new();
            for (k, v) in fill(headers)? {
                let bad = |what: &str| McpError::Config {
                    server: server.clone(),
                    message: format!("header `{k}`: not a valid HTTP header {what}"),
                };
                let name = http::HeaderName::try_from(k.as_str()).map_err(|_| bad("name"))?;
                let value = http::HeaderValue::try_from(v.as_str()).map_err(|_| bad("value"))?;
                custom.insert(name, value);
            }
            let transport_config =
                StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(custom);
            let transport = StreamableHttpClientTransport::from_config(transport_config);
            let client = tokio::time::timeout(limit, ().serve(transport))
                .await
                .map_err(|_| timed_out())?
                .map_err(|e| McpError::Handshake {
                    server: server.clone(),
                    message: format!("{e} (at {url})"),
                })?;
            (client, None)
        }
    };
    let listed = tokio::time::timeout(limit, client.list_all_tools()).await;
    let tools = match listed {
        Ok(Ok(tools)) => tools,
        Ok(Err(e)) => {
            let message = e.to_string();
            close(client, pid).await;
            return Err(McpError::ListTools { server, message });
        }
        Err(_) => {
            close(client, pid).await;
            return Err(McpError::StartTimeout {
                server,
                secs: limit.as_secs(),
            });
        }
    };
    let tools = tools
        .iter()
        .filter_map(|t| serde_json::to_value(t).ok())
        .filter_map(|t| ToolInfo::from_json(&t))
        .collect();
    Ok(Connection {
        client,
        pid,
        tools,
        watch,
    })
}

/// Ends the session and the server's process group.
pub async fn close(client: Client, pid: Option<u32>) {
    if let Err(e) = tokio::time::timeout(Duration::from_secs(2), client.cancel()).await {
        tracing::debug!("an MCP session did not close in time: {e}");
    }
    if let Some(pid) = pid {
        crate::server::stop_group(pid);
    }
}

/// The server's stderr, appended to `logs/mcp-NAME.log` (nowhere when it cannot be).
fn stderr_log(logs_dir: Option<&Path>, name: &str) -> Stdio {
    let Some(dir) = logs_dir else {
        return Stdio::null();
    };
    let path = dir.join(format!("mcp-{name}.log"));
    match std::fs::create_dir_all(dir).and_then(|_| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
    }) {
        Ok(file) => Stdio::from(file),
        Err(e) => {
            tracing::warn!("could not open {}: {e}", path.display());
            Stdio::null()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tools_are_read_as_the_protocol_writes_them() {
        let t = ToolInfo::from_json(&json!({"name": "read", "description": "Reads", "inputSchema": {"type": "object", "properties": {"p": {"type": "string"}}}, "annotations": {"readOnlyHint": true}})).expect("tool");
        assert!(t.read_only);
        assert_eq!(t.description, "Reads");
        let t = ToolInfo::from_json(&json!({"name": "w", "title": "Writes", "inputSchema": "bad"}))
            .expect("tool");
        assert!(!t.read_only);
        assert_eq!(t.description, "Writes");
        assert_eq!(t.input_schema, json!({"type": "object"}));
        assert!(ToolInfo::from_json(&json!({"description": "no name"})).is_none());
    }
}
