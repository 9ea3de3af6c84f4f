//! The screenshot pipeline at 1280x800: capture (xcap) → downscale (fast_image_resize) →
//! encode (jpeg-encoder / PNG), timed stage by stage, with the bytes that would be sent.
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

const RUNS: usize = 60;

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
        "{label:<34} capture {:>5.1} ms  downscale {:>5.1} ms  encode {:>5.1} ms  total {:>5.1} ms (median of {RUNS})  sent {}x{} {} KB",
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
    run("JPEG q80, longest side 1024", &jpeg(1024, 80));
    run("JPEG q80, longest side 1280 (no resize)", &jpeg(1280, 80));
    run(
        "PNG (fast), longest side 1024",
        &ScreenshotSettings {
            max_side: 1024,
            format: ImageFormat::Png,
            quality: 80,
            after_action: false,
        },
    );
    let _ = std::fs::remove_dir_all(&dir);
}
