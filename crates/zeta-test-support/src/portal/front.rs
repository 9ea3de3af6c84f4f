//! A RemoteDesktop portal front-end of version 2, with restore tokens, for the clients'
//! token handling: Debian 12's xdg-desktop-portal (1.16) offers version 1, which has none.
//! It follows the documented protocol (each request answered by its Request object's
//! Response signal; sessions as Session objects), grants, refuses or never answers as
//! the test asks, hands out a new single-use token on every start, and records the token
//! it was handed and the keys and clicks sent.

use std::process::Child;

use zbus::message::Header;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};

use super::{edge, input, lock, owned, private_bus, streams, Answer, Record, Results, Shared};

const DESKTOP: &str = "/org/freedesktop/portal/desktop";

/// The object path of a request or session: `KIND/SENDER/TOKEN`, the sender's unique name
/// without its colon and with its dots as underscores.
fn path_of(kind: &str, hdr: &Header<'_>, options: &Results, key: &str) -> OwnedObjectPath {
    let sender = hdr
        .sender()
        .map(|s| s.trim_start_matches(':').replace('.', "_"))
        .unwrap_or_default();
    let token = options
        .get(key)
        .and_then(|v| String::try_from(v.clone()).ok())
        .unwrap_or_else(|| "t".into());
    OwnedObjectPath::try_from(format!("{DESKTOP}/{kind}/{sender}/{token}")).unwrap_or_else(|_| {
        OwnedObjectPath::from(zbus::zvariant::ObjectPath::from_static_str_unchecked(
            DESKTOP,
        ))
    })
}

/// Answers request `handle` a moment after its call returned.
fn respond(conn: &zbus::Connection, handle: OwnedObjectPath, code: u32, results: Results) {
    let conn = conn.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        let _ = conn
            .emit_signal(
                None::<()>,
                handle.as_str(),
                "org.freedesktop.portal.Request",
                "Response",
                &(code, results),
            )
            .await;
    });
}

/// How the state says a request that asks the person ends: its code, or never.
fn answer(state: &Shared, call: &str) -> Option<u32> {
    let mut s = lock(state);
    s.record.calls.push(call.to_string());
    match s.answer.unwrap_or(Answer::Grant) {
        Answer::Grant => Some(0),
        Answer::Refuse => Some(1),
        Answer::Never => None,
    }
}

struct Session;

#[zbus::interface(name = "org.freedesktop.portal.Session")]
impl Session {
    async fn close(&self) {}

    #[zbus(property, name = "version")]
    async fn version(&self) -> u32 {
        1
    }
}

struct Remote(Shared);

#[zbus::interface(name = "org.freedesktop.portal.RemoteDesktop")]
impl Remote {
    async fn create_session(
        &self,
        #[zbus(header)] hdr: Header<'_>,
        #[zbus(connection)] conn: &zbus::Connection,
        options: Results,
    ) -> OwnedObjectPath {
        let handle = path_of("request", &hdr, &options, "handle_token");
        let session = path_of("session", &hdr, &options, "session_handle_token");
        let _ = conn.object_server().at(session.as_str(), Session).await;
        lock(&self.0).record.calls.push("CreateSession".into());
        let mut results = Results::new();
        results.insert(
            "session_handle".into(),
            owned(Value::from(session.as_str().to_string())),
        );
        respond(conn, handle.clone(), 0, results);
        handle
    }

    async fn select_devices(
        &self,
        #[zbus(header)] hdr: Header<'_>,
        #[zbus(connection)] conn: &zbus::Connection,
        _session_handle: OwnedObjectPath,
        options: Results,
    ) -> OwnedObjectPath {
        let handle = path_of("request", &hdr, &options, "handle_token");
        let token = options
            .get("restore_token")
            .and_then(|v| String::try_from(v.clone()).ok());
        {
            let mut s = lock(&self.0);
            s.record.calls.push("SelectDevices".into());
            s.record.restored.push(token);
        }
        respond(conn, handle.clone(), 0, Results::new());
        handle
    }

