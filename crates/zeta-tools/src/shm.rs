//! The screen through MIT-SHM: the X server writes the frame straight into memory shared
//! with Zeta (a memfd handed over once), so a capture is one request and no pixels cross
//! the socket. The connection and the segment are kept between captures and made again
//! when the screen's size changes or a capture fails. Pixels come as the server keeps
//! them: BGRX on the little-endian, 24/32-bit displays this supports; anything else (no
//! X, Wayland, another depth, no MIT-SHM 1.2) is an error the caller answers by capturing
//! the slower way.

use std::sync::Mutex;

use memmap2::MmapMut;
use x11rb::connection::Connection;
use x11rb::protocol::shm::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, ImageOrder, Window};
use x11rb::rust_connection::RustConnection;

/// A capture's pixels, 4 bytes each in B, G, R, X order, row after row.
pub struct Frame {
    pub bgrx: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

struct Segment {
    conn: RustConnection,
    root: Window,
    seg: shm::Seg,
    map: MmapMut,
    /// The screen's size the segment was made for.
    size: (u16, u16),
}

impl Drop for Segment {
    fn drop(&mut self) {
        let _ = self.conn.shm_detach(self.seg);
        let _ = self.conn.flush();
    }
}

static SEGMENT: Mutex<Option<Segment>> = Mutex::new(None);

fn open() -> Result<Segment, String> {
    let (conn, screen) = x11rb::connect(None).map_err(|e| format!("no X display: {e}"))?;
    let setup = conn.setup();
    if setup.image_byte_order != ImageOrder::LSB_FIRST {
        return Err("the X server sends pixels big-endian".into());
    }
    let s = setup.roots.get(screen).ok_or("no X screen")?;
    let (root, width, height, depth) =
        (s.root, s.width_in_pixels, s.height_in_pixels, s.root_depth);
    let bpp = setup
        .pixmap_formats
        .iter()
        .find(|f| f.depth == depth)
        .map(|f| f.bits_per_pixel);
    if !matches!(depth, 24 | 32) || bpp != Some(32) {
        return Err(format!(
            "the screen is {depth}-bit ({bpp:?} bits a pixel), not 24/32"
        ));
    }
    let version = conn
        .shm_query_version()
        .map_err(|e| format!("MIT-SHM: {e}"))?
        .reply()
        .map_err(|e| format!("MIT-SHM is not available: {e}"))?;
    if (version.major_version, version.minor_version) < (1, 2) {
        return Err("MIT-SHM is older than 1.2 (no file descriptors)".into());
    }
    let len = width as usize * height as usize * 4;
    let fd = nix::sys::memfd::memfd_create(c"zeta-screen", nix::sys::memfd::MFdFlags::MFD_CLOEXEC)
        .map_err(|e| format!("memfd: {e}"))?;
    let file = std::fs::File::from(fd);
    file.set_len(len as u64)
        .map_err(|e| format!("memfd size: {e}"))?;
    // SAFETY: the memory is a memfd only this process and the X server hold; the server
    // writes it only while a GetImage we wait for is in flight, and we read it after.
    let map = unsafe { MmapMut::map_mut(&file) }.map_err(|e| format!("mmap: {e}"))?;
    let theirs = file.try_clone().map_err(|e| format!("dup: {e}"))?;
    let seg = conn.generate_id().map_err(|e| format!("X id: {e}"))?;
    conn.shm_attach_fd(seg, std::os::fd::OwnedFd::from(theirs), false)
        .map_err(|e| format!("MIT-SHM attach: {e}"))?
        .check()
        .map_err(|e| format!("MIT-SHM attach refused: {e}"))?;
    Ok(Segment {
        conn,
        root,
        seg,
        map,
        size: (width, height),
    })
}

/// The screen's rectangle (`x`, `y`, `width`, `height` in screen pixels; the whole screen
/// when `None`), captured now. Blocking.
pub fn capture(rect: Option<(i32, i32, u32, u32)>) -> Result<Frame, String> {
    with_frame(rect, |bgrx, width, height| Frame {
        bgrx: bgrx.to_vec(),
        width,
        height,
    })
}

/// Captures like [`capture`] and hands `use_it` the pixels where the server wrote them
/// (no copy), with their width and height. Blocking.
pub fn with_frame<T>(
    rect: Option<(i32, i32, u32, u32)>,
    use_it: impl FnOnce(&[u8], u32, u32) -> T,
) -> Result<T, String> {
    let mut slot = SEGMENT.lock().unwrap_or_else(|p| p.into_inner());
    if slot.is_none() {
        *slot = Some(open()?);
    }
    let seg = slot.as_mut().ok_or("no segment")?;
    match grab(seg, rect) {
        Ok((w, h)) => {
            let len = w as usize * h as usize * 4;
            let pixels = seg
                .map
                .get(..len)
                .ok_or("the frame is larger than the segment")?;
            Ok(use_it(pixels, w, h))
        }
        Err(e) => {
            // The display went away or changed: start afresh next time.
            *slot = None;
            Err(e)
        }
    }
}

fn grab(seg: &mut Segment, rect: Option<(i32, i32, u32, u32)>) -> Result<(u32, u32), String> {
    let geometry = seg
        .conn
        .get_geometry(seg.root)
        .map_err(|e| format!("X: {e}"))?
        .reply()
        .map_err(|e| format!("X: {e}"))?;
    if (geometry.width, geometry.height) != seg.size {
        return Err("the screen changed size".into());
    }
    let (x, y, w, h) = rect.unwrap_or((0, 0, geometry.width as u32, geometry.height as u32));
    let fits = x >= 0
        && y >= 0
        && w > 0
        && h > 0
        && x as u32 + w <= seg.size.0 as u32
        && y as u32 + h <= seg.size.1 as u32;
    if !fits {
        return Err(format!(
            "{w}x{h} at ({x}, {y}) is not on the {}x{} screen",
            seg.size.0, seg.size.1
        ));
    }
    seg.conn
        .shm_get_image(
            seg.root,
            x as i16,
            y as i16,
            w as u16,
            h as u16,
            !0,
            ImageFormat::Z_PIXMAP.into(),
            seg.seg,
            0,
        )
        .map_err(|e| format!("X: {e}"))?
        .reply()
        .map_err(|e| format!("capture failed: {e}"))?;
    Ok((w, h))
}
