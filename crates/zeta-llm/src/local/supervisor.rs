//! The local server's supervisor: one thread that finds or starts the server, probes it
//! until it answers, restarts it when it dies (three quick tries, then it reports the
//! failure), and stops it. A server this home already runs for the same model is used as
//! it is ([`super::shared`]); else the server starts as this thread's child (its
//! parent-death signal, set at spawn, fires if Zeta dies without stopping it: no orphans)
//! or under a keeper that outlives this process for the keep-warm time ([`Launch`]).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::kept_prompt;
use super::shared::{self, Found};
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

/// How this Zeta starts a server when none it can share is running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// As its own child, ended when this Zeta stops it or dies (the app).
    Child,
    /// Under a keeper (`EXE local-server keep …`) that serves it for the spec's keep-warm
    /// time after the last request (the CLI). A spec whose keep-warm time is 0 is served
    /// as a child.
    Keeper(PathBuf),
}

enum Server {
    /// This thread's child.
    Own(Child),
    /// A keeper this thread started, whose server does not answer yet.
    Keeper(Child),
    /// A server another Zeta of this home runs (the app's or a keeper's); never stopped
    /// from here.
    Shared { pid: u32 },
}

struct Running {
    server: Server,
    spec: LocalSpec,
    program: ServerProgram,
    port: u16,
    started: Instant,
    ready: bool,
}

