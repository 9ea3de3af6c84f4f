//! How reading or acting on the screen's elements failed, in words a person can act on.

use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum ElementsError {
    /// No DBus session, or no accessibility bus on it.
    #[error("the accessibility bus cannot be reached: {reason}. {hint}")]
    NoBus { reason: String, hint: &'static str },
    /// An application (or the registry) did not answer in time.
    #[error("{who} did not answer on the accessibility bus within {:.1} s", .waited.as_secs_f64())]
    Timeout { who: String, waited: Duration },
    /// A call on the bus failed.
    #[error("{what}: {reason}")]
    Bus { what: String, reason: String },
    #[error("{0}")]
    NoWindow(String),
    /// An element number that does not name a live element.
    #[error("{0}")]
    Stale(String),
    /// The element cannot do what was asked.
    #[error("{0}")]
    Unsupported(String),
    #[error("OCR failed: {0}")]
    Ocr(String),
    #[error("{0}")]
    Input(String),
}

/// What to do when no application shares its accessibility tree.
pub const ENABLE_HINT: &str =
    "Accessibility may be off: GTK apps share it when started under a DBus session with \
at-spi2-core installed (NO_AT_BRIDGE must not be 1); turn it on for all apps with \
`gsettings set org.gnome.desktop.interface toolkit-accessibility true`; Qt apps need \
QT_ACCESSIBILITY=1 (QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 for older Qt); Chromium and \
Electron apps need --force-renderer-accessibility";

pub const BUS_HINT: &str =
    "Install at-spi2-core and run inside a desktop session (DBUS_SESSION_BUS_ADDRESS set); \
until then, ui_outline can read a window by OCR (source \"ocr\")";
