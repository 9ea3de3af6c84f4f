//! Push-to-talk in the chat window: the microphone button starts and stops a recording
//! from a file-backed ALSA microphone (an `.asoundrc` in the app's own HOME), the window
//! shows "Listening…", and the command appears in the conversation as a spoken task. The
//! tray's "Start listening" / "Stop listening" item does the same.

use std::time::Duration;

use serde_json::json;

use crate::harness::{
    tray_icon_center, wait_for, with_app_home, xdotool, App, HomeSetup, TestResult,
};
use crate::voice_support::{asoundrc, mic_file, model, words, Model};

const COMMAND: &str = "How much free disk space do I have";

/// A home whose voice model is tiny.en and whose HOME (for ALSA) plays [`COMMAND`].
fn voice_home() -> Option<(tempfile::TempDir, HomeSetup)> {
    let tiny = model(Model::TinyEn)?;
    let user = tempfile::tempdir().expect("user home");
    let mic = mic_file(user.path(), Some(COMMAND));
    asoundrc(user.path(), &mic);
    let setup = HomeSetup {
        settings: Some(json!({"voice": {"model": tiny.display().to_string()}})),
        env: vec![("HOME".into(), user.path().display().to_string())],
        ..HomeSetup::default()
    };
    Some((user, setup))
}

fn voice_task(app: &App) -> Option<serde_json::Value> {
    app.queue()
        .ok()?
        .into_iter()
        .find(|t| t["sender"] == "voice")
}

