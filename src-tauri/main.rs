//! Zeta's one binary: `zeta` opens the desktop app; `zeta <command>` is the CLI.

mod agent;
mod app;
mod cli;
mod desktop;
mod doctor;
mod logging;
mod memory_cmd;
mod models_cmd;
mod secret_cmd;
mod signals;
mod terminal_approval;
mod voice_cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // Anything that is not a command or a help/version flag opens the app: WebDriver and
    // desktop launchers may pass flags of their own.
    let wants_cli = args.get(1).is_some_and(|first| {
        !first.starts_with('-') || matches!(first.as_str(), "-h" | "--help" | "-V" | "--version")
    });
    if wants_cli {
        let cli = cli::Cli::parse();
        if let Some(command) = cli.command {
            let _log = logging::init_cli();
            return match cli::run(command) {
                Ok(code) => code,
                Err(e) => {
                    eprintln!("zeta: {e:#}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    let result = zeta_core::ZetaHome::from_env()
        .map_err(anyhow::Error::from)
        .and_then(app::run);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zeta: {e:#}");
            ExitCode::FAILURE
        }
    }
}
