//! A desktop portal for the tests: the real xdg-desktop-portal front-end on a private DBus
//! bus, routed (by a `.portal` file of the test's own) to a back-end that lives in the
//! test process. The back-end implements the GlobalShortcuts, RemoteDesktop and ScreenCast
//! back-end interfaces the way the test asks (grant, refuse, or never answer), records what
//! it was asked (the restore data it was handed, the keys and clicks), and fires a bound
//! shortcut's press and release on demand. Everything started is ended by its PID.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use zbus::object_server::SignalEmitter;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue, Value};

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
    /// The keys and pointer events sent, as "key 30 down", "button 272 up", "absolute 12 100 200".
    pub input: Vec<String>,
    /// The shortcuts bound: (id, preferred trigger).
    pub bound: Vec<(String, String)>,
}

#[derive(Default)]
struct State {
    answer: Option<Answer>,
    record: Record,
    sessions: Vec<OwnedObjectPath>,
    grants: u32,
}

type Shared = Arc<Mutex<State>>;

fn lock(s: &Shared) -> std::sync::MutexGuard<'_, State> {
    s.lock().unwrap_or_else(|p| p.into_inner())
}

type Results = HashMap<String, OwnedValue>;

fn owned(v: Value<'_>) -> OwnedValue {
    v.try_to_owned().unwrap_or_else(|_| OwnedValue::from(0u32))
}

