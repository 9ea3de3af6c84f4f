//! The local server's supervisor: one thread that starts the server, probes it until it
//! answers, restarts it when it dies (three quick tries, then it reports the failure), and
//! stops it. The thread owns the child, so the child's parent-death signal (set at spawn)
//! fires if Zeta dies without stopping it: no orphans.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::{LocalServerState, LocalSpec, ServerProgram};

/// Restarts in a row that never became ready, before the supervisor gives up.
const MAX_RESTARTS: u32 = 3;
/// How long a server may take to load its model and answer.
const STARTUP_LIMIT: Duration = Duration::from_secs(180);
const TICK: Duration = Duration::from_millis(150);

pub(super) enum Cmd {
    Ensure(LocalSpec, ServerProgram),
    Stop(std::sync::mpsc::Sender<()>),
}

struct Running {
    child: Child,
    spec: LocalSpec,
    program: ServerProgram,
    port: u16,
    started: Instant,
    ready: bool,
}

pub(super) struct Supervisor {
    pub rx: Receiver<Cmd>,
    pub state: Arc<watch::Sender<LocalServerState>>,
    /// The server's stdout and stderr go here (`$ZETA_HOME/logs/local-server.log`).
    pub log: PathBuf,
    /// Where the running server is described for `zeta doctor` (`$ZETA_HOME/local-server.json`).
    pub status_file: PathBuf,
}

impl Supervisor {
    pub fn run(self) {
        let mut running: Option<Running> = None;
        let mut wanted: Option<(LocalSpec, ServerProgram)> = None;
        let mut failures = 0u32;
        loop {
            match self.rx.recv_timeout(TICK) {
                Ok(Cmd::Ensure(spec, program)) => {
                    let same = running.as_ref().is_some_and(|r| r.spec == spec);
                    if same {
                        if let Some(r) = running.as_ref().filter(|r| r.ready) {
                            self.publish_ready(r);
                        }
                    } else {
                        if let Some(old) = running.take() {
                            self.kill(old);
                        }
                        failures = 0;
                        running = self.start(&spec, &program, None);
                    }
                    wanted = Some((spec, program));
                }
                Ok(Cmd::Stop(ack)) => {
                    wanted = None;
                    if let Some(old) = running.take() {
                        self.kill(old);
                    }
                    self.state.send_replace(LocalServerState::Stopped);
                    let _ = ack.send(());
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    if let Some(old) = running.take() {
                        self.kill(old);
                    }
                    return;
                }
            }
            let Some(r) = running.as_mut() else { continue };
            match r.child.try_wait() {
                Ok(None) if r.ready => {}
                Ok(None) => {
                    if probe(r.port) {
                        r.ready = true;
                        failures = 0;
                        self.publish_ready(r);
                    } else if r.started.elapsed() > STARTUP_LIMIT {
                        let reason = format!(
                            "the server did not answer within {} s",
                            STARTUP_LIMIT.as_secs()
                        );
                        if let Some(old) = running.take() {
                            self.kill(old);
                        }
                        self.fail(&reason, &mut failures, &mut running, wanted.as_ref());
                    }
                }
                Ok(Some(status)) => {
                    let was_ready = r.ready;
                    let reason = format!(
                        "the server (pid {}) exited with {status}{}",
                        r.child.id(),
                        self.log_tail()
                    );
                    tracing::warn!("{reason}");
                    running = None;
                    let _ = std::fs::remove_file(&self.status_file);
                    if was_ready {
                        // It was serving: a crash or a kill. Start again at once.
                        failures = 0;
                    }
                    self.fail(&reason, &mut failures, &mut running, wanted.as_ref());
                }
                Err(e) => {
                    tracing::warn!("could not check the local server: {e}");
                }
            }
        }
    }

    /// A start failed or the server died: restart it, or give up after `MAX_RESTARTS`.
    fn fail(
        &self,
        reason: &str,
        failures: &mut u32,
        running: &mut Option<Running>,
        wanted: Option<&(LocalSpec, ServerProgram)>,
    ) {
        let Some((spec, program)) = wanted else {
            self.state.send_replace(LocalServerState::Stopped);
            return;
        };
        *failures += 1;
        if *failures > MAX_RESTARTS {
            self.state.send_replace(LocalServerState::Failed {
                error: format!("gave up after {MAX_RESTARTS} restarts: {reason}"),
            });
            return;
        }
        self.state.send_replace(LocalServerState::Restarting {
            reason: reason.to_string(),
            attempt: *failures,
        });
        // A short pause so that a server that dies at once does not spin.
        std::thread::sleep(Duration::from_millis(250 * u64::from(*failures)));
        *running = self.start(spec, program, Some(reason));
    }

