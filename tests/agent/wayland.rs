//! The agent on a real Wayland session: sway on its headless back-end (no X display at
//! all), a GTK application on it, and the real `zeta` with the scripted model. The model
//! reads the form through the accessibility tree, types with the keyboard tool (the
//! Wayland virtual keyboard), presses Save, and takes a screenshot (the wlroots screen
//! copy); the file the application wrote and the pixels are the proof.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;
use zeta_scripted_llm::{Step, Wire};
use zeta_test_support::apps::{form_script, SYSTEM_PYTHON};
use zeta_test_support::portal::{Front, Portal};
use zeta_test_support::wayland::{missing, Sway, Weston};
use zeta_test_support::{cannot_run, Needs};

use crate::harness::*;

/// One session at a time: two cores.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn can_run(test: &str) -> bool {
    match missing() {
        Some(why) => {
            cannot_run(Needs::Desktop, test, why);
            false
        }
        None => true,
    }
}

/// A GTK application on the session, ended by its PID.
struct OnWayland(Child);

impl Drop for OnWayland {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn start_form(sway: &Sway, out: &Path, title: &str) -> OnWayland {
    let mut cmd = Command::new(SYSTEM_PYTHON);
    cmd.arg(form_script()).arg(out).arg(title);
    sway.on(&mut cmd)
        .env_remove("NO_AT_BRIDGE")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let app = OnWayland(cmd.spawn().expect("start the form"));
    sway.wait_for_window(title, Duration::from_secs(20))
        .unwrap_or_else(|e| panic!("{e}"));
    // GTK joins the accessibility bus after mapping, later on a busy machine: wait until
    // its window is there, as a person would wait for the form to show.
    let desktop = zeta_elements::Desktop::default();
    let started = std::time::Instant::now();
    loop {
        let listed = zeta_elements::atspi::read::windows(&desktop).await;
        if listed.is_ok_and(|w| w.windows.iter().any(|w| w.title == title)) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "\"{title}\" did not join the accessibility bus within 30 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app
}

fn zeta_on(s: &Setup, sway: &Sway, task: &str) -> std::process::Output {
    let mut cmd = s.command(&["run", "--json", "--approve", "all", task]);
    sway.on(&mut cmd).output().expect("run zeta")
}

/// A scripted model, the permissions in `auto` mode.
async fn auto(steps: Vec<Step>) -> Setup {
    Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        steps,
        json!({"permissions": {"mode": "auto"}}),
    )
    .await
}

/// `zeta run TASK` on weston presented as `desktop`, with its portals on `bus`.
fn on_weston(
    s: &Setup,
    weston: &Weston,
    desktop: &str,
    bus: Option<&str>,
    task: &str,
) -> std::process::Output {
    let mut cmd = s.command(&["run", "--json", "--approve", "all", task]);
    weston.on(&mut cmd, desktop);
    if let Some(address) = bus {
        cmd.env("DBUS_SESSION_BUS_ADDRESS", address);
    }
    cmd.output().expect("run zeta")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_wayland_the_agent_types_presses_and_sees_a_form_by_its_effect() {
    let test = "on_wayland_the_agent_types_presses_and_sees_a_form_by_its_effect";
    if !can_run(test) {
        return;
    }
    let _serial = SERIAL.lock().await;
    let sway = Sway::start("", &[]).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("temp dir");
    let out: PathBuf = dir.path().join("form.json");
    let _form = start_form(&sway, &out, "Zeta wayland form").await;

    // The Name field has the keyboard focus when the form opens: the keyboard tool types
    // into it through the virtual keyboard. The tree gives the box and Save.
    let steps = vec![
        Step::call("keyboard", json!({"text": "Ada Lovelace"})),
        Step::call("ui_outline", json!({"window": "Zeta wayland form"})),
        Step::call("ui_act", json!({"element": 2, "action": "toggle"})),
        Step::call("ui_act", json!({"element": 4, "action": "press"})),
        Step::call("screenshot", json!({})),
        Step::text("Saved the form for Ada Lovelace."),
    ];
    let s = auto(steps).await;
    let run = zeta_on(
        &s,
        &sway,
        "type Ada Lovelace in the form, subscribe and save it",
    );
    let results = tool_results(&s);
    assert!(
        out.exists(),
        "the form wrote no file; the calls said: {results:#?}\n{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        saved(&out),
        json!({"name": "Ada Lovelace", "subscribe": true, "colour": "Red"}),
        "the form's own file; the calls said: {results:#?}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    done_task(&run);
    s.assert_invariants();
    assert!(
        results[0].contains("Shown: text \"Name\" now holds \"Ada Lovelace\""),
        "the typing is read back from the focused field on Wayland too: {}",
        results[0]
    );
    assert!(
        results[1].contains("[4] button \"Save\"") && results[1].contains("Ada Lovelace"),
        "the outline shows the typed name: {}",
        results[1]
    );
    assert!(
        results[4].contains("1280x800 screen pixels"),
        "the screenshot is of the headless output: {}",
        results[4]
    );
    // The picture the model was sent shows sway's focused title bar over the form's light
    // body, and the Save button's dark text.
    let shot = last_image(&s).expect("the screenshot was sent as an image");
    let _ = shot.save(std::env::temp_dir().join("zeta-wayland-shot.png"));
    assert_eq!(shot.dimensions(), (1280, 800));
    let px = |x, y| shot.get_pixel(x, y).0;
    let [r, _, b] = px(640, 10);
    assert!(
        b > 90 && r < 80,
        "sway's focused title bar is blue: {:?}",
        px(640, 10)
    );
    assert!(
        px(640, 500).iter().all(|c| *c > 200),
        "the form's body: {:?}",
        px(640, 500)
    );
    let darkest = (130..200)
        .flat_map(|x| (175..200).map(move |y| (x, y)))
        .map(|(x, y)| px(x, y).iter().map(|c| *c as u32).sum::<u32>())
        .min()
        .unwrap_or(u32::MAX);
    assert!(
        darkest < 200,
        "Save's label is drawn there (darkest {darkest})"
    );
}

/// The last image the model was sent, decoded.
fn last_image(s: &Setup) -> Option<image::RgbImage> {
    use base64::Engine;
    let requests = s.requests();
    let body = requests.last()?.body.to_string();
    let start = body.rfind("data:image/jpeg;base64,")? + "data:image/jpeg;base64,".len();
    let end = start + body[start..].find('"')?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&body[start..end])
        .ok()?;
    Some(image::load_from_memory(&bytes).ok()?.to_rgb8())
}

/// GNOME and KDE take keys and clicks from other programs only through the desktop's
/// RemoteDesktop portal: on a compositor without the virtual keyboard and pointer (a
/// headless weston, presented as GNOME), the mouse and keyboard tools go through a
/// version-2 portal front-end, which asks once; its restore token is kept in Zeta's home,
/// handed back on the next task and replaced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_gnome_keys_and_clicks_go_through_the_desktops_portal_asked_once() {
    let test = "on_gnome_keys_and_clicks_go_through_the_desktops_portal_asked_once";
    if let Some(why) =
        zeta_test_support::wayland::weston_missing().or_else(zeta_test_support::portal::missing)
    {
        cannot_run(Needs::Desktop, test, why);
        return;
    }
    let _serial = SERIAL.lock().await;
    let weston = Weston::start().unwrap_or_else(|e| panic!("{e}"));
    let front = Front::start().await.unwrap_or_else(|e| panic!("{e}"));
    let steps = vec![
        Step::call("mouse", json!({"action": "click", "x": 100, "y": 200})),
        Step::call("keyboard", json!({"text": "Hi"})),
        Step::call("keyboard", json!({"keys": "ctrl+a"})),
        Step::text("Clicked and typed."),
        Step::call("keyboard", json!({"keys": "Return"})),
        Step::text("Pressed Return."),
    ];
    let s = auto(steps).await;
    let run_on_gnome = |task: &str| on_weston(&s, &weston, "GNOME", Some(&front.address), task);
    let run = run_on_gnome("click at 100,200, type Hi and select all");
    done_task(&run);
    assert_eq!(
        front.record().input,
        [
            "absolute 42 100 200",
            "button 272 down",
            "button 272 up",
            "keysym 0x48 down",
            "keysym 0x48 up",
            "keysym 0x69 down",
            "keysym 0x69 up",
            "keysym 0xffe3 down",
            "keysym 0x61 down",
            "keysym 0x61 up",
            "keysym 0xffe3 up",
        ],
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let token = s.home.path().join("portal").join("remote-desktop.token");
    assert_eq!(
        std::fs::read_to_string(&token).ok().as_deref(),
        Some("token-1")
    );

    let run = run_on_gnome("press Return");
    done_task(&run);
    assert_eq!(
        front.record().restored,
        vec![None, Some("token-1".to_string())],
        "the next task hands back what the person allowed"
    );
    assert_eq!(
        std::fs::read_to_string(&token).ok().as_deref(),
        Some("token-2")
    );

    // The doctor says what the person allows once.
    let mut cmd = s.command(&["doctor", "--json"]);
    let doctor = weston
        .on(&mut cmd, "GNOME")
        .env("DBUS_SESSION_BUS_ADDRESS", &front.address)
        .output()
        .expect("doctor");
    let checks: Vec<serde_json::Value> =
        serde_json::from_slice(&doctor.stdout).expect("doctor json");
    let input = checks
        .iter()
        .find(|c| c["name"] == "input")
        .expect("an input line");
    assert_eq!(input["detail"], "the desktop's RemoteDesktop portal");
    assert!(
        input["fix"]
            .as_str()
            .unwrap_or_default()
            .contains("GNOME asks once"),
        "{input}"
    );
    let screen = checks
        .iter()
        .find(|c| c["name"] == "screen")
        .expect("a screen line");
    assert_eq!(
        screen["detail"],
        "the desktop's ScreenCast portal over PipeWire (else its Screenshot portal)",
        "{screen}"
    );
}

/// On GNOME, where the ScreenCast portal gives no frame (no PipeWire here), the screenshot
/// tool takes the screen through the desktop's Screenshot portal (the real front-end, the
/// test's back-end handing out a picture), and a click goes through the real front-end's
/// RemoteDesktop (version 1: asked at every start).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_gnome_the_screenshot_comes_through_the_desktops_portal() {
    let test = "on_gnome_the_screenshot_comes_through_the_desktops_portal";
    if let Some(why) =
        zeta_test_support::wayland::weston_missing().or_else(zeta_test_support::portal::missing)
    {
        cannot_run(Needs::Desktop, test, why);
        return;
    }
    let _serial = SERIAL.lock().await;
    let weston = Weston::start().unwrap_or_else(|e| panic!("{e}"));
    let portal = Portal::start().await.unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("dir");
    let png = dir.path().join("screen.png");
    let mut img = image::RgbaImage::from_pixel(1280, 800, image::Rgba([20, 40, 60, 255]));
    for x in 600..680 {
        for y in 380..420 {
            img.put_pixel(x, y, image::Rgba([250, 0, 0, 255]));
        }
    }
    img.save(&png).expect("the test picture");
    portal.picture(&png);
    let steps = vec![
        Step::call("screenshot", json!({})),
        Step::call("mouse", json!({"action": "click", "x": 640, "y": 400})),
        Step::text("Clicked the red box."),
    ];
    let s = auto(steps).await;
    let run = on_weston(
        &s,
        &weston,
        "GNOME",
        Some(&portal.address),
        "click the red box",
    );
    done_task(&run);
    let results = tool_results(&s);
    assert!(
        results[0].contains("1280x800 screen pixels"),
        "{results:#?}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let shot = last_image(&s).expect("the screenshot was sent as an image");
    let [r, g, b] = shot.get_pixel(640, 400).0;
    assert!(r > 200 && g < 60 && b < 60, "the red box: {:?}", [r, g, b]);
    // The image is the screen's own size, so the click lands where the model saw the box.
    assert_eq!(
        portal.record().input,
        ["absolute 42 640 400", "button 272 down", "button 272 up"]
    );
    let calls = portal.record().calls;
    let asked = |c: &str| calls.iter().any(|x| x == c);
    assert!(
        asked("ScreenCast.Start") && asked("Screenshot.Screenshot"),
        "the screen cast first, then the screenshot: {calls:?}"
    );
}

/// On GNOME with PipeWire, the screenshot tool's picture is a frame of the ScreenCast
/// portal's stream (a red test source), the screen chosen once and the choice kept in
/// Zeta's home; a second screenshot in the same task reuses the session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_gnome_the_screenshot_is_a_frame_of_the_screen_cast() {
    let test = "on_gnome_the_screenshot_is_a_frame_of_the_screen_cast";
    if let Some(why) = zeta_test_support::wayland::weston_missing()
        .or_else(zeta_test_support::portal::missing)
        .or_else(zeta_test_support::portal::screen_missing)
    {
        cannot_run(Needs::Desktop, test, why);
        return;
    }
    let _serial = SERIAL.lock().await;
    let weston = Weston::start().unwrap_or_else(|e| panic!("{e}"));
    let portal = Portal::with_screen()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let steps = vec![
        Step::call("screenshot", json!({})),
        Step::call("screenshot", json!({})),
        Step::text("The screen is red."),
    ];
    let s = auto(steps).await;
    let run = on_weston(
        &s,
        &weston,
        "GNOME",
        Some(&portal.address),
        "what colour is the screen",
    );
    done_task(&run);
    let results = tool_results(&s);
    assert!(
        results[1].contains("1280x800 screen pixels"),
        "{results:#?}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let shot = last_image(&s).expect("the screenshot was sent as an image");
    let [r, g, b] = shot.get_pixel(640, 400).0;
    assert!(
        r > 200 && g < 60 && b < 60,
        "the red source: {:?}",
        [r, g, b]
    );
    let calls = portal.record().calls;
    assert_eq!(
        calls.iter().filter(|c| *c == "ScreenCast.Start").count(),
        1,
        "one session for both screenshots: {calls:?}"
    );
    assert!(
        !calls.iter().any(|c| c == "Screenshot.Screenshot"),
        "{calls:?}"
    );
    let token = s.home.path().join("portal").join("screen-cast.token");
    assert!(token.is_file(), "the choice is kept in Zeta's home");
}

/// On a Wayland desktop Zeta knows no way into (a headless weston presented as niri: no
/// screen copy, no virtual devices, no portal of its own), the screen, mouse and keyboard
/// tools say what is missing and what to use instead; nothing X11 is tried.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_an_unknown_wayland_desktop_each_tool_says_what_is_missing() {
    let test = "on_an_unknown_wayland_desktop_each_tool_says_what_is_missing";
    if let Some(why) = zeta_test_support::wayland::weston_missing() {
        cannot_run(Needs::Desktop, test, why);
        return;
    }
    let _serial = SERIAL.lock().await;
    let weston = Weston::start().unwrap_or_else(|e| panic!("{e}"));
    let steps = vec![
        Step::call("screenshot", json!({})),
        Step::call("mouse", json!({"action": "click", "x": 10, "y": 10})),
        Step::call("keyboard", json!({"text": "hello"})),
        Step::text("I could not reach the screen or the keyboard here."),
    ];
    let s = auto(steps).await;
    let run = on_weston(&s, &weston, "niri", None, "click and type hello");
    finished_task(&run);
    let results = tool_results(&s);
    assert_eq!(results.len(), 3, "{results:#?}");
    assert!(
        results[0].contains("niri offers no wlroots screen copy")
            && results[0].contains("ui_outline reads windows through their accessibility tree"),
        "{}",
        results[0]
    );
    for r in &results[1..] {
        assert!(
            r.contains("niri offers no virtual keyboard and pointer")
                && r.contains("ui_act acts on elements"),
            "{r}"
        );
    }
}
