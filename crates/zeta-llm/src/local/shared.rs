//! One model server per Zeta home, shared by the app and every `zeta` command. The server
//! that runs is described in `$ZETA_HOME/local-server.json` (port, PID, model); any Zeta
//! that needs the same model uses it instead of loading the model again. Every request
//! touches `$ZETA_HOME/local-server.used`, so whoever keeps the server (see [`keep`]) knows
//! when it was last used.
//!
//! Without the app, `zeta run` starts the server under a keeper: a detached `zeta
//! local-server keep` process that owns the server and ends it, and itself, once nobody has
//! used it for the idle time the user chose (`provider.keepWarmSecs`), or on SIGTERM. The
//! server dies with its keeper (parent-death signal), so nothing outlives both.

use std::fs::File;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::{status_file, LocalError, LocalServer, LocalServerState, LocalSpec, ServerProgram};

/// A server another Zeta started that serves the wanted model and answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub port: u16,
    pub pid: u32,
}

/// `$ZETA_HOME/local-server.used`: its modification time is the last request's.
pub fn used_file(home: &Path) -> PathBuf {
    home.join("local-server.used")
}

/// `$ZETA_HOME/local-server.lock`: held by the one keeper of this home; it holds its PID.
pub fn keeper_lock(home: &Path) -> PathBuf {
    home.join("local-server.lock")
}

/// The PID written in the keeper's lock file (the keeper may have ended since).
pub fn keeper_pid(home: &Path) -> Option<u32> {
    std::fs::read_to_string(keeper_lock(home))
        .ok()?
        .lines()
        .next()?
        .trim()
        .parse()
        .ok()
}

/// The running server of this home, if it serves `model`, its process lives and its port
/// answers.
pub fn running(home: &Path, model: &Path) -> Option<Found> {
    let text = std::fs::read_to_string(status_file(home)).ok()?;
    let LocalServerState::Ready {
        port,
        pid,
        model: serves,
        ..
    } = serde_json::from_str(&text).ok()?
    else {
        return None;
    };
    if Path::new(&serves) != model || !alive(pid) || !super::supervisor::probe(port) {
        return None;
    }
    Some(Found { port, pid })
}

/// Says the server was just used (a request starts or ends).
pub fn touch(home: &Path) {
    let path = used_file(home);
    let result = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .and_then(|f| f.set_modified(SystemTime::now()));
    if let Err(e) = result {
        tracing::debug!("could not mark {} as used: {e}", path.display());
    }
}

/// How long since the last request (since the epoch's start when none was ever made).
pub fn idle_for(home: &Path) -> Duration {
    std::fs::metadata(used_file(home))
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .unwrap_or(Duration::MAX)
}

/// Whether a process with this PID runs (exists and is not a zombie waiting to be reaped).
pub fn alive(pid: u32) -> bool {
    let Ok(raw) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if raw <= 0 {
        return false;
    }
    // SAFETY: kill with signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(raw, 0) };
    let exists = r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    exists && !zombie(pid)
}

/// `/proc/PID/stat`'s state is `Z` (Linux; elsewhere nothing says so).
fn zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            // The state follows the command name, which is in parentheses.
            let after = stat.rsplit_once(')')?.1;
            after.split_whitespace().next().map(|s| s == "Z")
        })
        .unwrap_or(false)
}

/// How a keeper ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeepEnd {
    /// Nobody used the server for the idle time.
    Idle,
    /// It was told to stop (SIGTERM or SIGINT).
    Signalled,
    /// Another keeper of this home already serves this model.
    AlreadyKept,
}

/// The keeper: serves `spec` until it has been idle for `idle` or a signal comes; then
/// stops the server by its PID and returns. Another keeper of the same home serving the
/// same model means there is nothing to do; one serving another model is asked to stop
/// (SIGTERM by the PID in the lock file) and this one takes over.
pub async fn keep(
    home: &Path,
    spec: &LocalSpec,
    program: &ServerProgram,
    idle: Duration,
) -> Result<KeepEnd, LocalError> {
    let lock = match take_lock(home, &spec.model).await? {
        Some(lock) => lock,
        None => return Ok(KeepEnd::AlreadyKept),
    };
    let server = LocalServer::new(home, super::Launch::Child);
    server.ensure(spec, program).await?;
    touch(home);
    let mut term = signal(tokio::signal::unix::SignalKind::terminate())?;
    let mut int = signal(tokio::signal::unix::SignalKind::interrupt())?;
    let end = loop {
        tokio::select! {
            _ = term.recv() => break KeepEnd::Signalled,
            _ = int.recv() => break KeepEnd::Signalled,
            _ = tokio::time::sleep(Duration::from_millis(500)) => {}
        }
        if idle_for(home) >= idle {
            break KeepEnd::Idle;
        }
        if let LocalServerState::Failed { error } = server.state() {
            tokio::task::block_in_place(|| server.stop());
            return Err(LocalError::Failed(error));
        }
    };
    tracing::info!(?end, "the keeper stops the local model server");
    tokio::task::block_in_place(|| server.stop());
    drop(lock);
    Ok(end)
}

fn signal(
    kind: tokio::signal::unix::SignalKind,
) -> Result<tokio::signal::unix::Signal, LocalError> {
    tokio::signal::unix::signal(kind)
        .map_err(|e| LocalError::Failed(format!("could not watch for signals: {e}")))
}

/// The keeper's lock, with this process's PID and model written in it. `None` when
/// another keeper holds it for the same model.
async fn take_lock(home: &Path, model: &Path) -> Result<Option<File>, LocalError> {
    let path = keeper_lock(home);
    let io = |e: std::io::Error| LocalError::Failed(format!("{}: {e}", path.display()));
    let mut file = zeta_protocol::home::open_private(&path, true).map_err(io)?;
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        // SAFETY: flock on a descriptor this function owns.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r == 0 {
            file.set_len(0).map_err(io)?;
            writeln!(file, "{}\n{}", std::process::id(), model.display()).map_err(io)?;
            return Ok(Some(file));
        }
        let held = std::fs::read_to_string(&path).unwrap_or_default();
        let mut lines = held.lines();
        let pid = lines.next().and_then(|p| p.trim().parse::<u32>().ok());
        if lines.next().map(Path::new) == Some(model) {
            return Ok(None);
        }
        if std::time::Instant::now() > deadline {
            return Err(LocalError::Failed(format!(
                "another keeper (pid {}) holds {} and did not stop",
                pid.map_or("?".into(), |p| p.to_string()),
                path.display()
            )));
        }
        if let Some(pid) = pid.filter(|p| alive(*p) && *p != std::process::id()) {
            if let Ok(pid) = libc::pid_t::try_from(pid) {
                // SAFETY: SIGTERM to the keeper that wrote its PID into our lock file.
                unsafe {
                    libc::kill(pid, libc::SIGTERM);
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Asks the keeper with this PID to stop (SIGTERM) and waits up to 10 s for it to end.
pub fn stop_keeper(pid: u32) -> Result<(), LocalError> {
    let Ok(raw) = libc::pid_t::try_from(pid) else {
        return Err(LocalError::Failed(format!("{pid} is not a process id")));
    };
    // SAFETY: SIGTERM to the keeper whose PID its lock file holds.
    if unsafe { libc::kill(raw, libc::SIGTERM) } != 0 {
        return Err(LocalError::Failed(format!(
            "could not signal the keeper (pid {pid}): {}",
            std::io::Error::last_os_error()
        )));
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while alive(pid) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    if alive(pid) {
        return Err(LocalError::Failed(format!(
            "the keeper (pid {pid}) did not stop within 10 s"
        )));
    }
    Ok(())
}
