//! The confirmation dialog end to end: the real app, its `confirm` window driven through
//! WebDriver, and the scripted LLM proposing plans over HTTP. Also the webview hardening:
//! the dialog may not call the chat's commands, and no window may reach the network.

use std::time::Duration;

use serde_json::{json, Value};
use zeta_scripted_llm::{ScriptedServer, Step};

use crate::harness::{self, wait_for, with_app_settings, xdotool, App, TestResult};

const CONFIRM_TITLE: &str = "Zeta — confirm";

fn settings(server: &ScriptedServer) -> Value {
    json!({
        "provider": {"kind": "openai", "baseUrl": server.openai_base_url(), "model": "scripted",
                     "protocol": "tools", "stream": true, "maxAttempts": 1},
        "permissions": {"mode": "ask", "approvalTimeoutSecs": 90}
    })
}

fn touch_step(description: &str, command: String) -> Value {
    json!({"description": description, "tool": "shell", "params": {"command": command}})
}

fn task_status(app: &App, message: &str) -> Option<String> {
    app.queue()
        .ok()?
        .into_iter()
        .find(|t| t["message"] == message)
        .and_then(|t| t["status"].as_str().map(str::to_string))
        .filter(|s| s == "done" || s == "failed" || s == "cancelled")
}

fn visible_window(name: &str) -> Option<String> {
    xdotool(&["search", "--onlyvisible", "--name", name])
        .ok()
        .filter(|s| !s.trim().is_empty())
}

/// A scripted model that asks to `touch` `made`, then replies `reply`.
async fn touch_then_say(made: &std::path::Path, reply: &str) -> ScriptedServer {
    ScriptedServer::start(vec![
        Step::call(
            "shell",
            json!({"command": format!("touch {}", made.display())}),
        ),
        Step::text(reply),
    ])
    .await
    .expect("scripted server")
}

/// Runs a script in the current window and waits for its callback's value.
async fn run_js(app: &App, script: &str) -> Result<Value, Box<dyn std::error::Error>> {
    Ok(app.client.execute_async(script, vec![]).await?)
}

/// A window's left edge and width on the screen, by its title.
fn window_span(name: &str) -> Option<(i64, i64)> {
    let id = visible_window(name)?;
    let id = id.lines().next()?.to_string();
    let geometry = xdotool(&["getwindowgeometry", "--shell", &id]).ok()?;
    let field = |key: &str| {
        geometry
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .and_then(|v| v.parse::<i64>().ok())
    };
    Some((field("X")?, field("WIDTH")?))
}

