//! Which window has the keyboard, and whether what is typed into it runs as a command (a
//! terminal). The keyboard tool's text aimed at a terminal is judged as the command line
//! it becomes: the line typed into that window since its last Enter, with this call's
//! text, so a command typed in pieces is judged whole.

use std::sync::Mutex;

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, Window};

/// The window with the keyboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focused {
    pub window: Window,
    /// WM_CLASS (instance and class, joined by a dot): `xterm.XTerm`.
    pub class: String,
}

/// Programs whose window runs what is typed into it, by WM_CLASS (any part, lower
/// case). Terminal emulators, by the name they give their windows.
const TERMINALS: &[&str] = &[
    "term",
    "konsole",
    "kitty",
    "alacritty",
    "tilix",
    "rxvt",
    "foot",
    "guake",
    "tilda",
    "yakuake",
    "sakura",
    "terminator",
    "terminology",
    "tabby",
    "hyper",
    "contour",
    "st-256color",
    "ghostty",
    "console",
];

/// Whether a window of this class runs what is typed into it.
pub fn runs_commands(class: &str) -> bool {
    let class = class.to_lowercase();
    TERMINALS.iter().any(|t| class.contains(t))
}

/// The window with the keyboard now: the window manager's active window, else the X
/// input focus, walked up to the window that names its program. `None` without X.
pub fn focused() -> Option<Focused> {
    let (conn, screen) = x11rb::connect(None).ok()?;
    let root = conn.setup().roots.get(screen)?.root;
    let active = conn
        .intern_atom(false, b"_NET_ACTIVE_WINDOW")
        .ok()?
        .reply()
        .ok()?
        .atom;
    let by_wm = conn
        .get_property(false, root, active, AtomEnum::WINDOW, 0, 1)
        .ok()?
        .reply()
        .ok()
        .and_then(|r| r.value32().and_then(|mut v| v.next()))
        .filter(|w| *w != 0);
    let mut window = match by_wm {
        Some(w) => w,
        None => conn.get_input_focus().ok()?.reply().ok()?.focus,
    };
    // 0 is None, 1 PointerRoot: no window has the keyboard.
    for _ in 0..16 {
        if window <= 1 || window == root {
            return None;
        }
        let class = conn
            .get_property(false, window, AtomEnum::WM_CLASS, AtomEnum::STRING, 0, 256)
            .ok()?
            .reply()
            .ok()
            .map(|r| {
                String::from_utf8_lossy(&r.value)
                    .split('\0')
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .unwrap_or_default();
        if !class.is_empty() {
            return Some(Focused { window, class });
        }
        window = conn.query_tree(window).ok()?.reply().ok()?.parent;
    }
    None
}

/// The line typed into a terminal window since its last Enter (window, text).
static TYPED: Mutex<Option<(Window, String)>> = Mutex::new(None);

/// What `window` would run if Enter were pressed after `text` is typed.
pub fn line_with(window: Window, text: &str) -> String {
    let typed = TYPED.lock().unwrap_or_else(|p| p.into_inner());
    let pending = match &*typed {
        Some((w, line)) if *w == window => line.as_str(),
        _ => "",
    };
    format!("{pending}{text}")
}

/// Records `text` typed into `window`, then `ends_line` (Enter, Ctrl+C, Ctrl+U): what a
/// later call would add to.
pub fn typed(window: Window, text: &str, ends_line: bool) {
    let mut typed = TYPED.lock().unwrap_or_else(|p| p.into_inner());
    let mut line = match typed.take() {
        Some((w, line)) if w == window => line,
        _ => String::new(),
    };
    line.push_str(text);
    if let Some(at) = line.rfind(['\n', '\r']) {
        line = line[at + 1..].to_string();
    }
    *typed = (!ends_line).then_some((window, line));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminals_are_known_by_their_class_and_lines_are_kept_per_window() {
        for class in [
            "xterm.XTerm",
            "gnome-terminal-server.Gnome-terminal",
            "konsole.konsole",
            "kitty.kitty",
            "Alacritty.Alacritty",
            "urxvt.URxvt",
        ] {
            assert!(runs_commands(class), "{class}");
        }
        for class in [
            "gedit.Gedit",
            "firefox.Firefox",
            "galculator.Galculator",
            "form_app.py.Form_app.py",
        ] {
            assert!(!runs_commands(class), "{class}");
        }
        typed(7, "rm -rf ", false);
        assert_eq!(line_with(7, "~"), "rm -rf ~");
        assert_eq!(line_with(8, "ls"), "ls", "another window has its own line");
        typed(7, "~", true);
        assert_eq!(line_with(7, "ls"), "ls", "Enter ended the line");
        typed(7, "echo a\nrm -rf ", false);
        assert_eq!(
            line_with(7, "/"),
            "rm -rf /",
            "a new line starts after a line break"
        );
        typed(7, "", true);
    }
}
