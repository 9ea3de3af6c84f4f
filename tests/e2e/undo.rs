//! Undo in the chat, by real clicks: a finished task shows "Changed 2 files", opens to the
//! files with a diff, and its Undo button puts the files back; Redo brings the task's
//! changes back.

use std::time::Duration;

use crate::harness::{
    shell_then_answer, task_done as done, wait_for, with_app_settings, App, TestResult,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_and_redo_are_a_click_on_the_finished_task() {
    let work = tempfile::tempdir().expect("work");
    let notes = work.path().join("notes.txt");
    let old = work.path().join("old.log");
    std::fs::write(&notes, "status: draft\n").expect("notes");
    std::fs::write(&old, "old\n").expect("log");
    let command = format!(
        "sed -i s/draft/final/ {} && rm {}",
        notes.display(),
        old.display()
    );
    let (_server, settings) =
        shell_then_answer(&command, "Zeta: the notes say final and the log is gone.").await;
    let request = "mark the notes final and remove the old log";
    with_app_settings(
        "undo in the chat",
        Some(settings),
        async |app: &App| -> TestResult {
            let composer = app.find("textarea[aria-label=Message]").await?;
            composer.send_keys(request).await?;
            composer.send_keys("\u{E007}").await?; // Enter
            wait_for(Duration::from_secs(30), || done(app, request).then_some(()))
                .ok_or("the task did not finish")?;
            assert_eq!(std::fs::read_to_string(&notes)?, "status: final\n");
            assert!(!old.exists());

            let summary = app.find("[data-testid=files-summary]").await?;
            assert_eq!(summary.text().await?, "Changed 2 files");
            summary.click().await?;
            let diff = app.find("[data-testid=file-diff]").await?.text().await?;
            assert!(
                diff.contains("-status: draft") && diff.contains("+status: final"),
                "{diff}"
            );
            app.snapshot("chat-task-changes").await?;

            app.find("[data-testid=undo]").await?.click().await?;
            let outcome = app.find("[data-testid=undo-outcome]").await?.text().await?;
            assert!(outcome.contains("restored"), "{outcome}");
            assert_eq!(std::fs::read_to_string(&notes)?, "status: draft\n");
            assert_eq!(std::fs::read_to_string(&old)?, "old\n");
            app.snapshot("chat-task-undone").await?;

            app.find("[data-testid=redo]").await?.click().await?;
            wait_for(Duration::from_secs(10), || (!old.exists()).then_some(()))
                .ok_or("redo did not bring the change back")?;
            assert_eq!(std::fs::read_to_string(&notes)?, "status: final\n");
            app.find("[data-testid=undo]").await?;
            Ok(())
        },
    )
    .await;
}
