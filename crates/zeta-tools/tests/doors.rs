//! The doors a call's processes may not open (`zeta_tools::doors`), tried for real: a
//! real session bus (by path and abstract address), a real tmux server, the display
//! (the suite's Xvfb), the runtime folder's sockets, an ssh agent's socket, Zeta's
//! secrets file, and the same reached around the namespace through `/proc/PID/root`.
//! Each family has several probes (different programs, the raw socket, the detour); a
//! closed call must reach none of them, an approved (open) call must reach each session
//! door (so every probe can succeed), and Zeta's secrets stay hidden from both. Harmless
//! commands (listing processes, signalling one, writing in the folder) still work closed.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use serde_json::json;
use zeta_core::tool::{Session, Tool, ToolContext};
use zeta_test_support::{cannot_run, Needs};
use zeta_tools::shell::Shell;

fn ctx(dir: &Path, session: Session) -> ToolContext {
    let mut ctx = ToolContext::detached(dir.to_path_buf());
    ctx.command_timeout_ms = 20_000;
    ctx.session = session;
    ctx.on_output = Arc::new(|_: &str| {});
    ctx
}

async fn reached(dir: &Path, session: Session, probe: &str) -> (bool, String) {
    let out = Shell
        .run(json!({ "command": probe }), &ctx(dir, session))
        .await;
    (out.ok, out.content)
}

