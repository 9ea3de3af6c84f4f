//! Skills in the window as a person uses them: Settings → Skills lists Zeta's own and
//! the person's (a malformed one named, one from elsewhere marked untrusted), shows one,
//! trusts one, turns one off, writes a new one and deletes it — all by clicks and typing,
//! each checked on disk. And a task that worked offers "Save as a skill": the draft, its
//! values made parameters, is saved only when Save is clicked.

use std::time::Duration;

use serde_json::json;

use crate::harness::{
    shell_then_answer, task_done as done, wait_for, with_app_settings, App, TestResult,
};

fn state(app: &App) -> serde_json::Value {
    std::fs::read_to_string(app.home.path().join("skills.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn write_skill(dir: &std::path::Path, folder: &str, text: &str) {
    std::fs::create_dir_all(dir.join(folder)).expect("folder");
    std::fs::write(dir.join(folder).join("SKILL.md"), text).expect("skill");
}

async fn skill_row(
    app: &App,
    name: &str,
) -> Result<fantoccini::elements::Element, Box<dyn std::error::Error>> {
    app.find(&format!("[data-testid=skill][data-name='{name}']"))
        .await
}

async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_lists_shows_trusts_switches_writes_and_deletes_skills() {
    let settings =
        json!({"provider": {"kind": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m"}});
    with_app_settings("skills in settings", Some(settings), async |app: &App| -> TestResult {
        // Pasted from elsewhere before the window looks: one good, one broken.
        let skills = app.home.path().join("skills");
        write_skill(
            &skills,
            "pdf-merge",
            "---\nname: pdf-merge\ndescription: Merge several PDF files into one.\n---\n# Merge PDFs\n\n```sh\npdfunite A.pdf B.pdf OUT.pdf\n```\n",
        );
        write_skill(&skills, "broken", "---\nname: [oops\n---\n");
        app.find("[data-testid=tab-settings]").await?.click().await?;
        let panel = app.find("[data-testid=skills]").await?;
        panel.click().await.ok();
        let problem = app.find("[data-testid=skill-problem]").await?.text().await?;
        assert!(problem.contains("broken") && problem.contains("YAML"), "{problem}");
        let row = skill_row(app, "pdf-merge").await?;
        let text = row.text().await?;
        assert!(text.contains("yours") && text.contains("untrusted"), "{text}");
        assert!(text.contains("not used yet"), "{text}");
        // Built in ones are there too.
        skill_row(app, "disk-space").await?;
        app.snapshot("skills-list").await?;

        // Shown whole.
        app.find("button[aria-label='Show pdf-merge']").await?.click().await?;
        let body = app.find("[data-testid=skill-body]").await?.text().await?;
        assert!(body.contains("pdfunite"), "{body}");

        // Trusted as it is now.
        app.find("button[aria-label='Trust pdf-merge']").await?.click().await?;
        wait_for(Duration::from_secs(5), || {
            state(app)["trusted"]["pdf-merge"].is_string().then_some(())
        })
        .ok_or("a click on Trust did not record the trust")?;
        settle().await;
        let text = skill_row(app, "pdf-merge").await?.text().await?;
        assert!(!text.contains("untrusted"), "{text}");

        // A built-in turned off with its switch.
        let switch = app.find("input[aria-label='Use disk-space']").await?;
        switch.click().await?;
        wait_for(Duration::from_secs(5), || {
            state(app)["disabled"]
                .as_array()
                .is_some_and(|d| d.iter().any(|n| n == "disk-space"))
                .then_some(())
        })
        .ok_or("unticking disk-space did not turn it off")?;

        // A new one, typed in.
        app.find("[data-testid=new-skill]").await?.click().await?;
        let name = app.find("input[aria-label='Skill name']").await?;
        name.click().await?;
        name.send_keys("Weekly Report").await?;
        let said = app.find("[data-testid=skill-name-problem]").await?.text().await?;
        assert!(said.contains("lower-case"), "{said}");
        name.clear().await?;
        name.send_keys("weekly-report").await?;
        let description = app.find("input[aria-label='Skill description']").await?;
        description.click().await?;
        description.send_keys("Make the weekly report from the notes folder.").await?;
        let body = app.find("textarea[aria-label='Skill instructions']").await?;
        body.click().await?;
        body.send_keys("1. Count the notes.\u{E007}2. Write report.txt.").await?;
        app.snapshot("skills-new").await?;
        app.find("[data-testid=save-skill]").await?.click().await?;
        let written = skills.join("weekly-report").join("SKILL.md");
        wait_for(Duration::from_secs(5), || written.exists().then_some(()))
            .ok_or("Save skill did not write the skill")?;
        let text = std::fs::read_to_string(&written)?;
        assert!(
            text.contains("Make the weekly report")
                && text.contains("1. Count the notes.\n2. Write report.txt."),
            "Enter makes a new line in the instructions: {text}"
        );
        assert!(state(app)["trusted"]["weekly-report"].is_string(), "what the person writes is trusted");
        settle().await;
        skill_row(app, "weekly-report").await?;

        // Deleted, after the one question.
        app.find("button[aria-label='Delete weekly-report']").await?.click().await?;
        app.find("button[aria-label='Yes, delete weekly-report']").await?.click().await?;
        wait_for(Duration::from_secs(5), || (!written.exists()).then_some(()))
            .ok_or("Delete did not remove the skill's folder")?;
        // Built-ins have no Delete.
        assert!(app.find("button[aria-label='Delete disk-space']").await.is_err());
        app.snapshot("skills-after").await?;
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_that_worked_is_saved_as_a_skill_only_when_saved() {
    let work = tempfile::tempdir().expect("work");
    let logs = work.path().join("logs");
    std::fs::create_dir_all(&logs).expect("logs");
    std::fs::write(logs.join("big.log"), "a\nb\nc\n").expect("log");
    let command = format!("tail -n 2 {}/big.log", logs.display());
    let (_server, settings) = shell_then_answer(&command, "The last 2 lines are b and c.").await;
    let request = format!("show me the last 2 lines of {}/big.log", logs.display());
    with_app_settings(
        "save as a skill",
        Some(settings),
        async |app: &App| -> TestResult {
            let composer = app.find("textarea[aria-label=Message]").await?;
            composer.send_keys(&request).await?;
            composer.send_keys("\u{E007}").await?; // Enter
            wait_for(Duration::from_secs(30), || {
                done(app, &request).then_some(())
            })
            .ok_or("the task did not finish")?;
            app.find("[data-testid=save-as-skill]")
                .await?
                .click()
                .await?;
            let description = app.find("input[aria-label='Skill description']").await?;
            let drafted = description.prop("value").await?.unwrap_or_default();
            assert_eq!(drafted, "show me the last N lines of FILE");
            let body = app
                .find("textarea[aria-label='Skill instructions']")
                .await?
                .prop("value")
                .await?
                .unwrap_or_default();
            assert!(body.contains("tail -n N FILE"), "{body}");
            assert!(
                !body.contains("big.log"),
                "no value of the task is kept: {body}"
            );
            // Nothing is saved by the offer alone.
            let skills = app.home.path().join("skills");
            assert!(!skills.exists() || std::fs::read_dir(&skills)?.next().is_none());
            let name = app.find("input[aria-label='Skill name']").await?;
            name.click().await?;
            name.clear().await?;
            name.send_keys("last-lines-of-a-log").await?;
            app.snapshot("save-as-skill").await?;
            app.find("[data-testid=save-skill]").await?.click().await?;
            let saved = app.find("[data-testid=skill-saved]").await?.text().await?;
            assert!(saved.contains("last-lines-of-a-log"), "{saved}");
            let text =
                std::fs::read_to_string(skills.join("last-lines-of-a-log").join("SKILL.md"))?;
            assert!(text.contains("tail -n N FILE"), "{text}");
            assert!(state(app)["trusted"]["last-lines-of-a-log"].is_string());
            Ok(())
        },
    )
    .await;
}
