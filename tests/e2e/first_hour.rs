//! The first hour as a person walks it (issue 15): Settings saved with real clicks at the
//! default window size and at 360 px wide, and typed text that reaches the composer
//! whatever was clicked before. Only WebDriver clicks and key presses on what is visible.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::{json, Value};

use crate::harness::{wait_for, with_app_home, App, HomeSetup, TestResult};

const ENTER: char = '\u{E007}';

fn settings_on_disk(app: &App) -> String {
    std::fs::read_to_string(app.home.path().join("settings.json")).unwrap_or_default()
}

/// True when the page can be scrolled sideways (something is wider than the window).
async fn overflows_sideways(app: &App) -> Result<bool, Box<dyn std::error::Error>> {
    let wide = app
        .client
        .execute(
            "const s = document.querySelector('.settings'); \
             return document.documentElement.scrollWidth > window.innerWidth \
               || (s !== null && s.scrollWidth > s.clientWidth);",
            vec![],
        )
        .await?;
    Ok(wide.as_bool().unwrap_or(true))
}

/// True when the element lies wholly inside the window's visible area.
async fn in_view(
    app: &App,
    el: &fantoccini::elements::Element,
) -> Result<bool, Box<dyn std::error::Error>> {
    let (x, y, w, h) = el.rectangle().await?;
    let (_, _, win_w, win_h) = app
        .client
        .execute(
            "return [0, 0, window.innerWidth, window.innerHeight];",
            vec![],
        )
        .await
        .map(|v| {
            let n = |i: usize| v[i].as_f64().unwrap_or(0.0);
            (n(0), n(1), n(2), n(3))
        })?;
    Ok(x >= 0.0 && y >= 0.0 && x + w <= win_w + 0.5 && y + h <= win_h + 0.5)
}

/// Changes the model field, sees the change marked as unsaved, saves it with a real click
/// on Save and finds it on disk.
async fn save_a_model_name(app: &App, name: &str, shot: &str) -> TestResult {
    let model = app.find("input[aria-label='Model']").await?;
    model.clear().await?;
    model.send_keys(name).await?;
    let unsaved = app.find("[data-testid=unsaved]").await?;
    assert!(unsaved.is_displayed().await?, "a changed form says so");
    let save = app.find("[data-testid=save-settings]").await?;
    assert!(
        in_view(app, &save).await?,
        "Save is in view without scrolling"
    );
    save.click().await?;
    let want = format!("\"{name}\"");
    let saved = wait_for(Duration::from_secs(5), || {
        Some(settings_on_disk(app)).filter(|t| t.contains(&want))
    });
    app.snapshot(shot).await?;
    if saved.is_none() {
        let status = app
            .find("[data-testid=settings-status]")
            .await?
            .text()
            .await?;
        return Err(format!("a real click on Save did not save {name}; status {status:?}").into());
    }
    let left = app
        .client
        .find_all(Locator::Css("[data-testid=unsaved]"))
        .await?;
    assert!(left.is_empty(), "saved: nothing is marked unsaved");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_save_with_a_real_click_at_the_default_size_and_360_wide() {
    let setup = HomeSetup {
        settings: Some(
            json!({"provider": {"kind": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m"}}),
        ),
        ..HomeSetup::default()
    };
    with_app_home(
        "settings by mouse",
        setup,
        async |app: &mut App| -> TestResult {
            app.find("[data-testid=tab-settings]")
                .await?
                .click()
                .await?;
            app.find("[data-testid=save-settings]").await?;
            assert!(
                !overflows_sideways(app).await?,
                "no sideways scrolling at the default size"
            );
            save_a_model_name(app, "model-at-default-size", "settings-saved").await?;

            app.resize(360, 640).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert!(
                !overflows_sideways(app).await?,
                "no sideways scrolling at 360 px"
            );
            save_a_model_name(app, "model-at-360", "settings-saved-360").await?;

            // A bad value: the reason is beside its field and summarised where the user is
            // looking (next to Save), and nothing is written.
            let url = app.find("input[aria-label='Base URL']").await?;
            url.clear().await?;
            url.send_keys("ftp://not-a-model-server").await?;
            app.find("[data-testid=save-settings]")
                .await?
                .click()
                .await?;
            let status = app.find("[data-testid=settings-status]").await?;
            let said = wait_text(&status, "Not saved").await?;
            assert!(
                said.contains("Base URL"),
                "the summary names the field: {said:?}"
            );
            assert!(
                in_view(app, &status).await?,
                "the summary is in view beside Save"
            );
            let beside = app
                .find(".field-error[data-field='provider.baseUrl']")
                .await?;
            assert!(beside.text().await?.contains("http://"));
            app.snapshot("settings-invalid-360").await?;
            assert!(
                !settings_on_disk(app).contains("ftp://"),
                "an invalid value is not saved"
            );
            Ok(())
        },
    )
    .await;
}

async fn wait_text(
    el: &fantoccini::elements::Element,
    want: &str,
) -> Result<String, Box<dyn std::error::Error>> {
    for _ in 0..50 {
        let text = el.text().await?;
        if text.contains(want) {
            return Ok(text);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(format!("never said {want:?}").into())
}

fn queued(app: &App, message: &str) -> Option<Value> {
    app.queue()
        .ok()?
        .into_iter()
        .find(|t| t["message"] == message)
}

/// Types a request without clicking anywhere first and sends it with Enter.
async fn type_and_send(app: &App, text: &str) -> TestResult {
    app.type_keys(text).await?;
    app.type_keys(&ENTER.to_string()).await?;
    let found = wait_for(Duration::from_secs(10), || queued(app, text));
    if found.is_none() {
        app.snapshot("typed-text-lost").await?;
        return Err(format!("{text:?}, typed without a click, never reached the queue").into());
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_text_reaches_the_composer_after_ctrl_1_and_after_onboarding() {
    let setup = HomeSetup {
        fresh: true,
        ..HomeSetup::default()
    };
    with_app_home(
        "typing without a click",
        setup,
        async |app: &mut App| -> TestResult {
            app.find("[data-testid=onboarding]").await?;
            app.find("[data-testid=onboarding-finish]")
                .await?
                .click()
                .await?;
            type_and_send(app, "typed right after onboarding").await?;

            app.find("[data-testid=tab-settings]")
                .await?
                .click()
                .await?;
            app.find("[data-testid=save-settings]").await?;
            app.press_ctrl('1').await?;
            type_and_send(app, "typed after ctrl 1").await?;

            // Clicking an empty part of the chat and then typing still reaches the composer.
            app.find("[data-testid=tab-queue]").await?.click().await?;
            app.find("[data-testid=tab-chat]").await?.click().await?;
            type_and_send(app, "typed after the chat tab").await?;
            Ok(())
        },
    )
    .await;
}
