//! What each desktop capability (the screen, input, the push-to-talk hotkey, the
//! accessibility tree) uses in a session, what the person must do once, and what cannot
//! work there with what to use instead: the doctor's lines and the settings window's
//! hotkey help, worked out from the [`Session`] alone.

use crate::session::{Compositor, Session};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    Screen,
    Input,
    Hotkey,
    Tree,
}

impl Capability {
    pub const ALL: [Capability; 4] = [
        Capability::Screen,
        Capability::Input,
        Capability::Hotkey,
        Capability::Tree,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Capability::Screen => "screen",
            Capability::Input => "input",
            Capability::Hotkey => "hotkey",
            Capability::Tree => "tree",
        }
    }
}

/// How a capability stands in a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    /// It works, through `by`.
    Works { by: String },
    /// It works through `by` once the person allows it: the desktop asks (`ask`).
    Allow { by: String, ask: String },
    /// The desktop's own key binding runs Zeta's commands: `how` says where to set it.
    Bind { how: String },
    /// It cannot work here: `why`, and what to use `instead`.
    Cannot { why: String, instead: String },
}

impl Support {
    pub fn works(&self) -> bool {
        matches!(self, Support::Works { .. })
    }
}

/// The push-to-talk key in Zeta's own form ("Ctrl+Alt+Space") and the `zeta` command to
/// bind, for the binding help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hotkey<'a> {
    pub shortcut: &'a str,
    /// The `zeta` command's path.
    pub zeta: &'a str,
    /// Held to talk (start on press, stop on release), else pressed once to start and
    /// once to stop.
    pub hold: bool,
}

impl Hotkey<'static> {
    /// Zeta's default key, held, with `zeta` on PATH.
    pub const DEFAULT: Hotkey<'static> = Hotkey {
        shortcut: "Ctrl+Alt+Space",
        zeta: "zeta",
        hold: true,
    };
}

/// Every capability's standing in `session`.
pub fn plan(session: &Session, hotkey: &Hotkey) -> Vec<(Capability, Support)> {
    Capability::ALL
        .into_iter()
        .map(|c| (c, standing(c, session, hotkey)))
        .collect()
}

/// One capability's standing in `session` (`hotkey` words the binding help).
pub fn standing(capability: Capability, session: &Session, hotkey: &Hotkey) -> Support {
    let works = |by: &str| Support::Works { by: by.into() };
    let cannot = |why: String, instead: &str| Support::Cannot {
        why,
        instead: instead.into(),
    };
    let Some(wayland) = &session.wayland else {
        return match (capability, &session.x11, session.dbus) {
            (Capability::Tree, _, true) => works("the accessibility bus (AT-SPI over DBus)"),
            (Capability::Tree, _, false) => cannot(
                "there is no DBus session bus, where the accessibility tree is".into(),
                "run Zeta inside a desktop session (or `dbus-run-session`); windows are read by OCR",
            ),
            (_, None, _) => cannot(
                "there is no display (neither WAYLAND_DISPLAY nor DISPLAY answers)".into(),
                "the chat and the command line work without one",
            ),
            (Capability::Screen, Some(d), _) => works(&format!("X11 shared memory on {d}")),
            (Capability::Input, Some(d), _) => works(&format!("the XTest extension on {d}")),
            (Capability::Hotkey, Some(d), _) => works(&format!("a key grab on {d}")),
        };
    };
    let compositor = wayland.compositor.name();
    match capability {
        Capability::Tree if session.dbus => works(
            "the accessibility bus (AT-SPI over DBus); on Wayland a window's place on the screen \
             is not shared, so elements are acted on through the tree",
        ),
        Capability::Tree => cannot(
            "there is no DBus session bus, where the accessibility tree is".into(),
            "run Zeta inside the desktop session",
        ),
        Capability::Screen if wayland.screencopy() => {
            works("the wlroots screen copy (no portal, nothing to allow)")
        }
        Capability::Screen
            if matches!(wayland.compositor, Compositor::Gnome | Compositor::Kde) =>
        {
            Support::Allow {
                by: "the desktop's ScreenCast portal over PipeWire (else its Screenshot portal)"
                    .into(),
                ask: format!(
                    "{compositor} asks once, at the first screenshot, which screen Zeta may see; Zeta keeps the answer"
                ),
            }
        }
        Capability::Screen => cannot(
            format!("{compositor} offers no wlroots screen copy, and Zeta does not know it to have a Screenshot portal"),
            "ui_outline reads windows through their accessibility tree",
        ),
        Capability::Input if wayland.virtual_input() => {
            works("the Wayland virtual keyboard and pointer (no portal, nothing to allow)")
        }
        Capability::Input
            if matches!(wayland.compositor, Compositor::Gnome | Compositor::Kde) =>
        {
            Support::Allow {
                by: "the desktop's RemoteDesktop portal".into(),
                ask: format!(
                    "{compositor} asks once, at the first key or click, to let Zeta control the keyboard and pointer; Zeta keeps the answer (portal version 2 and later)"
                ),
            }
        }
        Capability::Input => cannot(
            format!("{compositor} offers no virtual keyboard and pointer, and Zeta does not know it to have a RemoteDesktop portal"),
            "ui_act acts on elements through their accessibility tree",
        ),
        Capability::Hotkey => Support::Bind {
            how: binding(&wayland.compositor, hotkey),
        },
    }
}

