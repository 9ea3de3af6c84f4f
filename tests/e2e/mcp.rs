//! The settings window's MCP section as a person uses it: the `mcpServers` JSON pasted
//! into its box with the keyboard, saved with a click (the token goes to the keyring, not
//! the file), a real server checked with a click and shown running with its tools, and a
//! bad entry named beside the box.

use std::time::Duration;

use serde_json::json;

use crate::harness::{wait_for, with_app_home, App, HomeSetup, TestResult};

fn settings_on_disk(app: &App) -> String {
    std::fs::read_to_string(app.home.path().join("settings.json")).unwrap_or_default()
}

async fn paste_servers(app: &App, text: &str) -> TestResult {
    let box_ = app.find("textarea[aria-label='MCP servers JSON']").await?;
    box_.click().await?;
    box_.clear().await?;
    box_.send_keys(text).await?;
    Ok(())
}

async fn save(app: &App) -> TestResult {
    app.find("[data-testid=save-settings]")
        .await?
        .click()
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_server_is_saved_checked_and_shown_with_its_tools() {
    let Some(py) = zeta_test_support::mcp::python("the MCP settings section") else {
        return;
    };
    let notes = tempfile::tempdir().expect("notes");
    let setup = HomeSetup {
        settings: Some(
            json!({"provider": {"kind": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m"}}),
        ),
        ..HomeSetup::default()
    };
    let pasted = json!({"mcpServers": {"notes": {
        "command": py,
        "args": [zeta_test_support::mcp::server_script("test_server.py"), "stdio", notes.path()],
        "env": {"NOTES_TOKEN": "tok-e2e-4711"},
    }}})
    .to_string();
    with_app_home("mcp settings", setup, async |app: &mut App| -> TestResult {
        app.find("[data-testid=tab-settings]")
            .await?
            .click()
            .await?;
        // A bad entry first: named beside the box, nothing written.
        paste_servers(app, r#"{"broken": {"url": "ftp://nowhere"}}"#).await?;
        save(app).await?;
        let said = app.find(".field-error[data-field='mcpServers']").await?;
        let text = said.text().await?;
        assert!(
            text.contains("broken.url") && text.contains("http"),
            "{text:?}"
        );
        app.snapshot("mcp-bad-entry").await?;
        assert!(
            !settings_on_disk(app).contains("ftp://"),
            "a bad entry is not saved"
        );

        paste_servers(app, &pasted).await?;
        save(app).await?;
        let saved = wait_for(Duration::from_secs(5), || {
            Some(settings_on_disk(app)).filter(|t| t.contains("test_server.py"))
        })
        .ok_or("a click on Save did not save the pasted server")?;
        assert!(
            !saved.contains("tok-e2e-4711"),
            "the token is not in settings.json: {saved}"
        );
        assert!(saved.contains("${secret:mcp-notes-NOTES_TOKEN}"), "{saved}");
        let shown = app
            .find("textarea[aria-label='MCP servers JSON']")
            .await?
            .prop("value")
            .await?
            .unwrap_or_default();
        assert!(
            !shown.contains("tok-e2e-4711") && shown.contains("${secret:mcp-notes-NOTES_TOKEN}"),
            "the box shows the reference, not the token: {shown}"
        );

        app.find("[data-testid=mcp-check]").await?.click().await?;
        let mut shown = String::new();
        for _ in 0..100 {
            if let Ok(row) = app.find("[data-testid=mcp-server][data-state=ready]").await {
                shown = row.text().await.unwrap_or_default();
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(
            shown.contains("running (6 tools)"),
            "the server shows running: {shown:?}"
        );
        assert!(
            shown.contains("notes__read_note"),
            "its tools are listed: {shown:?}"
        );
        app.snapshot("mcp-server-running").await?;

        // Its descriptions: not reviewed yet, read in the window, then trusted.
        app.find("[data-testid=mcp-unreviewed]").await?;
        app.find("[data-testid=mcp-review]").await?.click().await?;
        let list = app
            .find("dl.mcp-descriptions")
            .await?
            .text()
            .await
            .unwrap_or_default();
        assert!(
            list.contains("notes__read_note") && list.contains("Read a note"),
            "the descriptions are shown: {list:?}"
        );
        app.snapshot("mcp-review").await?;
        app.find("[data-testid=mcp-trust]").await?.click().await?;
        let mut reviewed = false;
        for _ in 0..50 {
            if app.find("[data-testid=mcp-reviewed]").await.is_ok() {
                reviewed = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(reviewed, "the window says the descriptions are reviewed");
        let kept =
            std::fs::read_to_string(app.home.path().join("mcp-reviewed.json")).unwrap_or_default();
        assert!(kept.contains("\"notes\""), "the review is kept: {kept}");
        Ok(())
    })
    .await;
}
