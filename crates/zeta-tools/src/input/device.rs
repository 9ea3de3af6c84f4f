//! The keyboard and pointer the input tools drive, in this session: enigo (XTest on X11;
//! the virtual keyboard and pointer on wlroots compositors, and nothing through XWayland,
//! which would reach X11 windows alone and twice), or on GNOME and KDE the desktop's
//! RemoteDesktop portal, which asks the person once and keeps their answer in a restore
//! token. The methods are enigo's, so the tools read the same whichever is underneath.

use std::path::{Path, PathBuf};

use enigo::{Axis, Button, Coordinate, Direction, Enigo, Key, Keyboard, Mouse, Settings};
use zeta_display::portal::remote::{self, keysym, Remote, Tokens};

/// An X display name no X server has (it does not parse).
const NO_X11: &str = "zeta-wayland-only:none";

pub enum Device {
    Enigo(Box<Enigo>),
    /// The RemoteDesktop portal's session, driven from a blocking thread on the runtime
    /// its connection lives on.
    Portal {
        remote: Box<Remote>,
        runtime: tokio::runtime::Handle,
    },
}

impl Device {
    /// The device for this session; `tokens` keeps the portal's restore token.
    /// Blocking: call from a blocking thread of a tokio runtime.
    pub fn connect(tokens: Option<&Path>) -> Result<Device, String> {
        let session = crate::session::current();
        let Some(wayland) = &session.wayland else {
            return Enigo::new(&Settings::default())
                .map(|e| Device::Enigo(Box::new(e)))
                .map_err(|e| format!("cannot reach the display for input (is DISPLAY set?): {e}"));
        };
        if wayland.virtual_input() {
            let settings = Settings {
                wayland_display: Some(wayland.socket.display().to_string()),
                // Not through XWayland as well: an X display name that cannot parse leaves
                // enigo with its Wayland connection alone.
                x11_display: Some(NO_X11.into()),
                ..Settings::default()
            };
            return Enigo::new(&settings)
                .map(|e| Device::Enigo(Box::new(e)))
                .map_err(|e| format!("cannot reach the Wayland compositor for input: {e}"));
        }
        if let Some(why) = crate::session::cannot(zeta_display::support::Capability::Input) {
            return Err(why);
        }
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| "the desktop's portal is reached from Zeta's runtime only".to_string())?;
        let tokens = Tokens::at(
            tokens.map_or_else(|| PathBuf::from("/dev/null/no-token"), Path::to_path_buf),
        );
        let started = runtime.block_on(async {
            let conn = zeta_display::portal::connect(None).await?;
            remote::start(conn, &tokens, zeta_display::portal::ASK_LIMIT).await
        });
        let remote = started.map_err(|e| {
            format!(
                "{e} (keys and clicks on {} go through it)",
                wayland.compositor.name()
            )
        })?;
        Ok(Device::Portal {
            remote: Box::new(remote),
            runtime,
        })
    }

    /// Whether the pointer's place can be read back (X11 only: Wayland tells no client).
    pub fn tells_pointer(&self) -> bool {
        matches!(self, Device::Enigo(_)) && !crate::session::current().is_wayland()
    }

    pub fn move_mouse(&mut self, x: i32, y: i32, coordinate: Coordinate) -> Result<(), String> {
        match self {
            Device::Enigo(e) => e.move_mouse(x, y, coordinate).map_err(|e| e.to_string()),
            Device::Portal { remote, runtime } => match coordinate {
                Coordinate::Abs => runtime
                    .block_on(remote.move_to(x, y))
                    .map_err(|e| e.to_string()),
                Coordinate::Rel => {
                    Err("the portal moves the pointer to places, not by steps".into())
                }
            },
        }
    }

    pub fn button(&mut self, button: Button, direction: Direction) -> Result<(), String> {
        match self {
            Device::Enigo(e) => e.button(button, direction).map_err(|e| e.to_string()),
            Device::Portal { remote, runtime } => {
                let b = match button {
                    Button::Left => remote::Button::Left,
                    Button::Right => remote::Button::Right,
                    Button::Middle => remote::Button::Middle,
                    other => return Err(format!("the portal has no {other:?} button")),
                };
                runtime
                    .block_on(async {
                        for &down in edges(direction) {
                            remote.button(b, down).await?;
                        }
                        Ok::<(), zeta_display::DisplayError>(())
                    })
                    .map_err(|e| e.to_string())
            }
        }
    }

    pub fn key(&mut self, key: Key, direction: Direction) -> Result<(), String> {
        match self {
            Device::Enigo(e) => e.key(key, direction).map_err(|e| e.to_string()),
            Device::Portal { remote, runtime } => {
                let sym = keysym_of(key)?;
                runtime
                    .block_on(async {
                        for &down in edges(direction) {
                            remote.key(sym, down).await?;
                        }
                        Ok::<(), zeta_display::DisplayError>(())
                    })
                    .map_err(|e| e.to_string())
            }
        }
    }

    pub fn text(&mut self, text: &str) -> Result<(), String> {
        match self {
            Device::Enigo(e) => e.text(text).map_err(|e| e.to_string()),
            Device::Portal { remote, runtime } => runtime
                .block_on(remote.type_text(text))
                .map_err(|e| e.to_string()),
        }
    }

    pub fn scroll(&mut self, length: i32, axis: Axis) -> Result<(), String> {
        match self {
            Device::Enigo(e) => e.scroll(length, axis).map_err(|e| e.to_string()),
            Device::Portal { remote, runtime } => runtime
                .block_on(remote.scroll(length, axis == Axis::Horizontal))
                .map_err(|e| e.to_string()),
        }
    }

    /// The screen's size.
    pub fn main_display(&self) -> Result<(i32, i32), String> {
        match self {
            Device::Enigo(e) => e.main_display().map_err(|e| e.to_string()),
            Device::Portal { remote, .. } => remote
                .screen
                .map(|s| (s.width, s.height))
                .ok_or_else(|| "the desktop shared no screen".into()),
        }
    }

    /// Where the pointer is (X11 only).
    pub fn location(&self) -> Result<(i32, i32), String> {
        match self {
            Device::Enigo(e) => e.location().map_err(|e| e.to_string()),
            Device::Portal { .. } => Err("the desktop does not tell where the pointer is".into()),
        }
    }
}

