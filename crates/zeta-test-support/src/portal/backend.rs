//! The back-end interfaces the real front-end routes to: GlobalShortcuts, RemoteDesktop
//! and ScreenCast, answering as the test asks and recording what they were asked.

use std::collections::HashMap;

use zbus::object_server::SignalEmitter;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue, Value};

use super::{ask, edge, input, lock, note, owned, streams, Results, Shared};

pub(super) struct Shortcuts(pub(super) Shared);

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
    pub(super) async fn activated(
        emitter: &SignalEmitter<'_>,
        session_handle: ObjectPath<'_>,
        shortcut_id: &str,
        timestamp: u64,
        options: HashMap<&str, Value<'_>>,
    ) -> zbus::Result<()>;

    #[zbus(signal)]
    pub(super) async fn deactivated(
        emitter: &SignalEmitter<'_>,
        session_handle: ObjectPath<'_>,
        shortcut_id: &str,
        timestamp: u64,
        options: HashMap<&str, Value<'_>>,
    ) -> zbus::Result<()>;

    #[zbus(property, name = "version")]
    async fn version(&self) -> u32 {
        1
    }
}

pub(super) struct Remote(pub(super) Shared);

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
        let restored = restored(&options);
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
            results.insert(
                "streams".into(),
                owned(Value::from(streams(lock(&self.0).node))),
            );
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
        input(&self.0, format!("key {keycode} {}", edge(state)));
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

    async fn notify_pointer_axis_discrete(
        &self,
        _session_handle: OwnedObjectPath,
        _options: Results,
        axis: u32,
        steps: i32,
    ) {
        input(&self.0, format!("scroll {axis} {steps}"));
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

pub(super) struct Cast(pub(super) Shared);

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
        options: Results,
    ) -> (u32, Results) {
        let restored = restored(&options);
        let mut s = lock(&self.0);
        s.record.calls.push("ScreenCast.SelectSources".into());
        s.record.cast_restored.push(restored);
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
            let (node, grant) = {
                let mut s = lock(&self.0);
                s.grants += 1;
                (s.node, s.grants)
            };
            results.insert("streams".into(), owned(Value::from(streams(node))));
            results.insert("persist_mode".into(), OwnedValue::from(2u32));
            let data = (
                "zetatest".to_string(),
                1u32,
                Value::from(format!("cast-{grant}")),
            );
            results.insert("restore_data".into(), owned(Value::from(data)));
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

    #[zbus(property, name = "version")]
    async fn version(&self) -> u32 {
        4
    }
}

pub(super) struct Shot(pub(super) Shared);

#[zbus::interface(name = "org.freedesktop.impl.portal.Screenshot")]
impl Shot {
    #[zbus(out_args("response", "results"))]
    async fn screenshot(
        &self,
        _handle: OwnedObjectPath,
        _app_id: String,
        _parent_window: String,
        _options: Results,
    ) -> (u32, Results) {
        let response = ask(&self.0, "Screenshot.Screenshot").await;
        let mut results = Results::new();
        if response == 0 {
            // A fresh copy of the test's picture each time: the client removes it.
            let (picture, n) = {
                let mut s = lock(&self.0);
                s.shots += 1;
                (s.picture.clone(), s.shots)
            };
            if let Some(picture) = picture {
                let copy = picture.with_file_name(format!("Screenshot {n}.png"));
                if std::fs::copy(&picture, &copy).is_ok() {
                    let uri = format!("file://{}", copy.display()).replace(' ', "%20");
                    results.insert("uri".into(), owned(Value::from(uri)));
                }
            }
        }
        (response, results)
    }

    #[zbus(out_args("response", "results"))]
    async fn pick_color(
        &self,
        _handle: OwnedObjectPath,
        _app_id: String,
        _parent_window: String,
        _options: Results,
    ) -> (u32, Results) {
        (2, Results::new())
    }

    #[zbus(property, name = "version")]
    async fn version(&self) -> u32 {
        2
    }
}

/// The permission dialog xdg-desktop-portal needs a back-end for before it offers the
/// Screenshot portal; it answers as the test asks.
pub(super) struct Access(pub(super) Shared);

#[zbus::interface(name = "org.freedesktop.impl.portal.Access")]
impl Access {
    #[allow(clippy::too_many_arguments)]
    #[zbus(out_args("response", "results"))]
    async fn access_dialog(
        &self,
        _handle: OwnedObjectPath,
        _app_id: String,
        _parent_window: String,
        _title: String,
        _subtitle: String,
        _body: String,
        _options: Results,
    ) -> (u32, Results) {
        (ask(&self.0, "Access.AccessDialog").await, Results::new())
    }
}

/// The string a back-end put in its restore data, handed back by the front-end.
fn restored(options: &Results) -> Option<String> {
    let (_, _, data): (String, u32, OwnedValue) =
        options.get("restore_data")?.clone().try_into().ok()?;
    // The front-end may hand the variant back wrapped in one more.
    let mut value: Value = data.into();
    while let Value::Value(inner) = value {
        value = *inner;
    }
    match value {
        Value::Str(s) => Some(s.to_string()),
        other => Some(format!("{other:?}")),
    }
}
