//! `zeta mcp`: the MCP servers in `settings.json`. `list` starts each (briefly) to show
//! its state and tools, `add` writes an entry (a command, a URL, or a pasted JSON entry;
//! secret-looking `env` and `headers` values go to the secret store, the file keeps a
//! `${secret:NAME}` reference), `remove` deletes one, `test` starts one and lists its
//! tools. Every server this command starts is stopped by its process id before it exits.

use std::process::ExitCode;

use anyhow::{bail, Context};
use serde_json::{json, Map, Value};
use zeta_app::mcp_secrets::{keep_secrets, secret_name};
use zeta_core::ZetaHome;
use zeta_llm::SecretStore;
use zeta_mcp::{McpManager, ServerState};

use zeta_app::agent::mcp_manager;

#[derive(Debug, clap::Subcommand)]
pub enum McpCommand {
    /// Each server: its state and its tools (each is started to list them, then stopped).
    List {
        #[arg(long)]
        json: bool,
    },
    /// Add (or replace) a server: `zeta mcp add NAME -- COMMAND ARGS...`,
    /// `zeta mcp add NAME --url URL`, or `zeta mcp add NAME --json '{"command": ...}'`.
    Add {
        name: String,
        /// A streamable-HTTP server's address.
        #[arg(long, conflicts_with = "json")]
        url: Option<String>,
        /// The entry as other apps write it (`{"command", "args", "env"}` or `{"url", "headers"}`).
        #[arg(long)]
        json: Option<String>,
        /// KEY=VALUE for a command server's environment (repeatable).
        #[arg(long = "env")]
        env: Vec<String>,
        /// NAME=VALUE, a header for a URL server (repeatable).
        #[arg(long = "header")]
        headers: Vec<String>,
        /// Let the tools the server marks read-only run without asking.
        #[arg(long)]
        trust_read_only: bool,
        /// The program and its arguments (after `--`).
        #[arg(last = true)]
        command: Vec<String>,
    },
    /// Remove a server from the settings.
    Remove { name: String },
    /// Start a server and list its tools.
    Test { name: String },
    /// Show a server's tools as the model sees them (descriptions and parameters, with
    /// control characters made visible) and record that you reviewed them: tasks offered
    /// tools whose descriptions nobody reviewed ask before their changes.
    Review {
        name: String,
        /// Record the review without asking (after reading the list yourself).
        #[arg(long)]
        yes: bool,
    },
}