fn listen_status(app: &App) -> String {
    app.zeta(&["listen", "status"])
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tray_item_starts_and_stops_listening() {
    let Some((_user, setup)) = voice_home() else {
        return;
    };
    with_app_home("voice tray", setup, async |app: &mut App| -> TestResult {
        app.find("header h1").await?;
        let (x, y) = tray_icon_center()?;
        // The menu: Open chat, Start/Stop listening, Pause queue, Quit. Down twice selects
        // the listening item.
        let choose = async || -> TestResult {
            xdotool(&["mousemove", &x.to_string(), &y.to_string(), "click", "1"])?;
            tokio::time::sleep(Duration::from_millis(800)).await;
            xdotool(&["key", "Down", "Down", "Return"])?;
            Ok(())
        };
        choose().await?;
        let listening = wait_for(Duration::from_secs(5), || {
            (listen_status(app) == "listening").then_some(())
        });
        assert!(listening.is_some(), "the tray item did not start listening");
        tokio::time::sleep(Duration::from_secs(4)).await;
        choose().await?;
        let Some(task) = wait_for(Duration::from_secs(60), || voice_task(app)) else {
            return Err("no task from voice within 60 s of Stop listening".into());
        };
        let message = task["message"].as_str().unwrap_or_default().to_string();
        assert_eq!(words(&message), words(COMMAND), "heard {message:?}");
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_microphone_button_records_and_the_chat_shows_the_spoken_task() {
    let Some((_user, setup)) = voice_home() else {
        return;
    };
    with_app_home("voice button", setup, async |app: &mut App| -> TestResult {
        app.find("[data-testid=voice] button")
            .await?
            .click()
            .await?;
        let state = app.find("[data-testid=voice-state]").await?.text().await?;
        assert!(state.starts_with("Listening"), "{state}");
        tokio::time::sleep(Duration::from_secs(4)).await;
        app.find("[data-testid=voice] button")
            .await?
            .click()
            .await?;

        let Some(task) = wait_for(Duration::from_secs(60), || voice_task(app)) else {
            return Err("no task from voice within 60 s".into());
        };
        let message = task["message"].as_str().unwrap_or_default().to_string();
        assert_eq!(words(&message), words(COMMAND), "heard {message:?}");
        let bubble = app
            .find(&format!("[data-task-id=\"{}\"] .bubble.user", task["id"]))
            .await?
            .text()
            .await?;
        assert!(
            bubble.contains("(spoken)") && bubble.contains(&message),
            "{bubble}"
        );
        Ok(())
    })
    .await;
}

/// Another X client (this test, through x11rb) holds Ctrl+Alt+F9, the app's configured
/// hotkey: the window says the hotkey is taken and what to use instead. (A key no other
/// test uses, so the apps of tests running beside this one are not affected.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_taken_hotkey_shows_a_banner_with_the_alternatives() {
    if std::env::var_os("DISPLAY").is_none() {
        let why = "no DISPLAY (run through scripts/test.sh)";
        zeta_test_support::cannot_run(zeta_test_support::Needs::Desktop, "hotkey banner test", why);
        return;
    }
    let grab = grab_ctrl_alt_f9().expect("grab Ctrl+Alt+F9 on the test display");
    let setup = HomeSetup {
        settings: Some(json!({"hotkey": {"pushToTalk": "Ctrl+Alt+F9"}})),
        ..HomeSetup::default()
    };
    with_app_home(
        "hotkey banner",
        setup,
        async |app: &mut App| -> TestResult {
            let found = app.find("[data-testid=hotkey-problem]").await;
            let Ok(banner) = found else {
                let ours = std::fs::read_to_string(app.home.path().join("voice.json"));
                return Err(format!("no banner; this app's voice.json: {ours:?}").into());
            };
            let banner = banner.text().await?;
            assert!(
                banner.contains("Ctrl+Alt+F9")
                    && banner.contains("taken")
                    && banner.contains("zeta listen"),
                "{banner}"
            );
            Ok(())
        },
    )
    .await;
    drop(grab);
}

/// Grabs Ctrl+Alt+F9 on the root window the way global-hotkey does; released on drop.
fn grab_ctrl_alt_f9() -> Result<x11rb::rust_connection::RustConnection, Box<dyn std::error::Error>>
{
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, GrabMode, ModMask};
    const XK_F9: u32 = 0xffc6;
    let (conn, screen) = x11rb::connect(None)?;
    let root = conn.setup().roots[screen].root;
    let (min, max) = (conn.setup().min_keycode, conn.setup().max_keycode);
    let map = conn.get_keyboard_mapping(min, max - min + 1)?.reply()?;
    let per = usize::from(map.keysyms_per_keycode.max(1));
    let index = map
        .keysyms
        .chunks(per)
        .position(|syms| syms.contains(&XK_F9))
        .ok_or("no keycode for F9")?;
    let keycode = min + u8::try_from(index)?;
    conn.grab_key(
        false,
        root,
        ModMask::CONTROL | ModMask::M1,
        keycode,
        GrabMode::ASYNC,
        GrabMode::ASYNC,
    )?
    .check()?;
    conn.flush()?;
    Ok(conn)
}

/// A fresh install has no speech model: the microphone button records nothing (no ALSA
/// error from a sound card it never needed) and offers to download the model; a download
/// that cannot reach its host says so in plain words; × clears the note; Settings' Voice
/// offers the same download.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_microphone_with_no_speech_model_offers_to_download_it() {
    // A port nobody listens on, as the model mirror: the download cannot reach it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let setup = HomeSetup {
        env: vec![("HF_ENDPOINT".into(), format!("http://127.0.0.1:{port}"))],
        ..HomeSetup::default()
    };
    with_app_home(
        "no speech model",
        setup,
        async |app: &mut App| -> TestResult {
            app.find("button[aria-label='Speak a command']")
                .await?
                .click()
                .await?;
            let note = app.find("[data-testid=voice-note]").await?.text().await?;
            assert!(note.contains("needs a speech model"), "{note}");
            let voice = app.find("[data-testid=voice]").await?;
            assert_eq!(
                voice.attr("data-state").await?.as_deref(),
                Some("idle"),
                "nothing records"
            );
            let alerts = app
                .client
                .find_all(fantoccini::Locator::Css("[data-testid=voice] [role=alert]"))
                .await?;
            assert!(alerts.is_empty(), "no error from the sound card");
            let download = app
                .find("[data-testid=voice] [data-testid=model-download-start]")
                .await?;
            assert_eq!(download.text().await?, "Download the speech model (148 MB)");
            app.snapshot("voice-no-model").await?;
            download.click().await?;
            let deadline = std::time::Instant::now() + Duration::from_secs(40);
            let mut text = String::new();
            while !text.contains("Could not reach") && std::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(300)).await;
                text = app
                    .find("[data-testid=voice] [data-testid=model-download-line]")
                    .await?
                    .text()
                    .await?;
            }
            assert!(
                text.contains("Could not reach 127.0.0.1")
                    && !text.contains("error sending request"),
                "{text}"
            );
            let again = app
                .find("[data-testid=voice] [data-testid=model-download-start]")
                .await?;
            assert_eq!(again.text().await?, "Try again");
            app.snapshot("voice-download-unreachable").await?;
            app.find("[data-testid=voice-dismiss]")
                .await?
                .click()
                .await?;
            let left = app
                .client
                .find_all(fantoccini::Locator::Css("[data-testid=voice-note]"))
                .await?;
            assert!(left.is_empty(), "× clears the note");
            app.find("[data-testid=tab-settings]")
                .await?
                .click()
                .await?;
            let missing = app.find("[data-testid=voice-model-missing]").await?;
            assert!(missing.text().await?.contains("ggml-base.bin"));
            Ok(())
        },
    )
    .await;
}
