//! The `screenshot` tool and its pipeline: capture (MIT-SHM, or xcap) → downscale keeping the aspect
//! ratio (fast_image_resize) → encode (libjpeg-turbo through `turbojpeg`, or PNG) → send as an image. The
//! mapping from image pixels back to screen pixels is kept in `ScreenState`, so the mouse
//! tool can take coordinates in the image the model saw.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};
use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::{ImageData, ToolSpec};
use zeta_core::settings::{ImageFormat, ScreenshotSettings};
use zeta_core::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

/// How image pixels map to screen pixels: screen = origin + image / scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mapping {
    pub origin_x: i32,
    pub origin_y: i32,
    /// Sent pixels per screen pixel (≤ 1 when downscaled).
    pub scale: f64,
    pub image_width: u32,
    pub image_height: u32,
}

impl Mapping {
    /// The screen point for an image point, or why it cannot be one.
    pub fn to_screen(&self, x: f64, y: f64) -> Result<(i32, i32), String> {
        if !(0.0..self.image_width as f64).contains(&x)
            || !(0.0..self.image_height as f64).contains(&y)
        {
            return Err(format!(
                "({x}, {y}) is outside the last screenshot, which is {}x{} pixels",
                self.image_width, self.image_height
            ));
        }
        Ok((
            self.origin_x + (x / self.scale).round() as i32,
            self.origin_y + (y / self.scale).round() as i32,
        ))
    }
}

/// The last screenshot's mapping, shared by the screen and input tools.
#[derive(Clone, Default)]
pub struct ScreenState(Arc<Mutex<Option<Mapping>>>);

impl ScreenState {
    pub fn get(&self) -> Option<Mapping> {
        self.0.lock().ok().and_then(|m| *m)
    }
    fn set(&self, mapping: Mapping) {
        if let Ok(mut m) = self.0.lock() {
            *m = Some(mapping);
        }
    }
}

/// What to capture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// Every monitor, as one image of the virtual screen.
    All,
    Monitor(usize),
    /// A rectangle in screen pixels.
    Region {
        x: i32,
        y: i32,
        width: u32,
        height: u32,
    },
}

/// One encoded screenshot and where its time went.
pub struct Shot {
    pub bytes: Vec<u8>,
    pub media_type: &'static str,
    pub mapping: Mapping,
    pub screen_width: u32,
    pub screen_height: u32,
    pub capture: Duration,
    pub downscale: Duration,
    pub encode: Duration,
}

/// The order of a captured pixel's four bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Rgba,
    /// As the X server keeps them (MIT-SHM): blue, green, red, unused.
    Bgrx,
}

/// Pixels captured from the screen, full size.
pub struct Captured {
    /// Four bytes a pixel, in `order`.
    pub rgba: Vec<u8>,
    pub order: Order,
    pub width: u32,
    pub height: u32,
    /// Where the image's top-left corner is on the screen.
    pub origin: (i32, i32),
    /// Captured pixels per screen pixel (HiDPI).
    pub density: f64,
}

/// The part of the screen MIT-SHM can capture for `target`: `Some(None)` the whole
/// screen, `Some(Some(rect))` a rectangle; `None` when it cannot (a monitor by number, or
/// ZETA_NO_SHM set).
fn shm_rect(target: Target) -> Option<Option<(i32, i32, u32, u32)>> {
    if std::env::var_os("ZETA_NO_SHM").is_some() {
        return None;
    }
    match target {
        Target::All => Some(None),
        Target::Region {
            x,
            y,
            width,
            height,
        } => Some(Some((x, y, width, height))),
        Target::Monitor(_) => None,
    }
}

/// Captures `target` at full size: on Wayland through the compositor (see
/// [`capture_wayland`]); on X11 through MIT-SHM when the server offers it (the whole screen
/// or a rectangle), else through xcap. Blocking: call from a blocking thread.
pub fn capture(target: Target) -> Result<Captured, String> {
    if let Some(wayland) = &crate::session::current().wayland {
        return capture_wayland(wayland, target);
    }
    if let Some(rect) = shm_rect(target) {
        match crate::shm::capture(rect) {
            Ok(frame) => {
                return Ok(Captured {
                    rgba: frame.bgrx,
                    order: Order::Bgrx,
                    width: frame.width,
                    height: frame.height,
                    origin: rect.map_or((0, 0), |(x, y, _, _)| (x, y)),
                    density: 1.0,
                })
            }
            Err(e) => tracing::debug!("MIT-SHM capture failed, using xcap: {e}"),
        }
    }
    capture_xcap(target)
}

