//! The screen on wlroots compositors (sway, Hyprland, river, labwc…), through their screen
//! copy protocol: the compositor copies an output (or a part of it) into shared memory
//! Zeta hands it, with no portal and nothing for the person to allow. Frames come out as
//! RGBA with the output's place in the layout, for the `screenshot` tool's usual path.

use std::fs::File;
use std::os::fd::AsFd;
use std::path::Path;

use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::{wl_buffer, wl_output, wl_registry, wl_shm, wl_shm_pool};
use wayland_client::{delegate_noop, Connection, Dispatch, EventQueue, QueueHandle, WEnum};
use wayland_protocols_wlr::screencopy::v1::client::{
    zwlr_screencopy_frame_v1 as frame, zwlr_screencopy_manager_v1 as manager,
};

use super::Output;
use crate::DisplayError;

/// One output's pixels.
#[derive(Debug, Clone)]
pub struct Frame {
    pub output: Output,
    /// Four bytes a pixel: red, green, blue, alpha (opaque).
    pub rgba: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Where the frame's top-left corner is in the layout.
    pub origin: (i32, i32),
}

/// A part of one output, in layout units relative to the output's corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

#[derive(Default)]
struct State {
    outputs: Vec<Output>,
    /// The frame being copied: its buffer's shape when told, then how it ended.
    shape: Option<Shape>,
    y_invert: bool,
    ended: Option<Result<(), String>>,
}

#[derive(Debug, Clone, Copy)]
struct Shape {
    format: WEnum<wl_shm::Format>,
    width: u32,
    height: u32,
    stride: u32,
}

/// A connection with the screen copy and shared memory bound and the outputs known.
pub struct Screen {
    queue: EventQueue<State>,
    state: State,
    shm: wl_shm::WlShm,
    manager: manager::ZwlrScreencopyManagerV1,
    wl_outputs: Vec<wl_output::WlOutput>,
}

impl Screen {
    /// Connects to the compositor at `socket`; fails when it has no screen copy.
    pub fn open(socket: &Path) -> Result<Screen, DisplayError> {
        let conn = super::connect(socket)?;
        let protocol = |doing: &'static str| {
            move |e: &dyn std::fmt::Display| DisplayError::Protocol {
                doing,
                reason: e.to_string(),
            }
        };
        let (globals, mut queue) =
            registry_queue_init::<State>(&conn).map_err(|e| protocol("listing its globals")(&e))?;
        let qh = queue.handle();
        let shm: wl_shm::WlShm =
            globals
                .bind(&qh, 1..=1, ())
                .map_err(|_| DisplayError::Missing {
                    interface: "wl_shm",
                    what: "shared memory",
                })?;
        let manager: manager::ZwlrScreencopyManagerV1 =
            globals
                .bind(&qh, 1..=3, ())
                .map_err(|_| DisplayError::Missing {
                    interface: super::SCREENCOPY,
                    what: "the wlroots screen copy",
                })?;
        let mut state = State::default();
        let mut wl_outputs = Vec::new();
        for g in globals.contents().clone_list() {
            if g.interface == "wl_output" {
                let index = wl_outputs.len();
                state.outputs.push(Output::default());
                wl_outputs.push(globals.registry().bind::<wl_output::WlOutput, _, _>(
                    g.name,
                    g.version.min(4),
                    &qh,
                    index,
                ));
            }
        }
        // One round for the binds, one for the outputs' events.
        for _ in 0..2 {
            queue
                .roundtrip(&mut state)
                .map_err(|e| protocol("describing its outputs")(&e))?;
        }
        Ok(Screen {
            queue,
            state,
            shm,
            manager,
            wl_outputs,
        })
    }

    pub fn outputs(&self) -> &[Output] {
        &self.state.outputs
    }

    /// Copies output `index` whole, or `part` of it.
    pub fn copy(&mut self, index: usize, part: Option<Part>) -> Result<Frame, DisplayError> {
        let output = self
            .state
            .outputs
            .get(index)
            .cloned()
            .ok_or_else(|| DisplayError::Copy {
                output: index.to_string(),
                reason: format!("there are {} outputs", self.state.outputs.len()),
            })?;
        let Some(wl) = self.wl_outputs.get(index) else {
            return Err(DisplayError::Copy {
                output: output.name.clone(),
                reason: "it is gone".into(),
            });
        };
        let copy_err = |reason: String| DisplayError::Copy {
            output: output.name.clone(),
            reason,
        };
        let qh = self.queue.handle();
        self.state.shape = None;
        self.state.ended = None;
        self.state.y_invert = false;
        let frame = match part {
            None => self.manager.capture_output(0, wl, &qh, ()),
            Some(p) => {
                self.manager
                    .capture_output_region(0, wl, p.x, p.y, p.width, p.height, &qh, ())
            }
        };
        // The buffer's shape comes at once (and, from version 3, "buffer done").
        self.queue
            .roundtrip(&mut self.state)
            .map_err(|e| copy_err(e.to_string()))?;
        let shape = match (self.state.shape, self.state.ended.take()) {
            (_, Some(Err(e))) => return Err(copy_err(e)),
            (Some(shape), _) => shape,
            (None, _) => return Err(copy_err("no buffer shape was offered".into())),
        };
        let result = self.copy_into(&frame, shape, &qh);
        frame.destroy();
        let rgba = result.map_err(copy_err)?;
        let origin = (
            output.x + part.map_or(0, |p| p.x),
            output.y + part.map_or(0, |p| p.y),
        );
        Ok(Frame {
            output,
            rgba,
            width: shape.width,
            height: shape.height,
            origin,
        })
    }

    fn copy_into(
        &mut self,
        frame: &frame::ZwlrScreencopyFrameV1,
        shape: Shape,
        qh: &QueueHandle<State>,
    ) -> Result<Vec<u8>, String> {
        let order = match shape.format {
            WEnum::Value(wl_shm::Format::Argb8888 | wl_shm::Format::Xrgb8888) => Order::Bgra,
            WEnum::Value(wl_shm::Format::Abgr8888 | wl_shm::Format::Xbgr8888) => Order::Rgba,
            other => {
                return Err(format!(
                    "it offered pixel format {other:?}, which Zeta does not read"
                ))
            }
        };
        let size = shape.stride as usize * shape.height as usize;
        let file = tempfile::tempfile().map_err(|e| format!("shared memory: {e}"))?;
        file.set_len(size as u64)
            .map_err(|e| format!("shared memory of {size} bytes: {e}"))?;
        let pool = self.shm.create_pool(file.as_fd(), size as i32, qh, ());
        let format = match shape.format {
            WEnum::Value(f) => f,
            WEnum::Unknown(n) => return Err(format!("unknown pixel format {n}")),
        };
        let buffer = pool.create_buffer(
            0,
            shape.width as i32,
            shape.height as i32,
            shape.stride as i32,
            format,
            qh,
            (),
        );
        frame.copy(&buffer);
        let ended = loop {
            if let Some(ended) = self.state.ended.take() {
                break ended;
            }
            if let Err(e) = self.queue.blocking_dispatch(&mut self.state) {
                break Err(e.to_string());
            }
        };
        buffer.destroy();
        pool.destroy();
        ended?;
        let pixels = read_all(&file, size)?;
        Ok(to_rgba(&pixels, shape, order, self.state.y_invert))
    }
}

