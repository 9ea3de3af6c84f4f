//! One configured server: started on first use, its tools remembered, its calls made
//! with a time limit and Cancel, and its crashes counted. A server that failed is started
//! again at its next use, at most [`MAX_FAILURES`] times in a row; then it is given up
//! until the settings change or Zeta restarts.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use rmcp::model::CallToolRequestParams;
use serde_json::{Map, Value};
use zeta_core::agent::CancelToken;
use zeta_core::tool::ToolOutput;
use zeta_protocol::mcp::{ServerConfig, ServerState, ServerStatus, Transport, TOOL_SEPARATOR};

use crate::connect::{self, Client, ToolInfo};
use crate::manager::SecretLookup;
use crate::McpError;

/// Failures in a row (a start that failed, a crash) before a server is given up.
pub const MAX_FAILURES: u32 = 3;

pub struct Server {
    pub config: ServerConfig,
    secret: SecretLookup,
    logs_dir: Option<PathBuf>,
    /// Held while the server starts, so two tasks do not start it twice.
    slot: tokio::sync::Mutex<Slot>,
}

enum Slot {
    NotStarted,
    Ready(Arc<Live>),
    Failed { error: String, failures: u32 },
}

/// A running server. Dropped without `Server::stop` (Zeta's agent dropped as it
/// exits), it still stops its process group.
pub struct Live {
    client: Option<Client>,
    pub pid: Option<u32>,
    pub tools: Vec<ToolInfo>,
    /// Its processes watched for undo (stdio servers, where the kernel allows).
    watch: Option<zeta_tools::watch::Watch>,
}

impl Live {
    fn is_closed(&self) -> bool {
        self.client.as_ref().is_none_or(|c| c.is_closed())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let (Some(_), Some(pid)) = (self.client.take(), self.pid) {
            stop_group(pid);
        }
    }
}

impl Server {
    pub fn new(config: ServerConfig, secret: SecretLookup, logs_dir: Option<PathBuf>) -> Self {
        Self {
            config,
            secret,
            logs_dir,
            slot: tokio::sync::Mutex::new(Slot::NotStarted),
        }
    }

    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The running server, started now when it is not (again after a failure, while
    /// tries are left).
    pub async fn ensure(&self) -> Result<Arc<Live>, McpError> {
        let mut slot = self.slot.lock().await;
        let failures = match &*slot {
            Slot::Ready(live) if !live.is_closed() => return Ok(Arc::clone(live)),
            Slot::Ready(_) => 1,
            Slot::NotStarted => 0,
            Slot::Failed { failures, error } if *failures >= MAX_FAILURES => {
                return Err(McpError::GaveUp {
                    server: self.config.name.clone(),
                    failures: *failures,
                    last: error.clone(),
                })
            }
            Slot::Failed { failures, .. } => *failures,
        };
        match connect::connect(&self.config, &*self.secret, self.logs_dir.as_deref()).await {
            Ok(c) => {
                tracing::info!(server = %self.config.name, pid = ?c.pid, tools = c.tools.len(), "MCP server started");
                let live = Arc::new(Live {
                    client: Some(c.client),
                    pid: c.pid,
                    tools: c.tools,
                    watch: c.watch,
                });
                *slot = Slot::Ready(Arc::clone(&live));
                Ok(live)
            }
            Err(e) => {
                tracing::warn!("{e}");
                *slot = Slot::Failed {
                    error: e.to_string(),
                    failures: failures + 1,
                };
                Err(e)
            }
        }
    }

    /// Calls `tool` with `arguments`, within the server's time limit; Cancel stops the
    /// wait and tells the server. A crash is a failed call that says the server will be
    /// started again.
    /// Calls `tool`; what the server's processes change on disk meanwhile is told to
    /// `keeper` (the calling task's, for undo).
    pub async fn call(
        &self,
        tool: &str,
        arguments: Value,
        mut cancel: CancelToken,
        keeper: Option<Arc<dyn zeta_core::undo::Keeper>>,
    ) -> ToolOutput {
        let name = &self.config.name;
        let live = match self.ensure().await {
            Ok(live) => live,
            Err(e) => return ToolOutput::error(e.to_string()),
        };
        let arguments = match arguments {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                return ToolOutput::error(format!(
                    "the arguments for `{tool}` must be a JSON object, not {other}"
                ))
            }
        };
        let secs = self.config.timeout_secs;
        let request = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let _keeping = live
            .watch
            .as_ref()
            .map(|watch| Keeping::start(watch, keeper));
        // Dropping the call's future (timeout, Cancel) sends the server `notifications/cancelled`.
        let Some(client) = live.client.as_ref() else {
            return ToolOutput::error(format!("MCP server `{name}` was stopped"));
        };
        let result = tokio::select! {
            r = tokio::time::timeout(Duration::from_secs(secs), client.call_tool(request)) => r,
            _ = cancel.cancelled() => {
                return ToolOutput::error(format!("cancelled: the call to `{tool}` on MCP server `{name}` was stopped"));
            }
        };
        match result {
            Err(_) => ToolOutput::error(format!(
                "MCP server `{name}`: `{tool}` did not answer within {secs} s and was cancelled (the server's `timeoutSecs` setting sets this limit)"
            )),
            Ok(Ok(result)) => match serde_json::to_value(&result) {
                Ok(json) => crate::content::to_output(name, tool, &json),
                Err(e) => ToolOutput::error(format!("MCP server `{name}`: its result for `{tool}` could not be read: {e}")),
            },
            Ok(Err(e)) => {
                let crashed = live.is_closed() || !self.process_alive(&live);
                if crashed {
                    self.crashed(&live, &e.to_string()).await
                } else {
                    ToolOutput::error(format!("MCP server `{name}`: `{tool}` failed: {e}"))
                }
            }
        }
    }

