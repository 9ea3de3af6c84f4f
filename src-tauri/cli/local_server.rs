//! `zeta local-server`: the keeper that serves Zeta's own model between commands (started
//! by `zeta run` and `zeta worker`, not by hand; see `zeta_llm::local::shared`), `warm`,
//! which evaluates the opening every task starts with and saves it (setup runs it), and
//! `stop`, which ends a kept server now.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Subcommand;
use zeta_core::ZetaHome;
use zeta_llm::local::shared::{self, KeepEnd};
use zeta_llm::local::{LocalSpec, ServerProgram};

#[derive(Debug, Subcommand)]
pub enum LocalServerCommand {
    /// Serve a model until nobody has used it for IDLE_SECS (started by `zeta run`).
    #[command(hide = true)]
    Keep {
        #[arg(long)]
        model: PathBuf,
        #[arg(long)]
        context: u32,
        #[arg(long)]
        threads: usize,
        #[arg(long)]
        program: PathBuf,
        #[arg(long)]
        idle_secs: u64,
    },
    /// Evaluate now the opening every task starts with (rules, tools, examples) and save
    /// it, so the first task after setup is as fast as the next (run at setup).
    Warm,
    /// Stop the model server kept warm between commands, now.
    Stop,
}

pub fn run(home: &ZetaHome, command: LocalServerCommand) -> anyhow::Result<ExitCode> {
    match command {
        LocalServerCommand::Keep {
            model,
            context,
            threads,
            program,
            idle_secs,
        } => {
            let idle = Duration::from_secs(idle_secs);
            let spec = LocalSpec {
                model,
                context,
                threads,
                keep_warm: idle,
            };
            let program = ServerProgram::from_path(program)?;
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .context("could not start the async runtime")?;
            let end = runtime.block_on(shared::keep(home.root(), &spec, &program, idle))?;
            err!(
                "zeta keeper (pid {}): {}",
                std::process::id(),
                match end {
                    KeepEnd::Idle => format!("unused for {idle_secs} s, stopped the server"),
                    KeepEnd::Signalled => "told to stop, stopped the server".into(),
                    KeepEnd::AlreadyKept => "another keeper serves this model".into(),
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        LocalServerCommand::Warm => warm(home),
        LocalServerCommand::Stop => {
            let held =
                std::fs::read_to_string(shared::keeper_lock(home.root())).unwrap_or_default();
            let pid = held
                .lines()
                .next()
                .and_then(|p| p.trim().parse::<u32>().ok());
            match pid.filter(|p| shared::alive(*p)) {
                Some(pid) => {
                    shared::stop_keeper(pid)?;
                    out!("stopped the model server kept warm (keeper pid {pid})");
                }
                None => out!("no model server is kept warm"),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `zeta local-server warm`: the agent's first request of an everyday task sent once to
/// Zeta's own model (`AgentLoop::warm`), then the kept server stopped, which saves what it
/// evaluated (`zeta_llm::local::kept_prompt`). Nothing to do for another provider.
fn warm(home: &ZetaHome) -> anyhow::Result<ExitCode> {
    let settings = zeta_core::settings::load_or_create(&home.settings_file())?.settings;
    if settings.provider.kind != zeta_core::settings::ProviderKind::Local {
        out!("the provider is not Zeta's own model: nothing to warm");
        return Ok(ExitCode::SUCCESS);
    }
    let exe = std::env::current_exe().context("cannot name this program for the keeper")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("could not start the async runtime")?;
    let started = std::time::Instant::now();
    let warmed = runtime.block_on(async {
        let local = zeta_llm::LocalServer::new(home.root(), zeta_llm::local::Launch::Keeper(exe));
        let mcp = zeta_app::agent::mcp_manager(home);
        let agent = zeta_app::agent::configured_agent(
            home,
            std::sync::Arc::clone(&local),
            std::sync::Arc::clone(&mcp),
            zeta_app::agent::user_workdir(home),
        )?;
        let warmed = agent.warm(settings, false).await;
        mcp.shutdown().await;
        anyhow::Ok(warmed)
    })?;
    if let Err(e) = warmed {
        anyhow::bail!("could not warm Zeta's own model: {e}");
    }
    // The keeper saves the evaluated prompt as it stops its server.
    let held = std::fs::read_to_string(shared::keeper_lock(home.root())).unwrap_or_default();
    if let Some(pid) = held
        .lines()
        .next()
        .and_then(|p| p.trim().parse::<u32>().ok())
        .filter(|p| shared::alive(*p))
    {
        shared::stop_keeper(pid)?;
    }
    out!(
        "warmed Zeta's own model in {:.1} s: the first task starts from the saved state",
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