fn capture_xcap(target: Target) -> Result<Captured, String> {
    let monitors = xcap::Monitor::all()
        .map_err(|e| format!("cannot list monitors (is there a display?): {e}"))?;
    if monitors.is_empty() {
        return Err("no monitor found".into());
    }
    let geometry = |m: &xcap::Monitor| -> Result<(i32, i32, u32, u32), String> {
        let err = |e: xcap::XCapError| format!("monitor geometry: {e}");
        Ok((
            m.x().map_err(err)?,
            m.y().map_err(err)?,
            m.width().map_err(err)?,
            m.height().map_err(err)?,
        ))
    };
    let grab = |m: &xcap::Monitor| -> Result<(image::RgbaImage, Geometry), String> {
        let g = geometry(m)?;
        let img = m
            .capture_image()
            .map_err(|e| format!("capture failed: {e}"))?;
        Ok((img, g))
    };
    match target {
        Target::Monitor(i) => {
            let m = monitors
                .get(i)
                .ok_or_else(|| format!("there is no monitor {i}; there are {}", monitors.len()))?;
            let (img, g) = grab(m)?;
            Ok(single(img, g))
        }
        Target::All => Ok(compose(
            monitors.iter().map(grab).collect::<Result<Vec<_>, _>>()?,
        )),
        Target::Region {
            x,
            y,
            width,
            height,
        } => {
            let m = xcap::Monitor::from_point(x, y)
                .map_err(|e| format!("no monitor at ({x}, {y}): {e}"))?;
            let (mx, my, mw, mh) = geometry(&m)?;
            if x + width as i32 > mx + mw as i32
                || y + height as i32 > my + mh as i32
                || width == 0
                || height == 0
            {
                return Err(format!(
                    "region {width}x{height} at ({x}, {y}) does not fit on the monitor at ({mx}, {my}) of {mw}x{mh}"
                ));
            }
            let img = m
                .capture_region((x - mx) as u32, (y - my) as u32, width, height)
                .map_err(|e| format!("capture failed: {e}"))?;
            Ok(Captured {
                order: Order::Rgba,
                density: img.width() as f64 / width as f64,
                width: img.width(),
                height: img.height(),
                origin: (x, y),
                rgba: img.into_raw(),
            })
        }
    }
}

/// A monitor's place and size in the layout: x, y, width, height.
type Geometry = (i32, i32, u32, u32);

/// One monitor's image at its place.
fn single(img: image::RgbaImage, (x, y, w, _h): Geometry) -> Captured {
    Captured {
        order: Order::Rgba,
        density: img.width() as f64 / w.max(1) as f64,
        width: img.width(),
        height: img.height(),
        origin: (x, y),
        rgba: img.into_raw(),
    }
}

/// Monitors' images as one image of the layout (one monitor as it is).
fn compose(mut shots: Vec<(image::RgbaImage, Geometry)>) -> Captured {
    if shots.len() == 1 {
        let (img, g) = shots.remove(0);
        return single(img, g);
    }
    let min_x = shots.iter().map(|(_, g)| g.0).min().unwrap_or(0);
    let min_y = shots.iter().map(|(_, g)| g.1).min().unwrap_or(0);
    let max_x = shots
        .iter()
        .map(|(_, g)| g.0 + g.2 as i32)
        .max()
        .unwrap_or(0);
    let max_y = shots
        .iter()
        .map(|(_, g)| g.1 + g.3 as i32)
        .max()
        .unwrap_or(0);
    let mut canvas = image::RgbaImage::new((max_x - min_x) as u32, (max_y - min_y) as u32);
    for (img, g) in &shots {
        // Monitors of another density are scaled to screen pixels first.
        let img = if img.width() != g.2 {
            image::imageops::resize(img, g.2, g.3, image::imageops::FilterType::Triangle)
        } else {
            img.clone()
        };
        image::imageops::overlay(
            &mut canvas,
            &img,
            (g.0 - min_x) as i64,
            (g.1 - min_y) as i64,
        );
    }
    Captured {
        order: Order::Rgba,
        width: canvas.width(),
        height: canvas.height(),
        origin: (min_x, min_y),
        density: 1.0,
        rgba: canvas.into_raw(),
    }
}