pub(super) struct Supervisor {
    pub rx: Receiver<Cmd>,
    pub launch: Launch,
    /// The Zeta home whose server this is (see [`super::shared`]).
    pub home: PathBuf,
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
            match self.check(r) {
                Health::Fine => {}
                Health::BecameReady => {
                    failures = 0;
                    self.restore_prompt(r);
                    self.publish_ready(r);
                }
                Health::TooSlow => {
                    let reason = format!(
                        "the server did not answer within {} s",
                        STARTUP_LIMIT.as_secs()
                    );
                    if let Some(old) = running.take() {
                        self.kill(old);
                    }
                    self.fail(&reason, &mut failures, &mut running, wanted.as_ref());
                }
                Health::GaveUp(error) => {
                    tracing::warn!("{error}");
                    running = None;
                    self.state.send_replace(LocalServerState::Failed { error });
                }
                Health::Ended { reason, was_ready } => {
                    tracing::warn!("{reason}");
                    let own = matches!(r.server, Server::Own(_));
                    running = None;
                    if own {
                        let _ = std::fs::remove_file(&self.status_file);
                    }
                    if was_ready {
                        // It was serving: a crash or a kill. Start again at once.
                        failures = 0;
                    }
                    self.fail(&reason, &mut failures, &mut running, wanted.as_ref());
                }
            }
        }
    }

    /// One look at the server: did it become ready, is it too slow, has it ended?
    fn check(&self, r: &mut Running) -> Health {
        let too_slow = r.started.elapsed() > STARTUP_LIMIT;
        match &mut r.server {
            Server::Own(child) => match child.try_wait() {
                Ok(None) if r.ready => Health::Fine,
                Ok(None) if probe(r.port) => {
                    r.ready = true;
                    Health::BecameReady
                }
                Ok(None) if too_slow => Health::TooSlow,
                Ok(None) => Health::Fine,
                Ok(Some(status)) => Health::Ended {
                    reason: format!(
                        "the server (pid {}) exited with {status}{}",
                        child.id(),
                        self.log_tail()
                    ),
                    was_ready: r.ready,
                },
                Err(e) => {
                    tracing::warn!("could not check the local server: {e}");
                    Health::Fine
                }
            },
            Server::Keeper(child) => {
                if let Some(Found { port, pid }) = shared::running(&self.home, &r.spec.model) {
                    r.server = Server::Shared { pid };
                    r.port = port;
                    r.ready = true;
                    return Health::BecameReady;
                }
                match child.try_wait() {
                    // A keeper that ends well found another keeper starting this model:
                    // its server is awaited like this one's.
                    // One that ends badly has already restarted its server and given up.
                    Ok(Some(status)) if !status.success() => Health::GaveUp(format!(
                        "the keeper exited with {status}{}",
                        self.log_tail()
                    )),
                    _ if too_slow => Health::TooSlow,
                    _ => Health::Fine,
                }
            }
            Server::Shared { pid } => {
                if shared::alive(*pid) {
                    Health::Fine
                } else {
                    Health::Ended {
                        reason: format!("the shared server (pid {pid}) ended"),
                        was_ready: true,
                    }
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
        if let Some(Found { port, pid }) = shared::running(&self.home, &spec.model) {
            tracing::info!(
                pid,
                port,
                "using the local model server this home already runs"
            );
            let r = Running {
                server: Server::Shared { pid },
                spec: spec.clone(),
                program: program.clone(),
                port,
                started: Instant::now(),
                ready: true,
            };
            self.publish_ready(&r);
            return Some(r);
        }
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
        let (mut cmd, port, keeper) = match &self.launch {
            Launch::Keeper(exe) if !spec.keep_warm.is_zero() => {
                (keeper_command(exe, spec, program, out, err), 0, true)
            }
            _ => {
                let port = match free_port() {
                    Ok(port) => port,
                    Err(e) => {
                        self.state.send_replace(LocalServerState::Failed {
                            error: format!("no free port on 127.0.0.1: {e}"),
                        });
                        return None;
                    }
                };
                let slots = matches!(program, ServerProgram::LlamaServer(_))
                    .then(|| kept_prompt::folder(&self.home))
                    .flatten();
                let mut cmd = program.command(spec, port, slots.as_deref(), out, err);
                die_with_parent(&mut cmd);
                (cmd, port, false)
            }
        };
        match cmd.spawn() {
            Ok(child) => {
                tracing::info!(
                    pid = child.id(),
                    port,
                    keeper,
                    model = %spec.model.display(),
                    "started the local model server: {}",
                    program.describe()
                );
                Some(Running {
                    server: if keeper {
                        Server::Keeper(child)
                    } else {
                        Server::Own(child)
                    },
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
        let (pid, own) = match &r.server {
            Server::Own(child) => (child.id(), true),
            Server::Keeper(child) => (child.id(), false),
            Server::Shared { pid } => (*pid, false),
        };
        let state = LocalServerState::Ready {
            port: r.port,
            pid,
            model: r.spec.model.display().to_string(),
            program: r.program.describe(),
            startup_ms: r.started.elapsed().as_millis() as u64,
        };
        tracing::info!(?state, own, "the local model server is ready");
        if !own {
            // The status file is its owner's.
            self.state.send_replace(state);
            return;
        }
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

    /// This thread's own llama-server just became ready: the prompt it evaluated before it
    /// last stopped goes back into its slot ([`kept_prompt`]).
    fn restore_prompt(&self, r: &Running) {
        if let (Server::Own(_), ServerProgram::LlamaServer(program)) = (&r.server, &r.program) {
            kept_prompt::restore(&self.home, r.port, &r.spec.model, program);
        }
    }

    /// Ends this thread's own server by its PID: SIGTERM, then SIGKILL after 5 s, once a
    /// llama-server that served has saved its evaluated prompt. A shared server, or one a
    /// keeper serves, is left to its owner (the keeper ends it once idle).
    fn kill(&self, r: Running) {
        if let (true, Server::Own(_), ServerProgram::LlamaServer(program)) =
            (r.ready, &r.server, &r.program)
        {
            kept_prompt::save(r.port, &r.spec.model, program);
        }
        let Server::Own(mut child) = r.server else {
            return;
        };
        let pid = child.id();
        terminate(pid);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
        }
        let _ = child.wait();
        let _ = std::fs::remove_file(&self.status_file);
        tracing::info!(pid, "stopped the local model server");
    }

    fn log_files(&self) -> std::io::Result<(Stdio, Stdio)> {
        if let Some(dir) = self.log.parent() {
            std::fs::create_dir_all(dir)?;
        }
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

enum Health {
    Fine,
    BecameReady,
    TooSlow,
    Ended {
        reason: String,
        was_ready: bool,
    },
    /// Failed for good: no restart.
    GaveUp(String),
}

/// `EXE local-server keep …` for `spec`, detached in its own session (a Ctrl+C on the
/// command's terminal does not reach it), its output to the server's log.
fn keeper_command(
    exe: &std::path::Path,
    spec: &LocalSpec,
    program: &ServerProgram,
    out: Stdio,
    err: Stdio,
) -> Command {
    let mut cmd = Command::new(exe);
    cmd.args(["local-server", "keep", "--model"])
        .arg(&spec.model)
        .args(["--context", &spec.context.to_string()])
        .args(["--threads", &spec.threads.to_string()])
        .arg("--program")
        .arg(program.path())
        .args(["--idle-secs", &spec.keep_warm.as_secs().to_string()])
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd
}

/// Answers `GET /v1/models` with 200: the model is loaded and the server serves.
pub(super) fn probe(port: u16) -> bool {
    let request = "GET /v1/models HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    answers_ok(
        port,
        request,
        Duration::from_millis(300),
        Duration::from_secs(2),
    )
}

/// Sends one raw HTTP/1.0 `request` to 127.0.0.1:`port` (`connect` and `io` bound the
/// wait) and says whether the reply's status is 200.
pub(super) fn answers_ok(port: u16, request: &str, connect: Duration, io: Duration) -> bool {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, connect) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(io));
    let _ = stream.set_write_timeout(Some(io));
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