/// Where and what to bind on `compositor` so its own key binding runs Zeta's listen
/// commands.
pub fn binding(compositor: &Compositor, hotkey: &Hotkey) -> String {
    let keys: Vec<&str> = hotkey
        .shortcut
        .split('+')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .collect();
    let (mods, key) = match keys.split_last() {
        Some((key, mods)) => (mods, key.to_ascii_lowercase()),
        None => (&[][..], "space".to_string()),
    };
    let z = hotkey.zeta;
    match compositor {
        Compositor::Sway | Compositor::Wlroots => {
            let combo = mods
                .iter()
                .map(|m| sway_modifier(m))
                .chain(std::iter::once(key.as_str()))
                .collect::<Vec<_>>()
                .join("+");
            if hotkey.hold {
                format!(
                    "add to sway's config: `bindsym --no-repeat {combo} exec {z} listen start` and `bindsym --release {combo} exec {z} listen stop`, then `swaymsg reload`"
                )
            } else {
                format!("add to sway's config: `bindsym --no-repeat {combo} exec {z} listen toggle`, then `swaymsg reload`")
            }
        }
        Compositor::Hyprland => {
            let mods = mods
                .iter()
                .map(|m| hypr_modifier(m))
                .collect::<Vec<_>>()
                .join(" ");
            if hotkey.hold {
                format!(
                    "add to hyprland.conf: `bind = {mods}, {key}, exec, {z} listen start` and `bindr = {mods}, {key}, exec, {z} listen stop`"
                )
            } else {
                format!("add to hyprland.conf: `bind = {mods}, {key}, exec, {z} listen toggle`")
            }
        }
        Compositor::Gnome => format!(
            "Settings → Keyboard → View and Customise Shortcuts → Custom Shortcuts → +: command `{z} listen toggle`, shortcut {} (GNOME runs a command on the press only, so the key starts and then stops listening)",
            hotkey.shortcut
        ),
        Compositor::Kde => format!(
            "System Settings → Keyboard → Shortcuts → Add New → Command or Script: `{z} listen toggle` on {} (KDE runs a command on the press only, so the key starts and then stops listening)",
            hotkey.shortcut
        ),
        Compositor::Other(_) => format!(
            "bind {} in your compositor's settings to `{z} listen start` on press and `{z} listen stop` on release (or `{z} listen toggle` where it runs commands on press only)",
            hotkey.shortcut
        ),
    }
}

fn sway_modifier(m: &str) -> &'static str {
    match m.to_ascii_lowercase().as_str() {
        "ctrl" | "control" => "Ctrl",
        "alt" => "Mod1",
        "shift" => "Shift",
        "super" | "meta" | "cmd" | "win" => "Mod4",
        _ => "Mod3",
    }
}

