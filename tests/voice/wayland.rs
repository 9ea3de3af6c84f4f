//! Push-to-talk on Wayland, end to end: the real app on a headless sway (run as the
//! compositor's user, as a person's programs are), the binding Zeta's own help gives
//! (`zeta doctor`'s hotkey line) added to sway as written, and the key held and released
//! on the Wayland seat through a virtual keyboard (wtype) while a file-backed ALSA microphone
//! plays a spoken command. sway runs `zeta listen start` on the press and `zeta listen
//! stop` on the release; the task the app queues must carry the command, from `voice`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use zeta_test_support::portal::Portal;
use zeta_test_support::wayland::{missing, Sway};

use crate::support::{asoundrc, mic_file, model, words, Model};

const COMMAND: &str = "How much free disk space do I have";

/// The app on the session, with its own DBus session bus; ended with what it started.
struct App {
    child: Child,
    home: PathBuf,
}

impl Drop for App {
    fn drop(&mut self) {
        let pid = self.child.id();
        for p in zeta_test_support::procs::descendants(pid)
            .into_iter()
            .rev()
            .chain([pid])
        {
            let _ = Command::new("kill").arg(p.to_string()).status();
        }
        let _ = self.child.wait();
    }
}

impl App {
    fn log(&self) -> String {
        let mut text = String::new();
        if let Ok(entries) = std::fs::read_dir(self.home.join("logs")) {
            for entry in entries.flatten() {
                text.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
            }
        }
        text
    }

