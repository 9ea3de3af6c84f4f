//! `zeta local-server`: the keeper that serves Zeta's own model between commands (started
//! by `zeta run` and `zeta worker`, not by hand; see `zeta_llm::local::shared`), and
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
