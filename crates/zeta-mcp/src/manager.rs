//! The servers `settings.json` names, kept in line with the settings each task reads
//! (an entry added is started at its first use, one removed or changed is stopped), and
//! offered to the loop as a `ToolSource`: each task gets the few tools that fit its
//! request, chosen from the tool lists the servers gave at their last start (`cache`),
//! so a server starts when a task calls one of its tools (or, the first time, to list
//! them). `shutdown` stops every server by its process id when Zeta quits.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;
use zeta_core::settings::Settings;
use zeta_core::tool::{OfferedTools, Tool, ToolSource, ToolsFuture};
use zeta_protocol::mcp::{disabled_servers, parse_servers, ServerState, ServerStatus, Start};
use zeta_protocol::SettingsProblem;

use crate::cache::ToolCache;
use crate::connect::ToolInfo;
use crate::select::{choose, Candidate};
use crate::server::{target, Server};
use crate::tool::McpTool;
use crate::McpError;

/// Finds a stored secret by name, for `${secret:NAME}` in `env` and `headers`.
pub type SecretLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

pub struct McpManager {
    secret: SecretLookup,
    logs_dir: Option<PathBuf>,
    cache: ToolCache,
    reviewed: crate::reviewed::Reviewed,
    servers: Mutex<BTreeMap<String, Arc<Server>>>,
    /// The entries turned off, shown as such.
    disabled: Mutex<Vec<String>>,
}

impl McpManager {
    /// `logs_dir` receives each stdio server's stderr (`mcp-NAME.log`); `tools_file`
    /// keeps the servers' tool lists between runs, `reviewed_file` the lists the person
    /// reviewed (`reviewed`).
    pub fn new(
        secret: SecretLookup,
        logs_dir: Option<PathBuf>,
        tools_file: Option<PathBuf>,
        reviewed_file: Option<PathBuf>,
    ) -> Arc<Self> {
        Arc::new(Self {
            secret,
            logs_dir,
            cache: ToolCache::open(tools_file),
            reviewed: crate::reviewed::Reviewed::open(reviewed_file),
            servers: Mutex::new(BTreeMap::new()),
            disabled: Mutex::new(Vec::new()),
        })
    }