/// Captures `target` on a Wayland compositor: through the wlroots screen copy where it
/// offers one, through the desktop's portals on GNOME and KDE (ScreenCast over PipeWire,
/// else Screenshot), else an error that says what is missing and what to use instead.
fn capture_wayland(
    wayland: &zeta_display::session::Wayland,
    target: Target,
) -> Result<Captured, String> {
    if let Some(why) = crate::session::cannot(zeta_display::support::Capability::Screen) {
        return Err(why);
    }
    let shots = if wayland.screencopy() {
        copied(wayland, target)?
    } else {
        vec![from_portal()?]
    };
    if shots.is_empty() {
        return Err("the compositor has no output to copy".into());
    }
    let whole = compose(shots);
    let Target::Region {
        x,
        y,
        width,
        height,
    } = target
    else {
        return Ok(whole);
    };
    let (ox, oy) = whole.origin;
    let d = whole.density;
    let inside = x >= ox
        && y >= oy
        && width > 0
        && height > 0
        && ((x - ox) as f64 + width as f64) * d <= whole.width as f64
        && ((y - oy) as f64 + height as f64) * d <= whole.height as f64;
    if !inside {
        return Err(format!(
            "region {width}x{height} at ({x}, {y}) is not inside the screen at ({ox}, {oy})"
        ));
    }
    let img = image::RgbaImage::from_raw(whole.width, whole.height, whole.rgba)
        .ok_or("the screen copy is short")?;
    let part = image::imageops::crop_imm(
        &img,
        ((x - ox) as f64 * d) as u32,
        ((y - oy) as f64 * d) as u32,
        (width as f64 * d) as u32,
        (height as f64 * d) as u32,
    )
    .to_image();
    Ok(Captured {
        order: Order::Rgba,
        width: part.width(),
        height: part.height(),
        origin: (x, y),
        density: d,
        rgba: part.into_raw(),
    })
}

/// The outputs' frames by the wlroots screen copy (monitor `i`, or all).
fn copied(
    wayland: &zeta_display::session::Wayland,
    target: Target,
) -> Result<Vec<(image::RgbaImage, Geometry)>, String> {
    let index = match target {
        Target::Monitor(i) => Some(i),
        Target::All | Target::Region { .. } => None,
    };
    let frames = zeta_display::wayland::screencopy::capture(&wayland.socket, index)
        .map_err(|e| e.to_string())?;
    frames
        .into_iter()
        .map(|f| {
            let (w, h) = f.output.layout_size();
            let g = (f.origin.0, f.origin.1, w.max(1) as u32, h.max(1) as u32);
            image::RgbaImage::from_raw(f.width, f.height, f.rgba)
                .map(|img| (img, g))
                .ok_or_else(|| format!("output {} gave a short frame", f.output.name))
        })
        .collect()
}

/// The whole screen through the desktop's portals: a frame of the ScreenCast session
/// (kept open; the person chooses the screen once, the choice kept in
/// `$ZETA_HOME/portal/screen-cast.token`), else the Screenshot portal's picture. Blocking:
/// call from a blocking thread of Zeta's runtime.
fn from_portal() -> Result<(image::RgbaImage, Geometry), String> {
    let runtime = tokio::runtime::Handle::try_current()
        .map_err(|_| "the desktop's portal is reached from Zeta's runtime only".to_string())?;
    let picture = match cast_frame(&runtime) {
        Ok(p) => p,
        Err(cast) => {
            tracing::debug!(
                "no frame from the ScreenCast portal ({cast}); asking the Screenshot portal"
            );
            runtime
                .block_on(async {
                    let conn = zeta_display::portal::connect(None).await?;
                    zeta_display::portal::screenshot::take(conn, zeta_display::portal::ASK_LIMIT)
                        .await
                })
                .map_err(|e| format!("{e} (and the ScreenCast portal: {cast})"))?
        }
    };
    let (w, h) = (picture.width, picture.height);
    image::RgbaImage::from_raw(w, h, picture.rgba)
        .map(|img| (img, (0, 0, w, h)))
        .ok_or_else(|| "the desktop's screen picture is short".to_string())
}

/// The ScreenCast session, kept between screenshots (dropped after a failure).
static CAST: std::sync::Mutex<Option<zeta_display::portal::screencast::Cast>> =
    std::sync::Mutex::new(None);

