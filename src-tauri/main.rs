//! Zeta's one binary: `zeta` opens the desktop app; `zeta <command>` is the CLI.

/// `println!` that does not panic when nobody reads any more (a closed pipe, a terminal
/// that went away): the line is lost and the command goes on, so a running task still
/// ends and is recorded, and a signal still stops it.
macro_rules! out {
    () => {
        out!("")
    };
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(
            &mut std::io::stdout(),
            format_args!("{}\n", format_args!($($arg)*)),
        );
    }};
}

/// `eprintln!` that does not panic on a closed standard error (see `out!`).
macro_rules! err {
    () => {
        err!("")
    };
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(
            &mut std::io::stderr(),
            format_args!("{}\n", format_args!($($arg)*)),
        );
    }};
}

mod app;
mod cli;
mod desktop;
mod logging;
mod signals;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().collect();
    // `-v` is the version too, as people type it.
    if args.get(1).is_some_and(|a| a == "-v") {
        args[1] = "-V".into();
    }
    // No argument, WebKitWebDriver's `--automation`, or `--hidden` (the start at login:
    // in the tray, no window) opens the app; anything else is the CLI, where an unknown
    // flag is a usage error.
    let hidden = args.get(1).is_some_and(|a| a == "--hidden");
    let opens_app = args.len() == 1 || hidden || args.get(1).is_some_and(|a| a == "--automation");
    if !opens_app {
        let cli = cli::Cli::parse_from(&args);
        if let Some(command) = cli.command {
            let _log = logging::init_cli();
            return match cli::run(command) {
                Ok(code) => code,
                Err(e) => {
                    err!("zeta: {e:#}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    // Before any thread or GTK: how the web views run is read from the environment.
    app::webview::set_page_engine();
    if let Err(why) = desktop::window_possible() {
        err!("{why}");
        return ExitCode::FAILURE;
    }
    let result = zeta_core::ZetaHome::from_env()
        .map_err(anyhow::Error::from)
        .and_then(|home| app::run(home, hidden));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            err!("zeta: {e:#}");
            ExitCode::FAILURE
        }
    }
}