    fn wait_for_log(&self, needle: &str, within: Duration) {
        let start = Instant::now();
        while !self.log().contains(needle) {
            assert!(
                start.elapsed() < within,
                "the app did not log {needle:?} within {within:?}:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// `zeta ARGS` as the compositor's user, on the session, against `home`.
fn zeta(sway: &Sway, home: &Path, user: &Path, args: &[&str]) -> Output {
    sway.command(
        env!("CARGO_BIN_EXE_zeta"),
        &[("ZETA_HOME", home), ("HOME", user)],
    )
    .args(args)
    .env("ZETA_SECRETS", "file")
    .output()
    .expect("run zeta")
}

/// The sway commands in the doctor's hotkey help: the `bindsym …` parts between
/// backquotes.
fn bindings(doctor: &[Value]) -> Vec<String> {
    let fix = doctor
        .iter()
        .find(|c| c["name"] == "hotkey")
        .and_then(|c| c["fix"].as_str())
        .unwrap_or_default();
    fix.split('`')
        .skip(1)
        .step_by(2)
        .filter(|part| part.starts_with("bindsym "))
        .map(str::to_string)
        .collect()
}

/// A test's Wayland desktop: sway, the app's home (the base model installed) and the
/// person's home (whose microphone plays the command), all the compositor's user's.
struct Desktop {
    sway: Sway,
    home: PathBuf,
    user: PathBuf,
    _dir: tempfile::TempDir,
}

fn desktop(test: &str) -> Option<Desktop> {
    if let Some(why) = missing() {
        zeta_test_support::cannot_run(zeta_test_support::Needs::Desktop, test, why);
        return None;
    }
    let base = model(Model::Base)?;
    let dir = tempfile::tempdir().expect("dir");
    let home = dir.path().join("zeta");
    let user = dir.path().join("user");
    std::fs::create_dir_all(home.join("models")).expect("models");
    std::fs::create_dir_all(&user).expect("user");
    std::fs::copy(base, home.join("models").join(Model::Base.file())).expect("the model");
    std::fs::write(home.join("onboarded"), "").expect("marker");
    let mic = mic_file(dir.path(), Some(COMMAND));
    asoundrc(&user, &mic);
    // sway passes its environment to what its bindings run: the app's home, as a
    // person's session would have it.
    let sway = Sway::start("", &[("ZETA_HOME", &home.display().to_string())])
        .unwrap_or_else(|e| panic!("{e}"));
    sway.give(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&home, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .expect("home mode");
    Some(Desktop {
        sway,
        home,
        user,
        _dir: dir,
    })
}

impl Desktop {
    /// The app on the session: on its own DBus session bus, or on `bus`.
    fn launch(&self, bus: Option<&str>) -> App {
        let env = [
            ("ZETA_HOME", self.home.as_path()),
            ("HOME", self.user.as_path()),
        ];
        let mut cmd = match bus {
            None => {
                let mut c = self.sway.command("dbus-run-session", &env);
                c.arg("--").arg(env!("CARGO_BIN_EXE_zeta"));
                c
            }
            Some(address) => {
                let mut c = self.sway.command(env!("CARGO_BIN_EXE_zeta"), &env);
                c.env("DBUS_SESSION_BUS_ADDRESS", address);
                c
            }
        };
        let child = cmd
            .env("ZETA_SECRETS", "file")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the app");
        let app = App {
            child,
            home: self.home.clone(),
        };
        app.wait_for_log("control socket ready", Duration::from_secs(60));
        app
    }

    /// Waits for the task the app queued from `voice`, and checks it heard the command.
    fn heard(&self, app: &App) {
        let start = Instant::now();
        let task = loop {
            let out = zeta(&self.sway, &self.home, &self.user, &["queue", "--json"]);
            let tasks: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_default();
            if let Some(t) = tasks.into_iter().find(|t| t["sender"] == "voice") {
                break t;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no voice task within 60 s; the app's log:\n{}",
                app.log()
            );
            std::thread::sleep(Duration::from_millis(300));
        };
        let heard = task["message"].as_str().unwrap_or_default();
        assert_eq!(words(heard), words(COMMAND), "heard {heard:?}");
    }
}

#[test]
fn on_wayland_the_compositor_binding_zeta_gives_holds_push_to_talk() {
    let Some(d) = desktop("on_wayland_the_compositor_binding_zeta_gives_holds_push_to_talk") else {
        return;
    };
    let app = d.launch(None);
    // sway's portal has no GlobalShortcuts: the app says so, and how to bind the key.
    app.wait_for_log(
        "a key that works in every window is the desktop's to bind",
        Duration::from_secs(20),
    );

    // The chat window says how to bind it, as a person sees it (the screen, read by OCR,
    // once the window has drawn).
    let start = Instant::now();
    let mut shown = String::new();
    while start.elapsed() < Duration::from_secs(30) && !shown.contains("bindsym") {
        std::thread::sleep(Duration::from_millis(500));
        shown = shown_text(&d.sway, d.home.parent().unwrap_or(&d.home));
    }
    let _ = std::fs::copy(
        d.home.parent().unwrap_or(&d.home).join("shown.png"),
        std::env::temp_dir().join("zeta-wayland-chat.png"),
    );
    assert!(
        shown.contains("bindsym") && shown.contains("listen start"),
        "the window does not tell how to bind the key:\n{shown}"
    );

    let doctor = zeta(&d.sway, &d.home, &d.user, &["doctor", "--json"]);
    let checks: Vec<Value> = serde_json::from_slice(&doctor.stdout).unwrap_or_else(|e| {
        panic!(
            "doctor json: {e}: {}{}",
            String::from_utf8_lossy(&doctor.stdout),
            String::from_utf8_lossy(&doctor.stderr)
        )
    });
    let lines = bindings(&checks);
    assert_eq!(lines.len(), 2, "a press and a release binding: {checks:#?}");
    for line in &lines {
        d.sway
            .msg(&[line])
            .unwrap_or_else(|e| panic!("sway took not {line:?}: {e}"));
    }

    // The key held for 3.5 s on the seat (wtype: a virtual keyboard client), as a person
    // holds it while speaking.
    let held = Command::new("wtype")
        .args(["-M", "ctrl", "-M", "alt", "-P", "space", "-s", "3500"])
        .args(["-p", "space", "-m", "alt", "-m", "ctrl"])
        .env("XDG_RUNTIME_DIR", d.sway.runtime())
        .env("WAYLAND_DISPLAY", &d.sway.socket)
        .status()
        .expect("run wtype");
    assert!(held.success(), "wtype failed");
    app.wait_for_log("`zeta listen stop`", Duration::from_secs(10));
    d.heard(&app);
    let log = app.log();
    assert_eq!(
        (
            log.matches("`zeta listen start`").count(),
            log.matches("`zeta listen stop`").count()
        ),
        (1, 1),
        "one press and one release from sway's bindings:\n{log}"
    );
}

/// GNOME and KDE: the desktop's GlobalShortcuts portal (the real front-end, the test's
/// back-end) binds the key; its press and release drive the recording.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_wayland_the_desktops_shortcuts_portal_holds_push_to_talk() {
    let test = "on_wayland_the_desktops_shortcuts_portal_holds_push_to_talk";
    if let Some(why) = zeta_test_support::portal::missing() {
        zeta_test_support::cannot_run(zeta_test_support::Needs::Desktop, test, why);
        return;
    }
    let Some(d) = desktop(test) else {
        return;
    };
    let portal = Portal::start().await.unwrap_or_else(|e| panic!("{e}"));
    let app = d.launch(Some(&portal.address));
    app.wait_for_log(
        "push-to-talk bound through the desktop's GlobalShortcuts portal",
        Duration::from_secs(20),
    );
    assert_eq!(
        portal.record().bound,
        vec![("push-to-talk".to_string(), "CTRL+ALT+space".to_string())]
    );
    portal.shortcut("push-to-talk", true).await.expect("press");
    app.wait_for_log("push-to-talk key pressed", Duration::from_secs(10));
    tokio::time::sleep(Duration::from_millis(3500)).await;
    portal
        .shortcut("push-to-talk", false)
        .await
        .expect("release");
    app.wait_for_log("push-to-talk key released", Duration::from_secs(10));
    d.heard(&app);
    let doctor = zeta(&d.sway, &d.home, &d.user, &["doctor", "--json"]);
    assert!(
        String::from_utf8_lossy(&doctor.stdout).contains("registered by the running app"),
        "{}",
        String::from_utf8_lossy(&doctor.stdout)
    );
}

/// The text on sway's screen, by OCR (the picture kept in `dir` as shown.png).
fn shown_text(sway: &Sway, dir: &Path) -> String {
    let frame = zeta_display::wayland::screencopy::capture(&sway.socket, Some(0))
        .expect("the screen")
        .remove(0);
    let png = dir.join("shown.png");
    image::RgbaImage::from_raw(frame.width, frame.height, frame.rgba)
        .expect("a whole frame")
        .save(&png)
        .expect("save the screen");
    let out = Command::new("tesseract")
        .arg(&png)
        .arg("-")
        .output()
        .expect("tesseract");
    String::from_utf8_lossy(&out.stdout).into_owned()
}
