//! Starting with the session: the settings' checkbox, saved with a click, writes the XDG
//! autostart entry (and removes it when unticked), and `zeta --hidden`, as that entry
//! starts it, comes up in the tray with no window shown.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::harness::{self, wait_for, with_app_home, xdotool, App, HomeSetup, TestResult};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_login_start_is_set_and_unset_from_the_settings() {
    let config = tempfile::tempdir().expect("config");
    let entry = config.path().join("autostart/zeta.desktop");
    let setup = HomeSetup {
        settings: Some(
            json!({"provider": {"kind": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m"}}),
        ),
        env: vec![(
            "XDG_CONFIG_HOME".into(),
            config.path().display().to_string(),
        )],
        ..HomeSetup::default()
    };
    with_app_home(
        "start with the session",
        setup,
        async |app: &mut App| -> TestResult {
            app.find("[data-testid=tab-settings]")
                .await?
                .click()
                .await?;
            let tick = async |app: &App| -> TestResult {
                app.find("[data-testid=start-with-session]")
                    .await?
                    .click()
                    .await?;
                app.find("[data-testid=save-settings]")
                    .await?
                    .click()
                    .await?;
                Ok(())
            };
            tick(app).await?;
            let text = wait_for(Duration::from_secs(5), || {
                std::fs::read_to_string(&entry).ok()
            })
            .ok_or("ticking the box and saving did not write the autostart entry")?;
            let bin = harness::zeta_bin().canonicalize()?;
            assert!(
                text.contains(&format!("Exec={} --hidden", bin.display())),
                "{text}"
            );
            app.snapshot("start-with-session").await?;
            tick(app).await?;
            wait_for(Duration::from_secs(5), || (!entry.exists()).then_some(()))
                .ok_or("unticking and saving did not remove the entry")?;
            Ok(())
        },
    )
    .await;
}

/// `zeta --hidden` on a fresh home (settings written, `XDG_CONFIG_HOME` in the home), run
/// by `body` with its PID and home, then ended by PID.
fn with_hidden_app(name: &str, body: impl FnOnce(u32, &std::path::Path) -> TestResult) {
    let Some(_screen) = harness::hold_screen(name) else {
        return;
    };
    let home = tempfile::tempdir().expect("home");
    std::fs::write(
        home.path().join("settings.json"),
        json!({"provider": {"kind": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m"}})
            .to_string(),
    )
    .expect("settings");
    let mut app = Command::new(harness::zeta_bin())
        .arg("--hidden")
        .env("ZETA_HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start zeta --hidden");
    let pid = app.id();
    let result = body(pid, home.path());
    harness::end_tree(pid);
    let _ = app.wait();
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

/// Visible windows titled Zeta, other than the tray icon (which GTK names so too).
fn chat_windows() -> Vec<String> {
    let tray = xdotool(&["search", "--class", "tray-icon"]).unwrap_or_default();
    xdotool(&["search", "--onlyvisible", "--name", "^Zeta$"])
        .unwrap_or_default()
        .lines()
        .filter(|w| !tray.lines().any(|t| t == *w))
        .map(str::to_string)
        .collect()
}

/// Started at login, Zeta sits in the tray with no window and no web process at all; the
/// tray's Open chat makes the window, with its web process, and shows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_start_holds_no_web_process_until_the_chat_is_opened() {
    with_hidden_app("zeta --hidden", |pid, _home| {
        harness::tray_icon_center()?;
        std::thread::sleep(Duration::from_secs(2));
        assert!(
            chat_windows().is_empty(),
            "no window after a login start: {:?}",
            chat_windows()
        );
        assert_eq!(
            harness::web_processes(pid),
            0,
            "a Zeta in the tray holds no web process"
        );
        harness::tray_pick(1, || !chat_windows().is_empty())?;
        wait_for(Duration::from_secs(10), || {
            (harness::web_processes(pid) == 1).then_some(())
        })
        .ok_or("the opened chat has no web process")?;
        Ok(())
    });
}

/// The tray's "Start Zeta when I log in" turns the login start on (the setting saved, the
/// autostart entry written) and, picked again, off (entry removed); the settings file's
/// other entries stay as they were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tray_turns_the_login_start_on_and_off() {
    with_hidden_app("the tray's login start", |_pid, home| {
        let entry = home.join("config/autostart/zeta.desktop");
        let setting = || -> Option<bool> {
            let text = std::fs::read_to_string(home.join("settings.json")).ok()?;
            let value: serde_json::Value = serde_json::from_str(&text).ok()?;
            value.get("startWithSession")?.as_bool()
        };
        harness::tray_pick(4, || entry.exists())?;
        assert_eq!(setting(), Some(true), "the setting follows the tray");
        let text = std::fs::read_to_string(&entry)?;
        assert!(text.contains("--hidden"), "{text}");
        let saved: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(home.join("settings.json"))?)?;
        assert_eq!(
            saved["provider"]["baseUrl"], "http://127.0.0.1:9/v1",
            "the other settings are kept: {saved}"
        );
        harness::tray_pick(4, || !entry.exists())?;
        assert_eq!(setting(), Some(false));
        Ok(())
    });
}