    async fn start(
        &self,
        #[zbus(header)] hdr: Header<'_>,
        #[zbus(connection)] conn: &zbus::Connection,
        _session_handle: OwnedObjectPath,
        _parent_window: String,
        options: Results,
    ) -> OwnedObjectPath {
        let handle = path_of("request", &hdr, &options, "handle_token");
        match answer(&self.0, "Start") {
            Some(0) => {
                let grant = {
                    let mut s = lock(&self.0);
                    s.grants += 1;
                    s.grants
                };
                let mut results = Results::new();
                results.insert("devices".into(), OwnedValue::from(3u32));
                results.insert("streams".into(), owned(Value::from(streams(None))));
                results.insert(
                    "restore_token".into(),
                    owned(Value::from(format!("token-{grant}"))),
                );
                respond(conn, handle.clone(), 0, results);
            }
            Some(code) => respond(conn, handle.clone(), code, Results::new()),
            None => {}
        }
        handle
    }

    async fn notify_keyboard_keysym(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        keysym: i32,
        state: u32,
    ) {
        input(&self.0, format!("keysym {keysym:#x} {}", edge(state)));
    }

    async fn notify_pointer_motion_absolute(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        stream: u32,
        x: f64,
        y: f64,
    ) {
        input(&self.0, format!("absolute {stream} {x} {y}"));
    }

    async fn notify_pointer_button(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        button: i32,
        state: u32,
    ) {
        input(&self.0, format!("button {button} {}", edge(state)));
    }

    #[zbus(property)]
    async fn available_device_types(&self) -> u32 {
        3
    }

    #[zbus(property, name = "version")]
    async fn version(&self) -> u32 {
        2
    }
}

struct Cast;

#[zbus::interface(name = "org.freedesktop.portal.ScreenCast")]
impl Cast {
    async fn select_sources(
        &self,
        #[zbus(header)] hdr: Header<'_>,
        #[zbus(connection)] conn: &zbus::Connection,
        _session_handle: OwnedObjectPath,
        options: Results,
    ) -> OwnedObjectPath {
        let handle = path_of("request", &hdr, &options, "handle_token");
        respond(conn, handle.clone(), 0, Results::new());
        handle
    }

    #[zbus(property)]
    async fn available_source_types(&self) -> u32 {
        1
    }

    #[zbus(property)]
    async fn available_cursor_modes(&self) -> u32 {
        1
    }

    #[zbus(property, name = "version")]
    async fn version(&self) -> u32 {
        4
    }
}

/// The version-2 front-end on a private bus, ended on drop.
pub struct Front {
    /// The private bus's address, for the client under test.
    pub address: String,
    state: Shared,
    _conn: zbus::Connection,
    bus: Child,
    _dir: tempfile::TempDir,
}

impl Drop for Front {
    fn drop(&mut self) {
        let _ = self.bus.kill();
        let _ = self.bus.wait();
    }
}

impl Front {
    pub async fn start() -> Result<Front, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("front-end folder: {e}"))?;
        let (mut bus, address) = private_bus(dir.path(), &[])?;
        let state = Shared::default();
        let conn = async {
            zbus::connection::Builder::address(address.as_str())?
                .name("org.freedesktop.portal.Desktop")?
                .serve_at(DESKTOP, Remote(state.clone()))?
                .serve_at(DESKTOP, Cast)?
                .build()
                .await
        }
        .await;
        match conn {
            Ok(conn) => Ok(Front {
                address,
                state,
                _conn: conn,
                bus,
                _dir: dir,
            }),
            Err(e) => {
                let _ = bus.kill();
                let _ = bus.wait();
                Err(format!("the version-2 front-end on the private bus: {e}"))
            }
        }
    }

    pub fn answer(&self, answer: Answer) {
        lock(&self.state).answer = Some(answer);
    }

    pub fn record(&self) -> Record {
        lock(&self.state).record.clone()
    }
}
