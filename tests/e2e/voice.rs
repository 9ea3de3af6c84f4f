//! Push-to-talk in the chat window: the microphone button starts and stops a recording
//! from a file-backed ALSA microphone (an `.asoundrc` in the app's own HOME), the window
//! shows "Listening…", and the command appears in the conversation as a spoken task. The
//! tray's "Start listening" / "Stop listening" item does the same.

use std::time::Duration;

use serde_json::json;

use crate::harness::{
    end_tree, tray_icon_center, wait_for, with_app_home, xdotool, zeta_bin, App, HomeSetup,
    TestResult,
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
            bubble.contains('🎤') && bubble.contains(&message),
            "{bubble}"
        );
        Ok(())
    })
    .await;
}

/// Another Zeta (its own home) holds Ctrl+Alt+Space: this app's window says the hotkey is
/// taken and what to use instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_taken_hotkey_shows_a_banner_with_the_alternatives() {
    if std::env::var_os("DISPLAY").is_none() {
        assert!(
            std::env::var_os("ZETA_E2E_REQUIRED").is_none(),
            "the end-to-end tests need DISPLAY"
        );
        eprintln!("SKIPPED hotkey banner test: no DISPLAY (run through scripts/test.sh)");
        return;
    }
    let other = tempfile::tempdir().expect("home");
    let holder = std::process::Command::new(zeta_bin())
        .env("ZETA_HOME", other.path())
        .env("ZETA_SECRETS", "file")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the other app");
    // Ended by PID however the test ends.
    struct Holder(std::process::Child);
    impl Drop for Holder {
        fn drop(&mut self) {
            end_tree(self.0.id());
            let _ = self.0.wait();
        }
    }
    let _holder = Holder(holder);
    let registered = wait_for(Duration::from_secs(30), || {
        std::fs::read_to_string(other.path().join("voice.json"))
            .ok()
            .filter(|s| s.contains("\"registered\": true"))
    });
    if registered.is_some() {
        with_app_home(
            "hotkey banner",
            HomeSetup::default(),
            async |app: &mut App| -> TestResult {
                let banner = app
                    .find("[data-testid=hotkey-problem]")
                    .await?
                    .text()
                    .await?;
                assert!(
                    banner.contains("Ctrl+Alt+Space")
                        && banner.contains("taken")
                        && banner.contains("zeta listen"),
                    "{banner}"
                );
                Ok(())
            },
        )
        .await;
    }
    assert!(
        registered.is_some(),
        "the other app did not register the hotkey"
    );
}