/// Copies every output, or output `index` alone.
pub fn capture(socket: &Path, index: Option<usize>) -> Result<Vec<Frame>, DisplayError> {
    let mut screen = Screen::open(socket)?;
    match index {
        Some(i) => Ok(vec![screen.copy(i, None)?]),
        None => (0..screen.outputs().len())
            .map(|i| screen.copy(i, None))
            .collect(),
    }
}

fn read_all(file: &File, size: usize) -> Result<Vec<u8>, String> {
    // SAFETY: the file is this process's own unlinked temporary file; the compositor has
    // finished writing it (the frame is ready) and nothing else maps it.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| format!("mmap: {e}"))?;
    map.get(..size)
        .map(<[u8]>::to_vec)
        .ok_or_else(|| format!("the shared memory holds {} bytes, not {size}", map.len()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Little-endian ARGB/XRGB: blue, green, red, alpha in memory.
    Bgra,
    Rgba,
}

fn to_rgba(pixels: &[u8], shape: Shape, order: Order, y_invert: bool) -> Vec<u8> {
    let (w, h, stride) = (
        shape.width as usize,
        shape.height as usize,
        shape.stride as usize,
    );
    let mut out = Vec::with_capacity(w * h * 4);
    for row in 0..h {
        let src = if y_invert { h - 1 - row } else { row };
        let Some(line) = pixels.get(src * stride..src * stride + w * 4) else {
            break;
        };
        for px in line.chunks_exact(4) {
            match order {
                Order::Bgra => out.extend_from_slice(&[px[2], px[1], px[0], 255]),
                Order::Rgba => out.extend_from_slice(&[px[0], px[1], px[2], 255]),
            }
        }
    }
    out
}

impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for State {
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

impl Dispatch<wl_output::WlOutput, usize> for State {
    fn event(
        state: &mut Self,
        _: &wl_output::WlOutput,
        event: wl_output::Event,
        index: &usize,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let Some(o) = state.outputs.get_mut(*index) {
            o.update(event);
        }
    }
}

impl Dispatch<frame::ZwlrScreencopyFrameV1, ()> for State {
    fn event(
        state: &mut Self,
        _: &frame::ZwlrScreencopyFrameV1,
        event: frame::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match event {
            frame::Event::Buffer {
                format,
                width,
                height,
                stride,
            } => {
                state.shape = Some(Shape {
                    format,
                    width,
                    height,
                    stride,
                })
            }
            frame::Event::Flags { flags } => {
                state.y_invert =
                    matches!(flags, WEnum::Value(f) if f.contains(frame::Flags::YInvert));
            }
            frame::Event::Ready { .. } => state.ended = Some(Ok(())),
            frame::Event::Failed => {
                state.ended = Some(Err("the compositor said the copy failed".into()))
            }
            _ => {}
        }
    }
}

delegate_noop!(State: ignore wl_shm::WlShm);
delegate_noop!(State: ignore wl_buffer::WlBuffer);
delegate_noop!(State: wl_shm_pool::WlShmPool);
delegate_noop!(State: manager::ZwlrScreencopyManagerV1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_turn_to_rgba_skipping_the_stride_and_flipping_when_told() {
        // Two rows of one pixel each, stride 8 (4 bytes of padding a row).
        let pixels = [
            1, 2, 3, 0, 9, 9, 9, 9, //
            4, 5, 6, 0, 9, 9, 9, 9,
        ];
        let shape = Shape {
            format: WEnum::Value(wl_shm::Format::Xrgb8888),
            width: 1,
            height: 2,
            stride: 8,
        };
        assert_eq!(
            to_rgba(&pixels, shape, Order::Bgra, false),
            vec![3, 2, 1, 255, 6, 5, 4, 255]
        );
        assert_eq!(
            to_rgba(&pixels, shape, Order::Rgba, true),
            vec![4, 5, 6, 255, 1, 2, 3, 255]
        );
        // A buffer shorter than its shape says stops at what it holds.
        assert_eq!(to_rgba(&pixels[..8], shape, Order::Rgba, false).len(), 4);
    }
}
