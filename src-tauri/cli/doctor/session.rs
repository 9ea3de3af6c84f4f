//! The doctor's session lines: which display server this is (X11, or Wayland and its
//! compositor), and per capability (the screen, keys and clicks) what it works through
//! there, or why it cannot and what to use instead.

use zeta_display::support::{standing, Capability, Hotkey, Support};

use super::{check, Check, Level};

pub(super) fn session() -> Check {
    let session = zeta_tools::session::current();
    let level = if session.wayland.is_some() || session.x11.is_some() {
        Level::Ok
    } else {
        Level::Warn
    };
    let fix = (level == Level::Warn).then_some(
        "the CLI works without one; the app and the screen, mouse and keyboard tools need a desktop session (X11, Xvfb or Wayland)",
    );
    check("session", level, session.describe(), fix)
}

/// The screen's and input's lines (the tree has its own, the hotkey too).
pub(super) fn capabilities() -> Vec<Check> {
    let session = zeta_tools::session::current();
    [(Capability::Screen, "screen"), (Capability::Input, "input")]
        .into_iter()
        .map(|(c, name)| match standing(c, session, &Hotkey::DEFAULT) {
            Support::Works { by } => check(name, Level::Ok, by, None),
            Support::Allow { by, ask } => check(name, Level::Ok, by, Some(&ask)),
            Support::Bind { how } => check(name, Level::Warn, "bind it", Some(&how)),
            Support::Cannot { why, instead } => check(name, Level::Warn, why, Some(&instead)),
        })
        .collect()
}