/// A plan waits for the dialog, which shows the request it serves beside the chat and
/// what each step will do: a file's change as a diff against what it holds. A step is
/// edited field by field (a file's text as text), one is skipped; they run as approved,
/// and the chat says the skipped step did not run, whatever the reply claims.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dialog_approves_a_plan_with_an_edited_and_a_skipped_step() {
    let work = tempfile::tempdir().expect("work");
    let p = |name: &str| work.path().join(name);
    std::fs::write(p("notes.txt"), "keep this\nold line\n").expect("notes");
    let plan = json!({
        "goal": "Make two files",
        "steps": [
            {"description": "update the notes", "tool": "write_file",
             "params": {"path": p("notes.txt"), "content": "keep this\nnew line\n"}},
            touch_step("first file", format!("touch {}", p("a").display())),
            touch_step("second file", format!("touch {}", p("b").display())),
        ],
        "risks": ["creates two files"]
    });
    let server = ScriptedServer::start(vec![
        Step::call("propose_plan", plan),
        Step::text("Zeta: all three steps done"),
    ])
    .await
    .expect("scripted server");
    let edited = format!("sleep 2; touch {}", p("a-edited").display());
    with_app_settings(
        "plan dialog",
        Some(settings(&server)),
        async |app: &App| -> TestResult {
            app.find("header h1").await?;
            let out = app.zeta(&["enqueue", "make two files"])?;
            assert!(out.status.success());

            wait_for(Duration::from_secs(20), || visible_window(CONFIRM_TITLE))
                .ok_or("the confirmation dialog did not appear")?;
            // Beside the chat, covering as little of it as the screen allows: the chat
            // (480 px, centred on 1280) has 400 px either side, so at most 80 px.
            let chat = window_span("^Zeta$").ok_or("the chat window")?;
            let dialog = window_span(CONFIRM_TITLE).ok_or("the dialog window")?;
            assert!(
                dialog.0 >= 0 && dialog.0 + dialog.1 <= 1280,
                "the dialog is wholly on the screen: {dialog:?}"
            );
            let overlap = (chat.0 + chat.1).min(dialog.0 + dialog.1) - chat.0.max(dialog.0);
            assert!(
                overlap <= 80,
                "the dialog covers {overlap} px of the chat: chat {chat:?}, dialog {dialog:?}"
            );
            app.switch_to(CONFIRM_TITLE).await?;
            let title = app
                .find("[data-testid=confirm-title]")
                .await?
                .text()
                .await?;
            assert_eq!(title, "Plan: Make two files");
            let asked = app.find("[data-testid=asked]").await?.text().await?;
            assert!(asked.contains("make two files"), "{asked}");
            // The write shows as a diff against what the file holds.
            let diff = app
                .find("[data-index='0'] [data-testid=file-diff]")
                .await?
                .text()
                .await?;
            assert!(
                diff.contains("-old line")
                    && diff.contains("+new line")
                    && diff.contains(" keep this"),
                "{diff}"
            );
            let command = app
                .find("[data-index='1'] [data-testid=will-do]")
                .await?
                .text()
                .await?;
            assert!(command.contains("touch"), "{command}");
            tokio::time::sleep(Duration::from_millis(500)).await;
            assert!(
                !p("a").exists() && !p("b").exists(),
                "nothing runs before approval"
            );
            app.snapshot("plan-dialog").await?;

            // The file's text is edited as text: its line breaks are line breaks.
            app.find("[data-index='0'] [data-testid=edit]")
                .await?
                .click()
                .await?;
            let content = app
                .find("[data-index='0'] [data-testid=edit-field][data-key=content]")
                .await?;
            let shown = content.prop("value").await?.unwrap_or_default();
            assert_eq!(shown, "keep this\nnew line\n", "no JSON escapes");
            content.click().await?;
            app.press_ctrl(char::from(fantoccini::key::Key::End))
                .await?;
            app.type_keys("added line\n").await?;
            app.find("[data-index='1'] [data-testid=edit]")
                .await?
                .click()
                .await?;
            let params = app
                .find("[data-index='1'] [data-testid=edit-field][data-key=command]")
                .await?;
            params.click().await?;
            app.press_ctrl('a').await?;
            app.type_keys(&edited).await?;
            app.find("[data-index='2'] [data-testid=skip]")
                .await?
                .click()
                .await?;
            app.find("[data-index='2'] [data-testid=skipped-note]")
                .await?;
            app.snapshot("plan-dialog-edited").await?;
            app.find("[data-testid=approve]").await?.click().await?;

            // The chat shows the edited step running.
            app.switch_to("Zeta").await?;
            app.find("[data-testid=plan-step][data-status=running]")
                .await?;
            wait_for(Duration::from_secs(30), || {
                task_status(app, "make two files")
            })
            .ok_or("the task did not finish")?;
            assert_eq!(task_status(app, "make two files").as_deref(), Some("done"));
            let notes = std::fs::read_to_string(p("notes.txt"))?;
            assert!(
                notes.contains("added line") && notes.contains("new line"),
                "the write ran as edited: {notes:?}"
            );
            assert!(p("a-edited").exists(), "the edited step ran as edited");
            assert!(!p("a").exists(), "the step did not run as proposed");
            assert!(!p("b").exists(), "the skipped step did not run");
            let report = server.requests()[1].body.to_string();
            assert!(
                report.contains("skipped by the user") && report.contains("edited by the user")
            );
            // The reply claims all three; the chat says one did not run.
            let note = app.find("[data-testid=calls-note]").await?.text().await?;
            assert!(note.contains("1 step you skipped did not run"), "{note}");
            app.snapshot("plan-skipped-step-note").await?;
            let hidden = wait_for(Duration::from_secs(10), || {
                visible_window(CONFIRM_TITLE).is_none().then_some(())
            });
            assert!(hidden.is_some(), "the dialog hides once nothing waits");
            Ok(())
        },
    )
    .await;
}

