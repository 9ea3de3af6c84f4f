//! The session the screen, input and window tools act in (X11, or Wayland and its
//! compositor), detected once per process, and why a capability cannot work in it.

use std::sync::OnceLock;

use zeta_display::support::{standing, Capability, Hotkey, Support};
use zeta_display::Session;

/// This process's session.
pub fn current() -> &'static Session {
    static SESSION: OnceLock<Session> = OnceLock::new();
    SESSION.get_or_init(Session::detect)
}

/// Why `capability` cannot work in this session and what to use instead, when it cannot.
pub fn cannot(capability: Capability) -> Option<String> {
    match standing(capability, current(), &Hotkey::DEFAULT) {
        Support::Cannot { why, instead } => Some(format!("{why}; instead: {instead}")),
        Support::Works { .. } | Support::Allow { .. } | Support::Bind { .. } => None,
    }
}
