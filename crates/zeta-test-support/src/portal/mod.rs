//! A desktop portal for the tests: the real xdg-desktop-portal front-end on a private DBus
//! bus, routed (by a `.portal` file of the test's own) to a back-end that lives in the
//! test process. The back-end implements the GlobalShortcuts, RemoteDesktop and ScreenCast
//! back-end interfaces (and Screenshot, with the Access dialog it needs) the way the test asks (grant, refuse, or never answer), records what
//! it was asked (the restore data it was handed, the keys and clicks), and fires a bound
//! shortcut's press and release on demand. Everything started is ended by its PID.

mod backend;
mod front;

pub use front::Front;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};

const NAME: &str = "org.freedesktop.impl.portal.desktop.zetatest";
const PATH: &str = "/org/freedesktop/portal/desktop";

/// How the back-end answers a request that asks the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Grant,
    /// The person said no (response 1).
    Refuse,
    /// No answer ever comes.
    Never,
}

/// What the back-end was asked.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// Method names, in order.
    pub calls: Vec<String>,
    /// The restore data each RemoteDesktop SelectDevices was handed (its token string).
    pub restored: Vec<Option<String>>,
    /// The same for each ScreenCast SelectSources.
    pub cast_restored: Vec<Option<String>>,
    /// The keys and pointer events sent, as "key 30 down", "button 272 up", "absolute 12 100 200".
    pub input: Vec<String>,
    /// The shortcuts bound: (id, preferred trigger).
    pub bound: Vec<(String, String)>,
}

#[derive(Default)]
pub(crate) struct State {
    answer: Option<Answer>,
    record: Record,
    sessions: Vec<OwnedObjectPath>,
    grants: u32,
    /// The picture the Screenshot back-end hands out, and how many it handed.
    picture: Option<std::path::PathBuf>,
    shots: u32,
    /// The PipeWire node the screen's stream is (a real one with `with_screen`).
    node: Option<u32>,
}

pub(crate) type Shared = Arc<Mutex<State>>;

pub(crate) fn lock(s: &Shared) -> std::sync::MutexGuard<'_, State> {
    s.lock().unwrap_or_else(|p| p.into_inner())
}

pub(crate) type Results = HashMap<String, OwnedValue>;

pub(crate) fn owned(v: Value<'_>) -> OwnedValue {
    v.try_to_owned().unwrap_or_else(|_| OwnedValue::from(0u32))
}

/// The answer to a request that asks the person: its response code, or never.
pub(crate) async fn ask(state: &Shared, call: &str) -> u32 {
    let answer = {
        let mut s = lock(state);
        s.record.calls.push(call.to_string());
        s.answer.unwrap_or(Answer::Grant)
    };
    match answer {
        Answer::Grant => 0,
        Answer::Refuse => 1,
        Answer::Never => std::future::pending().await,
    }
}

/// Records a key or pointer event.
pub(crate) fn input(state: &Shared, event: String) {
    lock(state).record.input.push(event);
}

/// A key's or button's state as recorded: 1 is down.
pub(crate) fn edge(state: u32) -> &'static str {
    if state == 1 {
        "down"
    } else {
        "up"
    }
}

pub(crate) fn note(state: &Shared, call: &str) {
    lock(state).record.calls.push(call.to_string());
}

/// The screen the RemoteDesktop session shares: one 1280x800 monitor, PipeWire node 42.
pub(crate) fn streams(node: Option<u32>) -> Vec<(u32, HashMap<String, Value<'static>>)> {
    let mut props: HashMap<String, Value> = HashMap::new();
    props.insert("position".into(), Value::from((0i32, 0i32)));
    props.insert("size".into(), Value::from((1280i32, 800i32)));
    props.insert("source_type".into(), Value::from(1u32));
    vec![(node.unwrap_or(42), props)]
}

/// Why a PipeWire screen cannot be served here, if it cannot.
pub fn screen_missing() -> Option<String> {
    for program in ["pipewire", "wireplumber", "gst-launch-1.0", "pw-dump"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            return Some(format!(
                "{program} is missing (apt install pipewire wireplumber gstreamer1.0-pipewire gstreamer1.0-tools)"
            ));
        }
    }
    None
}

/// Why the portal test back-end cannot run here, if it cannot.
pub fn missing() -> Option<String> {
    for program in ["/usr/libexec/xdg-desktop-portal", "dbus-daemon"] {
        let found = if program.starts_with('/') {
            Path::new(program).exists()
        } else {
            Command::new(program)
                .arg("--version")
                .stdout(Stdio::null())
                .status()
                .is_ok()
        };
        if !found {
            return Some(format!(
                "{program} is missing (apt install xdg-desktop-portal dbus)"
            ));
        }
    }
    None
}