fn hypr_modifier(m: &str) -> &'static str {
    match m.to_ascii_lowercase().as_str() {
        "ctrl" | "control" => "CTRL",
        "alt" => "ALT",
        "shift" => "SHIFT",
        "super" | "meta" | "cmd" | "win" => "SUPER",
        _ => "MOD3",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Env, Wayland};

    const KEY: Hotkey = Hotkey {
        shortcut: "Ctrl+Alt+Space",
        zeta: "/usr/bin/zeta",
        hold: true,
    };

    fn wayland(compositor: Compositor, globals: &[&str]) -> Session {
        Session {
            wayland: Some(Wayland {
                socket: "/run/user/1000/wayland-0".into(),
                compositor,
                globals: globals.iter().map(|s| s.to_string()).collect(),
                sway_socket: None,
            }),
            x11: Some(":0".into()),
            dbus: true,
        }
    }

    fn standing(session: &Session, c: Capability) -> Support {
        plan(session, &KEY)
            .into_iter()
            .find(|(k, _)| *k == c)
            .map(|(_, s)| s)
            .unwrap_or_else(|| panic!("no {c:?}"))
    }

    #[test]
    fn x11_works_through_its_own_extensions_and_no_display_says_so() {
        let x = Session::from_env(
            &Env {
                display: Some(":5".into()),
                ..Env::default()
            },
            true,
            |_| None,
        );
        for c in Capability::ALL {
            assert!(standing(&x, c).works(), "{c:?}: {:?}", standing(&x, c));
        }
        let none = Session::from_env(&Env::default(), false, |_| None);
        for c in Capability::ALL {
            assert!(
                matches!(standing(&none, c), Support::Cannot { .. }),
                "{c:?}"
            );
        }
    }

    #[test]
    fn wlroots_works_without_portals_and_binds_press_and_release() {
        let sway = wayland(
            Compositor::Sway,
            &[
                "zwlr_screencopy_manager_v1",
                "zwp_virtual_keyboard_manager_v1",
                "zwlr_virtual_pointer_manager_v1",
            ],
        );
        assert!(standing(&sway, Capability::Screen).works());
        assert!(standing(&sway, Capability::Input).works());
        assert!(standing(&sway, Capability::Tree).works());
        let Support::Bind { how } = standing(&sway, Capability::Hotkey) else {
            panic!("sway's hotkey is a binding");
        };
        assert!(
            how.contains("bindsym --no-repeat Ctrl+Mod1+space exec /usr/bin/zeta listen start")
                && how.contains("bindsym --release Ctrl+Mod1+space exec /usr/bin/zeta listen stop"),
            "{how}"
        );
    }

    #[test]
    fn gnome_and_kde_say_what_the_person_allows_and_what_is_missing() {
        for c in [Compositor::Gnome, Compositor::Kde] {
            let s = wayland(c.clone(), &["gtk_shell1"]);
            let Support::Allow { by, .. } = standing(&s, Capability::Screen) else {
                panic!("{c:?}: the screen through the Screenshot portal, allowed once");
            };
            assert!(by.contains("ScreenCast portal"), "{by}");
            let Support::Allow { by, ask } = standing(&s, Capability::Input) else {
                panic!("{c:?}: input through the RemoteDesktop portal, allowed once");
            };
            assert!(
                by.contains("RemoteDesktop portal") && ask.contains("asks once"),
                "{ask}"
            );
            let Support::Bind { how } = standing(&s, Capability::Hotkey) else {
                panic!("{c:?}: a binding");
            };
            assert!(how.contains("/usr/bin/zeta listen toggle"), "{how}");
        }
    }

    #[test]
    fn bindings_follow_the_shortcut_and_the_mode() {
        let toggle = Hotkey {
            shortcut: "Super+Shift+F9",
            hold: false,
            ..KEY
        };
        assert!(binding(&Compositor::Sway, &toggle)
            .contains("bindsym --no-repeat Mod4+Shift+f9 exec /usr/bin/zeta listen toggle"));
        let hypr = binding(&Compositor::Hyprland, &KEY);
        assert!(
            hypr.contains("bind = CTRL ALT, space, exec, /usr/bin/zeta listen start")
                && hypr.contains("bindr = CTRL ALT, space, exec, /usr/bin/zeta listen stop"),
            "{hypr}"
        );
        assert!(binding(&Compositor::Other("niri".into()), &KEY).contains("Ctrl+Alt+Space"));
    }
}