    fn start(
        &self,
        spec: &LocalSpec,
        program: &ServerProgram,
        after: Option<&str>,
    ) -> Option<Running> {
        let port = match free_port() {
            Ok(port) => port,
            Err(e) => {
                self.state.send_replace(LocalServerState::Failed {
                    error: format!("no free port on 127.0.0.1: {e}"),
                });
                return None;
            }
        };
        if after.is_none() {
            let starting = LocalServerState::Starting {
                model: spec.model.display().to_string(),
                program: program.describe(),
            };
            // `ensure` may have said so already.
            self.state.send_if_modified(|s| {
                let changed = *s != starting;
                *s = starting.clone();
                changed
            });
        }
        let (out, err) = match self.log_files() {
            Ok(files) => files,
            Err(e) => {
                tracing::warn!("could not open {}: {e}", self.log.display());
                (Stdio::null(), Stdio::null())
            }
        };
        let mut cmd = program.command(spec, port, out, err);
        die_with_parent(&mut cmd);
        match cmd.spawn() {
            Ok(child) => {
                tracing::info!(
                    pid = child.id(),
                    port,
                    model = %spec.model.display(),
                    "started the local model server: {}",
                    program.describe()
                );
                Some(Running {
                    child,
                    spec: spec.clone(),
                    program: program.clone(),
                    port,
                    started: Instant::now(),
                    ready: false,
                })
            }
            Err(e) => {
                self.state.send_replace(LocalServerState::Failed {
                    error: format!("could not start {}: {e}", program.describe()),
                });
                None
            }
        }
    }

    fn publish_ready(&self, r: &Running) {
        let state = LocalServerState::Ready {
            port: r.port,
            pid: r.child.id(),
            model: r.spec.model.display().to_string(),
            program: r.program.describe(),
            startup_ms: r.started.elapsed().as_millis() as u64,
        };
        tracing::info!(?state, "the local model server is ready");
        match serde_json::to_vec_pretty(&state) {
            Ok(json) => {
                if let Err(e) = zeta_protocol::home::write_private(&self.status_file, &json) {
                    tracing::warn!("could not write {}: {e}", self.status_file.display());
                }
            }
            Err(e) => tracing::warn!("could not describe the local server: {e}"),
        }
        self.state.send_replace(state);
    }

    /// Ends the server by its PID: SIGTERM, then SIGKILL after 5 s.
    fn kill(&self, mut r: Running) {
        let pid = r.child.id();
        terminate(pid);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = r.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if let Ok(None) = r.child.try_wait() {
            let _ = r.child.kill();
        }
        let _ = r.child.wait();
        let _ = std::fs::remove_file(&self.status_file);
        tracing::info!(pid, "stopped the local model server");
    }

    fn log_files(&self) -> std::io::Result<(Stdio, Stdio)> {
        let mut file = zeta_protocol::home::open_private(&self.log, true)?;
        writeln!(file, "--- zeta: starting the local model server ---")?;
        Ok((Stdio::from(file.try_clone()?), Stdio::from(file)))
    }

    /// The last lines of the server's log, for the error the user reads.
    fn log_tail(&self) -> String {
        let Ok(mut file) = File::open(&self.log) else {
            return String::new();
        };
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let _ = file.seek(SeekFrom::Start(len.saturating_sub(600)));
        let mut text = String::new();
        let _ = file.read_to_string(&mut text);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
        if tail.is_empty() {
            String::new()
        } else {
            format!("; its log ends: {tail}")
        }
    }
}

/// Answers `GET /v1/models` with 200: the model is loaded and the server serves.
fn probe(port: u16) -> bool {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(300)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
    let request = "GET /v1/models HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut head = [0u8; 16];
    let mut read = 0;
    while read < head.len() {
        match stream.read(&mut head[read..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
    let head = String::from_utf8_lossy(&head[..read]);
    head.starts_with("HTTP/1.") && head.get(9..12) == Some("200")
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

fn terminate(pid: u32) {
    #[cfg(unix)]
    // SAFETY: kill(2) on the PID of our own child, which we have not yet reaped.
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGTERM);
    }
}

/// The child gets SIGTERM when the thread that started it (the supervisor) ends, which
/// includes Zeta's process dying.
fn die_with_parent(cmd: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}
