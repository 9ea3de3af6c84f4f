//! The screenshot pipeline at 1280x800: capture (MIT-SHM, and xcap side by side) →
//! downscale (fast_image_resize) → encode (libjpeg-turbo / PNG; jpeg-encoder, the encoder
//! before, side by side), timed stage by stage, with
//! the bytes that would be sent.
//!
//! Run under X (e.g. `Xvfb :99 -screen 0 1280x800x24 & DISPLAY=:99 cargo bench -p zeta-tools
//! --bench screenshot`). It fills the screen with a busy, photo-like image first (ImageMagick
//! plasma), so JPEG sizes and times are not those of a black screen.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Child, Command};
use std::time::Duration;

use zeta_core::settings::{ImageFormat, ScreenshotSettings};
use zeta_tools::screen::{take, Target};

const RUNS: usize = 150;

struct Shown(Child);
impl Drop for Shown {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

fn run(label: &str, settings: &ScreenshotSettings) {
    let mut capture = Vec::new();
    let mut downscale = Vec::new();
    let mut encode = Vec::new();
    let mut total = Vec::new();
    let mut bytes = Vec::new();
    let mut size = (0, 0);
    for _ in 0..RUNS {
        let shot = match take(Target::All, settings) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("screenshot failed: {e}");
                std::process::exit(1);
            }
        };
        capture.push(shot.capture);
        downscale.push(shot.downscale);
        encode.push(shot.encode);
        total.push(shot.capture + shot.downscale + shot.encode);
        bytes.push(shot.bytes.len());
        size = (shot.mapping.image_width, shot.mapping.image_height);
    }
    bytes.sort();
    println!(
        "{label:<38} capture {:>5.1} ms  downscale {:>5.1} ms  encode {:>5.1} ms  total {:>5.1} ms (median of {RUNS})  sent {}x{} {} KB",
        median(capture), median(downscale), median(encode), median(total), size.0, size.1, bytes[bytes.len() / 2] / 1024
    );
}

fn main() {
    if std::env::var_os("DISPLAY").is_none() {
        eprintln!("screenshot bench: DISPLAY is not set; start Xvfb first (see the doc comment)");
        std::process::exit(1);
    }
    let dir = std::env::temp_dir().join(format!("zeta-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let picture = dir.join("plasma.png");
    let made = Command::new("convert")
        .args(["-size", "1280x800", "plasma:fractal"])
        .arg(&picture)
        .status();
    let _shown = match made {
        Ok(s) if s.success() => Command::new("display")
            .args(["-geometry", "+0+0"])
            .arg(&picture)
            .spawn()
            .ok()
            .map(Shown),
        _ => {
            eprintln!("(ImageMagick not available: measuring whatever is on screen)");
            None
        }
    };
    std::thread::sleep(Duration::from_millis(1500));
    let jpeg = |max_side, quality| ScreenshotSettings {
        max_side,
        format: ImageFormat::Jpeg,
        quality,
        after_action: false,
    };
    // Warm up: the first frames pay for connecting, the segment and the caches.
    for _ in 0..20 {
        let _ = take(Target::All, &jpeg(1024, 80));
    }
    // The capture before MIT-SHM (xcap: a GetImage whose pixels cross the socket), side by
    // side, before and after.
    for _ in 0..2 {
        run("JPEG q80, 1024, MIT-SHM", &jpeg(1024, 80));
        std::env::set_var("ZETA_NO_SHM", "1");
        run("JPEG q80, 1024, xcap", &jpeg(1024, 80));
        std::env::remove_var("ZETA_NO_SHM");
    }
    run("JPEG q80, 1280 (no resize), MIT-SHM", &jpeg(1280, 80));
    run(
        "PNG (fast), longest side 1024",
        &ScreenshotSettings {
            max_side: 1024,
            format: ImageFormat::Png,
            quality: 80,
            after_action: false,
        },
    );
    encoders();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same 1024x640 frame (the screen, downscaled) encoded at q80 by jpeg-encoder (AVX2,
/// the encoder before) and libjpeg-turbo (now), side by side.
fn encoders() {
    let shot = zeta_tools::screen::capture(Target::All).expect("capture");
    let rgba = match shot.order {
        zeta_tools::screen::Order::Rgba => shot.rgba,
        zeta_tools::screen::Order::Bgrx => zeta_tools::screen::to_rgba(&shot.rgba),
    };
    let full = image::RgbaImage::from_raw(shot.width, shot.height, rgba).expect("frame");
    let small = image::imageops::resize(&full, 1024, 640, image::imageops::FilterType::Triangle);
    let (w, h) = (small.width(), small.height());
    let mut old = Vec::new();
    let mut new = Vec::new();
    let mut sizes = (0, 0);
    let mut tj = turbojpeg::Compressor::new().expect("turbojpeg");
    tj.set_quality(80);
    tj.set_subsamp(turbojpeg::Subsamp::Sub2x2);
    for _ in 0..RUNS {
        let t = std::time::Instant::now();
        let mut out = Vec::new();
        jpeg_encoder::Encoder::new(&mut out, 80)
            .encode(
                small.as_raw(),
                w as u16,
                h as u16,
                jpeg_encoder::ColorType::Rgba,
            )
            .expect("jpeg-encoder");
        old.push(t.elapsed());
        sizes.0 = out.len();
        let t = std::time::Instant::now();
        let image = turbojpeg::Image {
            pixels: small.as_raw().as_slice(),
            width: w as usize,
            pitch: w as usize * 4,
            height: h as usize,
            format: turbojpeg::PixelFormat::RGBA,
        };
        let out = tj.compress_to_vec(image).expect("turbojpeg");
        new.push(t.elapsed());
        sizes.1 = out.len();
    }
    println!(
        "encode 1024x640 q80 (median of {RUNS}): jpeg-encoder {:.1} ms ({} KB), libjpeg-turbo {:.1} ms ({} KB)",
        median(old),
        sizes.0 / 1024,
        median(new),
        sizes.1 / 1024
    );
}
