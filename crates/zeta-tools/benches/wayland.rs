//! The screen and input on Wayland against X11, in one run: a headless sway (what starting
//! it costs, as the test suite pays it), a busy picture shown on it, then per path the
//! time of one frame (X11 MIT-SHM on the Xvfb of DISPLAY when set; the wlroots screen copy
//! on a fresh connection, as each `screenshot` call makes it, and on a kept one) and of the
//! whole screenshot (copy, downscale to 1024, JPEG q80), and the time of one key press and
//! one pointer click through the virtual keyboard and pointer (enigo) against XTest, as
//! the time to send them (the Wayland calls queue and flush; no round trip is waited on).
//!
//! The portal paths GNOME and KDE take are timed through Debian 12's real
//! xdg-desktop-portal front-end on a private bus with the test's back-end behind it (it
//! hands out a 1280x800 PNG, and takes keys): the portal's own cost, not a desktop's.
//!
//! Run: `Xvfb :99 -screen 0 1280x800x24 & DISPLAY=:99 dbus-run-session -- cargo bench
//! -p zeta-tools --bench wayland` (needs sway, as root or not; ImageMagick for the picture).

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use enigo::{Button, Coordinate, Direction, Enigo, Key, Keyboard, Mouse, Settings};
use zeta_core::settings::{ImageFormat, ScreenshotSettings};
use zeta_display::wayland::screencopy::{self, Screen};
use zeta_test_support::wayland::Sway;
use zeta_tools::screen::{finish, Captured, Order};

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

fn timed(runs: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..3 {
        f();
    }
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn line(label: &str, ms: f64) {
    println!("{label:<58} {ms:>7.2} ms (median)");
}

const JPEG: ScreenshotSettings = ScreenshotSettings {
    max_side: 1024,
    format: ImageFormat::Jpeg,
    quality: 80,
    after_action: false,
};

fn main() {
    let dir = tempfile::tempdir().expect("dir");
    let picture = dir.path().join("plasma.png");
    let made = Command::new("convert")
        .args(["-size", "1280x800", "plasma:fractal"])
        .arg(&picture)
        .status()
        .is_ok_and(|s| s.success());

    // X11 first, for the side by side.
    if std::env::var_os("DISPLAY").is_some() {
        let _shown = made.then(|| {
            Shown(
                Command::new("display")
                    .args(["-geometry", "+0+0"])
                    .arg(&picture)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("display"),
            )
        });
        std::thread::sleep(Duration::from_millis(1500));
        line(
            "X11 MIT-SHM: one 1280x800 frame",
            timed(RUNS, || {
                zeta_tools::shm::capture(None).expect("shm");
            }),
        );
        line(
            "X11 MIT-SHM: screenshot (frame, 1024, JPEG q80)",
            timed(RUNS, || {
                let f = zeta_tools::shm::capture(None).expect("shm");
                let c = Captured {
                    rgba: f.bgrx,
                    order: Order::Bgrx,
                    width: f.width,
                    height: f.height,
                    origin: (0, 0),
                    density: 1.0,
                };
                finish(c, &JPEG).expect("encode");
            }),
        );
        let mut x11 = Enigo::new(&Settings::default()).expect("XTest");
        line(
            "X11 XTest: a key press and release sent",
            timed(RUNS, || x11.key(Key::Shift, Direction::Click).expect("key")),
        );
        line(
            "X11 XTest: a move and a click sent (enigo waits for XTest)",
            timed(RUNS, || {
                x11.move_mouse(1200, 780, Coordinate::Abs).expect("move");
                x11.button(Button::Left, Direction::Click).expect("click");
            }),
        );
    } else {
        println!("(no DISPLAY: the X11 side is left out)");
    }

    let mut starts = Vec::new();
    for _ in 0..5 {
        let s = Sway::start("", &[]).expect("sway");
        starts.push(s.took);
    }
    line(
        "sway headless: started until its sockets answer",
        median(starts),
    );
    let sway = Sway::start("", &[]).expect("sway");
    // enigo finds a socket path through XDG_RUNTIME_DIR (no other thread runs yet).
    std::env::set_var("XDG_RUNTIME_DIR", sway.runtime());
    let _shown = made.then(|| {
        let script = format!(
            "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk; \
             w = Gtk.Window(title='plasma'); w.add(Gtk.Image.new_from_file('{}')); \
             w.connect('destroy', Gtk.main_quit); w.show_all(); Gtk.main()",
            picture.display()
        );
        let mut cmd = Command::new("/usr/bin/python3");
        cmd.args(["-c", &script]);
        sway.on(&mut cmd)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        Shown(cmd.spawn().expect("the picture"))
    });
    sway.wait_for_window("plasma", Duration::from_secs(20))
        .expect("the picture's window");
    std::thread::sleep(Duration::from_millis(800));

    line(
        "wlr-screencopy, fresh connection: one frame",
        timed(RUNS, || {
            screencopy::capture(&sway.socket, Some(0)).expect("copy");
        }),
    );
    let mut kept = Screen::open(&sway.socket).expect("screen");
    line(
        "wlr-screencopy, kept connection: one frame",
        timed(RUNS, || {
            kept.copy(0, None).expect("copy");
        }),
    );
    line(
        "wlr-screencopy: screenshot (fresh frame, 1024, JPEG q80)",
        timed(RUNS, || {
            let f = screencopy::capture(&sway.socket, Some(0))
                .expect("copy")
                .remove(0);
            let c = Captured {
                rgba: f.rgba,
                order: Order::Rgba,
                width: f.width,
                height: f.height,
                origin: f.origin,
                density: 1.0,
            };
            finish(c, &JPEG).expect("encode");
        }),
    );
    portals(&picture, made);
    screen_cast();
    let mut weston_starts = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let w = zeta_test_support::wayland::Weston::start().expect("weston");
        weston_starts.push(t.elapsed());
        drop(w);
    }
    line(
        "weston headless: started until its socket answers",
        median(weston_starts),
    );

    let wayland = Settings {
        wayland_display: Some(sway.socket.display().to_string()),
        x11_display: Some("no-x11:none".into()),
        ..Settings::default()
    };
    line(
        "Wayland virtual keyboard and pointer: connecting",
        timed(10, || {
            Enigo::new(&wayland).expect("virtual input");
        }),
    );
    let mut input = Enigo::new(&wayland).expect("virtual input");
    line(
        "Wayland virtual keyboard: a key press and release sent",
        timed(RUNS, || {
            input.key(Key::Shift, Direction::Click).expect("key")
        }),
    );
    line(
        "Wayland virtual pointer: a move and a click sent",
        timed(RUNS, || {
            input.move_mouse(1200, 780, Coordinate::Abs).expect("move");
            input.button(Button::Left, Direction::Click).expect("click");
        }),
    );
}