fn cast_frame(
    runtime: &tokio::runtime::Handle,
) -> Result<zeta_display::portal::screenshot::Picture, String> {
    let mut slot = CAST.lock().unwrap_or_else(|p| p.into_inner());
    if slot.is_none() {
        let tokens = zeta_display::portal::remote::Tokens::at(
            zeta_protocol::home::ZetaHome::root_from_env()
                .unwrap_or_else(|| std::path::PathBuf::from("/nonexistent"))
                .join("portal")
                .join("screen-cast.token"),
        );
        let cast = runtime
            .block_on(async {
                let conn = zeta_display::portal::connect(None).await?;
                zeta_display::portal::screencast::start(
                    conn,
                    &tokens,
                    zeta_display::portal::ASK_LIMIT,
                )
                .await
            })
            .map_err(|e| e.to_string())?;
        *slot = Some(cast);
    }
    let Some(cast) = slot.as_ref() else {
        return Err("no screen-cast session".into());
    };
    let frame = cast
        .frame(Duration::from_secs(5))
        .map_err(|e| e.to_string());
    if frame.is_err() {
        *slot = None;
    }
    frame
}

/// Fits `width`x`height` within `max_side`, keeping the aspect ratio (never upscales).
pub fn fit(width: u32, height: u32, max_side: u32) -> (u32, u32) {
    let longest = width.max(height);
    if longest <= max_side {
        return (width, height);
    }
    let s = max_side as f64 / longest as f64;
    (
        ((width as f64 * s).round() as u32).max(1),
        ((height as f64 * s).round() as u32).max(1),
    )
}

fn downscale(rgba: &[u8], width: u32, height: u32, to: (u32, u32)) -> Result<Vec<u8>, String> {
    if to == (width, height) {
        return Ok(rgba.to_vec());
    }
    let src =
        ImageRef::new(width, height, rgba, PixelType::U8x4).map_err(|e| format!("resize: {e}"))?;
    let mut dst = Image::new(to.0, to.1, PixelType::U8x4);
    // Screenshots are opaque: skip the alpha premultiply and divide passes.
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Bilinear))
        .use_alpha(false);
    Resizer::new()
        .resize(&src, &mut dst, &options)
        .map_err(|e| format!("resize: {e}"))?;
    Ok(dst.into_vec())
}

thread_local! {
    /// One libjpeg-turbo compressor a thread, made on first use.
    static JPEG: std::cell::RefCell<Option<turbojpeg::Compressor>> = const { std::cell::RefCell::new(None) };
}

fn encode(
    rgba: &[u8],
    order: Order,
    width: u32,
    height: u32,
    settings: &ScreenshotSettings,
) -> Result<(Vec<u8>, &'static str), String> {
    let mut out = Vec::new();
    match settings.format {
        ImageFormat::Jpeg => {
            let format = match order {
                Order::Rgba => turbojpeg::PixelFormat::RGBA,
                Order::Bgrx => turbojpeg::PixelFormat::BGRX,
            };
            let image = turbojpeg::Image {
                pixels: rgba,
                width: width as usize,
                pitch: width as usize * 4,
                height: height as usize,
                format,
            };
            let quality = settings.quality.clamp(1, 100) as i32;
            let bytes = JPEG.with(|slot| -> Result<Vec<u8>, String> {
                let mut slot = slot.borrow_mut();
                if slot.is_none() {
                    *slot = Some(
                        turbojpeg::Compressor::new().map_err(|e| format!("JPEG encoder: {e}"))?,
                    );
                }
                let c = slot.as_mut().ok_or("no JPEG encoder")?;
                c.set_quality(quality);
                // Colour at half resolution below quality 90, as is usual for JPEG.
                c.set_subsamp(if quality < 90 {
                    turbojpeg::Subsamp::Sub2x2
                } else {
                    turbojpeg::Subsamp::None
                });
                c.compress_to_vec(image)
                    .map_err(|e| format!("JPEG encode: {e}"))
            })?;
            Ok((bytes, "image/jpeg"))
        }
        ImageFormat::Png => {
            use image::ImageEncoder;
            let swapped;
            let rgba = match order {
                Order::Rgba => rgba,
                Order::Bgrx => {
                    swapped = to_rgba(rgba);
                    &swapped[..]
                }
            };
            image::codecs::png::PngEncoder::new_with_quality(
                &mut out,
                image::codecs::png::CompressionType::Fast,
                image::codecs::png::FilterType::Sub,
            )
            .write_image(rgba, width, height, image::ExtendedColorType::Rgba8)
            .map_err(|e| format!("PNG encode: {e}"))?;
            Ok((out, "image/png"))
        }
    }
}