/// With the chat window hidden (as after a voice command) the dialog still appears on top;
/// Escape denies and nothing runs. The dialog cannot call the chat's commands, and no
/// window can reach the network.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn escape_denies_a_plan_with_the_chat_hidden_and_the_dialog_is_confined() {
    let work = tempfile::tempdir().expect("work");
    let made = work.path().join("made");
    let plan = json!({
        "goal": "Make a file",
        "steps": [touch_step("make it", format!("touch {}", made.display()))]
    });
    let server = ScriptedServer::start(vec![
        Step::call("propose_plan", plan),
        Step::text("Zeta: as you wish"),
    ])
    .await
    .expect("scripted server");
    with_app_settings(
        "deny dialog",
        Some(settings(&server)),
        async |app: &App| -> TestResult {
            app.find("header h1").await?;
            let chat = visible_window("^Zeta$").ok_or("no chat window")?;
            for window in chat.lines() {
                xdotool(&["windowunmap", "--sync", window])?;
            }
            assert!(
                visible_window("^Zeta$").is_none(),
                "the chat could not be hidden"
            );

            app.zeta(&["enqueue", "make a file"])?;
            wait_for(Duration::from_secs(20), || visible_window(CONFIRM_TITLE))
                .ok_or("the dialog did not appear with the chat hidden")?;
            assert!(visible_window("^Zeta$").is_none(), "the chat stayed hidden");
            app.switch_to(CONFIRM_TITLE).await?;
            app.find("[data-testid=confirm-title]").await?;

            // Hardening: the dialog's capability has no enqueue_task; nothing leaves the app.
            let sneaky = run_js(
                app,
                "const done = arguments[arguments.length - 1];
             window.__TAURI_INTERNALS__.invoke('enqueue_task', { message: 'sneaky' })
               .then(() => done('allowed'), (e) => done('refused: ' + e));",
            )
            .await?;
            let sneaky = sneaky.as_str().unwrap_or_default().to_string();
            assert!(
                sneaky.starts_with("refused") && sneaky.contains("not allowed"),
                "{sneaky}"
            );
            let requests_before = server.requests().len();
            let fetched = run_js(
                app,
                &format!(
                    "const done = arguments[arguments.length - 1];
                 fetch('{}/models').then(() => done('fetched'), () => done('blocked'));",
                    server.openai_base_url()
                ),
            )
            .await?;
            assert_eq!(
                fetched,
                json!("blocked"),
                "the CSP must block network access"
            );

            app.find("body").await?.send_keys("\u{E00C}").await?; // Escape
            wait_for(Duration::from_secs(30), || task_status(app, "make a file"))
                .ok_or("the task did not finish")?;
            assert!(!made.exists(), "a denied plan runs nothing");
            assert_eq!(
                server.requests().len(),
                requests_before + 1,
                "only the model's next turn"
            );
            assert!(server.requests()[1]
                .body
                .to_string()
                .contains("The plan was not run"));
            assert!(!app.queue()?.iter().any(|t| t["message"] == "sneaky"));
            Ok(())
        },
    )
    .await;
}

/// A single call is asked inline, beside the request, while the chat shows (no dialog);
/// denied there with a real click on Deny, it is shown as not run on the reply's bubble,
/// even when the model's reply claims it was done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_call_is_shown_on_the_bubble_whatever_the_reply_claims() {
    let work = tempfile::tempdir().expect("work");
    let made = work.path().join("made");
    let server = touch_then_say(&made, "Zeta: I made the file.").await;
    with_app_settings(
        "denied call on the bubble",
        Some(settings(&server)),
        async |app: &App| -> TestResult {
            let composer = app.find("textarea[aria-label=Message]").await?;
            composer.send_keys("make the file").await?;
            composer.send_keys("\u{E007}").await?; // Enter
            let ask = app.find("[data-testid=inline-approval]").await?;
            let said = ask.text().await?;
            assert!(
                said.contains("touch"),
                "the question shows the command: {said}"
            );
            assert!(
                visible_window(CONFIRM_TITLE).is_none(),
                "no dialog while the chat shows the question"
            );
            app.snapshot("chat-inline-approval").await?;
            app.find("[data-testid=inline-approval] [data-testid=deny]")
                .await?
                .click()
                .await?;
            wait_for(Duration::from_secs(30), || {
                task_status(app, "make the file")
            })
            .ok_or("the task did not finish")?;
            assert!(!made.exists(), "a denied call runs nothing");
            let note = app.find("[data-testid=calls-note]").await?;
            let text = note.text().await?;
            assert!(text.contains("1 action was not allowed to run"), "{text}");
            tokio::time::sleep(Duration::from_secs(2)).await;
            app.snapshot("chat-denied-call").await?;
            Ok(())
        },
    )
    .await;
}