/// The edges a direction sends: down, up, or both (a click).
fn edges(direction: Direction) -> &'static [bool] {
    match direction {
        Direction::Press => &[true],
        Direction::Release => &[false],
        Direction::Click => &[true, false],
    }
}

/// The X keysym of an enigo key, for the portal.
fn keysym_of(key: Key) -> Result<u32, String> {
    Ok(match key {
        Key::Unicode(c) => keysym(c),
        Key::Control => 0xffe3,
        Key::Shift => 0xffe1,
        Key::Alt => 0xffe9,
        Key::Meta => 0xffeb,
        Key::Return => 0xff0d,
        Key::Tab => 0xff09,
        Key::Escape => 0xff1b,
        Key::Backspace => 0xff08,
        Key::Delete => 0xffff,
        Key::Space => 0x20,
        Key::Home => 0xff50,
        Key::LeftArrow => 0xff51,
        Key::UpArrow => 0xff52,
        Key::RightArrow => 0xff53,
        Key::DownArrow => 0xff54,
        Key::PageUp => 0xff55,
        Key::PageDown => 0xff56,
        Key::End => 0xff57,
        Key::F1 => 0xffbe,
        Key::F2 => 0xffbf,
        Key::F3 => 0xffc0,
        Key::F4 => 0xffc1,
        Key::F5 => 0xffc2,
        Key::F6 => 0xffc3,
        Key::F7 => 0xffc4,
        Key::F8 => 0xffc5,
        Key::F9 => 0xffc6,
        Key::F10 => 0xffc7,
        Key::F11 => 0xffc8,
        Key::F12 => 0xffc9,
        other => {
            return Err(format!(
                "the key {other:?} cannot be sent through the desktop's portal"
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_their_keysyms() {
        assert_eq!(keysym_of(Key::Unicode('a')), Ok(0x61));
        assert_eq!(keysym_of(Key::Return), Ok(0xff0d));
        assert_eq!(keysym_of(Key::F12), Ok(0xffc9));
        assert!(keysym_of(Key::CapsLock).is_err());
    }
}