    fn process_alive(&self, live: &Live) -> bool {
        live.pid
            .is_none_or(|pid| nix::sys::signal::kill(Pid::from_raw(pid as i32), None).is_ok())
    }

    /// Marks the server failed after it stopped mid-call, and says what happens next.
    async fn crashed(&self, live: &Arc<Live>, error: &str) -> ToolOutput {
        let name = &self.config.name;
        let mut slot = self.slot.lock().await;
        let failures = match &*slot {
            Slot::Ready(current) if Arc::ptr_eq(current, live) => 1,
            Slot::Failed { failures, .. } => *failures,
            _ => 1,
        };
        if let Some(pid) = live.pid {
            stop_group(pid);
        }
        *slot = Slot::Failed {
            error: format!("it stopped during a call ({error})"),
            failures,
        };
        let next = if failures >= MAX_FAILURES {
            "it is not started again".to_string()
        } else {
            format!(
                "it is started again at its next use ({} tries left)",
                MAX_FAILURES - failures
            )
        };
        ToolOutput::error(format!(
            "MCP server `{name}` stopped during the call (it crashed or exited: {error}); {next}. Its own messages are in logs/mcp-{name}.log"
        ))
    }

    /// What the settings window and `zeta mcp list` show.
    pub fn status(&self) -> ServerStatus {
        let (state, tools) = match self.slot.try_lock() {
            Err(_) => (ServerState::NotStarted, Vec::new()),
            Ok(slot) => match &*slot {
                Slot::NotStarted => (ServerState::NotStarted, Vec::new()),
                Slot::Ready(live) if live.is_closed() => (
                    ServerState::Failed {
                        error: "it stopped".into(),
                        restarts_left: MAX_FAILURES - 1,
                    },
                    Vec::new(),
                ),
                Slot::Ready(live) => (
                    ServerState::Ready { pid: live.pid },
                    live.tools
                        .iter()
                        .map(|t| exposed_name(&self.config.name, &t.name))
                        .collect(),
                ),
                Slot::Failed { error, failures } => (
                    ServerState::Failed {
                        error: error.clone(),
                        restarts_left: MAX_FAILURES.saturating_sub(*failures),
                    },
                    Vec::new(),
                ),
            },
        };
        ServerStatus {
            name: self.config.name.clone(),
            target: target(&self.config),
            state,
            tools,
            descriptions: Vec::new(),
            digest: None,
            reviewed: false,
        }
    }

