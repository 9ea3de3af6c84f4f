//! Logging for the app and the CLI: human lines on stderr, and (for the app) an
//! owner-only file, `$ZETA_HOME/logs/zeta.log`, that rolls over to `zeta.log.1` past
//! 8 MiB. `RUST_LOG` overrides the level.

use tracing_subscriber::{fmt, layer::SubscriberExt, util::SubscriberInitExt, EnvFilter};
use zeta_core::ZetaHome;

/// Keeps the file writer flushing until the process ends.
pub struct LogGuard {
    _file: Option<tracing_appender::non_blocking::WorkerGuard>,
}

/// `default` for Zeta's own lines. enigo's are left out: every failure of its reaches
/// Zeta as an error it reports, and on Wayland it logs the X connection Zeta keeps it
/// from making as an error.
fn filter(default: &str) -> EnvFilter {
    EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(format!("{default},enigo=off")))
}

/// CLI: warnings and errors on stderr only, so stdout stays machine-readable.
pub fn init_cli() -> LogGuard {
    let _ = tracing_subscriber::registry()
        .with(fmt::layer().with_writer(std::io::stderr).with_target(false))
        .with(filter("warn"))
        .try_init();
    LogGuard { _file: None }
}

/// App: info and up on stderr and in `$ZETA_HOME/logs/zeta.log`.
pub fn init_app(home: &ZetaHome) -> LogGuard {
    let file = match PrivateLog::open(home.logs_dir().join("zeta.log")) {
        Ok(file) => file,
        Err(e) => {
            err!(
                "zeta: could not open the log file in {}: {e}",
                home.logs_dir().display()
            );
            let guard = init_cli();
            return guard;
        }
    };
    // The writer's queue is allocated and touched whole at start (crossbeam's array
    // channel): the default 128,000 lines held 4 MiB of the idle app. The app logs a few
    // lines a second at most; past this many waiting, lines are dropped, not blocked on.
    let (file_writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_QUEUE_LINES)
        .finish(file);
    let _ = tracing_subscriber::registry()
        .with(fmt::layer().with_writer(std::io::stderr).with_target(false))
        .with(fmt::layer().with_writer(file_writer).with_ansi(false))
        .with(filter("info"))
        .try_init();
    LogGuard { _file: Some(guard) }
}

/// Lines waiting for the log file before more are dropped.
const LOG_QUEUE_LINES: usize = 4096;

/// Largest log file before it rolls over to `<name>.1` (replacing the older one).
const LOG_ROLL_BYTES: u64 = 8 * 1024 * 1024;

/// The app's log file: created 0600, appended to, rolled over past `LOG_ROLL_BYTES`.
struct PrivateLog {
    path: std::path::PathBuf,
    file: std::fs::File,
    written: u64,
}

impl PrivateLog {
    fn open(path: std::path::PathBuf) -> std::io::Result<Self> {
        let file = zeta_protocol::home::open_private(&path, true)?;
        let written = file.metadata()?.len();
        Ok(Self {
            path,
            file,
            written,
        })
    }

    fn roll(&mut self) -> std::io::Result<()> {
        let mut old = self.path.clone().into_os_string();
        old.push(".1");
        std::fs::rename(&self.path, old)?;
        self.file = zeta_protocol::home::open_private(&self.path, true)?;
        self.written = 0;
        Ok(())
    }
}

impl std::io::Write for PrivateLog {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written >= LOG_ROLL_BYTES {
            if let Err(e) = self.roll() {
                err!("zeta: could not roll the log file over: {e}");
                self.written = 0;
            }
        }
        let n = self.file.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}