/// A process the test starts and ends by its PID.
struct Started(u32);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(self.0 as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

fn dbus_daemon(address: &str) -> Option<Started> {
    let out = Command::new("dbus-daemon")
        .args(["--session", "--fork", "--print-pid", "--address", address])
        .stdin(Stdio::null())
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .ok()
        .map(Started)
}

const PY_CONNECT: &str =
    "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])'";

#[tokio::test(flavor = "multi_thread")]
async fn a_closed_call_reaches_no_door_and_an_approved_one_reaches_the_session() {
    if !zeta_tools::doors::namespaces_work() {
        cannot_run(
            Needs::Landlock,
            "doors",
            "this kernel refuses user namespaces",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let run = root.join("run");
    std::fs::create_dir_all(&run).unwrap();
    // As a real runtime folder is (XDG: owner-only).
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).unwrap();
    let zeta_home = root.join("zeta");
    std::fs::create_dir_all(&zeta_home).unwrap();
    std::fs::write(
        zeta_home.join("secrets.json"),
        "{\"key\":\"sk-canary-7731\"}",
    )
    .unwrap();
    // The environment the doors read: set before the first call (one test in this binary).
    let bus_path = root.join("bus");
    let abstract_name = format!("/tmp/zeta-doors-test-{}", std::process::id());
    std::env::set_var("XDG_RUNTIME_DIR", &run);
    std::env::set_var("TMUX_TMPDIR", root);
    std::env::set_var("ZETA_HOME", &zeta_home);
    std::env::set_var("ZETA_TEST_CANARY_ENV", "env-canary-5521");
    std::env::set_var("SSH_AUTH_SOCK", root.join("agent.sock"));
    std::env::set_var(
        "DBUS_SESSION_BUS_ADDRESS",
        format!("unix:path={}", bus_path.display()),
    );
    let _agent = UnixListener::bind(root.join("agent.sock")).unwrap();
    let _pipewire = UnixListener::bind(run.join("pipewire-0")).unwrap();
    let bus = dbus_daemon(&format!("unix:path={}", bus_path.display())).expect("dbus-daemon");
    let abstract_bus =
        dbus_daemon(&format!("unix:abstract={abstract_name}")).expect("dbus-daemon (abstract)");
    let tmux = Command::new("tmux")
        .args(["new-session", "-d", "-s", "canary", "sleep 600"])
        .env("TMUX_TMPDIR", root)
        .status()
        .expect("tmux");
    assert!(tmux.success());
    let tmux_pid = Command::new("tmux")
        .args(["display-message", "-p", "#{pid}"])
        .env("TMUX_TMPDIR", root)
        .output()
        .expect("tmux pid");
    let _tmux = Started(
        String::from_utf8_lossy(&tmux_pid.stdout)
            .trim()
            .parse()
            .expect("tmux server pid"),
    );
    let me = std::process::id();
    let uid = unsafe { libc::geteuid() };
    let runtime = run.display().to_string();
    let list_names = "org.freedesktop.DBus / org.freedesktop.DBus.ListNames";
    let mut families: Vec<(&str, Vec<String>)> = vec![
        (
            "session bus (path)",
            vec![
                format!("dbus-send --session --print-reply --dest={list_names}"),
                "busctl --user list".into(),
                format!("{PY_CONNECT} {}", bus_path.display()),
            ],
        ),
        (
            "session bus (abstract)",
            vec![
                format!(
                    "dbus-send --bus=unix:abstract={abstract_name} --print-reply --dest={list_names}"
                ),
                format!(
                    "python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"\\0{abstract_name}\")'"
                ),
            ],
        ),
        (
            "terminal multiplexer",
            vec![
                "tmux ls".into(),
                "tmux send-keys -t canary 'echo hi' Enter".into(),
                format!("{PY_CONNECT} {}/tmux-{uid}/default", root.display()),
            ],
        ),
        (
            "runtime folder",
            vec![
                format!("{PY_CONNECT} {runtime}/pipewire-0"),
                format!("test -S {runtime}/pipewire-0"),
            ],
        ),
        (
            "ssh agent",
            vec![
                format!("{PY_CONNECT} \"$SSH_AUTH_SOCK\""),
                "test -S \"$SSH_AUTH_SOCK\"".into(),
            ],
        ),
        (
            "around the namespace (/proc)",
            vec![
                format!("{PY_CONNECT} /proc/{me}/root{runtime}/pipewire-0"),
                format!("{PY_CONNECT} /proc/{me}/root{}", bus_path.display()),
                format!("ls /proc/{me}/root/"),
            ],
        ),
    ];
    match std::env::var("DISPLAY") {
        Ok(display) if !display.is_empty() => {
            let n = display
                .trim_start_matches(':')
                .split('.')
                .next()
                .unwrap_or("0");
            families.push((
                "display",
                vec![
                    "xdpyinfo".into(),
                    "xdotool getmouselocation".into(),
                    format!("{PY_CONNECT} /tmp/.X11-unix/X{n}"),
                    format!(
                        "python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"\\0/tmp/.X11-unix/X{n}\")'"
                    ),
                ],
            ));
        }
        _ => cannot_run(Needs::Desktop, "doors: the display", "DISPLAY is not set"),
    }
    // Each probe run three ways: by bash outside Zeta (the control: it must reach, or
    // the probe proves nothing), closed, and open. Open calls reach the session, but
    // not around the namespace: every call carries a Landlock domain, and Landlock
    // refuses access to processes outside it.
    println!("family | probes | outside Zeta: reached | closed: reached | open: reached");
    let mut closed_reached = Vec::new();
    let mut control_missed = Vec::new();
    let mut open_wrong = Vec::new();
    for (family, probes) in &families {
        let open_should_reach = !family.starts_with("around");
        let (mut control, mut closed, mut open) = (0, 0, 0);
        for probe in probes {
            let outside = Command::new("bash")
                .args(["-c", probe])
                .current_dir(root)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let (c, c_out) = reached(root, Session::Closed, probe).await;
            let (o, o_out) = reached(root, Session::Open, probe).await;
            if outside.status.success() {
                control += 1;
            } else {
                control_missed.push(format!(
                    "[{family}] {probe}: {}",
                    String::from_utf8_lossy(&outside.stderr)
                ));
            }
            if c {
                closed += 1;
                closed_reached.push(format!("[{family}] {probe}: {c_out}"));
            }
            if o {
                open += 1;
            }
            if o != open_should_reach {
                open_wrong.push(format!("[{family}] {probe}: {o_out}"));
            }
        }
        println!(
            "{family} | {} | {control} | {closed} | {open}",
            probes.len()
        );
    }
    // Zeta's secrets and environment: hidden from both kinds of call.
    let secrets = zeta_home.join("secrets.json").display().to_string();
    let secret_probes = [
        format!("cat {secrets}"),
        format!("python3 -c 'print(open(\"{secrets}\").read())'"),
        format!("cat /proc/{me}/root{secrets}"),
        format!("cat /proc/{me}/environ | tr '\\0' '\\n'"),
        "cat /proc/$PPID/environ | tr '\\0' '\\n'".into(),
    ];
    let mut leaked = Vec::new();
    for probe in &secret_probes {
        for session in [Session::Closed, Session::Open] {
            let (_, out) = reached(root, session, probe).await;
            if out.contains("sk-canary-7731") || out.contains("env-canary-5521") {
                leaked.push(format!("{session:?} {probe}: {out}"));
            }
        }
    }
    println!(
        "Zeta's secrets | {} | leaked: {}",
        secret_probes.len(),
        leaked.len()
    );
    // Harmless work still runs closed.
    let mut sleeper = Command::new("sleep").arg("600").spawn().unwrap();
    let sleeper_pid = sleeper.id();
    let harmless = [
        "ls / && echo done".to_string(),
        "ps -e -o pid,comm | grep -c .".into(),
        format!("ps -p {me} -o comm="),
        "echo hello > note.txt && cat note.txt".into(),
        "id -u".into(),
        "python3 -c 'print(2+2)'".into(),
        format!("kill -0 {sleeper_pid}"),
    ];
    let mut blocked = Vec::new();
    for probe in &harmless {
        let (ok, out) = reached(root, Session::Closed, probe).await;
        if !ok {
            blocked.push(format!("{probe}: {out}"));
        }
    }
    let (_, id) = reached(root, Session::Closed, "id -u").await;
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    println!("harmless | {} | blocked: {}", harmless.len(), blocked.len());
    drop((bus, abstract_bus));
    assert!(
        closed_reached.is_empty(),
        "closed calls reached: {closed_reached:#?}"
    );
    assert!(
        control_missed.is_empty(),
        "probes that fail even outside Zeta: {control_missed:#?}"
    );
    assert!(
        open_wrong.is_empty(),
        "approved calls reached or missed wrongly: {open_wrong:#?}"
    );
    assert!(leaked.is_empty(), "Zeta's secrets leaked: {leaked:#?}");
    assert!(
        blocked.is_empty(),
        "harmless commands failed closed: {blocked:#?}"
    );
    assert!(id.contains(&uid.to_string()), "the same user inside: {id}");
}