/// BGRX pixels as opaque RGBA.
pub fn to_rgba(bgrx: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bgrx.len());
    for p in bgrx.chunks_exact(4) {
        out.extend_from_slice(&[p[2], p[1], p[0], 255]);
    }
    out
}

/// Full-size pixels, downscaled to fit `max_side`, and where their time went.
struct Scaled {
    pixels: Vec<u8>,
    order: Order,
    size: (u32, u32),
    /// The capture's size, origin and density.
    captured: (u32, u32),
    origin: (i32, i32),
    density: f64,
    capture: Duration,
    downscale: Duration,
}

/// Captures and downscales; through MIT-SHM the pixels are downscaled where the server
/// wrote them, with no copy.
fn capture_scaled(target: Target, max_side: u32) -> Result<Scaled, String> {
    let t0 = Instant::now();
    if let Some(wayland) = &crate::session::current().wayland {
        let c = capture_wayland(wayland, target)?;
        return scaled(c, max_side, t0.elapsed());
    }
    if let Some(rect) = shm_rect(target) {
        let scaled = crate::shm::with_frame(rect, |bgrx, width, height| {
            let t1 = Instant::now();
            let to = fit(width, height, max_side);
            downscale(bgrx, width, height, to).map(|pixels| Scaled {
                pixels,
                order: Order::Bgrx,
                size: to,
                captured: (width, height),
                origin: rect.map_or((0, 0), |(x, y, _, _)| (x, y)),
                density: 1.0,
                capture: t1 - t0,
                downscale: t1.elapsed(),
            })
        });
        match scaled {
            Ok(done) => return done,
            Err(e) => tracing::debug!("MIT-SHM capture failed, using xcap: {e}"),
        }
    }
    let c = capture_xcap(target)?;
    scaled(c, max_side, t0.elapsed())
}

/// A capture downscaled to fit `max_side`; `capture` is what capturing took.
fn scaled(c: Captured, max_side: u32, capture: Duration) -> Result<Scaled, String> {
    let t1 = Instant::now();
    let to = fit(c.width, c.height, max_side);
    let pixels = if to == (c.width, c.height) {
        c.rgba
    } else {
        downscale(&c.rgba, c.width, c.height, to)?
    };
    Ok(Scaled {
        pixels,
        order: c.order,
        size: to,
        captured: (c.width, c.height),
        origin: c.origin,
        density: c.density,
        capture,
        downscale: t1.elapsed(),
    })
}

/// The rest of the pipeline for pixels already captured (and perhaps drawn on): downscale
/// to fit and encode, with the mapping back to the screen. Blocking.
pub fn finish(c: Captured, settings: &ScreenshotSettings) -> Result<Shot, String> {
    encoded(scaled(c, settings.max_side, Duration::ZERO)?, settings)
}

/// The whole pipeline, timed. Blocking: call from a blocking thread.
pub fn take(target: Target, settings: &ScreenshotSettings) -> Result<Shot, String> {
    encoded(capture_scaled(target, settings.max_side)?, settings)
}

/// Encodes scaled pixels into a shot with its mapping back to the screen.
fn encoded(s: Scaled, settings: &ScreenshotSettings) -> Result<Shot, String> {
    let t2 = Instant::now();
    let (bytes, media_type) = encode(&s.pixels, s.order, s.size.0, s.size.1, settings)?;
    let encode_time = t2.elapsed();
    let screen_width = (s.captured.0 as f64 / s.density).round() as u32;
    let screen_height = (s.captured.1 as f64 / s.density).round() as u32;
    Ok(Shot {
        bytes,
        media_type,
        mapping: Mapping {
            origin_x: s.origin.0,
            origin_y: s.origin.1,
            scale: s.size.0 as f64 / screen_width.max(1) as f64,
            image_width: s.size.0,
            image_height: s.size.1,
        },
        screen_width,
        screen_height,
        capture: s.capture,
        downscale: s.downscale,
        encode: encode_time,
    })
}