/// The answer to a request that asks the person: its response code, or never.
async fn ask(state: &Shared, call: &str) -> u32 {
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

fn note(state: &Shared, call: &str) {
    lock(state).record.calls.push(call.to_string());
}

struct Shortcuts(Shared);

#[zbus::interface(name = "org.freedesktop.impl.portal.GlobalShortcuts")]
impl Shortcuts {
    #[zbus(out_args("response", "results"))]
    async fn create_session(
        &self,
        _handle: OwnedObjectPath,
        session_handle: OwnedObjectPath,
        _app_id: String,
        _options: Results,
    ) -> (u32, Results) {
        note(&self.0, "GlobalShortcuts.CreateSession");
        lock(&self.0).sessions.push(session_handle);
        (0, Results::new())
    }

    #[zbus(out_args("response", "results"))]
    async fn bind_shortcuts(
        &self,
        _handle: OwnedObjectPath,
        _session_handle: OwnedObjectPath,
        shortcuts: Vec<(String, HashMap<String, OwnedValue>)>,
        _parent_window: String,
        _options: Results,
    ) -> (u32, Results) {
        let response = ask(&self.0, "GlobalShortcuts.BindShortcuts").await;
        let mut bound = Vec::new();
        for (id, info) in &shortcuts {
            let trigger = info
                .get("preferred_trigger")
                .and_then(|v| String::try_from(v.clone()).ok())
                .unwrap_or_default();
            lock(&self.0)
                .record
                .bound
                .push((id.clone(), trigger.clone()));
            let mut shown: HashMap<String, Value> = HashMap::new();
            let description = info
                .get("description")
                .and_then(|v| String::try_from(v.clone()).ok())
                .unwrap_or_default();
            shown.insert("description".into(), Value::from(description));
            shown.insert("trigger_description".into(), Value::from(trigger));
            bound.push((id.clone(), shown));
        }
        let mut results = Results::new();
        if response == 0 {
            results.insert("shortcuts".into(), owned(Value::from(bound)));
        }
        (response, results)
    }

    #[zbus(out_args("response", "results"))]
    async fn list_shortcuts(
        &self,
        _handle: OwnedObjectPath,
        _session_handle: OwnedObjectPath,
    ) -> (u32, Results) {
        note(&self.0, "GlobalShortcuts.ListShortcuts");
        (0, Results::new())
    }

    #[zbus(signal)]
    async fn activated(
        emitter: &SignalEmitter<'_>,
        session_handle: ObjectPath<'_>,
        shortcut_id: &str,
        timestamp: u64,
        options: HashMap<&str, Value<'_>>,
    ) -> zbus::Result<()>;

    #[zbus(signal)]
    async fn deactivated(
        emitter: &SignalEmitter<'_>,
        session_handle: ObjectPath<'_>,
        shortcut_id: &str,
        timestamp: u64,
        options: HashMap<&str, Value<'_>>,
    ) -> zbus::Result<()>;

    #[zbus(property)]
    async fn version(&self) -> u32 {
        1
    }
}

/// The screen the RemoteDesktop session shares: one 1280x800 monitor, PipeWire node 42.
fn streams() -> Vec<(u32, HashMap<String, Value<'static>>)> {
    let mut props: HashMap<String, Value> = HashMap::new();
    props.insert("position".into(), Value::from((0i32, 0i32)));
    props.insert("size".into(), Value::from((1280i32, 800i32)));
    props.insert("source_type".into(), Value::from(1u32));
    vec![(42u32, props)]
}

struct Remote(Shared);

#[zbus::interface(name = "org.freedesktop.impl.portal.RemoteDesktop")]
impl Remote {
    #[zbus(out_args("response", "results"))]
    async fn create_session(
        &self,
        _handle: OwnedObjectPath,
        session_handle: OwnedObjectPath,
        _app_id: String,
        _options: Results,
    ) -> (u32, Results) {
        note(&self.0, "RemoteDesktop.CreateSession");
        lock(&self.0).sessions.push(session_handle);
        (0, Results::new())
    }

    #[zbus(out_args("response", "results"))]
    async fn select_devices(
        &self,
        _handle: OwnedObjectPath,
        _session_handle: OwnedObjectPath,
        _app_id: String,
        options: Results,
    ) -> (u32, Results) {
        let restored = options.get("restore_data").and_then(|v| {
            let (_, _, data): (String, u32, OwnedValue) = v.clone().try_into().ok()?;
            String::try_from(data).ok()
        });
        {
            let mut s = lock(&self.0);
            s.record.calls.push("RemoteDesktop.SelectDevices".into());
            s.record.restored.push(restored);
        }
        (0, Results::new())
    }

    #[zbus(out_args("response", "results"))]
    async fn start(
        &self,
        _handle: OwnedObjectPath,
        _session_handle: OwnedObjectPath,
        _app_id: String,
        _parent_window: String,
        _options: Results,
    ) -> (u32, Results) {
        let response = ask(&self.0, "RemoteDesktop.Start").await;
        let mut results = Results::new();
        if response == 0 {
            let grant = {
                let mut s = lock(&self.0);
                s.grants += 1;
                s.grants
            };
            results.insert("devices".into(), OwnedValue::from(3u32));
            results.insert("streams".into(), owned(Value::from(streams())));
            results.insert("persist_mode".into(), OwnedValue::from(2u32));
            let data = (
                "zetatest".to_string(),
                1u32,
                Value::from(format!("grant-{grant}")),
            );
            results.insert("restore_data".into(), owned(Value::from(data)));
        }
        (response, results)
    }

    async fn notify_keyboard_keycode(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        keycode: i32,
        state: u32,
    ) {
        let s = if state == 1 { "down" } else { "up" };
        lock(&self.0)
            .record
            .input
            .push(format!("key {keycode} {s}"));
    }

    async fn notify_keyboard_keysym(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        keysym: i32,
        state: u32,
    ) {
        let s = if state == 1 { "down" } else { "up" };
        lock(&self.0)
            .record
            .input
            .push(format!("keysym {keysym:#x} {s}"));
    }

    async fn notify_pointer_motion_absolute(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        stream: u32,
        x: f64,
        y: f64,
    ) {
        lock(&self.0)
            .record
            .input
            .push(format!("absolute {stream} {x} {y}"));
    }

    async fn notify_pointer_button(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        button: i32,
        state: u32,
    ) {
        let s = if state == 1 { "down" } else { "up" };
        lock(&self.0)
            .record
            .input
            .push(format!("button {button} {s}"));
    }

    async fn notify_pointer_axis_discrete(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        axis: u32,
        steps: i32,
    ) {
        lock(&self.0)
            .record
            .input
            .push(format!("scroll {axis} {steps}"));
    }

    #[zbus(property)]
    async fn available_device_types(&self) -> u32 {
        3
    }

    #[zbus(property)]
    async fn version(&self) -> u32 {
        2
    }
}

struct Cast(Shared);

#[zbus::interface(name = "org.freedesktop.impl.portal.ScreenCast")]
impl Cast {
    #[zbus(out_args("response", "results"))]
    async fn create_session(
        &self,
        _handle: OwnedObjectPath,
        _session_handle: OwnedObjectPath,
        _app_id: String,
        _options: Results,
    ) -> (u32, Results) {
        note(&self.0, "ScreenCast.CreateSession");
        (0, Results::new())
    }

    #[zbus(out_args("response", "results"))]
    async fn select_sources(
        &self,
        _handle: OwnedObjectPath,
        _session_handle: OwnedObjectPath,
        _app_id: String,
        _options: Results,
    ) -> (u32, Results) {
        note(&self.0, "ScreenCast.SelectSources");
        (0, Results::new())
    }

    #[zbus(out_args("response", "results"))]
    async fn start(
        &self,
        _handle: OwnedObjectPath,
        _session_handle: OwnedObjectPath,
        _app_id: String,
        _parent_window: String,
        _options: Results,
    ) -> (u32, Results) {
        let response = ask(&self.0, "ScreenCast.Start").await;
        let mut results = Results::new();
        if response == 0 {
            results.insert("streams".into(), owned(Value::from(streams())));
        }
        (response, results)
    }

    #[zbus(property)]
    async fn available_source_types(&self) -> u32 {
        1
    }

    #[zbus(property)]
    async fn available_cursor_modes(&self) -> u32 {
        1
    }

    #[zbus(property)]
    async fn version(&self) -> u32 {
        4
    }
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

/// The private bus, the real front-end and the test's back-end, all ended on drop.
pub struct Portal {
    /// The private bus's address, for the client under test.
    pub address: String,
    state: Shared,
    backend: zbus::Connection,
    bus: Child,
    frontend: Child,
    _dir: tempfile::TempDir,
}

impl Drop for Portal {
    fn drop(&mut self) {
        for child in [&mut self.frontend, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Portal {
    /// Starts the bus, puts the back-end on it, then starts the front-end and waits until
    /// it answers.
    pub async fn start() -> Result<Portal, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("portal folder: {e}"))?;
        let config = dir.path().join("bus.conf");
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
    <!-- The app under test may run as the compositor's user. -->
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
                dir.path().display()
            ),
        )
        .map_err(|e| format!("bus config: {e}"))?;
        let portals = dir.path().join("portals");
        std::fs::create_dir_all(&portals).map_err(|e| format!("portals folder: {e}"))?;
        std::fs::write(
            portals.join("zetatest.portal"),
            format!(
                "[portal]\nDBusName={NAME}\nInterfaces=org.freedesktop.impl.portal.GlobalShortcuts;org.freedesktop.impl.portal.RemoteDesktop;org.freedesktop.impl.portal.ScreenCast;\nUseIn=zetatest\n"
            ),
        )
        .map_err(|e| format!("portal file: {e}"))?;
        let mut bus = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--print-address=1", "--nofork"])
            // What it starts on demand (the permission store) finds this.
            .env("XDG_DESKTOP_PORTAL_DIR", &portals)
            .env("XDG_CURRENT_DESKTOP", "zetatest")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("dbus-daemon: {e}"))?;
        let address = {
            use std::io::BufRead;
            let Some(out) = bus.stdout.take() else {
                return Err("dbus-daemon gave no address".into());
            };
            let mut line = String::new();
            std::io::BufReader::new(out)
                .read_line(&mut line)
                .map_err(|e| format!("dbus-daemon's address: {e}"))?;
            line.trim().to_string()
        };
        let state = Shared::default();
        let backend = async {
            zbus::connection::Builder::address(address.as_str())?
                .name(NAME)?
                .serve_at(PATH, Shortcuts(state.clone()))?
                .serve_at(PATH, Remote(state.clone()))?
                .serve_at(PATH, Cast(state.clone()))?
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
        let frontend = Command::new("/usr/libexec/xdg-desktop-portal")
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("XDG_DESKTOP_PORTAL_DIR", &portals)
            .env("XDG_CURRENT_DESKTOP", "zetatest")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
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
            .interface::<_, Shortcuts>(PATH)
            .await
            .map_err(|e| e.to_string())?;
        let emitter = iface.signal_emitter();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        let fired = if down {
            Shortcuts::activated(emitter, session.as_ref(), id, now, HashMap::new()).await
        } else {
            Shortcuts::deactivated(emitter, session.as_ref(), id, now, HashMap::new()).await
        };
        fired.map_err(|e| e.to_string())
    }
}
