//! Keys and clicks through the RemoteDesktop portal (GNOME, KDE): one session with the
//! keyboard, the pointer and the screen's stream (pointer positions are given in it). The
//! person is asked once: the portal's restore token is kept in an owner-only file and
//! handed back on the next start, and the new token it returns replaces it every time
//! (tokens are single-use). A "no" forgets the token.

use std::time::Duration;

use ashpd::desktop::remote_desktop::{
    Axis, DeviceType, KeyState, RemoteDesktop, SelectDevicesOptions, StartOptions,
};
use ashpd::desktop::screencast::{Screencast, SelectSourcesOptions, SourceType};
use ashpd::desktop::{CreateSessionOptions, PersistMode, Session};

pub use super::tokens::Tokens;
use super::{within, CALL_LIMIT};
use crate::DisplayError;

const PORTAL: &str = "RemoteDesktop";

/// The pointer's buttons, as Linux input codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    Left = 0x110,
    Right = 0x111,
    Middle = 0x112,
}

/// The shared screen: its stream and place in the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub node: u32,
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

/// A started remote-desktop session.
pub struct Remote {
    /// The portal keeps what the person allowed (restore tokens, version 2 and later).
    pub remembers: bool,
    portal: RemoteDesktop,
    session: Session<RemoteDesktop>,
    /// The screen pointer positions are given in (none when the desktop shared none).
    pub screen: Option<Screen>,
}

/// Starts a session on the portal at `conn`, asking the person (within `ask_limit`)
/// unless the kept token still holds.
pub async fn start(
    conn: ashpd::zbus::Connection,
    tokens: &Tokens,
    ask_limit: Duration,
) -> Result<Remote, DisplayError> {
    let portal = within(
        PORTAL,
        "connecting",
        CALL_LIMIT,
        RemoteDesktop::with_connection(conn.clone()),
    )
    .await?;
    let cast = within(
        "ScreenCast",
        "connecting",
        CALL_LIMIT,
        Screencast::with_connection(conn),
    )
    .await?;
    let session = within(
        PORTAL,
        "creating a session",
        CALL_LIMIT,
        portal.create_session(CreateSessionOptions::default()),
    )
    .await?;
    // Restore tokens came with version 2 of the portal (xdg-desktop-portal 1.17): before,
    // the person is asked on every start.
    let remembers = portal.version() >= 2;
    let kept = tokens.load().filter(|_| remembers);
    let mut devices =
        SelectDevicesOptions::default().set_devices(DeviceType::Keyboard | DeviceType::Pointer);
    if remembers {
        devices = devices
            .set_persist_mode(PersistMode::ExplicitlyRevoked)
            .set_restore_token(kept.as_deref());
    }
    within(
        PORTAL,
        "choosing the keyboard and pointer",
        CALL_LIMIT,
        async { portal.select_devices(&session, devices).await?.response() },
    )
    .await?;
    let sources = SelectSourcesOptions::default()
        .set_sources(ashpd::enumflags2::BitFlags::from(SourceType::Monitor))
        .set_multiple(false);
    within("ScreenCast", "choosing the screen", CALL_LIMIT, async {
        cast.select_sources(&session, sources).await?.response()
    })
    .await?;
    let started = within(
        PORTAL,
        "asking to control the keyboard and pointer",
        ask_limit,
        async {
            portal
                .start(&session, None, StartOptions::default())
                .await?
                .response()
        },
    )
    .await;
    let selected = tokens.settle(started, |s| s.restore_token())?;
    let screen = selected.streams().first().map(|s| {
        let (x, y) = s.position().unwrap_or((0, 0));
        let (width, height) = s.size().unwrap_or((0, 0));
        Screen {
            node: s.pipe_wire_node_id(),
            x,
            y,
            width,
            height,
        }
    });
    Ok(Remote {
        remembers,
        portal,
        session,
        screen,
    })
}

impl Remote {
    /// Presses (`down`) or releases the key of X keysym `keysym`.
    pub async fn key(&self, keysym: u32, down: bool) -> Result<(), DisplayError> {
        let state = key_state(down);
        within(
            PORTAL,
            "sending a key",
            CALL_LIMIT,
            self.portal.notify_keyboard_keysym(
                &self.session,
                keysym as i32,
                state,
                Default::default(),
            ),
        )
        .await
    }

    /// Types `text`, a key press and release a character.
    pub async fn type_text(&self, text: &str) -> Result<(), DisplayError> {
        for c in text.chars() {
            let sym = keysym(c);
            self.key(sym, true).await?;
            self.key(sym, false).await?;
        }
        Ok(())
    }

    /// Moves the pointer to (x, y) of the layout.
    pub async fn move_to(&self, x: i32, y: i32) -> Result<(), DisplayError> {
        let Some(s) = self.screen else {
            return Err(DisplayError::Portal {
                portal: PORTAL,
                doing: "moving the pointer",
                reason: "the desktop shared no screen to place the pointer on".into(),
            });
        };
        within(
            PORTAL,
            "moving the pointer",
            CALL_LIMIT,
            self.portal.notify_pointer_motion_absolute(
                &self.session,
                s.node,
                f64::from(x - s.x),
                f64::from(y - s.y),
                Default::default(),
            ),
        )
        .await
    }

    /// Presses (`down`) or releases `button`.
    pub async fn button(&self, button: Button, down: bool) -> Result<(), DisplayError> {
        let state = key_state(down);
        within(
            PORTAL,
            "sending a click",
            CALL_LIMIT,
            self.portal.notify_pointer_button(
                &self.session,
                button as i32,
                state,
                Default::default(),
            ),
        )
        .await
    }

    /// Scrolls `steps` notches (down or right when positive).
    pub async fn scroll(&self, steps: i32, horizontal: bool) -> Result<(), DisplayError> {
        let axis = if horizontal {
            Axis::Horizontal
        } else {
            Axis::Vertical
        };
        within(
            PORTAL,
            "scrolling",
            CALL_LIMIT,
            self.portal.notify_pointer_axis_discrete(
                &self.session,
                axis,
                steps,
                Default::default(),
            ),
        )
        .await
    }

    /// Ends the session.
    pub async fn close(self) {
        let _ = tokio::time::timeout(CALL_LIMIT, self.session.close()).await;
    }
}

fn key_state(down: bool) -> KeyState {
    if down {
        KeyState::Pressed
    } else {
        KeyState::Released
    }
}

/// The X keysym that types `c`: Latin-1 is its own code, a few controls have theirs, the
/// rest of Unicode is 0x01000000 + its code point.
pub fn keysym(c: char) -> u32 {
    match c {
        '\n' | '\r' => 0xff0d,
        '\t' => 0xff09,
        '\u{8}' => 0xff08,
        ' '..='~' | '\u{a0}'..='\u{ff}' => c as u32,
        _ => 0x0100_0000 + c as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_become_keysyms() {
        assert_eq!(keysym('a'), 0x61);
        assert_eq!(keysym('A'), 0x41);
        assert_eq!(keysym('é'), 0xe9);
        assert_eq!(keysym('\n'), 0xff0d);
        assert_eq!(keysym('€'), 0x0100_20ac);
        assert_eq!(keysym('я'), 0x0100_044f);
    }
}