/// Takes a screenshot, records its mapping and words the result for the model.
pub async fn screenshot_output(
    target: Target,
    state: &ScreenState,
    ctx: &ToolContext,
) -> ToolOutput {
    let settings = ctx.screenshot.clone();
    let shot = match tokio::task::spawn_blocking(move || take(target, &settings)).await {
        Ok(Ok(shot)) => shot,
        Ok(Err(e)) => return ToolOutput::error(format!("screenshot: {e}")),
        Err(e) => return ToolOutput::error(format!("screenshot: the capture thread failed: {e}")),
    };
    state.set(shot.mapping);
    let m = shot.mapping;
    let what = match target {
        Target::All => "the whole screen".to_string(),
        Target::Monitor(i) => format!("monitor {i}"),
        Target::Region { .. } => "a region".to_string(),
    };
    let summary = format!(
        "screenshot {}x{} ({} KB)",
        m.image_width,
        m.image_height,
        shot.bytes.len() / 1024
    );
    if !ctx.images_supported {
        return ToolOutput::ok(
            format!(
                "Took a screenshot of {what} ({}x{} screen pixels), but this model cannot see images. \
                 Read a window's buttons, fields and text with ui_outline instead (and act on \
                 them with ui_act), or use other tools (shell commands, files).",
                shot.screen_width, shot.screen_height
            ),
            summary,
        );
    }
    let text = format!(
        "Screenshot of {what}: {}x{} screen pixels at ({}, {}), sent as a {}x{} image (scale {:.3}). \
         Give mouse coordinates in this image's pixels; they are mapped back to the screen.",
        shot.screen_width, shot.screen_height, m.origin_x, m.origin_y, m.image_width, m.image_height, m.scale
    );
    ToolOutput {
        ok: true,
        content: text,
        summary,
        images: vec![ImageData {
            media_type: shot.media_type.to_string(),
            base64: base64::engine::general_purpose::STANDARD.encode(&shot.bytes),
        }],
        read_back: None,
        shows: None,
    }
}

pub struct Screenshot(pub ScreenState);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    monitor: Option<usize>,
    region: Option<Region>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Region {
    x: i32,
    y: i32,
    width: u32,
    height: u32,
}

impl Tool for Screenshot {
    fn target(&self, arguments: &Value) -> String {
        match arguments.get("monitor").and_then(Value::as_u64) {
            Some(m) => format!("monitor {m}"),
            None if arguments.get("width").is_some() => "a region of the screen".into(),
            None => "the screen".into(),
        }
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "screenshot".into(),
            description: "See the screen: the whole screen (default), one monitor, or a region in screen pixels.".into(),
            parameters: json!({"type": "object", "properties": {
                "monitor": {"type": "integer", "minimum": 0},
                "region": {"type": "object", "properties": {
                    "x": {"type": "integer"}, "y": {"type": "integer"},
                    "width": {"type": "integer", "minimum": 1}, "height": {"type": "integer", "minimum": 1}
                }, "required": ["x", "y", "width", "height"], "additionalProperties": false}
            }, "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("screenshot: bad arguments: {e}")),
            };
            let target = match (args.monitor, args.region) {
                (Some(_), Some(_)) => {
                    return ToolOutput::error("screenshot: give a monitor or a region, not both")
                }
                (Some(i), None) => Target::Monitor(i),
                (None, Some(r)) => Target::Region {
                    x: r.x,
                    y: r.y,
                    width: r.width,
                    height: r.height,
                },
                (None, None) => Target::All,
            };
            screenshot_output(target, &self.0, ctx).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_keeps_the_aspect_ratio_and_never_upscales() {
        assert_eq!(fit(1280, 800, 1024), (1024, 640));
        assert_eq!(fit(800, 1280, 640), (400, 640));
        assert_eq!(fit(1280, 800, 2000), (1280, 800));
    }

    #[test]
    fn mapping_scales_back_and_refuses_points_outside() {
        let m = Mapping {
            origin_x: 100,
            origin_y: 0,
            scale: 0.5,
            image_width: 640,
            image_height: 400,
        };
        assert_eq!(m.to_screen(10.0, 20.0), Ok((120, 40)));
        assert!(m.to_screen(640.0, 10.0).is_err());
        assert!(m.to_screen(-1.0, 10.0).is_err());
    }
}