/// The first approvals a person meets, by real clicks: a write shows the text it will
/// write; "Allow for this task" lets the same program run again without a question;
/// "Always allow" is saved and listed in Settings, where Remove and Save take it back.
/// With the chat hidden the question moves to the dialog, where Enter does not approve a
/// high-risk call (overwriting a file) and a click does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inline_approvals_reach_as_far_as_clicked_and_settings_takes_them_back() {
    let work = tempfile::tempdir().expect("work");
    let p = |name: &str| work.path().join(name);
    let existing = p("existing.txt");
    std::fs::write(&existing, "old text\n").expect("existing");
    let shell = |command: String| Step::call("shell", json!({ "command": command }));
    let server = ScriptedServer::start(vec![
        Step::call(
            "write_file",
            json!({"path": p("note.txt"), "content": "first line\nsecond \"line\""}),
        ),
        shell(format!("mkdir -p {}", p("a").display())),
        shell(format!("mkdir -p {}", p("b").display())),
        shell(format!("touch {}", p("t1").display())),
        Step::text("Zeta: made them"),
        Step::call(
            "write_file",
            json!({"path": existing, "content": "new text"}),
        ),
        Step::text("Zeta: overwrote it"),
    ])
    .await
    .expect("scripted server");
    with_app_settings(
        "inline approvals",
        Some(settings(&server)),
        async |app: &App| -> TestResult {
            let composer = app.find("textarea[aria-label=Message]").await?;
            composer.send_keys("make some files").await?;
            composer.send_keys("\u{E007}").await?;

            // The write shows its text as text, not as escaped JSON.
            let will_do = app
                .find("[data-testid=inline-approval] [data-testid=will-do]")
                .await?;
            assert_eq!(will_do.text().await?, "first line\nsecond \"line\"");
            let writes = app
                .find("[data-testid=inline-approval] [data-testid=will-write]")
                .await?
                .text()
                .await?;
            assert!(
                writes.starts_with("Creates ") && writes.contains("note.txt"),
                "{writes}"
            );
            app.snapshot("approval-write-file").await?;
            app.find("[data-testid=allow-once]").await?.click().await?;
            wait_for(Duration::from_secs(10), || {
                p("note.txt").exists().then_some(())
            })
            .ok_or("the approved write did not happen")?;

            // mkdir: allowed for this task; the second mkdir asks nothing. (The write's
            // question, with its own "for this task" button, may still be on screen for a
            // moment: wait for the mkdir one, as a person would.)
            let for_task = wait_for_button(app, "allow-task", "“mkdir”").await?;
            assert_eq!(
                for_task.text().await?,
                "Allow “mkdir” commands for this task"
            );
            for_task.click().await?;
            // touch: always.
            let always = wait_for_button(app, "allow-always", "“touch”").await?;
            always.click().await?;
            wait_for(Duration::from_secs(30), || {
                task_status(app, "make some files")
            })
            .ok_or("the task did not finish")?;
            for made in ["a", "b", "t1"] {
                assert!(p(made).exists(), "{made}");
            }
            let saved = std::fs::read_to_string(app.home.path().join("settings.json"))?;
            assert!(saved.contains("\"program\": \"touch\""), "{saved}");

            // Settings lists it; Remove and Save take it back.
            app.find("[data-testid=tab-settings]")
                .await?
                .click()
                .await?;
            let listed = app.find("[data-testid=always-allowed]").await?;
            assert!(listed.text().await?.contains("“touch” commands"));
            app.snapshot("settings-always-allowed").await?;
            app.find("[data-testid=revoke-allowance]")
                .await?
                .click()
                .await?;
            app.find("[data-testid=save-settings]")
                .await?
                .click()
                .await?;
            let gone = wait_for(Duration::from_secs(5), || {
                std::fs::read_to_string(app.home.path().join("settings.json"))
                    .ok()
                    .filter(|t| !t.contains("touch"))
            });
            assert!(gone.is_some(), "removed from settings.json");

            // Chat hidden: the question goes to the dialog; Enter does not approve a
            // high-risk overwrite, a click does.
            app.find("[data-testid=tab-chat]").await?.click().await?;
            app.zeta(&["enqueue", "overwrite the file"])?;
            app.type_keys("\u{E00C}").await?; // Escape hides the chat
            wait_for(Duration::from_secs(20), || visible_window(CONFIRM_TITLE))
                .ok_or("the dialog did not appear with the chat hidden")?;
            app.switch_to(CONFIRM_TITLE).await?;
            let risk = app.find("[data-testid=inline-approval]").await?;
            assert_eq!(risk.attr("data-risk").await?.as_deref(), Some("high"));
            // What it asks for, and what the overwrite changes: a diff, not the path alone.
            let asked = app.find("[data-testid=asked]").await?.text().await?;
            assert!(asked.contains("overwrite the file"), "{asked}");
            let diff = app.find("[data-testid=file-diff]").await?.text().await?;
            assert!(
                diff.contains("-old text") && diff.contains("+new text"),
                "{diff}"
            );
            app.snapshot("dialog-high-risk").await?;
            app.type_keys("\u{E007}").await?; // Enter
            tokio::time::sleep(Duration::from_millis(1500)).await;
            assert_eq!(
                std::fs::read_to_string(&existing)?,
                "old text\n",
                "Enter did not approve"
            );
            app.find("[data-testid=allow-once]").await?.click().await?;
            wait_for(Duration::from_secs(30), || {
                task_status(app, "overwrite the file")
            })
            .ok_or("the second task did not finish")?;
            assert_eq!(std::fs::read_to_string(&existing)?, "new text");
            Ok(())
        },
    )
    .await;
}