/// The Screenshot portal's picture and a RemoteDesktop key, through the real front-end.
fn portals(picture: &std::path::Path, made: bool) {
    if !made || zeta_test_support::portal::missing().is_some() {
        println!(
            "(no ImageMagick picture or no xdg-desktop-portal: the portal paths are left out)"
        );
        return;
    }
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let portal = zeta_test_support::portal::Portal::start()
            .await
            .expect("the portal");
        portal.picture(picture);
        let mut shots = Vec::new();
        for _ in 0..RUNS / 2 {
            let t = Instant::now();
            let conn = zeta_display::portal::connect(Some(&portal.address))
                .await
                .expect("bus");
            zeta_display::portal::screenshot::take(conn, Duration::from_secs(10))
                .await
                .expect("screenshot");
            shots.push(t.elapsed());
        }
        line(
            "Screenshot portal: connect, request, read and decode the PNG",
            median(shots),
        );
        let dir = tempfile::tempdir().expect("dir");
        let tokens = zeta_display::portal::remote::Tokens::at(dir.path().join("token"));
        let t = Instant::now();
        let conn = zeta_display::portal::connect(Some(&portal.address))
            .await
            .expect("bus");
        let remote = zeta_display::portal::remote::start(conn, &tokens, Duration::from_secs(10))
            .await
            .expect("remote desktop");
        line(
            "RemoteDesktop portal: session started (consent given at once)",
            t.elapsed().as_secs_f64() * 1e3,
        );
        let mut keys = Vec::new();
        for _ in 0..RUNS {
            let t = Instant::now();
            remote.key(0xffe1, true).await.expect("key");
            remote.key(0xffe1, false).await.expect("key");
            keys.push(t.elapsed());
        }
        line(
            "RemoteDesktop portal: a key press and release (two round trips)",
            median(keys),
        );
        remote.close().await;
    });
}

/// A ScreenCast frame over PipeWire: the session started once, then frames taken on
/// demand (each connects the stream and waits for its first frame).
fn screen_cast() {
    if zeta_test_support::portal::screen_missing().is_some()
        || zeta_test_support::portal::missing().is_some()
    {
        println!("(no PipeWire, WirePlumber or GStreamer: the ScreenCast path is left out)");
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (_portal, cast) = runtime.block_on(async {
        let portal = zeta_test_support::portal::Portal::with_screen()
            .await
            .expect("the portal with a screen");
        let tokens = zeta_display::portal::remote::Tokens::at(dir.path().join("cast"));
        let conn = zeta_display::portal::connect(Some(&portal.address))
            .await
            .expect("bus");
        let t = Instant::now();
        let cast = zeta_display::portal::screencast::start(conn, &tokens, Duration::from_secs(10))
            .await
            .expect("screen cast");
        line(
            "ScreenCast portal: session started (choice given at once)",
            t.elapsed().as_secs_f64() * 1e3,
        );
        (portal, cast)
    });
    line(
        "ScreenCast portal: one 1280x800 frame over PipeWire",
        timed(RUNS / 3, || {
            cast.frame(Duration::from_secs(10)).expect("frame");
        }),
    );
}