    fn servers(&self) -> MutexGuard<'_, BTreeMap<String, Arc<Server>>> {
        self.servers.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Brings the servers in line with `entries` (the settings' `mcpServers`): new ones
    /// are added, not started; removed or changed ones are stopped. Returns the problems
    /// of the entries that were skipped.
    pub async fn configure(&self, entries: &BTreeMap<String, Value>) -> Vec<SettingsProblem> {
        let (configs, problems) = parse_servers(entries);
        *self.disabled.lock().unwrap_or_else(|p| p.into_inner()) = disabled_servers(entries);
        let stale: Vec<Arc<Server>> = {
            let mut servers = self.servers();
            let stale: Vec<String> = servers
                .iter()
                .filter(|(name, s)| !configs.iter().any(|c| &c.name == *name && *c == s.config))
                .map(|(name, _)| name.clone())
                .collect();
            let stale = stale.iter().filter_map(|n| servers.remove(n)).collect();
            for config in configs {
                if !servers.contains_key(&config.name) {
                    let name = config.name.clone();
                    let server =
                        Server::new(config, Arc::clone(&self.secret), self.logs_dir.clone());
                    servers.insert(name, Arc::new(server));
                }
            }
            stale
        };
        for server in stale {
            tracing::info!(
                server = server.name(),
                "MCP server removed or changed in the settings: stopped"
            );
            server.stop().await;
        }
        problems
    }

    /// Starts the servers marked `"start": "onAppStart"`.
    pub async fn start_app_servers(&self) {
        let eager: Vec<Arc<Server>> = self
            .servers()
            .values()
            .filter(|s| s.config.start == Start::OnAppStart)
            .cloned()
            .collect();
        for server in eager {
            // A failure is logged and shown in the server's state.
            let _ = server.ensure().await;
        }
    }

    /// Every server started (those already running as they are), with its tools or
    /// why it could not start.
    pub async fn start_all(&self) -> Vec<(Arc<Server>, Result<Vec<ToolInfo>, McpError>)> {
        let servers: Vec<Arc<Server>> = self.servers().values().cloned().collect();
        self.start(servers).await
    }

    /// `servers` started at once; what they list is remembered (`cache`).
    async fn start(
        &self,
        servers: Vec<Arc<Server>>,
    ) -> Vec<(Arc<Server>, Result<Vec<ToolInfo>, McpError>)> {
        let mut started = tokio::task::JoinSet::new();
        for server in servers {
            started.spawn(async move {
                let tools = server.ensure().await.map(|live| live.tools.clone());
                (server, tools)
            });
        }
        let mut out = Vec::new();
        while let Some(joined) = started.join_next().await {
            match joined {
                Ok((server, tools)) => {
                    if let Ok(tools) = &tools {
                        self.cache.put(&server.config, tools);
                    }
                    out.push((server, tools));
                }
                Err(e) => tracing::warn!("starting an MCP server failed: {e}"),
            }
        }
        out.sort_by(|a, b| a.0.name().cmp(b.0.name()));
        out
    }

    /// One server started and its tools listed (`zeta mcp test NAME`).
    pub async fn test(&self, name: &str) -> Result<Vec<ToolInfo>, McpError> {
        let server = self
            .servers()
            .get(name)
            .cloned()
            .ok_or_else(|| McpError::Unknown(name.to_string()))?;
        let tools = server.ensure().await.map(|live| live.tools.clone())?;
        self.cache.put(&server.config, &tools);
        Ok(tools)
    }

    /// The tools that fit `request`, at most `limit`: chosen among what each server runs
    /// with, or listed at its last start (it starts when one of its tools is called);
    /// a server never listed, or that failed, is started now. A line for each server that
    /// could not start.
    pub async fn tools(&self, request: &str, limit: usize) -> OfferedTools {
        let servers: Vec<Arc<Server>> = self.servers().values().cloned().collect();
        let mut known = Vec::new();
        let mut to_start = Vec::new();
        for server in servers {
            let listed = server.running_tools().or_else(|| {
                (!server.has_failed())
                    .then(|| self.cache.get(&server.config))
                    .flatten()
            });
            match listed {
                Some(tools) => known.push((server, Ok(tools))),
                None => to_start.push(server),
            }
        }
        known.extend(self.start(to_start).await);
        let unreviewed: Vec<String> = known
            .iter()
            .filter_map(|(server, tools)| match tools {
                Ok(tools) if !self.reviewed.covers(server.name(), tools) => {
                    Some(server.name().to_string())
                }
                _ => None,
            })
            .collect();
        let mut all: Vec<McpTool> = Vec::new();
        let mut unavailable = Vec::new();
        for (server, tools) in known {
            let tools = match tools {
                Ok(tools) => tools,
                Err(e) => {
                    unavailable.push(format!("`{}`: {e}", server.name()));
                    continue;
                }
            };
            for info in tools {
                let tool = McpTool::new(Arc::clone(&server), info);
                if all.iter().any(|t| t.exposed_name() == tool.exposed_name()) {
                    tracing::warn!(
                        "MCP server `{}` lists two tools named `{}`; the second is left out",
                        server.name(),
                        tool.exposed_name()
                    );
                    continue;
                }
                all.push(tool);
            }
        }
        let candidates: Vec<Candidate<'_>> = all
            .iter()
            .map(|t| Candidate {
                server: t.server_name(),
                tool: t.tool_name(),
                description: t.description(),
            })
            .collect();
        let chosen = choose(request, &candidates, limit);
        let mut slots: Vec<Option<McpTool>> = all.into_iter().map(Some).collect();
        let tools = chosen
            .into_iter()
            .filter_map(|i| slots.get_mut(i).and_then(Option::take))
            .collect::<Vec<McpTool>>();
        let unreviewed_offered: Vec<&str> = unreviewed
            .iter()
            .filter(|name| tools.iter().any(|t| t.server_name() == name.as_str()))
            .map(String::as_str)
            .collect();
        let untrusted = (!unreviewed_offered.is_empty()).then(|| {
            format!(
                "this task was offered tools whose descriptions an MCP server wrote ({}) and \
                 you have not reviewed (`zeta mcp review NAME`), so its changes ask first",
                unreviewed_offered
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
        OfferedTools {
            tools: tools
                .into_iter()
                .map(|t| Arc::new(t) as Arc<dyn Tool>)
                .collect(),
            unavailable,
            untrusted,
        }
    }

    /// Records that the person reviewed `tools`, `name`'s list.
    pub fn record_review(&self, name: &str, tools: &[ToolInfo]) -> std::io::Result<()> {
        self.reviewed.record(name, tools)
    }

    /// Records the review of `name`'s running list, if it is still the one whose digest
    /// the person was shown (`ServerStatus::digest`).
    pub fn record_review_of(&self, name: &str, shown: &str) -> Result<(), String> {
        let server = self
            .servers()
            .get(name)
            .cloned()
            .ok_or_else(|| format!("no MCP server named `{name}`"))?;
        let tools = server
            .running_tools()
            .ok_or_else(|| format!("`{name}` is not running: check the servers again"))?;
        if crate::reviewed::digest(&tools) != shown {
            return Err(format!(
                "`{name}`'s tools changed since they were shown: check the servers again"
            ));
        }
        self.reviewed
            .record(name, &tools)
            .map_err(|e| format!("could not record the review: {e}"))
    }

    /// Each server's state and tools, the turned-off ones included.
    pub fn status(&self) -> Vec<ServerStatus> {
        let mut all: Vec<ServerStatus> = self
            .servers()
            .values()
            .map(|server| {
                let mut status = server.status();
                if let Some(tools) = server.running_tools() {
                    status.descriptions = tools
                        .iter()
                        .map(|t| crate::reviewed::described(server.name(), t))
                        .collect();
                    status.digest = Some(crate::reviewed::digest(&tools));
                    status.reviewed = self.reviewed.covers(server.name(), &tools);
                }
                status
            })
            .collect();
        for name in self
            .disabled
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
        {
            all.push(ServerStatus {
                name: name.clone(),
                target: String::new(),
                state: ServerState::Disabled,
                tools: Vec::new(),
                descriptions: Vec::new(),
                digest: None,
                reviewed: false,
            });
        }
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    /// Stops every server (by process id and group), for when Zeta quits.
    pub async fn shutdown(&self) {
        let servers: Vec<Arc<Server>> =
            std::mem::take(&mut *self.servers()).into_values().collect();
        for server in servers {
            server.stop().await;
        }
    }

    /// The command line or URL of a configured server.
    pub fn target_of(&self, name: &str) -> Option<String> {
        self.servers().get(name).map(|s| target(&s.config))
    }
}

impl ToolSource for McpManager {
    fn tools_for<'a>(
        &'a self,
        request: &'a str,
        settings: &'a Settings,
        limit: usize,
    ) -> ToolsFuture<'a> {
        Box::pin(async move {
            for problem in self.configure(&settings.mcp_servers).await {
                tracing::warn!("{problem}");
            }
            self.tools(request, limit).await
        })
    }
}
