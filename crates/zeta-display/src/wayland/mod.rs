//! The Wayland wire: connecting to a compositor's socket by its path, the list of its
//! globals (which protocols it offers), and its outputs with their places in the layout.

pub mod screencopy;

use std::os::unix::net::UnixStream;
use std::path::Path;

use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::{wl_output, wl_registry};
use wayland_client::{Connection, Dispatch, QueueHandle, WEnum};

use crate::DisplayError;

/// wlroots' screen copy.
pub const SCREENCOPY: &str = "zwlr_screencopy_manager_v1";
/// The virtual keyboard (wlroots, and others that take it).
pub const VIRTUAL_KEYBOARD: &str = "zwp_virtual_keyboard_manager_v1";
/// wlroots' virtual pointer.
pub const VIRTUAL_POINTER: &str = "zwlr_virtual_pointer_manager_v1";

/// A connection to the compositor at `socket`.
pub fn connect(socket: &Path) -> Result<Connection, DisplayError> {
    let err = |reason: String| DisplayError::Connect {
        socket: socket.to_path_buf(),
        reason,
    };
    let stream = UnixStream::connect(socket).map_err(|e| err(e.to_string()))?;
    Connection::from_socket(stream).map_err(|e| err(e.to_string()))
}

/// The interfaces the compositor at `socket` offers.
pub fn globals(socket: &Path) -> Result<Vec<String>, DisplayError> {
    let conn = connect(socket)?;
    let (globals, _queue) =
        registry_queue_init::<Nothing>(&conn).map_err(|e| DisplayError::Protocol {
            doing: "listing its globals",
            reason: e.to_string(),
        })?;
    let mut names: Vec<String> = globals
        .contents()
        .clone_list()
        .into_iter()
        .map(|g| g.interface)
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// A state that takes no events (the globals are read from the registry's own list).
struct Nothing;

impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for Nothing {
    fn event(
        _: &mut Self,
        _: &wl_registry::WlRegistry,
        _: wl_registry::Event,
        _: &GlobalListContents,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

/// An output (a monitor) as the compositor describes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    /// Its name ("HEADLESS-1", "DP-1"), from output version 4.
    pub name: String,
    /// Its top-left corner in the layout.
    pub x: i32,
    pub y: i32,
    /// Its current mode, in pixels.
    pub pixel_width: i32,
    pub pixel_height: i32,
    /// Pixels per layout unit.
    pub scale: i32,
    /// Turned a quarter (width and height swap in the layout).
    pub turned: bool,
}

impl Output {
    /// Its size in the layout (screen pixels as the pointer counts them).
    pub fn layout_size(&self) -> (i32, i32) {
        let s = self.scale.max(1);
        let (w, h) = (self.pixel_width / s, self.pixel_height / s);
        if self.turned {
            (h, w)
        } else {
            (w, h)
        }
    }

    /// Folds one of its events in.
    pub(crate) fn update(&mut self, event: wl_output::Event) {
        match event {
            wl_output::Event::Geometry {
                x, y, transform, ..
            } => {
                self.x = x;
                self.y = y;
                self.turned = matches!(
                    transform,
                    WEnum::Value(
                        wl_output::Transform::_90
                            | wl_output::Transform::_270
                            | wl_output::Transform::Flipped90
                            | wl_output::Transform::Flipped270
                    )
                );
            }
            wl_output::Event::Mode {
                flags: WEnum::Value(flags),
                width,
                height,
                ..
            } if flags.contains(wl_output::Mode::Current) => {
                self.pixel_width = width;
                self.pixel_height = height;
            }
            wl_output::Event::Scale { factor } => self.scale = factor,
            wl_output::Event::Name { name } => self.name = name,
            _ => {}
        }
    }
}
