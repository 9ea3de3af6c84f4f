//! `zeta doctor`: one line per thing Zeta needs, each ok / warn / fail with a fix hint.
//! Voice's checks (microphone, Whisper model, push-to-talk hotkey) are in [`voice`], the
//! accessibility bus and OCR in [`screen`], MCP servers in [`mcp`].

mod mcp;
mod screen;
mod session;
mod skills;
mod voice;

use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use serde::Serialize;
use zeta_core::settings::ProviderKind;
use zeta_core::{lock::WorkerLock, CoreError, Settings, TaskQueue, ZetaHome};

use crate::desktop::{self, Probe};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Level {
    Ok,
    Warn,
    Fail,
}

#[derive(Debug, Serialize)]
pub(crate) struct Check {
    name: &'static str,
    level: Level,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<String>,
}

pub(crate) fn check(
    name: &'static str,
    level: Level,
    detail: impl Into<String>,
    fix: Option<&str>,
) -> Check {
    Check {
        name,
        level,
        detail: detail.into(),
        fix: fix.map(str::to_string),
    }
}

fn from_probe(name: &'static str, probe: Probe, missing: Level, fix: &str) -> Check {
    let level = if probe.is_ok() { Level::Ok } else { missing };
    let fix = (!probe.is_ok()).then_some(fix);
    check(name, level, probe.text(), fix)
}