/// Waits for the button `testid` whose text contains `label` (the previous question's
/// button may still be there for a moment).
async fn wait_for_button(
    app: &App,
    testid: &str,
    label: &str,
) -> Result<fantoccini::elements::Element, Box<dyn std::error::Error>> {
    for _ in 0..100 {
        if let Ok(button) = app.find(&format!("[data-testid={testid}]")).await {
            if button.text().await.is_ok_and(|t| t.contains(label)) {
                return Ok(button);
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(format!("no {testid} button for {label}").into())
}

/// Editing a question's parameters stops its time limit: the call is still waiting well
/// after the limit, and runs when allowed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn editing_a_question_stops_its_time_limit() {
    let work = tempfile::tempdir().expect("work");
    let made = work.path().join("made");
    let server = touch_then_say(&made, "Zeta: made it").await;
    let mut quick = settings(&server);
    quick["permissions"]["approvalTimeoutSecs"] = json!(3);
    with_app_settings(
        "editing holds",
        Some(quick),
        async |app: &App| -> TestResult {
            // At the narrowest window Zeta supports: the question still fits.
            app.resize(360, 640).await?;
            let composer = app.find("textarea[aria-label=Message]").await?;
            composer.send_keys("make it").await?;
            composer.send_keys("\u{E007}").await?;
            app.find("[data-testid=inline-approval] [data-testid=edit]")
                .await?
                .click()
                .await?;
            app.find("[data-testid=edit-params]").await?;
            tokio::time::sleep(Duration::from_secs(6)).await;
            let question = app.find("[data-testid=inline-approval]").await?;
            assert!(
                question.text().await?.contains("time limit is off"),
                "the question says its clock stopped"
            );
            assert!(
                !app.scrolls_sideways().await?,
                "nothing scrolls sideways at 360 px"
            );
            app.snapshot("approval-editing-360").await?;
            app.find("[data-testid=allow-once]").await?.click().await?;
            wait_for(Duration::from_secs(30), || task_status(app, "make it"))
                .ok_or("the task did not finish")?;
            assert!(
                made.exists(),
                "still waiting after 6 s of a 3 s limit, then allowed"
            );
            Ok(())
        },
    )
    .await;
}

/// A mouse call asks with the screen as it is now and the click's target marked on it,
/// even when the task took no screenshot before; denied, nothing is clicked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mouse_question_shows_the_screen_with_the_target_marked() {
    let server = ScriptedServer::start(vec![
        Step::call("mouse", json!({"action": "click", "x": 640, "y": 400})),
        Step::text("Zeta: did not click"),
    ])
    .await
    .expect("scripted server");
    with_app_settings(
        "mouse question",
        Some(settings(&server)),
        async |app: &App| -> TestResult {
            let composer = app.find("textarea[aria-label=Message]").await?;
            composer.send_keys("click the middle").await?;
            composer.send_keys("\u{E007}").await?;
            let shot = app.find("[data-testid=inline-approval] .shot img").await?;
            // The marker is placed once the image has loaded (its size is known).
            let marker = app
                .find("[data-testid=inline-approval] [data-testid=marker]")
                .await?;
            let (mx, my, _, _) = rect_of(app, &marker).await?;
            let (sx, sy, sw, sh) = rect_of(app, &shot).await?;
            // 640, 400 is the middle of the 1280x800 screen: the marker sits mid-image.
            let (fx, fy) = ((mx + 9.0 - sx) / sw, (my + 9.0 - sy) / sh);
            assert!(
                (fx - 0.5).abs() < 0.08 && (fy - 0.5).abs() < 0.08,
                "marker at {fx:.2}, {fy:.2}"
            );
            app.snapshot("approval-mouse").await?;
            app.find("[data-testid=inline-approval] [data-testid=deny]")
                .await?
                .click()
                .await?;
            wait_for(Duration::from_secs(30), || {
                task_status(app, "click the middle")
            })
            .ok_or("the task did not finish")?;
            Ok(())
        },
    )
    .await;
}

/// Where an element is drawn (WebKitWebDriver's own rect fails on the absolutely placed
/// marker), read from the page.
async fn rect_of(
    app: &App,
    el: &fantoccini::elements::Element,
) -> Result<(f64, f64, f64, f64), Box<dyn std::error::Error>> {
    let r = app
        .client
        .execute(
            "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height];",
            vec![serde_json::to_value(el)?],
        )
        .await?;
    let n = |i: usize| r[i].as_f64().unwrap_or(f64::NAN);
    Ok((n(0), n(1), n(2), n(3)))
}

/// The agent's question (`ask_user`) shows in the chat with the answer box focused: the
/// answer typed there and sent with Enter reaches the model, and the box goes away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agents_question_is_answered_in_the_chat() {
    let server = ScriptedServer::start(vec![
        Step::call(
            "report_progress",
            json!({"text": "Looking at your preferences"}),
        ),
        Step::call(
            "ask_user",
            json!({"question": "Which colour should the theme use?"}),
        ),
        Step::text("The theme will use green."),
    ])
    .await
    .expect("scripted server");
    with_app_settings(
        "the agent's question",
        Some(settings(&server)),
        async |app: &App| -> TestResult {
            let composer = app.find("textarea[aria-label=Message]").await?;
            composer.send_keys("pick a theme colour").await?;
            composer.send_keys("\u{E007}").await?; // Enter
            let asked = app.find("[data-testid=agent-question]").await?;
            let said = asked.text().await?;
            assert!(
                said.contains("Which colour should the theme use?"),
                "{said}"
            );
            let progress = app.find("[data-testid=progress]").await?.text().await?;
            assert!(
                progress.contains("Looking at your preferences"),
                "{progress}"
            );
            app.snapshot("chat-agent-question").await?;
            // The box has the focus: typing goes there, Enter sends.
            app.type_keys("green\u{E007}").await?;
            tokio::time::sleep(Duration::from_secs(1)).await;
            app.snapshot("chat-agent-question-typed").await?;
            wait_for(Duration::from_secs(30), || {
                task_status(app, "pick a theme colour")
            })
            .ok_or("the task did not finish")?;
            let requests = server.requests();
            let told = requests
                .get(2)
                .map(|r| r.body.to_string())
                .unwrap_or_default();
            assert!(told.contains("The user answered: green"), "{told}");
            let gone = app
                .client
                .find_all(fantoccini::Locator::Css("[data-testid=agent-question]"))
                .await?;
            assert!(gone.is_empty(), "the question stays after its answer");
            app.snapshot("chat-agent-question-answered").await?;
            Ok(())
        },
    )
    .await;
}

