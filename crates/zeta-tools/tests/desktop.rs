//! Screen, mouse, keyboard and app tools against a real X server (Xvfb from
//! scripts/test.sh). Each test checks a real effect: pixels compared with `import`, the
//! pointer read back with xdotool, a click seen by a real window (xev), text typed into a
//! real xterm and read back from the file it wrote.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// One test at a time holds the screen (a std mutex, held through the test's awaits on
// purpose: the tests share one display and pointer).
#![allow(clippy::await_holding_lock)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::json;
use zeta_core::settings::{ImageFormat, ScreenshotSettings};
use zeta_core::tool::{Tool, ToolContext};
use zeta_core::CancelToken;
use zeta_tools::input::{InputState, KeyboardTool, Mouse};
use zeta_tools::screen::{self, ScreenState, Screenshot, Target};

/// One test at a time: they share the screen and the pointer.
static SERIAL: Mutex<()> = Mutex::new(());

fn display_or_skip(name: &str) -> Option<std::sync::MutexGuard<'static, ()>> {
    if std::env::var_os("DISPLAY").is_none() {
        let why = "no DISPLAY (run scripts/test.sh, which starts Xvfb)";
        zeta_test_support::cannot_run(zeta_test_support::Needs::Desktop, name, why);
        return None;
    }
    Some(SERIAL.lock().unwrap_or_else(|p| p.into_inner()))
}

fn ctx(dir: &Path, shot: ScreenshotSettings) -> ToolContext {
    let (_tx, cancel) = CancelToken::new();
    std::mem::forget(_tx);
    ToolContext {
        untrusted_input: false,
        confine: None,
        keeper: None,
        session: zeta_core::tool::Session::Closed,
        at_task_end: Default::default(),
        request: "".into(),
        choose: Default::default(),
        cancel,
        workdir: dir.to_path_buf(),
        command_timeout_ms: 10_000,
        max_output_length: 4000,
        images_supported: true,
        screenshot: shot,
        on_output: Arc::new(|_: &str| {}),
    }
}

fn settings(max_side: u32, format: ImageFormat) -> ScreenshotSettings {
    ScreenshotSettings {
        max_side,
        format,
        quality: 90,
        after_action: false,
    }
}

