//! Probes of the desktop session that the app and `zeta doctor` share: is there an X
//! display, a DBus session bus, a tray host (StatusNotifier watcher or XEmbed tray)? And
//! what to do instead of a hotkey that cannot be grabbed.

use std::time::Duration;

/// What a probe found, worded for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    Ok(String),
    Missing(String),
}

impl Probe {
    pub fn is_ok(&self) -> bool {
        matches!(self, Probe::Ok(_))
    }
    pub fn text(&self) -> &str {
        match self {
            Probe::Ok(t) | Probe::Missing(t) => t,
        }
    }
}

/// An X display we can connect to (Zeta's screen and input tools speak X11).
pub fn display() -> Probe {
    let name = std::env::var("DISPLAY").unwrap_or_default();
    if name.is_empty() {
        return Probe::Missing("DISPLAY is not set".into());
    }
    match x11rb::connect(Some(&name)) {
        Ok((conn, screen)) => {
            let s = &x11rb::connection::Connection::setup(&conn).roots[screen];
            Probe::Ok(format!(
                "X display {name} ({}x{})",
                s.width_in_pixels, s.height_in_pixels
            ))
        }
        Err(e) => Probe::Missing(format!("cannot connect to X display {name}: {e}")),
    }
}

/// Whether the app can open its window: an X display it can reach, or a Wayland one.
pub fn window_possible() -> Result<(), String> {
    if std::env::var_os("WAYLAND_DISPLAY").is_some_and(|d| !d.is_empty()) {
        return Ok(());
    }
    match display() {
        Probe::Ok(_) => Ok(()),
        Probe::Missing(why) => Err(format!(
            "zeta: no display to open the window on ({why}). Use the command line instead \
             (`zeta run \"TASK\"`, `zeta --help`), or set DISPLAY to a running X server."
        )),
    }
}

/// A DBus session bus (the tray and single-instance use it).
pub fn dbus_session() -> Probe {
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
        return Probe::Missing("DBUS_SESSION_BUS_ADDRESS is not set".into());
    }
    match session_connection() {
        Ok(_) => Probe::Ok("DBus session bus reachable".into()),
        Err(e) => Probe::Missing(format!("DBus session bus unreachable: {e}")),
    }
}

fn session_connection() -> Result<zbus::blocking::Connection, String> {
    // zbus's blocking connect waits on the bus; keep a bound on it.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(zbus::blocking::Connection::session().map_err(|e| e.to_string()));
    });
    rx.recv_timeout(Duration::from_secs(3))
        .map_err(|_| "timed out connecting".to_string())?
}

/// A tray host: a StatusNotifier watcher on DBus, or an XEmbed system tray on X.
pub fn tray_host() -> Probe {
    if let Ok(conn) = session_connection() {
        let watcher = zbus::names::BusName::try_from("org.kde.StatusNotifierWatcher");
        let has_watcher = match (zbus::blocking::fdo::DBusProxy::new(&conn), watcher) {
            (Ok(proxy), Ok(name)) => proxy.name_has_owner(name).unwrap_or(false),
            _ => false,
        };
        if has_watcher {
            return Probe::Ok("StatusNotifier tray host on DBus".into());
        }
    }
    match xembed_tray_owner() {
        Some(owner) => Probe::Ok(format!("XEmbed system tray (window 0x{owner:x})")),
        None => Probe::Missing("no tray host (no StatusNotifier watcher, no XEmbed tray)".into()),
    }
}

fn xembed_tray_owner() -> Option<u32> {
    use x11rb::protocol::xproto::ConnectionExt;
    let (conn, screen) = x11rb::connect(None).ok()?;
    let atom = conn
        .intern_atom(false, format!("_NET_SYSTEM_TRAY_S{screen}").as_bytes())
        .ok()?
        .reply()
        .ok()?
        .atom;
    let owner = conn.get_selection_owner(atom).ok()?.reply().ok()?.owner;
    (owner != 0).then_some(owner)
}

/// What to do instead of the hotkey: on Wayland, the compositor's own binding of the
/// `zeta listen` commands (then the tray and the command line); else the tray and the
/// command line.
pub fn hotkey_alternatives(
    session: &zeta_display::Session,
    shortcut: &str,
    mode: zeta_core::settings::HotkeyMode,
) -> String {
    let Some(wayland) = &session.wayland else {
        return zeta_protocol::voice::HOTKEY_ALTERNATIVES.to_string();
    };
    let zeta = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "zeta".into());
    let how = zeta_display::support::binding(
        &wayland.compositor,
        &zeta_display::support::Hotkey {
            shortcut,
            zeta: &zeta,
            hold: mode == zeta_core::settings::HotkeyMode::Hold,
        },
    );
    format!("{how}; or {}", zeta_protocol::voice::HOTKEY_ALTERNATIVES)
}
