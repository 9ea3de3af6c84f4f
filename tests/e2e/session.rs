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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_start_shows_the_tray_and_no_window() {
    let Some(_screen) = harness::hold_screen("zeta --hidden") else {
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
    let result = (|| -> TestResult {
        let (x, y) = harness::tray_icon_center()?;
        // Visible windows titled Zeta, other than the tray icon (which GTK names so too).
        let windows = || -> Vec<String> {
            let tray = xdotool(&["search", "--class", "tray-icon"]).unwrap_or_default();
            xdotool(&["search", "--onlyvisible", "--name", "^Zeta$"])
                .unwrap_or_default()
                .lines()
                .filter(|w| !tray.lines().any(|t| t == *w))
                .map(str::to_string)
                .collect()
        };
        std::thread::sleep(Duration::from_secs(2));
        assert!(
            windows().is_empty(),
            "no window after a login start: {:?}",
            windows()
        );
        // The tray's first item opens the chat.
        for _attempt in 0..3 {
            xdotool(&["mousemove", &x.to_string(), &y.to_string(), "click", "1"])?;
            std::thread::sleep(Duration::from_millis(800));
            xdotool(&["key", "Down", "Return"])?;
            if wait_for(Duration::from_secs(5), || {
                (!windows().is_empty()).then_some(())
            })
            .is_some()
            {
                return Ok(());
            }
            xdotool(&["key", "Escape"])?;
        }
        Err("Open chat in the tray did not show the window".into())
    })();
    harness::end_tree(pid);
    let _ = app.wait();
    if let Err(e) = result {
        panic!("zeta --hidden: {e}");
    }
}