    /// Ends the session and stops the server's process group.
    pub async fn stop(&self) {
        let mut slot = self.slot.lock().await;
        if let Slot::Ready(live) = std::mem::replace(&mut *slot, Slot::NotStarted) {
            match Arc::try_unwrap(live) {
                Ok(mut live) => {
                    if let Some(client) = live.client.take() {
                        connect::close(client, live.pid).await;
                    }
                }
                // A call still holds it: its process group is stopped now, and the call
                // ends with the closed connection.
                Err(shared) => {
                    if let Some(pid) = shared.pid {
                        stop_group(pid);
                    }
                }
            }
        }
    }

    /// The tools of the server when it runs now.
    pub fn running_tools(&self) -> Option<Vec<ToolInfo>> {
        match &*self.slot.try_lock().ok()? {
            Slot::Ready(live) if !live.is_closed() => Some(live.tools.clone()),
            _ => None,
        }
    }

    /// Whether its last start failed or it stopped on its own.
    pub fn has_failed(&self) -> bool {
        match self.slot.try_lock() {
            Ok(slot) => match &*slot {
                Slot::Failed { .. } => true,
                Slot::Ready(live) => live.is_closed(),
                Slot::NotStarted => false,
            },
            Err(_) => false,
        }
    }
}

/// The command line or the URL, for people.
pub fn target(config: &ServerConfig) -> String {
    match &config.transport {
        Transport::Stdio { command, args, .. } => {
            let mut line = command.clone();
            for a in args {
                line.push(' ');
                line.push_str(a);
            }
            line
        }
        Transport::Http { url, .. } => url.clone(),
    }
}

/// The name the model sees: `server__tool`, with what providers refuse in a tool name
/// made `_`, at most 64 characters.
pub fn exposed_name(server: &str, tool: &str) -> String {
    let clean: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut name = format!("{server}{TOOL_SEPARATOR}{clean}");
    name.truncate(64);
    name
}

/// Stops a server's process group: SIGTERM now, SIGKILL a moment later if any of it is
/// still there. By process id, never by name.
/// A task's keeper told of a server's changes while one call runs.
struct Keeping<'a>(&'a zeta_tools::watch::Watch);

impl<'a> Keeping<'a> {
    fn start(
        watch: &'a zeta_tools::watch::Watch,
        keeper: Option<Arc<dyn zeta_core::undo::Keeper>>,
    ) -> Self {
        watch.keep(keeper);
        Self(watch)
    }
}

impl Drop for Keeping<'_> {
    fn drop(&mut self) {
        self.0.keep(None);
    }
}

pub fn stop_group(pid: u32) {
    let Ok(raw) = i32::try_from(pid) else { return };
    let group = Pid::from_raw(raw);
    if killpg(group, Signal::SIGTERM).is_err() {
        return;
    }
    std::thread::spawn(move || {
        for _ in 0..20 {
            std::thread::sleep(Duration::from_millis(100));
            if killpg(group, None).is_err() {
                return;
            }
        }
        let _ = killpg(group, Signal::SIGKILL);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exposed_names_fit_what_providers_accept() {
        assert_eq!(exposed_name("files", "read_file"), "files__read_file");
        assert_eq!(exposed_name("gh", "issues.list/all"), "gh__issues_list_all");
        assert_eq!(exposed_name("s", &"t".repeat(100)).len(), 64);
        assert_eq!(exposed_name("s", "ünï"), "s___n_");
    }
}
