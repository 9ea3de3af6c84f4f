//! Push-to-talk through the GlobalShortcuts portal (KDE Plasma ≥ 5.27, GNOME ≥ 48,
//! Hyprland): one shortcut, bound once with the person's consent, whose press and release
//! come back as edges while its session lives.

use ashpd::desktop::global_shortcuts::{BindShortcutsOptions, GlobalShortcuts, NewShortcut};
use ashpd::desktop::{CreateSessionOptions, Session};
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::{within, ASK_LIMIT, CALL_LIMIT};
use crate::DisplayError;

const PORTAL: &str = "GlobalShortcuts";
/// The shortcut's id in Zeta's session.
pub const PUSH_TO_TALK: &str = "push-to-talk";

/// A key going down or coming up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Pressed,
    Released,
}

/// The bound shortcut: its edges until it is closed (or dropped).
pub struct Bound {
    /// What the desktop says triggers it ("Ctrl+Alt+Space"), as it describes it.
    pub trigger: String,
    pub edges: mpsc::UnboundedReceiver<Edge>,
    session: Session<GlobalShortcuts>,
    forward: tokio::task::JoinHandle<()>,
}

impl Bound {
    /// Ends the portal session (the desktop forgets the binding for now).
    pub async fn close(self) {
        self.forward.abort();
        let _ = tokio::time::timeout(CALL_LIMIT, self.session.close()).await;
    }
}

impl Drop for Bound {
    fn drop(&mut self) {
        self.forward.abort();
    }
}

/// Zeta's shortcut ("Ctrl+Alt+Space") in the XDG shortcuts form ("CTRL+ALT+space").
pub fn trigger(shortcut: &str) -> String {
    let parts: Vec<&str> = shortcut
        .split('+')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let Some((key, mods)) = parts.split_last() else {
        return String::new();
    };
    let mods = mods.iter().map(|m| match m.to_ascii_lowercase().as_str() {
        "ctrl" | "control" => "CTRL".to_string(),
        "alt" => "ALT".into(),
        "shift" => "SHIFT".into(),
        "super" | "meta" | "cmd" | "win" | "logo" => "LOGO".into(),
        other => other.to_ascii_uppercase(),
    });
    let key = match key.to_ascii_lowercase().as_str() {
        "space" => "space".to_string(),
        "enter" | "return" => "Return".into(),
        "esc" | "escape" => "Escape".into(),
        "tab" => "Tab".into(),
        k if k.len() == 1 => k.to_string(),
        k if k.starts_with('f') && k[1..].parse::<u8>().is_ok() => k.to_ascii_uppercase(),
        _ => key.to_string(),
    };
    mods.chain(std::iter::once(key))
        .collect::<Vec<_>>()
        .join("+")
}

/// Binds push-to-talk to `shortcut` (Zeta's form) on the portal at `conn`: the desktop
/// may show the person a dialog to confirm or change the key, answered within
/// [`ASK_LIMIT`].
pub async fn bind(conn: ashpd::zbus::Connection, shortcut: &str) -> Result<Bound, DisplayError> {
    bind_within(conn, shortcut, ASK_LIMIT).await
}

/// [`bind`], waiting `ask_limit` for the person.
pub async fn bind_within(
    conn: ashpd::zbus::Connection,
    shortcut: &str,
    ask_limit: std::time::Duration,
) -> Result<Bound, DisplayError> {
    let portal = within(
        PORTAL,
        "connecting",
        CALL_LIMIT,
        GlobalShortcuts::with_connection(conn),
    )
    .await?;
    let session = within(
        PORTAL,
        "creating a session",
        CALL_LIMIT,
        portal.create_session(CreateSessionOptions::default()),
    )
    .await?;
    // Listened to before binding, so no edge is missed.
    let pressed = within(PORTAL, "listening", CALL_LIMIT, portal.receive_activated()).await?;
    let released = within(
        PORTAL,
        "listening",
        CALL_LIMIT,
        portal.receive_deactivated(),
    )
    .await?;
    let wanted = NewShortcut::new(PUSH_TO_TALK, "Hold to talk to Zeta")
        .preferred_trigger(Some(trigger(shortcut).as_str()));
    let request = within(
        PORTAL,
        "binding the push-to-talk key",
        ask_limit,
        portal.bind_shortcuts(&session, &[wanted], None, BindShortcutsOptions::default()),
    )
    .await?;
    let bound = request
        .response()
        .map_err(|e| super::error(PORTAL, "binding the push-to-talk key", e))?;
    let Some(ours) = bound.shortcuts().iter().find(|s| s.id() == PUSH_TO_TALK) else {
        return Err(DisplayError::Refused {
            portal: PORTAL,
            doing: "binding the push-to-talk key",
        });
    };
    let trigger = ours.trigger_description().to_string();
    // The portal sends a session's signals to its owner alone, and this connection holds
    // one session: the shortcut's id tells ours.
    let (send, edges) = mpsc::unbounded_channel();
    let pressed = pressed
        .filter(|a| std::future::ready(a.shortcut_id() == PUSH_TO_TALK))
        .map(|_| Edge::Pressed);
    let released = released
        .filter(|d| std::future::ready(d.shortcut_id() == PUSH_TO_TALK))
        .map(|_| Edge::Released);
    let forward = tokio::spawn(async move {
        let mut both = futures_util::stream::select(pressed, released);
        while let Some(edge) = both.next().await {
            if send.send(edge).is_err() {
                break;
            }
        }
    });
    Ok(Bound {
        trigger,
        edges,
        session,
        forward,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeta_shortcuts_become_xdg_triggers() {
        for (ours, xdg) in [
            ("Ctrl+Alt+Space", "CTRL+ALT+space"),
            ("Super+Shift+F9", "LOGO+SHIFT+F9"),
            ("ctrl + k", "CTRL+k"),
            ("Alt+Enter", "ALT+Return"),
            ("", ""),
        ] {
            assert_eq!(trigger(ours), xdg, "{ours}");
        }
    }
}