/// A private session bus listening in `dir` (any user may connect: the app under test
/// may run as the compositor's user), started with `env`: its process and address.
pub(crate) fn private_bus(
    dir: &Path,
    env: &[(&str, &std::ffi::OsStr)],
) -> Result<(Child, String), String> {
    let config = dir.join("bus.conf");
    std::fs::write(
        &config,
        format!(
            r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={}</listen>
  <standard_session_servicedirs/>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
            dir.display()
        ),
    )
    .map_err(|e| format!("bus config: {e}"))?;
    // What the bus starts on demand gets a home and runtime folder of its own and no X
    // display: an accessibility bus launched here with the suite's DISPLAY would take
    // over (and on exit remove) the suite's own accessibility bus socket.
    let mut bus = Command::new("dbus-daemon")
        .arg(format!("--config-file={}", config.display()))
        .args(["--print-address=1", "--nofork"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("XDG_RUNTIME_DIR", dir)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("dbus-daemon: {e}"))?;
    use std::io::BufRead;
    let Some(out) = bus.stdout.take() else {
        let _ = bus.kill();
        let _ = bus.wait();
        return Err("dbus-daemon gave no address".into());
    };
    let mut line = String::new();
    if let Err(e) = std::io::BufReader::new(out).read_line(&mut line) {
        let _ = bus.kill();
        let _ = bus.wait();
        return Err(format!("dbus-daemon's address: {e}"));
    }
    Ok((bus, line.trim().to_string()))
}

/// The private bus, the real front-end and the test's back-end, all ended on drop.
pub struct Portal {
    /// The private bus's address, for the client under test.
    pub address: String,
    state: Shared,
    backend: zbus::Connection,
    bus: Child,
    frontend: Child,
    /// PipeWire, WirePlumber and the video source, with `with_screen`.
    screen: Vec<Child>,
    _dir: tempfile::TempDir,
}

impl Drop for Portal {
    fn drop(&mut self) {
        let children = self
            .screen
            .iter_mut()
            .rev()
            .chain([&mut self.frontend, &mut self.bus]);
        for child in children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Portal {
    /// Starts the bus, puts the back-end on it, then starts the front-end and waits until
    /// it answers.
    pub async fn start() -> Result<Portal, String> {
        Portal::start_with(false).await
    }

    /// The same with a screen to cast: PipeWire and WirePlumber on the private bus and a
    /// 1280x800 video source (GStreamer's test picture, solid red), whose node the
    /// ScreenCast and RemoteDesktop back-ends share.
    pub async fn with_screen() -> Result<Portal, String> {
        Portal::start_with(true).await
    }

    async fn start_with(screen: bool) -> Result<Portal, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("portal folder: {e}"))?;
        let portals = dir.path().join("portals");
        std::fs::create_dir_all(&portals).map_err(|e| format!("portals folder: {e}"))?;
        std::fs::write(
            portals.join("zetatest.portal"),
            format!(
                "[portal]\nDBusName={NAME}\nInterfaces=org.freedesktop.impl.portal.GlobalShortcuts;org.freedesktop.impl.portal.RemoteDesktop;org.freedesktop.impl.portal.ScreenCast;org.freedesktop.impl.portal.Screenshot;org.freedesktop.impl.portal.Access;\nUseIn=zetatest\n"
            ),
        )
        .map_err(|e| format!("portal file: {e}"))?;
        let (mut bus, address) = private_bus(
            dir.path(),
            // What it starts on demand (the permission store) finds these.
            &[
                ("XDG_DESKTOP_PORTAL_DIR", portals.as_os_str()),
                ("XDG_CURRENT_DESKTOP", "zetatest".as_ref()),
            ],
        )?;
        let state = Shared::default();
        let backend = async {
            zbus::connection::Builder::address(address.as_str())?
                .name(NAME)?
                .serve_at(PATH, backend::Shortcuts(state.clone()))?
                .serve_at(PATH, backend::Remote(state.clone()))?
                .serve_at(PATH, backend::Cast(state.clone()))?
                .serve_at(PATH, backend::Shot(state.clone()))?
                .serve_at(PATH, backend::Access(state.clone()))?
                .build()
                .await
        }
        .await;
        let backend = match backend {
            Ok(b) => b,
            Err(e) => {
                let _ = bus.kill();
                let _ = bus.wait();
                return Err(format!("the test back-end on the private bus: {e}"));
            }
        };
        // ZETA_TEST_PORTAL_LOG=FILE keeps the front-end's debug messages there.
        let log = std::env::var_os("ZETA_TEST_PORTAL_LOG")
            .and_then(|p| std::fs::File::create(p).ok())
            .map_or_else(Stdio::null, Stdio::from);
        let mut casting = Vec::new();
        if screen {
            match start_screen(dir.path(), &address) {
                Ok((children, node)) => {
                    casting = children;
                    lock(&state).node = Some(node);
                }
                Err(e) => {
                    let _ = bus.kill();
                    let _ = bus.wait();
                    return Err(e);
                }
            }
        }
        let frontend = Command::new("/usr/libexec/xdg-desktop-portal")
            .arg("--verbose")
            .env("HOME", dir.path())
            .env("XDG_RUNTIME_DIR", dir.path())
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("XDG_DESKTOP_PORTAL_DIR", &portals)
            .env("XDG_CURRENT_DESKTOP", "zetatest")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn();
        let frontend = match frontend {
            Ok(f) => f,
            Err(e) => {
                let _ = bus.kill();
                let _ = bus.wait();
                return Err(format!("xdg-desktop-portal: {e}"));
            }
        };
        let portal = Portal {
            address,
            state,
            backend,
            bus,
            frontend,
            screen: casting,
            _dir: dir,
        };
        portal.wait_for_frontend().await?;
        Ok(portal)
    }

    async fn wait_for_frontend(&self) -> Result<(), String> {
        let started = Instant::now();
        let dbus = zbus::fdo::DBusProxy::new(&self.backend)
            .await
            .map_err(|e| e.to_string())?;
        while started.elapsed() < Duration::from_secs(15) {
            let name = zbus::names::BusName::try_from("org.freedesktop.portal.Desktop")
                .map_err(|e| e.to_string())?;
            if dbus.name_has_owner(name).await.unwrap_or(false) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Err("xdg-desktop-portal did not take its name within 15 s".into())
    }

    /// How requests that ask the person are answered from now on.
    pub fn answer(&self, answer: Answer) {
        lock(&self.state).answer = Some(answer);
    }

    pub fn record(&self) -> Record {
        lock(&self.state).record.clone()
    }

    /// The PNG the Screenshot back-end hands out (a copy each time).
    pub fn picture(&self, png: &Path) {
        lock(&self.state).picture = Some(png.to_path_buf());
    }

    /// Fires the press (`down`) or release of shortcut `id` in the last session.
    pub async fn shortcut(&self, id: &str, down: bool) -> Result<(), String> {
        let session = lock(&self.state)
            .sessions
            .last()
            .cloned()
            .ok_or("no session to fire a shortcut in")?;
        let iface = self
            .backend
            .object_server()
            .interface::<_, backend::Shortcuts>(PATH)
            .await
            .map_err(|e| e.to_string())?;
        let emitter = iface.signal_emitter();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        let fired = if down {
            backend::Shortcuts::activated(emitter, session.as_ref(), id, now, HashMap::new()).await
        } else {
            backend::Shortcuts::deactivated(emitter, session.as_ref(), id, now, HashMap::new())
                .await
        };
        fired.map_err(|e| e.to_string())
    }
}

/// PipeWire, WirePlumber and a red 1280x800 video source in `dir`, on the bus at
/// `address`: the processes and the source's node.
fn start_screen(dir: &Path, address: &str) -> Result<(Vec<Child>, u32), String> {
    let run = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dir)
            .env("XDG_RUNTIME_DIR", dir)
            .env("DBUS_SESSION_BUS_ADDRESS", address)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{program}: {e}"))
    };
    let mut children = vec![run("pipewire", &[])?];
    let socket = dir.join("pipewire-0");
    let started = Instant::now();
    while !socket.exists() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let more = run("wireplumber", &[]).and_then(|wp| {
        children.push(wp);
        run(
            "gst-launch-1.0",
            &[
                "-q",
                "videotestsrc",
                "pattern=red",
                "!",
                "video/x-raw,format=BGRx,width=1280,height=800,framerate=10/1",
                "!",
                "pipewiresink",
                "mode=provide",
                "stream-properties=p,media.class=Video/Source,node.name=zeta-test-screen",
            ],
        )
    });
    let node = more.and_then(|gst| {
        children.push(gst);
        let started = Instant::now();
        loop {
            if let Some(id) = node_named(dir, "zeta-test-screen") {
                return Ok(id);
            }
            if started.elapsed() > Duration::from_secs(15) {
                return Err("the test screen's PipeWire node did not show within 15 s".to_string());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    match node {
        Ok(id) => Ok((children, id)),
        Err(e) => {
            for mut c in children.into_iter().rev() {
                let _ = c.kill();
                let _ = c.wait();
            }
            Err(e)
        }
    }
}

/// The id of the PipeWire node named `name`, by `pw-dump`.
fn node_named(dir: &Path, name: &str) -> Option<u32> {
    let out = Command::new("pw-dump")
        .env("XDG_RUNTIME_DIR", dir)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let objects: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).ok()?;
    objects.iter().find_map(|o| {
        let props = &o["info"]["props"];
        (o["type"] == "PipeWire:Interface:Node" && props["node.name"] == name)
            .then(|| o["id"].as_u64())
            .flatten()
            .and_then(|id| u32::try_from(id).ok())
    })
}
