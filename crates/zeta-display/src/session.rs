//! Which session Zeta runs in: a Wayland display it can connect to (and which compositor
//! holds it, from the desktop's name, the compositor's own variables and the protocols it
//! offers), an X display (on Wayland, that is XWayland, which shows only X11 windows), or
//! neither. Decided from a snapshot of the environment, so tests can hand one in.

use std::path::{Path, PathBuf};

/// The variables that decide the session, read once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Env {
    pub wayland_display: Option<String>,
    pub xdg_runtime_dir: Option<PathBuf>,
    pub display: Option<String>,
    pub xdg_session_type: Option<String>,
    pub xdg_current_desktop: Option<String>,
    pub swaysock: Option<PathBuf>,
    pub hyprland_instance_signature: Option<String>,
}

impl Env {
    /// This process's environment (empty values count as unset).
    pub fn current() -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        Env {
            wayland_display: var("WAYLAND_DISPLAY"),
            xdg_runtime_dir: var("XDG_RUNTIME_DIR").map(PathBuf::from),
            display: var("DISPLAY"),
            xdg_session_type: var("XDG_SESSION_TYPE"),
            xdg_current_desktop: var("XDG_CURRENT_DESKTOP"),
            swaysock: var("SWAYSOCK").map(PathBuf::from),
            hyprland_instance_signature: var("HYPRLAND_INSTANCE_SIGNATURE"),
        }
    }

    /// The Wayland socket WAYLAND_DISPLAY names: a path as is, a name inside
    /// XDG_RUNTIME_DIR.
    pub fn wayland_socket(&self) -> Option<PathBuf> {
        let name = self.wayland_display.as_deref()?;
        if Path::new(name).is_absolute() {
            return Some(PathBuf::from(name));
        }
        Some(self.xdg_runtime_dir.as_ref()?.join(name))
    }
}

/// The Wayland compositor, as far as it can be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compositor {
    /// GNOME Shell on Mutter.
    Gnome,
    /// KDE Plasma on KWin.
    Kde,
    Sway,
    Hyprland,
    /// Another compositor built on wlroots (it offers the wlr protocols).
    Wlroots,
    /// Anything else, by the desktop's name when it gave one.
    Other(String),
}

impl Compositor {
    pub fn name(&self) -> &str {
        match self {
            Compositor::Gnome => "GNOME",
            Compositor::Kde => "KDE Plasma",
            Compositor::Sway => "sway",
            Compositor::Hyprland => "Hyprland",
            Compositor::Wlroots => "a wlroots compositor",
            Compositor::Other(name) => name,
        }
    }

    /// Which one: the compositor's own variables first, then the desktop's name, then the
    /// protocols only it offers.
    pub fn tell(env: &Env, globals: &[String]) -> Compositor {
        if env.swaysock.is_some() {
            return Compositor::Sway;
        }
        if env.hyprland_instance_signature.is_some() {
            return Compositor::Hyprland;
        }
        let desktop = env.xdg_current_desktop.as_deref().unwrap_or_default();
        for part in desktop.split(':').map(str::to_ascii_lowercase) {
            match part.as_str() {
                "gnome" | "gnome-classic" | "gnome-flashback" => return Compositor::Gnome,
                "kde" | "plasma" => return Compositor::Kde,
                "sway" => return Compositor::Sway,
                "hyprland" => return Compositor::Hyprland,
                _ => {}
            }
        }
        let has = |prefix: &str| globals.iter().any(|g| g.starts_with(prefix));
        if has("zwlr_") {
            Compositor::Wlroots
        } else if has("org_kde_") {
            Compositor::Kde
        } else if has("gtk_shell") {
            Compositor::Gnome
        } else if desktop.is_empty() {
            Compositor::Other("an unknown compositor".into())
        } else {
            Compositor::Other(desktop.to_string())
        }
    }
}

/// A Wayland session Zeta can connect to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wayland {
    pub socket: PathBuf,
    pub compositor: Compositor,
    /// The interfaces of the compositor's globals (`zwlr_screencopy_manager_v1`, …).
    pub globals: Vec<String>,
    /// sway's IPC socket, where the compositor is sway.
    pub sway_socket: Option<PathBuf>,
}

impl Wayland {
    pub fn offers(&self, interface: &str) -> bool {
        self.globals.iter().any(|g| g == interface)
    }

    /// The screen can be copied without a portal (wlroots' screen copy).
    pub fn screencopy(&self) -> bool {
        self.offers(crate::wayland::SCREENCOPY)
    }

    /// Keys and the pointer can be sent without a portal (the virtual keyboard and
    /// pointer protocols).
    pub fn virtual_input(&self) -> bool {
        self.offers(crate::wayland::VIRTUAL_KEYBOARD)
            && self.offers(crate::wayland::VIRTUAL_POINTER)
    }
}

/// The session: Wayland when its socket answers (X11 beside it is then XWayland), else X11
/// when DISPLAY is set, else none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub wayland: Option<Wayland>,
    /// DISPLAY, when set.
    pub x11: Option<String>,
    /// Whether a DBus session bus is named (the accessibility tree and the portals are on it).
    pub dbus: bool,
}