/// A child process ended by PID when dropped.
struct Proc(Child);
impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn xdotool(args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .output()
        .expect("xdotool");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn wait_for_window(name: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = xdotool(&["search", "--onlyvisible", "--name", name]);
        if let Some(id) = found.lines().next() {
            return id.to_string();
        }
        assert!(Instant::now() < deadline, "window {name:?} never appeared");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn decode(output: &zeta_core::tool::ToolOutput) -> image::RgbaImage {
    let img = output.images.first().expect("an image was attached");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&img.base64)
        .expect("base64");
    image::load_from_memory(&bytes)
        .expect("decodable image")
        .to_rgba8()
}

#[tokio::test]
async fn a_screenshot_matches_import_in_size_and_content() {
    let Some(_g) = display_or_skip("screenshot vs import") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let pattern = dir.path().join("pattern.png");
    let made = Command::new("convert")
        .args([
            "-size",
            "300x200",
            "xc:#3366cc",
            "-fill",
            "#ff0000",
            "-draw",
            "rectangle 200,120 260,170",
        ])
        .arg(&pattern)
        .status()
        .expect("convert");
    assert!(made.success());
    let _shown = Proc(
        Command::new("display")
            .args(["-geometry", "+100+100"])
            .arg(&pattern)
            .spawn()
            .expect("display"),
    );
    wait_for_window("pattern.png");
    std::thread::sleep(Duration::from_millis(300));

    let shot = screen::take(Target::All, &settings(8192, ImageFormat::Png)).expect("take");
    let ours = image::load_from_memory(&shot.bytes)
        .expect("png")
        .to_rgba8();
    let import = Command::new("import")
        .args(["-window", "root", "png:-"])
        .output()
        .expect("import");
    let theirs = image::load_from_memory(&import.stdout)
        .expect("import png")
        .to_rgba8();
    assert_eq!(ours.dimensions(), theirs.dimensions());
    let differing = ours
        .pixels()
        .zip(theirs.pixels())
        .filter(|(a, b)| a.0[..3] != b.0[..3])
        .count();
    assert_eq!(differing, 0, "pixels that differ from import");
    // The pattern is really in it: its red square sits at (300..360, 220..270).
    assert_eq!(ours.get_pixel(330, 245).0[..3], [255, 0, 0]);
    assert_eq!(shot.mapping.scale, 1.0);

    // The JPEG path gets the colours in the right order too (the shared-memory capture
    // is blue-green-red), and a region is the part of the screen asked for.
    let jpeg = screen::take(Target::All, &settings(8192, ImageFormat::Jpeg)).expect("take jpeg");
    let decoded = image::load_from_memory(&jpeg.bytes)
        .expect("jpeg")
        .to_rgba8();
    let [r, g, b, _] = decoded.get_pixel(330, 245).0;
    assert!(
        r > 220 && g < 40 && b < 40,
        "red stays red in the JPEG: {r} {g} {b}"
    );
    let [r, g, b, _] = decoded.get_pixel(150, 150).0;
    assert!(
        r < 80 && (90..130).contains(&g) && b > 180,
        "#3366cc stays blue: {r} {g} {b}"
    );
    let region = Target::Region {
        x: 290,
        y: 210,
        width: 80,
        height: 70,
    };
    let part = screen::take(region, &settings(8192, ImageFormat::Png)).expect("take region");
    let part = image::load_from_memory(&part.bytes)
        .expect("png")
        .to_rgba8();
    assert_eq!(part.dimensions(), (80, 70));
    let crop = image::imageops::crop_imm(&ours, 290, 210, 80, 70).to_image();
    assert!(
        part.pixels()
            .zip(crop.pixels())
            .all(|(a, b)| a.0[..3] == b.0[..3]),
        "the region is that part of the screen"
    );
    assert!(
        part.pixels().any(|p| p.0[..3] == [255, 0, 0]),
        "with the red square in it"
    );
}

#[tokio::test]
async fn the_pointer_lands_where_asked_in_downscaled_coordinates() {
    let Some(_g) = display_or_skip("pointer mapping") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let state = ScreenState::default();
    let c = ctx(dir.path(), settings(640, ImageFormat::Jpeg));
    let out = Screenshot(state.clone()).run(json!({}), &c).await;
    assert!(out.ok, "{out:?}");
    let img = decode(&out);
    let (w, h) = xdotool(&["getdisplaygeometry"])
        .split_once(' ')
        .map(|(a, b)| (a.parse::<u32>().expect("w"), b.parse::<u32>().expect("h")))
        .expect("geometry");
    assert_eq!(img.width(), 640, "downscaled to the longest side");
    assert_eq!(
        img.height(),
        (640.0 * h as f64 / w as f64).round() as u32,
        "aspect ratio kept"
    );
    // The tools keep their input connection, as in the app (Xvfb undoes a disconnected
    // client's pointer moves), so the tool stays alive while the pointer is read.
    let mouse = Mouse(state, InputState::default());
    let out = mouse
        .run(json!({"action": "move", "x": 100, "y": 50}), &c)
        .await;
    assert!(out.ok, "{out:?}");
    let scale = w as f64 / 640.0;
    let location = xdotool(&["getmouselocation"]);
    let expect = format!("x:{} y:{}", (100.0 * scale).round(), (50.0 * scale).round());
    assert!(
        location.starts_with(&expect),
        "{location} (wanted {expect})"
    );
}

#[tokio::test]
async fn a_click_hits_a_target_found_in_the_tools_screenshot() {
    let Some(_g) = display_or_skip("click on target") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let mut xev = Proc(
        Command::new("xev")
            .args([
                "-geometry",
                "160x120+700+380",
                "-name",
                "zeta-target",
                "-event",
                "button",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .expect("xev"),
    );
    wait_for_window("zeta-target");
    std::thread::sleep(Duration::from_millis(300));
    let state = ScreenState::default();
    let c = ctx(dir.path(), settings(800, ImageFormat::Png));
    let out = Screenshot(state.clone()).run(json!({}), &c).await;
    let img = decode(&out);
    // The target is the only white area on the black screen: click its centre.
    let white: Vec<(u32, u32)> = img
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[..3].iter().all(|v| *v > 230))
        .map(|(x, y, _)| (x, y))
        .collect();
    assert!(white.len() > 100, "target not found in the screenshot");
    let cx = white.iter().map(|p| p.0 as f64).sum::<f64>() / white.len() as f64;
    let cy = white.iter().map(|p| p.1 as f64).sum::<f64>() / white.len() as f64;
    let out = Mouse(state, InputState::default())
        .run(json!({"action": "click", "x": cx, "y": cy}), &c)
        .await;
    assert!(out.ok, "{out:?}");
    let stdout = xev.0.stdout.take().expect("xev stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("root:(").nth(1) {
                let _ = tx.send(rest.split(')').next().unwrap_or_default().to_string());
            }
        }
    });
    let root = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("xev saw a button event");
    let (x, y) = root
        .split_once(',')
        .map(|(a, b)| {
            (
                a.trim().parse::<i32>().expect("x"),
                b.trim().parse::<i32>().expect("y"),
            )
        })
        .expect("coords");
    assert!(
        (700..860).contains(&x) && (380..500).contains(&y),
        "click at ({x}, {y}) missed the window"
    );
}