pub fn run(home: &ZetaHome, command: McpCommand) -> anyhow::Result<ExitCode> {
    let settings_file = home.settings_file();
    match command {
        McpCommand::Add {
            name,
            url,
            json,
            env,
            headers,
            trust_read_only,
            command,
        } => {
            let mut entry = entry_from(url, json, &env, &headers, command)?;
            if trust_read_only {
                entry.insert("trustReadOnly".into(), Value::Bool(true));
            }
            let store = SecretStore::for_home(home.root());
            let moved = keep_secrets(&store, &name, &mut entry)
                .context("could not keep a secret value in the secret store")?;
            zeta_core::settings::set_mcp_server(&settings_file, &name, Some(Value::Object(entry)))?;
            for key in moved {
                err!("zeta: `{key}` looks like a secret: it is kept in the secret store, and the settings name it as ${{secret:{}}}", secret_name(&name, &key));
            }
            err!("zeta: added the MCP server `{name}`; `zeta mcp test {name}` starts it and lists its tools");
            Ok(ExitCode::SUCCESS)
        }
        McpCommand::Remove { name } => {
            let settings = zeta_core::settings::load_or_create(&settings_file)?.settings;
            if !settings.mcp_servers.contains_key(&name) {
                bail!(
                    "there is no MCP server named `{name}` in {}",
                    settings_file.display()
                );
            }
            zeta_core::settings::set_mcp_server(&settings_file, &name, None)?;
            err!("zeta: removed the MCP server `{name}`");
            Ok(ExitCode::SUCCESS)
        }
        McpCommand::Test { name } => with_servers(home, |mcp| async move {
            let tools = mcp.test(&name).await;
            let target = mcp.target_of(&name).unwrap_or_default();
            mcp.shutdown().await;
            let tools = tools?;
            out!("{name} ({target}): started; {} tools", tools.len());
            for t in tools {
                let read_only = if t.read_only { " [read-only]" } else { "" };
                out!(
                    "  {}{read_only}: {}",
                    zeta_mcp::server::exposed_name(&name, &t.name),
                    zeta_core::text::one_line(&t.description, 80)
                );
            }
            Ok(ExitCode::SUCCESS)
        }),
        McpCommand::Review { name, yes } => with_servers(home, |mcp| async move {
            let tools = mcp.test(&name).await;
            mcp.shutdown().await;
            let tools = tools?;
            out!("{name}: {} tools, as the model is shown them:", tools.len());
            for t in &tools {
                let shown = zeta_mcp::reviewed::described(&name, t);
                out!("\n{}\n  {}", shown.name, shown.description);
                for (param, about) in shown.parameters {
                    out!("  - {param}: {about}");
                }
            }
            if !yes && !confirm("\nTrust these descriptions for tasks? [y/N] ")? {
                out!("not recorded: tasks offered these tools still ask before their changes");
                return Ok(ExitCode::FAILURE);
            }
            mcp.record_review(&name, &tools)
                .with_context(|| format!("recording the review of `{name}`"))?;
            out!("recorded: tasks offered these tools are not marked for them (until the list changes)");
            Ok(ExitCode::SUCCESS)
        }),
        McpCommand::List { json } => with_servers(home, |mcp| async move {
            mcp.start_all().await;
            let status = mcp.status();
            mcp.shutdown().await;
            if json {
                out!("{}", serde_json::to_string_pretty(&status)?);
                return Ok(ExitCode::SUCCESS);
            }
            if status.is_empty() {
                out!("no MCP servers (add one with `zeta mcp add NAME -- COMMAND ARGS...`)");
            }
            for s in status {
                let state = match &s.state {
                    ServerState::Ready { .. } => format!("works, {} tools", s.tools.len()),
                    ServerState::Failed { error, .. } => format!("FAILED: {error}"),
                    ServerState::Disabled => "turned off".into(),
                    ServerState::NotStarted => "not started".into(),
                };
                out!("{} ({}): {state}", s.name, s.target);
                for t in &s.tools {
                    out!("  {t}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }),
    }
}

/// Asks a yes/no question on the terminal; no terminal is a no.
pub(crate) fn confirm(question: &str) -> anyhow::Result<bool> {
    use std::io::{IsTerminal, Write};
    if !std::io::stdin().is_terminal() {
        out!("(no terminal to answer on: pass --yes)");
        return Ok(false);
    }
    print!("{question}");
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes"))
}

/// Runs `body` with the home's MCP servers configured (and reports the bad entries).
fn with_servers<F, Fut>(home: &ZetaHome, body: F) -> anyhow::Result<ExitCode>
where
    F: FnOnce(std::sync::Arc<McpManager>) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<ExitCode>>,
{
    let settings = zeta_core::settings::load_or_create(&home.settings_file())?.settings;
    let mcp = mcp_manager(home);
    super::runtime()?.block_on(async move {
        for problem in mcp.configure(&settings.mcp_servers).await {
            err!("zeta: {problem}");
        }
        body(mcp).await
    })
}

fn entry_from(
    url: Option<String>,
    json: Option<String>,
    env: &[String],
    headers: &[String],
    command: Vec<String>,
) -> anyhow::Result<Map<String, Value>> {
    let mut entry = match (json, url, command.split_first()) {
        (Some(text), _, None) => {
            match serde_json::from_str::<Value>(&text).context("--json is not valid JSON")? {
                Value::Object(map) => map,
                other => bail!("--json must be an object like {{\"command\": ...}}, not {other}"),
            }
        }
        (None, Some(url), None) => json!({"url": url}).as_object().cloned().unwrap_or_default(),
        (None, None, Some((program, args))) => json!({"command": program, "args": args})
            .as_object()
            .cloned()
            .unwrap_or_default(),
        (None, None, None) => {
            bail!("say what to start (`-- COMMAND ARGS...`), or give --url or --json")
        }
        _ => bail!("give one of: `-- COMMAND ARGS...`, --url, --json"),
    };
    for (field, pairs) in [("env", env), ("headers", headers)] {
        if pairs.is_empty() {
            continue;
        }
        let map = entry
            .entry(field)
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(map) = map.as_object_mut() else {
            bail!("`{field}` in --json is not an object");
        };
        for pair in pairs {
            let Some((k, v)) = pair.split_once('=') else {
                bail!("`{pair}` is not KEY=VALUE");
            };
            map.insert(k.to_string(), Value::String(v.to_string()));
        }
    }
    Ok(entry)
}