impl Session {
    /// This process's session, probing the Wayland socket for its globals.
    pub fn detect() -> Session {
        let dbus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty());
        Session::from_env(&Env::current(), dbus, |socket| {
            crate::wayland::globals(socket)
                .map_err(|e| tracing::debug!("no Wayland session: {e}"))
                .ok()
        })
    }

    /// The session `env` describes; `globals` lists a Wayland socket's globals, or `None`
    /// when nothing answers there.
    pub fn from_env(
        env: &Env,
        dbus: bool,
        globals: impl FnOnce(&Path) -> Option<Vec<String>>,
    ) -> Session {
        let wayland = env.wayland_socket().and_then(|socket| {
            let globals = globals(&socket)?;
            let compositor = Compositor::tell(env, &globals);
            let sway_socket = match (&env.swaysock, &compositor) {
                (Some(s), _) => Some(s.clone()),
                (None, Compositor::Sway) => env.xdg_runtime_dir.as_deref().and_then(sway_ipc_in),
                _ => None,
            };
            Some(Wayland {
                socket,
                compositor,
                globals,
                sway_socket,
            })
        });
        Session {
            wayland,
            x11: env.display.clone(),
            dbus,
        }
    }

    pub fn is_wayland(&self) -> bool {
        self.wayland.is_some()
    }

    /// "Wayland (sway; XWayland :0 beside it)", "X11 (:0)", "no display".
    pub fn describe(&self) -> String {
        match (&self.wayland, &self.x11) {
            (Some(w), Some(x)) => format!(
                "Wayland ({}, {}; XWayland {x} beside it for X11 applications)",
                w.compositor.name(),
                w.socket.display()
            ),
            (Some(w), None) => format!(
                "Wayland ({}, {}; no XWayland)",
                w.compositor.name(),
                w.socket.display()
            ),
            (None, Some(x)) => format!("X11 ({x})"),
            (None, None) => "no display (neither WAYLAND_DISPLAY nor DISPLAY answers)".into(),
        }
    }
}

/// sway's IPC socket in the runtime folder (`sway-ipc.UID.PID.sock`), when SWAYSOCK is not
/// set: the newest one.
fn sway_ipc_in(runtime: &Path) -> Option<PathBuf> {
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(runtime)
        .ok()?
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.starts_with("sway-ipc.") && name.ends_with(".sock")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    found.sort();
    found.pop().map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(desktop: &str) -> Env {
        Env {
            wayland_display: Some("wayland-1".into()),
            xdg_runtime_dir: Some("/run/user/1000".into()),
            xdg_current_desktop: (!desktop.is_empty()).then(|| desktop.to_string()),
            ..Env::default()
        }
    }

    fn globals(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_compositor_is_told_by_its_variables_its_name_then_its_protocols() {
        let wlr = globals(&["wl_shm", "zwlr_screencopy_manager_v1"]);
        let kde = globals(&["wl_shm", "org_kde_kwin_blur_manager"]);
        let gnome = globals(&["wl_shm", "gtk_shell1"]);
        let cases: Vec<(Env, &[String], Compositor)> = vec![
            (env("GNOME"), &[], Compositor::Gnome),
            (env("ubuntu:GNOME"), &[], Compositor::Gnome),
            (env("KDE"), &[], Compositor::Kde),
            (env("sway"), &[], Compositor::Sway),
            (env("Hyprland"), &wlr, Compositor::Hyprland),
            (env(""), &wlr, Compositor::Wlroots),
            (env(""), &kde, Compositor::Kde),
            (env(""), &gnome, Compositor::Gnome),
            (env("niri"), &[], Compositor::Other("niri".into())),
            (
                Env {
                    swaysock: Some("/run/user/1000/sway-ipc.sock".into()),
                    ..env("")
                },
                &wlr,
                Compositor::Sway,
            ),
            (
                Env {
                    hyprland_instance_signature: Some("abc".into()),
                    ..env("")
                },
                &wlr,
                Compositor::Hyprland,
            ),
        ];
        for (env, globals, want) in cases {
            assert_eq!(Compositor::tell(&env, globals), want, "{env:?}");
        }
    }

    #[test]
    fn wayland_only_when_its_socket_answers_and_x11_beside_it_is_xwayland() {
        let mut e = env("sway");
        e.display = Some(":0".into());
        let s = Session::from_env(&e, true, |socket| {
            assert_eq!(socket, Path::new("/run/user/1000/wayland-1"));
            Some(globals(&["zwlr_screencopy_manager_v1"]))
        });
        assert!(s.is_wayland());
        assert!(s.describe().contains("XWayland :0"), "{}", s.describe());
        assert!(s.wayland.as_ref().is_some_and(Wayland::screencopy));
        assert!(!s.wayland.as_ref().is_some_and(Wayland::virtual_input));

        let dead = Session::from_env(&e, true, |_| None);
        assert!(!dead.is_wayland());
        assert_eq!(dead.describe(), "X11 (:0)");

        let none = Session::from_env(&Env::default(), false, |_| panic!("no socket to probe"));
        assert!(none.describe().starts_with("no display"));
    }

    #[test]
    fn an_absolute_wayland_display_is_its_own_socket() {
        let e = Env {
            wayland_display: Some("/tmp/w/wayland-9".into()),
            ..Env::default()
        };
        assert_eq!(e.wayland_socket(), Some(PathBuf::from("/tmp/w/wayland-9")));
        let no_runtime = Env {
            wayland_display: Some("wayland-0".into()),
            ..Env::default()
        };
        assert_eq!(no_runtime.wayland_socket(), None);
    }
}