/// The dialog exists only while it is needed: none at start (no web process for it), made
/// when a plan waits with the chat hidden, hidden when answered, destroyed after it has
/// not been needed for a while (its web process gone), and made again, working, for the
/// next plan.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dialog_is_made_when_needed_and_gone_when_not() {
    let work = tempfile::tempdir().expect("work");
    let (first, second) = (work.path().join("first"), work.path().join("second"));
    let plan = |made: &std::path::Path| {
        json!({"goal": "Make a file",
               "steps": [touch_step("make it", format!("touch {}", made.display()))]})
    };
    let server = ScriptedServer::start(vec![
        Step::call("propose_plan", plan(&first)),
        Step::text("Zeta: not made"),
        Step::call("propose_plan", plan(&second)),
        Step::text("Zeta: made"),
    ])
    .await
    .expect("scripted server");
    with_app_settings(
        "dialog on demand",
        Some(settings(&server)),
        async |app: &App| -> TestResult {
            app.find("header h1").await?;
            let any_dialog = || {
                xdotool(&["search", "--name", CONFIRM_TITLE])
                    .ok()
                    .filter(|s| !s.is_empty())
            };
            assert!(any_dialog().is_none(), "no dialog window at start");
            let at_start = wait_for(Duration::from_secs(10), || {
                Some(harness::web_processes(app.app_pid)).filter(|n| *n > 0)
            })
            .ok_or("the chat has no web process")?;
            let chat = visible_window("^Zeta$").ok_or("no chat window")?;
            for window in chat.lines() {
                xdotool(&["windowunmap", "--sync", window])?;
            }

            // A plan: the dialog is made; Escape denies it and hides it.
            app.zeta(&["enqueue", "make the first file"])?;
            wait_for(Duration::from_secs(20), || visible_window(CONFIRM_TITLE))
                .ok_or("the dialog did not appear")?;
            assert_eq!(
                harness::web_processes(app.app_pid),
                at_start + 1,
                "the dialog has its web process"
            );
            app.switch_to(CONFIRM_TITLE).await?;
            app.find("[data-testid=confirm-title]").await?;
            app.find("body").await?.send_keys("\u{E00C}").await?; // Escape
            wait_for(Duration::from_secs(30), || {
                task_status(app, "make the first file")
            })
            .ok_or("the first task did not finish")?;
            assert!(!first.exists(), "a denied plan runs nothing");

            // Unneeded for a while: destroyed, its web process gone.
            wait_for(Duration::from_secs(40), || {
                any_dialog().is_none().then_some(())
            })
            .ok_or("the unneeded dialog was not destroyed")?;
            wait_for(Duration::from_secs(10), || {
                (harness::web_processes(app.app_pid) == at_start).then_some(())
            })
            .ok_or("the dialog's web process stayed")?;

            // The next plan makes it again, and it works.
            app.zeta(&["enqueue", "make the second file"])?;
            wait_for(Duration::from_secs(20), || visible_window(CONFIRM_TITLE))
                .ok_or("the dialog did not appear again")?;
            app.switch_to(CONFIRM_TITLE).await?;
            app.find("[data-testid=approve]").await?.click().await?;
            wait_for(Duration::from_secs(30), || {
                task_status(app, "make the second file")
            })
            .ok_or("the second task did not finish")?;
            assert!(second.exists(), "the approved plan ran");
            Ok(())
        },
    )
    .await;
}