#[tokio::test]
async fn typed_text_and_keys_land_in_a_real_xterm() {
    let Some(_g) = display_or_skip("keyboard into xterm") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let out_file = dir.path().join("typed.txt");
    let mut xterm = Proc(
        Command::new("xterm")
            .args([
                "-geometry",
                "60x8+40+40",
                "-title",
                "zeta-typing",
                "-e",
                "sh",
                "-c",
            ])
            .arg(format!("cat > {}", out_file.display()))
            .spawn()
            .expect("xterm"),
    );
    let window = wait_for_window("zeta-typing");
    xdotool(&["windowfocus", "--sync", &window]);
    std::thread::sleep(Duration::from_millis(300));
    let c = ctx(dir.path(), settings(1280, ImageFormat::Jpeg));
    let keyboard = KeyboardTool(ScreenState::default(), InputState::default());
    let out = keyboard
        .run(json!({"text": "Hello, World 42", "keys": "Return"}), &c)
        .await;
    assert!(out.ok, "{out:?}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while std::fs::read_to_string(&out_file).unwrap_or_default() != "Hello, World 42\n" {
        assert!(
            Instant::now() < deadline,
            "file holds {:?}",
            std::fs::read_to_string(&out_file)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // ctrl+d ends `cat`, and with it the xterm.
    let out = keyboard.run(json!({"keys": "ctrl+d"}), &c).await;
    assert!(out.ok, "{out:?}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while xterm.0.try_wait().expect("poll").is_none() {
        assert!(
            Instant::now() < deadline,
            "ctrl+d did not reach the terminal"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test]
async fn open_app_starts_a_real_window() {
    let Some(_g) = display_or_skip("open_app") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let c = ctx(dir.path(), settings(1280, ImageFormat::Jpeg));
    let out = zeta_tools::open::OpenApp
        .run(
            json!({"name": "xterm", "args": ["-title", "zeta-opened"]}),
            &c,
        )
        .await;
    assert!(out.ok, "{out:?}");
    let pid: u32 = out
        .content
        .split("as pid ")
        .nth(1)
        .and_then(|p| p.split_whitespace().next()?.parse().ok())
        .expect("pid in the result");
    wait_for_window("zeta-opened");
    assert!(
        out.content
            .contains("Its window is open: \"zeta-opened\"; read it with ui_outline."),
        "open_app names the window that opened: {}",
        out.content
    );
    let _ = Command::new("kill").arg(pid.to_string()).status();
    let out = zeta_tools::open::OpenApp
        .run(json!({"name": "no-such-app-here"}), &c)
        .await;
    assert!(
        !out.ok && out.content.contains("no desktop entry or command"),
        "{out:?}"
    );
}

#[tokio::test]
async fn bad_screen_and_input_arguments_are_clear_errors() {
    let Some(_g) = display_or_skip("bad input arguments") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let state = ScreenState::default();
    let c = ctx(dir.path(), settings(640, ImageFormat::Jpeg));
    let _ = Screenshot(state.clone()).run(json!({}), &c).await;
    let out = Mouse(state.clone(), InputState::default())
        .run(json!({"action": "click", "x": 5000, "y": 10}), &c)
        .await;
    assert!(
        !out.ok && out.content.contains("outside the last screenshot"),
        "{out:?}"
    );
    let out = Mouse(state.clone(), InputState::default())
        .run(json!({"action": "drag", "x": 5, "y": 10}), &c)
        .await;
    assert!(!out.ok && out.content.contains("to_x"), "{out:?}");
    let out = Mouse(state.clone(), InputState::default())
        .run(json!({"action": "teleport", "x": 5, "y": 10}), &c)
        .await;
    assert!(!out.ok && out.content.contains("bad arguments"), "{out:?}");
    let out = Screenshot(state.clone())
        .run(json!({"monitor": 7}), &c)
        .await;
    assert!(!out.ok && out.content.contains("no monitor 7"), "{out:?}");
    let out = Screenshot(state)
        .run(
            json!({"region": {"x": 1200, "y": 0, "width": 500, "height": 10}}),
            &c,
        )
        .await;
    assert!(!out.ok && out.content.contains("does not fit"), "{out:?}");
    let out = KeyboardTool(ScreenState::default(), InputState::default())
        .run(json!({"keys": "ctrl+banana"}), &c)
        .await;
    assert!(!out.ok && out.content.contains("not a key name"), "{out:?}");
    let registry = zeta_tools::registry();
    let e = registry
        .validate("mouse", &json!({"action": "click", "x": "left"}))
        .expect_err("invalid");
    assert!(
        e.contains("\"y\" is a required property") && e.contains("/x"),
        "{e}"
    );
}

#[tokio::test]
async fn a_model_that_cannot_see_is_told_so_and_gets_no_image() {
    let Some(_g) = display_or_skip("blind model") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let mut c = ctx(dir.path(), settings(1024, ImageFormat::Jpeg));
    c.images_supported = false;
    let out = Screenshot(ScreenState::default()).run(json!({}), &c).await;
    assert!(out.ok, "{out:?}");
    assert!(out.images.is_empty());
    assert!(out.content.contains("cannot see images"), "{}", out.content);
}

#[tokio::test]
async fn after_an_action_a_fresh_screenshot_is_attached_when_asked() {
    let Some(_g) = display_or_skip("screenshot after action") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let mut shot = settings(512, ImageFormat::Jpeg);
    shot.after_action = true;
    let c = ctx(dir.path(), shot);
    let mouse = Mouse(ScreenState::default(), InputState::default());
    let out = mouse
        .run(json!({"action": "move", "x": 20, "y": 30}), &c)
        .await;
    assert!(out.ok, "{out:?}");
    assert_eq!(
        decode(&out).width(),
        512,
        "a downscaled screenshot came back"
    );
    assert!(
        out.content.starts_with("moved the pointer to (20, 30)"),
        "{}",
        out.content
    );
}

/// Text typed into a terminal is the command line it becomes, and the judge reads it so:
/// `rm -rf ~` typed into an xterm is blocked, also when typed in two pieces; after Ctrl+U
/// the line starts again. Typed into a window that is not a terminal, it runs nothing.
#[tokio::test]
async fn text_typed_into_a_terminal_is_judged_as_the_command_it_becomes() {
    let Some(_g) = display_or_skip("typing into a terminal is judged") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    // `cat` reads what is typed: nothing typed here can run.
    let _xterm = Proc(
        Command::new("xterm")
            .args([
                "-geometry",
                "60x8+40+40",
                "-title",
                "zeta-judged",
                "-e",
                "cat",
            ])
            .spawn()
            .expect("xterm"),
    );
    let window = wait_for_window("zeta-judged");
    xdotool(&["windowfocus", "--sync", &window]);
    std::thread::sleep(Duration::from_millis(300));
    let env = zeta_core::policy::ShellEnv::current(dir.path());
    let keyboard = KeyboardTool(ScreenState::default(), InputState::default());
    let whole = keyboard.commands(&json!({"text": "rm -rf ~"}));
    assert_eq!(whole, vec!["rm -rf ~".to_string()]);
    assert!(
        matches!(
            zeta_core::policy::judge(&whole[0], &env),
            zeta_core::policy::Verdict::Block(_)
        ),
        "{whole:?}"
    );
    assert!(keyboard
        .target(&json!({"text": "ls"}))
        .contains("a terminal"));
    let c = ctx(dir.path(), settings(1280, ImageFormat::Jpeg));
    let out = keyboard.run(json!({"text": "rm -rf "}), &c).await;
    assert!(out.ok, "{out:?}");
    assert_eq!(
        keyboard.commands(&json!({"text": "~"})),
        vec!["rm -rf ~".to_string()],
        "the piece typed before is part of the line"
    );
    let out = keyboard.run(json!({"keys": "ctrl+u"}), &c).await;
    assert!(out.ok, "{out:?}");
    assert_eq!(
        keyboard.commands(&json!({"text": "ls"})),
        vec!["ls".to_string()]
    );
    // A window that runs nothing typed into it.
    let _note = Proc(
        Command::new("xmessage")
            .args([
                "-title",
                "zeta-not-a-terminal",
                "-geometry",
                "+400+300",
                "hello",
            ])
            .spawn()
            .expect("xmessage"),
    );
    let other = wait_for_window("zeta-not-a-terminal");
    xdotool(&["windowfocus", "--sync", &other]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(keyboard.commands(&json!({"text": "rm -rf ~"})).is_empty());
}

/// The window list gives each window's title and both names of its program (`WM_CLASS`:
/// xterm's instance and class, and one set with `-class`), which is how a request names
/// a window by its program (`assist::windows`).
#[tokio::test]
async fn the_window_list_names_each_windows_program() {
    let Some(_g) = display_or_skip("the_window_list_names_each_windows_program") else {
        return;
    };
    let _plain = Proc(
        Command::new("xterm")
            .args(["-title", "zeta-listed plain"])
            .spawn()
            .expect("xterm"),
    );
    let _classed = Proc(
        Command::new("xterm")
            .args(["-title", "zeta-listed classed", "-class", "FeatherTerm"])
            .spawn()
            .expect("xterm"),
    );
    wait_for_window("zeta-listed plain");
    wait_for_window("zeta-listed classed");
    let listed = zeta_tools::windows::windows();
    let app_of = |title: &str| {
        listed
            .iter()
            .find(|w| w.title == title)
            .map(|w| w.app.clone())
            .unwrap_or_else(|| panic!("{title:?} not listed: {listed:?}"))
    };
    assert_eq!(app_of("zeta-listed plain"), "xterm XTerm");
    assert_eq!(app_of("zeta-listed classed"), "xterm FeatherTerm");
}

/// A window that changes its title is the same window (followed by its id): an editor's
/// "notes.txt" that becomes "*notes.txt" once edited did not close and nothing opened;
/// once it is gone, it closed.
#[tokio::test]
async fn a_retitled_window_is_the_same_window_and_a_closed_one_is_gone() {
    let Some(_g) = display_or_skip("a_retitled_window_is_the_same_window_and_a_closed_one_is_gone")
    else {
        return;
    };
    use zeta_tools::windows::{fate, opened_windows, Fate};
    // The terminal retitles itself once the test makes a file: no input, no window
    // manager needed (CI's display has none to give it the focus).
    let dir = tempfile::tempdir().expect("temp dir");
    let go = dir.path().join("go");
    let script = format!(
        "while [ ! -e '{}' ]; do sleep 0.05; done; printf '\\033]2;zeta-retitle after\\007'; sleep 30",
        go.display()
    );
    let mut term = Proc(
        Command::new("xterm")
            .args(["-title", "zeta-retitle before", "-e", "sh", "-c", &script])
            .spawn()
            .expect("xterm"),
    );
    wait_for_window("zeta-retitle before");
    let before = zeta_tools::windows::windows();
    std::fs::write(&go, "").expect("the file that retitles it");
    wait_for_window("zeta-retitle after");
    let after = zeta_tools::windows::windows();
    assert_eq!(
        fate(&before, &after, "zeta-retitle before"),
        Fate::Retitled("zeta-retitle after".into()),
        "{before:?} → {after:?}"
    );
    assert!(
        opened_windows(&before, &after).is_empty(),
        "nothing opened: {after:?}"
    );
    let _ = term.0.kill();
    let _ = term.0.wait();
    let deadline = Instant::now() + Duration::from_secs(10);
    let gone = loop {
        let now = zeta_tools::windows::windows();
        if !now.iter().any(|w| w.title == "zeta-retitle after") || Instant::now() > deadline {
            break now;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(fate(&after, &gone, "zeta-retitle after"), Fate::Closed);
}