/// Runs every check and prints them. Fails (exit 1) only when something is broken.
pub fn run(home: &ZetaHome, json: bool) -> ExitCode {
    let settings = zeta_core::settings::load_or_create(&home.settings_file());
    let mut checks = vec![session::session()];
    checks.extend(session::capabilities());
    checks.extend([
        from_probe(
            "dbus",
            desktop::dbus_session(),
            Level::Warn,
            "run inside a desktop session, or wrap Zeta in `dbus-run-session`",
        ),
        from_probe(
            "tray",
            desktop::tray_host(),
            Level::Warn,
            "the app runs without a tray; open the chat with `zeta` or install a tray (e.g. an AppIndicator extension, trayer)",
        ),
        screen::accessibility(),
        screen::ocr(),
        voice::microphone(settings.as_ref().ok().map(|l| &l.settings)),
        settings_check(home, &settings),
        database_check(home),
        worker_check(home),
        voice::model(home, settings.as_ref().ok().map(|l| &l.settings)),
        voice::hotkey(home, settings.as_ref().ok().map(|l| &l.settings)),
        llm_check(home, settings.as_ref().ok().map(|l| &l.settings)),
        secrets_check(home),
        mcp::servers(settings.as_ref().ok().map(|l| &l.settings)),
        skills::skills(home),
        confinement_check(),
        doors_check(),
        undo_check(home, settings.as_ref().ok().map(|l| &l.settings)),
    ]);
    checks.retain(|c| !c.detail.is_empty());
    if json {
        match serde_json::to_string_pretty(&checks) {
            Ok(text) => out!("{text}"),
            Err(e) => err!("zeta doctor: could not encode the report: {e}"),
        }
    } else {
        for c in &checks {
            let level = match c.level {
                Level::Ok => "ok  ",
                Level::Warn => "warn",
                Level::Fail => "FAIL",
            };
            out!("{level}  {:<9} {}", c.name, c.detail);
            if let Some(fix) = &c.fix {
                out!("      {:<9} fix: {fix}", "");
            }
        }
    }
    if checks.iter().any(|c| c.level == Level::Fail) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether the kernel confines what commands write (Landlock).
fn confinement_check() -> Check {
    match zeta_tools::confine::support() {
        zeta_tools::confine::Support::Available => check(
            "confine",
            Level::Ok,
            "commands may write only in your home (not its startup files, keys or settings), \
             their task's folder and /tmp (Landlock)",
            None,
        ),
        zeta_tools::confine::Support::Missing(why) => check(
            "confine",
            Level::Warn,
            format!(
                "commands run unconfined: {why}; Zeta asks before every write it can see \
                 outside your home"
            ),
            Some("use Linux 6.2 or later with Landlock enabled (lsm=landlock,… on the kernel command line)"),
        ),
    }
}

/// Whether commands can be kept from the desktop session's sockets and Zeta's secrets.
fn doors_check() -> Check {
    match zeta_tools::doors::describe() {
        Ok(what) => check("session", Level::Ok, what, None),
        Err(why) => check(
            "session",
            Level::Warn,
            why,
            Some("allow unprivileged user namespaces (kernel.unprivileged_userns_clone=1, or an AppArmor profile for Zeta) and use Linux 6.12 or later with Landlock"),
        ),
    }
}

/// Whether tasks can be undone: the kernel lets Zeta watch their changes, and the
/// originals store's size against its budget.
fn undo_check(home: &ZetaHome, settings: Option<&Settings>) -> Check {
    let undo = settings.map(|s| s.undo.clone()).unwrap_or_default();
    if !undo.enabled {
        return check(
            "undo",
            Level::Warn,
            "off: tasks' file changes are not kept and cannot be undone",
            Some("set \"undo\": {\"enabled\": true} in settings.json"),
        );
    }
    if let Err(e) = zeta_tools::watch::support() {
        return check(
            "undo",
            Level::Warn,
            format!("commands' file changes cannot be kept here: {e}; tasks cannot be undone"),
            Some("use Linux 5.14 or later with seccomp (user notification) enabled"),
        );
    }
    let store = zeta_core::undo::UndoStore::in_home(home);
    let size = if store.originals.exists() {
        store.open_originals().map(|o| o.size()).unwrap_or(0)
    } else {
        0
    };
    check(
        "undo",
        Level::Ok,
        format!(
            "tasks' file changes are kept for undo: the store ({}) holds {:.1} MB of {} MB, \
             tasks stay undoable {} days",
            store.originals.display(),
            size as f64 / 1_048_576.0,
            undo.budget_mb,
            undo.keep_days
        ),
        None,
    )
}

fn secrets_check(home: &ZetaHome) -> Check {
    let (keyring, detail) = crate::cli::secret::backend_line(home);
    if keyring {
        check("secrets", Level::Ok, detail, None)
    } else {
        check(
            "secrets",
            Level::Warn,
            detail,
            Some("run a Secret Service (e.g. gnome-keyring or KeePassXC) to keep keys in the OS keyring"),
        )
    }
}

/// ALSA lists capture devices in /proc/asound/pcm.
fn settings_check(home: &ZetaHome, loaded: &Result<zeta_core::LoadedSettings, CoreError>) -> Check {
    let path = home.settings_file();
    match loaded {
        Ok(l) if l.problems.is_empty() => check(
            "settings",
            Level::Ok,
            format!("{} is valid", path.display()),
            None,
        ),
        Ok(l) => check(
            "settings",
            Level::Warn,
            l.problems
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("; "),
            Some(&format!(
                "edit {}; the named fields use their defaults until then",
                path.display()
            )),
        ),
        Err(e) => check(
            "settings",
            Level::Fail,
            e.to_string(),
            Some("check the file's permissions"),
        ),
    }
}

fn database_check(home: &ZetaHome) -> Check {
    let counted = TaskQueue::open(&home.database_file())
        .and_then(|q| Ok((q.recent(u32::MAX)?.len(), q.pending_count()?)));
    match counted {
        Ok((all, pending)) => check(
            "database",
            Level::Ok,
            format!(
                "{}: {all} tasks, {pending} pending",
                home.database_file().display()
            ),
            None,
        ),
        Err(e) => check(
            "database",
            Level::Fail,
            e.to_string(),
            Some("move the file aside to start a new queue, or check the folder's permissions"),
        ),
    }
}

fn worker_check(home: &ZetaHome) -> Check {
    match WorkerLock::try_acquire(home) {
        Ok(_) => check(
            "worker",
            Level::Ok,
            "no worker running; the queue is free",
            None,
        ),
        Err(CoreError::WorkerBusy { pid, .. }) => check(
            "worker",
            Level::Ok,
            format!("pid {pid} is working the queue"),
            None,
        ),
        Err(e) => check(
            "worker",
            Level::Fail,
            e.to_string(),
            Some("check the folder's permissions"),
        ),
    }
}

/// Reachability of the configured endpoint: a TCP connect to its host and port.
fn llm_check(home: &ZetaHome, settings: Option<&Settings>) -> Check {
    let Some(settings) = settings else {
        return check(
            "llm",
            Level::Warn,
            "settings unreadable; provider unknown",
            None,
        );
    };
    let p = &settings.provider;
    if p.kind == ProviderKind::None {
        return check(
            "llm",
            Level::Warn,
            "no LLM provider configured",
            Some("set `provider` in settings.json (kind, baseUrl, model) or the ZETA_LLM_* variables"),
        );
    }
    if p.kind == ProviderKind::Local && p.base_url.trim().is_empty() {
        return local_check(home, p);
    }
    let Some((host, port)) = host_port(&p.base_url) else {
        return check(
            "llm",
            Level::Fail,
            format!(
                "provider {:?} has no usable baseUrl ({:?})",
                p.kind, p.base_url
            ),
            Some("set provider.baseUrl to http(s)://host[:port]/..."),
        );
    };
    let reachable = (host.as_str(), port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.next())
        .map(|addr| TcpStream::connect_timeout(&addr, Duration::from_secs(3)).is_ok())
        .unwrap_or(false);
    if reachable {
        check(
            "llm",
            Level::Ok,
            format!("{:?} endpoint {host}:{port} answers", p.kind),
            None,
        )
    } else {
        check(
            "llm",
            Level::Fail,
            format!("{:?} endpoint {host}:{port} does not answer", p.kind),
            Some("start the server or fix provider.baseUrl"),
        )
    }
}

fn host_port(url: &str) -> Option<(String, u16)> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let authority = rest.split('/').next()?.rsplit('@').next()?;
    if authority.is_empty() {
        return None;
    }
    if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6.split_once(']')?;
        let port = after
            .strip_prefix(':')
            .map_or(Some(default_port), |p| p.parse().ok())?;
        return Some((host.to_string(), port));
    }
    match authority.rsplit_once(':') {
        Some((host, port)) => Some((host.to_string(), port.parse().ok()?)),
        None => Some((authority.to_string(), default_port)),
    }
}

