//! Push-to-talk in the chat window: the microphone button starts and stops a recording
//! from a file-backed ALSA microphone (an `.asoundrc` in the app's own HOME), the window
//! shows "Listening…", and the command appears in the conversation as a spoken task.

use std::time::Duration;

use serde_json::json;

use crate::harness::{wait_for, with_app_home, App, HomeSetup, TestResult};
use crate::voice_support::{asoundrc, mic_file, model, words, Model};

const COMMAND: &str = "How much free disk space do I have";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_microphone_button_records_and_the_chat_shows_the_spoken_task() {
    let Some(tiny) = model(Model::TinyEn) else {
        return;
    };
    let user = tempfile::tempdir().expect("user home");
    let mic = mic_file(user.path(), Some(COMMAND));
    asoundrc(user.path(), &mic);
    let setup = HomeSetup {
        settings: Some(json!({"voice": {"model": tiny.display().to_string()}})),
        env: vec![("HOME".into(), user.path().display().to_string())],
        ..HomeSetup::default()
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

        let task = wait_for(Duration::from_secs(60), || {
            app.queue()
                .ok()?
                .into_iter()
                .find(|t| t["sender"] == "voice")
        });
        let Some(task) = task else {
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
