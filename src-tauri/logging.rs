//! Logging for the app and the CLI: human lines on stderr, and (for the app) a daily file
//! under `$ZETA_HOME/logs`. `RUST_LOG` overrides the level.

use tracing_subscriber::{fmt, layer::SubscriberExt, util::SubscriberInitExt, EnvFilter};
use zeta_core::ZetaHome;

/// Keeps the file writer flushing until the process ends.
pub struct LogGuard {
    _file: Option<tracing_appender::non_blocking::WorkerGuard>,
}

fn filter(default: &str) -> EnvFilter {
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default))
}

/// CLI: warnings and errors on stderr only, so stdout stays machine-readable.
pub fn init_cli() -> LogGuard {
    let _ = tracing_subscriber::registry()
        .with(fmt::layer().with_writer(std::io::stderr).with_target(false))
        .with(filter("warn"))
        .try_init();
    LogGuard { _file: None }
}

/// App: info and up on stderr and in `$ZETA_HOME/logs/zeta.log.<date>`.
pub fn init_app(home: &ZetaHome) -> LogGuard {
    let appender = tracing_appender::rolling::daily(home.logs_dir(), "zeta.log");
    let (file_writer, guard) = tracing_appender::non_blocking(appender);
    let _ = tracing_subscriber::registry()
        .with(fmt::layer().with_writer(std::io::stderr).with_target(false))
        .with(fmt::layer().with_writer(file_writer).with_ansi(false))
        .with(filter("info"))
        .try_init();
    LogGuard { _file: Some(guard) }
}