/// The `local` provider: its model file, the server program, and the server a running
/// Zeta started (from `$ZETA_HOME/local-server.json`).
fn local_check(home: &ZetaHome, p: &zeta_core::settings::ProviderSettings) -> Check {
    use zeta_llm::local::{status_file, LocalSpec, ServerProgram};
    let spec = match LocalSpec::from_settings(p, &home.models_dir()) {
        Ok(spec) => spec,
        Err(e) => {
            return check(
                "llm",
                Level::Fail,
                e.to_string(),
                Some("scripts/local-model.sh --use obtains the default model"),
            )
        }
    };
    let program = match ServerProgram::find() {
        Ok(program) => program,
        Err(e) => return check("llm", Level::Fail, e.to_string(), None),
    };
    let running = std::fs::read_to_string(status_file(home.root()))
        .ok()
        .and_then(|t| serde_json::from_str::<zeta_llm::LocalServerState>(&t).ok());
    let state = match running {
        Some(zeta_llm::LocalServerState::Ready { port, pid, .. })
            if Path::new(&format!("/proc/{pid}")).exists() =>
        {
            let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
            if TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_ok() {
                format!("running on 127.0.0.1:{port} (pid {pid})")
            } else {
                format!("pid {pid} runs but port {port} does not answer")
            }
        }
        _ => "not running (Zeta starts it for the first local task)".to_string(),
    };
    check(
        "llm",
        Level::Ok,
        format!(
            "local model {} ({} threads, {} context) served by {} ({}); {state}",
            spec.model.display(),
            spec.threads,
            spec.context,
            program.kind(),
            program.describe()
        ),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::host_port;

    #[test]
    fn host_and_port_come_from_the_url() {
        assert_eq!(
            host_port("http://127.0.0.1:8080/v1"),
            Some(("127.0.0.1".into(), 8080))
        );
        assert_eq!(
            host_port("https://api.openai.com/v1"),
            Some(("api.openai.com".into(), 443))
        );
        assert_eq!(host_port("http://[::1]:11434"), Some(("::1".into(), 11434)));
        assert_eq!(host_port("ftp://x"), None);
        assert_eq!(host_port("http://:99999"), None);
    }
}
