//! The chat window end to end, with the scripted LLM behind the real app: a typed request
//! streams its reply, the activity panel shows each tool call with its output, Stop
//! cancels a running task, settings reject a bad base URL and keep a good one across a
//! restart, and onboarding appears on a fresh home only.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::{json, Value};
use zeta_scripted_llm::{Reply, ScriptedServer, Step};

use crate::harness::{self, wait_for, with_app_home, xdotool, App, HomeSetup, TestResult};

const ENTER: &str = "\u{E007}";

fn provider(server: &ScriptedServer) -> Value {
    json!({
        "provider": {"kind": "openai", "baseUrl": server.openai_base_url(), "model": "scripted",
                     "protocol": "tools", "stream": true, "maxAttempts": 1},
        "permissions": {"mode": "auto"}
    })
}

fn status_of(app: &App, message: &str) -> Option<String> {
    app.queue()
        .ok()?
        .into_iter()
        .find(|t| t["message"] == message)
        .and_then(|t| t["status"].as_str().map(str::to_string))
}

async fn type_request(app: &App, text: &str) -> TestResult {
    let composer = app.find("textarea[aria-label=Message]").await?;
    composer.send_keys(text).await?;
    composer.send_keys(ENTER).await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_request_streams_its_reply_and_the_activity_shows_each_call() {
    let server = ScriptedServer::start(vec![
        Step::call("shell", json!({"command": "echo first-step-output"})),
        Step::call("shell", json!({"command": "seq 1 3"})),
        Step::Slow {
            reply: Reply {
                text: "Counted **three** numbers after the first step. All done here, as asked."
                    .into(),
                tool_calls: Vec::new(),
            },
            pause_ms: 250,
        },
    ])
    .await
    .expect("server");
    let setup = HomeSetup {
        settings: Some(provider(&server)),
        ..HomeSetup::default()
    };
    with_app_home(
        "streaming and activity",
        setup,
        async |app: &mut App| -> TestResult {
            type_request(app, "count for me").await?;
            // While the reply streams: partial text, and both calls in the activity panel.
            let streamed = app.find("[data-testid=streamed]").await?;
            let partial = streamed.text().await?;
            assert!(!partial.is_empty());
            let steps = app
                .client
                .find_all(Locator::Css(
                    "[data-testid=live] [data-testid=activity-step]",
                ))
                .await?;
            assert_eq!(steps.len(), 2, "each tool call shows");
            // An output is drawn when its disclosure is opened.
            let drawn = app
                .client
                .find_all(Locator::Css(
                    "[data-testid=live] [data-testid=activity-output]",
                ))
                .await?;
            assert!(drawn.is_empty(), "closed outputs are not in the page");
            app.find("[data-testid=live] [data-testid=activity-step] details summary")
                .await?
                .click()
                .await?;
            let output = app
                .find("[data-testid=live] [data-testid=activity-output]")
                .await?;
            assert!(output
                .prop("textContent")
                .await?
                .unwrap_or_default()
                .contains("first-step-output"));
            wait_for(Duration::from_secs(30), || {
                (status_of(app, "count for me").as_deref() == Some("done")).then_some(())
            })
            .ok_or("the task did not finish")?;
            assert!(
                !partial.contains("asked."),
                "the first look caught the reply mid-stream: {partial:?}"
            );
            let strong = app
                .find("article[data-status=done] .markdown strong")
                .await?;
            assert_eq!(strong.text().await?, "three", "markdown is rendered");
            app.find("article[data-status=done] details.done-activity summary")
                .await?
                .click()
                .await?;
            app.snapshot("chat-finished-multi-step-task").await?;
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_cancels_a_running_task() {
    let server = ScriptedServer::start(vec![
        Step::call("shell", json!({"command": "sleep 60"})),
        Step::text("Zeta: never reached"),
    ])
    .await
    .expect("server");
    let setup = HomeSetup {
        settings: Some(provider(&server)),
        ..HomeSetup::default()
    };
    with_app_home("stop", setup, async |app: &mut App| -> TestResult {
        type_request(app, "wait a minute").await?;
        app.find("[data-testid=live] [data-testid=activity-step][data-ok=running]")
            .await?;
        app.find("[data-testid=stop]").await?.click().await?;
        let ended = wait_for(Duration::from_secs(10), || {
            (status_of(app, "wait a minute").as_deref() == Some("cancelled")).then_some(())
        });
        assert!(ended.is_some(), "Stop did not cancel the task within 10 s");
        app.find("article[data-status=cancelled]").await?;
        Ok(())
    })
    .await;
}

/// A message added to a running task shows at once. When Stop ends the task before it
/// reads the message, the message stays on the stopped task (not lost, and not run
/// without asking); "Send it now" runs it as a task of its own, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_added_message_shows_at_once_and_survives_stop() {
    let server = ScriptedServer::start(vec![
        Step::call("shell", json!({"command": "sleep 60"})),
        Step::text("Zeta: the report is in French now"),
    ])
    .await
    .expect("server");
    let setup = HomeSetup {
        settings: Some(provider(&server)),
        ..HomeSetup::default()
    };
    with_app_home(
        "added message",
        setup,
        async |app: &mut App| -> TestResult {
            type_request(app, "write the report").await?;
            app.find("[data-testid=live] [data-testid=activity-step][data-ok=running]")
                .await?;
            // A short window: the added line sits at the foot of a bubble taller than the
            // space left, and must still show whole.
            app.resize(480, 420).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            type_request(app, "make it French").await?;
            let added = app.find("[data-testid=live] [data-testid=added]").await?;
            assert!(added.text().await?.contains("make it French"));
            tokio::time::sleep(Duration::from_millis(400)).await;
            let whole = app
                .client
                .execute(
                    "const a = document.querySelector('[data-testid=added]').getBoundingClientRect(); \
                     const c = document.querySelector('.conversation').getBoundingClientRect(); \
                     return a.top >= c.top && a.bottom <= c.bottom + 1;",
                    vec![],
                )
                .await?;
            assert_eq!(whole, json!(true), "the added message shows whole");
            app.snapshot("chat-added-message").await?;
            app.find("[data-testid=stop]").await?.click().await?;
            let held = app
                .find("article[data-status=cancelled] [data-testid=added-record][data-fate=held]")
                .await?;
            let said = held.text().await?;
            assert!(
                said.contains("make it French") && said.contains("not sent"),
                "{said}"
            );
            tokio::time::sleep(Duration::from_secs(1)).await;
            assert_eq!(
                status_of(app, "make it French"),
                None,
                "nothing ran without asking"
            );
            app.snapshot("chat-added-message-after-stop").await?;
            app.find("[data-testid=send-held]").await?.click().await?;
            let done = wait_for(Duration::from_secs(20), || {
                (status_of(app, "make it French").as_deref() == Some("done")).then_some(())
            });
            assert!(done.is_some(), "the sent message did not run as a task");
            app.find(
                "article[data-status=cancelled] [data-testid=added-record][data-fate=requeued]",
            )
            .await?;
            let sends = app
                .client
                .find_all(Locator::Css("[data-testid=send-held]"))
                .await?;
            assert!(sends.is_empty(), "sent once: no button left");
            tokio::time::sleep(Duration::from_secs(1)).await;
            app.snapshot("chat-added-message-sent").await?;
            Ok(())
        },
    )
    .await;
}

/// The header's height, and whether anything on the page scrolls sideways.
async fn header_and_overflow(app: &App) -> Result<(i64, bool), Box<dyn std::error::Error>> {
    let v = app
        .client
        .execute(
            "return [document.querySelector('header').getBoundingClientRect().height, \
                     document.documentElement.scrollWidth > window.innerWidth];",
            vec![],
        )
        .await?;
    Ok((
        v[0].as_f64().unwrap_or(0.0).round() as i64,
        v[1].as_bool().unwrap_or(true),
    ))
}

/// A running call shows its time counting up beside a spinner, and the header keeps one
/// row at the default size and at 360 px whether a task runs or not, so the chat does not
/// jump at the start and end of every task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_call_shows_its_time_and_the_header_holds_still() {
    let server = ScriptedServer::start(vec![
        Step::call("shell", json!({"command": "sleep 4"})),
        Step::text("Zeta: slept"),
        Step::call("shell", json!({"command": "sleep 3"})),
        Step::text("Zeta: slept again"),
    ])
    .await
    .expect("server");
    let setup = HomeSetup {
        settings: Some(provider(&server)),
        ..HomeSetup::default()
    };
    with_app_home("running time", setup, async |app: &mut App| -> TestResult {
        for (width, request) in [(480, "sleep a while"), (360, "sleep again")] {
            app.resize(width, 640).await?;
            tokio::time::sleep(Duration::from_millis(400)).await;
            let idle = header_and_overflow(app).await?;
            assert!(!idle.1, "nothing scrolls sideways at {width} px");
            type_request(app, request).await?;
            let time = app
                .find("[data-testid=live] [data-testid=step-time]")
                .await?;
            tokio::time::sleep(Duration::from_millis(1200)).await;
            let first = time.text().await?;
            tokio::time::sleep(Duration::from_millis(1100)).await;
            let later = time.text().await?;
            assert!(
                first.starts_with("running ") && later.starts_with("running ") && first != later,
                "the running call's time counts up at {width} px: {first:?} then {later:?}"
            );
            let busy = header_and_overflow(app).await?;
            if width == 480 {
                app.snapshot("chat-running-time").await?;
            }
            let done = wait_for(Duration::from_secs(20), || {
                (status_of(app, request).as_deref() == Some("done")).then_some(())
            });
            assert!(done.is_some(), "the task did not finish");
            tokio::time::sleep(Duration::from_millis(400)).await;
            let after = header_and_overflow(app).await?;
            assert_eq!(
                (idle.0, busy.0, after.0),
                (idle.0, idle.0, idle.0),
                "the header keeps its height at {width} px"
            );
            assert!(
                !busy.1 && !after.1,
                "nothing scrolls sideways at {width} px"
            );
            // At 480 px it reads "ready"; narrower, it may be cut (its tooltip holds it).
            let status = app.find("[data-testid=worker-status]").await?;
            let said = status.prop("textContent").await?.unwrap_or_default();
            assert_eq!(said, "ready", "at {width} px");
            if width == 480 {
                let cut = app
                    .client
                    .execute(
                        "const s = document.querySelector('[data-testid=worker-status]'); \
                             return s.scrollWidth > s.clientWidth || s.clientWidth === 0;",
                        vec![],
                    )
                    .await?;
                assert_eq!(cut, json!(false), "the status is shown whole at 480 px");
            }
        }
        app.snapshot("chat-header-360").await?;
        Ok(())
    })
    .await;
}

/// Slips a person sees at once: the queue's buttons stay on screen at 480 and 360 px, a
/// markdown table has rules and room, and a wide window keeps the chat to a reading width.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_the_queue_and_a_wide_window_read_well() {
    let server = ScriptedServer::start(vec![Step::text(
        "Zeta: the sizes\n\n| file | size |\n|---|---|\n| a.log | 12 KB |\n| b.log | 3 MB |",
    )])
    .await
    .expect("server");
    let setup = HomeSetup {
        settings: Some(provider(&server)),
        ..HomeSetup::default()
    };
    with_app_home(
        "reading width",
        setup,
        async |app: &mut App| -> TestResult {
            type_request(app, "list the log sizes with a rather long request that needs to wrap in the queue").await?;
            app.find(".bubble.agent .markdown table").await?;
            let cell = app
                .client
                .execute(
                    "const s = getComputedStyle(document.querySelector('.markdown td')); \
                     return [parseFloat(s.borderTopWidth), parseFloat(s.paddingLeft)];",
                    vec![],
                )
                .await?;
            assert!(
                cell[0].as_f64().unwrap_or(0.0) >= 1.0 && cell[1].as_f64().unwrap_or(0.0) >= 4.0,
                "a table cell has a rule and padding: {cell}"
            );
            app.snapshot("chat-markdown-table").await?;
            app.find("[data-testid=tab-queue]").await?.click().await?;
            for width in [480, 360] {
                app.resize(width, 640).await?;
                tokio::time::sleep(Duration::from_millis(400)).await;
                let reach = app
                    .client
                    .execute(
                        "return [...document.querySelectorAll('.queue-panel button')] \
                           .every(b => b.getBoundingClientRect().right <= window.innerWidth);",
                        vec![],
                    )
                    .await?;
                assert_eq!(reach, json!(true), "every queue button is on screen at {width} px");
            }
            app.snapshot("queue-360").await?;
            app.find("[data-testid=tab-chat]").await?.click().await?;
            // As wide as the test screen leaves room for beside where the window sits.
            app.resize(880, 700).await?;
            tokio::time::sleep(Duration::from_millis(400)).await;
            let widths = app
                .client
                .execute(
                    "return [document.querySelector('.conversation').getBoundingClientRect().width, \
                             document.querySelector('.composer').getBoundingClientRect().width, window.innerWidth];",
                    vec![],
                )
                .await?;
            let (chat, composer, window) = (
                widths[0].as_f64().unwrap_or(0.0),
                widths[1].as_f64().unwrap_or(0.0),
                widths[2].as_f64().unwrap_or(0.0),
            );
            assert!(window >= 860.0, "the window is wide: {widths}");
            assert!(
                chat <= 780.0 && composer <= 780.0 && chat >= 700.0,
                "a reading width: {widths}"
            );
            app.snapshot("chat-wide-window").await?;
            Ok(())
        },
    )
    .await;
}

/// Every surface that reports a task says the same: a call the person denied, a message
/// they added while it ran, and its steps show in the live chat, in the queue panel and,
/// after New chat, in Earlier chats, at the default size and at 360 px.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn earlier_chats_and_the_queue_show_what_the_live_chat_showed() {
    let work = tempfile::tempdir().expect("work");
    let made = work.path().join("tidy-marker");
    let server = ScriptedServer::start(vec![
        Step::call(
            "shell",
            json!({"command": format!("touch {}", made.display())}),
        ),
        Step::call("shell", json!({"command": "echo listed"})),
        Step::text("Zeta: all tidy"),
    ])
    .await
    .expect("server");
    let mut settings = provider(&server);
    settings["permissions"]["mode"] = json!("ask");
    let setup = HomeSetup {
        settings: Some(settings),
        ..HomeSetup::default()
    };
    with_app_home("one record", setup, async |app: &mut App| -> TestResult {
        type_request(app, "tidy the folder").await?;
        app.find("[data-testid=inline-approval]").await?;
        type_request(app, "also the logs").await?;
        app.find("[data-testid=inline-approval] [data-testid=deny]")
            .await?
            .click()
            .await?;
        let done = wait_for(Duration::from_secs(30), || {
            (status_of(app, "tidy the folder").as_deref() == Some("done")).then_some(())
        });
        assert!(done.is_some(), "the task did not finish");
        assert!(!made.exists(), "the denied call did not run");

        // What the live chat shows of the ended task.
        let facts =
            async |app: &App, scope: &str| -> Result<Vec<String>, Box<dyn std::error::Error>> {
                let mut out = Vec::new();
                for part in ["calls-note", "added-record"] {
                    let el = app
                        .find(&format!(
                            "{scope} article[data-status=done] [data-testid={part}]"
                        ))
                        .await?;
                    out.push(el.text().await?);
                }
                let steps = app
                    .find(&format!(
                        "{scope} article[data-status=done] .done-activity summary"
                    ))
                    .await?;
                out.push(steps.text().await?);
                Ok(out)
            };
        let live = facts(app, ".conversation").await?;
        assert!(
            live[0].contains("1 action was not allowed to run"),
            "{live:?}"
        );
        assert!(
            live[1].contains("also the logs") && live[1].contains("read this"),
            "{live:?}"
        );
        assert!(live[2].ends_with("steps"), "{live:?}");

        // The queue panel says it too.
        app.find("[data-testid=tab-queue]").await?.click().await?;
        let queued = app.find("[data-testid=queue-note]").await?.text().await?;
        assert!(
            queued.contains("1 action was not allowed to run"),
            "{queued}"
        );
        app.snapshot("queue-done-with-denied").await?;

        // Memory keeps what happened, not the reply's claim alone.
        app.find("[data-testid=tab-memory]").await?.click().await?;
        let kept = app
            .find("[data-testid=memory-summary]")
            .await?
            .text()
            .await?;
        assert!(
            kept.contains("not run (refused or skipped): shell touch")
                && kept.contains("\"Zeta: all tidy\" (a claim"),
            "{kept}"
        );
        app.snapshot("memory-keeps-what-happened").await?;
        app.find("[data-testid=tab-chat]").await?.click().await?;

        // Earlier chats, after New chat: the same facts.
        app.find("[data-testid=new-chat]").await?.click().await?;
        app.find("[data-testid=open-history]")
            .await?
            .click()
            .await?;
        app.find("[data-testid=history-item]")
            .await?
            .click()
            .await?;
        let earlier = facts(app, "[data-testid=history-conversation]").await?;
        assert_eq!(earlier, live, "Earlier chats says what the live chat said");
        app.snapshot("earlier-chats-record").await?;
        app.resize(360, 640).await?;
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(
            !app.scrolls_sideways().await?,
            "nothing scrolls sideways at 360 px"
        );
        app.snapshot("earlier-chats-record-360").await?;
        Ok(())
    })
    .await;
}

/// Settings read as settings, not as a developer tool: where keys are kept in words (the
/// keyring library's error only under "Why not the system keyring"), the command time
/// limit in seconds, and a bad value refused in words ("from 100 ms to 24 h"), never
/// "expected u64" or "100..=86400000"; at the default size and at 360 px.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_speak_in_seconds_and_words() {
    with_app_home(
        "settings words",
        HomeSetup::default(),
        async |app: &mut App| -> TestResult {
            for width in [480, 360] {
                app.resize(width, 640).await?;
                app.find("[data-testid=tab-settings]")
                    .await?
                    .click()
                    .await?;
                let top = app
                    .find("[data-testid=settings-where]")
                    .await?
                    .text()
                    .await?;
                assert!(top.contains("API keys are kept in"), "{top}");
                assert!(
                    !top.contains("Secret Service") && !top.contains("platform secure storage"),
                    "no library error up front: {top}"
                );
                let limit = app.find("input[aria-label='Command timeout']").await?;
                assert_eq!(limit.prop("value").await?.as_deref(), Some("30"), "seconds");
                limit.click().await?;
                app.press_ctrl('a').await?;
                app.type_keys("0.05").await?;
                app.find("[data-testid=save-settings]")
                    .await?
                    .click()
                    .await?;
                let said = app
                    .find(".field-error[data-field='commandTimeoutMs']")
                    .await?
                    .text()
                    .await?;
                assert!(said.contains("from 100 ms to 24 h"), "{said}");
                assert!(
                    !said.contains("..=") && !said.contains("expected"),
                    "{said}"
                );
                if width == 480 {
                    app.snapshot("settings-seconds-and-words").await?;
                }
                let limit = app.find("input[aria-label='Command timeout']").await?;
                limit.click().await?;
                app.press_ctrl('a').await?;
                app.type_keys("45").await?;
                app.find("[data-testid=save-settings]")
                    .await?
                    .click()
                    .await?;
                let saved = wait_for(Duration::from_secs(5), || {
                    std::fs::read_to_string(app.home.path().join("settings.json"))
                        .ok()
                        .filter(|t| t.contains("\"commandTimeoutMs\": 45000"))
                });
                assert!(saved.is_some(), "45 s is saved as 45000 ms at {width} px");
                assert!(
                    !app.scrolls_sideways().await?,
                    "nothing scrolls sideways at {width} px"
                );
                app.find("[data-testid=tab-chat]").await?.click().await?;
                // Back to 30 s for the next width.
                std::fs::write(
                    app.home.path().join("settings.json"),
                    std::fs::read_to_string(app.home.path().join("settings.json"))?
                        .replace("\"commandTimeoutMs\": 45000", "\"commandTimeoutMs\": 30000"),
                )?;
            }
            Ok(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_reject_a_bad_base_url_and_keep_a_good_one_across_a_restart() {
    with_app_home(
        "settings",
        HomeSetup::default(),
        async |app: &mut App| -> TestResult {
            app.find("[data-testid=tab-settings]")
                .await?
                .click()
                .await?;
            let url = app.find("input[aria-label='Base URL']").await?;
            url.clear().await?;
            url.send_keys("ftp://not-a-model-server").await?;
            app.find("[data-testid=save-settings]")
                .await?
                .click()
                .await?;
            let error = match app
                .find(".field-error[data-field='provider.baseUrl']")
                .await
            {
                Ok(error) => error,
                Err(e) => {
                    app.snapshot("settings-failure").await?;
                    let status = app
                        .find("[data-testid=settings-status]")
                        .await?
                        .text()
                        .await?;
                    return Err(format!("{e}; the form said {status:?}").into());
                }
            };
            assert!(
                error.text().await?.contains("http://"),
                "the problem shows beside the field"
            );
            app.client
                .execute(
                    "arguments[0].scrollIntoView({block: 'center'})",
                    vec![serde_json::to_value(&error)?],
                )
                .await?;
            app.snapshot("settings-invalid-base-url").await?;
            // The home is new: no file yet, or the defaults; never the bad value.
            let on_disk =
                std::fs::read_to_string(app.home.path().join("settings.json")).unwrap_or_default();
            assert!(
                !on_disk.contains("ftp://"),
                "an invalid setting is not saved"
            );

            url.clear().await?;
            url.send_keys("http://127.0.0.1:9/v1").await?;
            app.find("input[aria-label='Model']")
                .await?
                .send_keys("qwen-test")
                .await?;
            app.find("[data-testid=save-settings]")
                .await?
                .click()
                .await?;
            let saved = wait_for(Duration::from_secs(5), || {
                std::fs::read_to_string(app.home.path().join("settings.json"))
                    .ok()
                    .filter(|t| t.contains("http://127.0.0.1:9/v1"))
            });
            assert!(saved.is_some(), "the valid base URL was saved");

            app.relaunch().await?;
            app.find("[data-testid=tab-settings]")
                .await?
                .click()
                .await?;
            let url = app.find("input[aria-label='Base URL']").await?;
            let value = wait_for_value(&url).await?;
            assert_eq!(value, "http://127.0.0.1:9/v1", "kept across a restart");
            Ok(())
        },
    )
    .await;
}

async fn wait_for_value(
    el: &fantoccini::elements::Element,
) -> Result<String, Box<dyn std::error::Error>> {
    for _ in 0..50 {
        let value = el.prop("value").await?.unwrap_or_default();
        if !value.is_empty() {
            return Ok(value);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err("the field stayed empty".into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn onboarding_finds_a_local_server_on_a_fresh_home_only() {
    let server = ScriptedServer::start(vec![Step::text("OK")])
        .await
        .expect("server");
    let setup = HomeSetup {
        fresh: true,
        env: vec![(
            "ZETA_LOCAL_ENDPOINTS".into(),
            format!("ollama={}", server.base_url()),
        )],
        ..HomeSetup::default()
    };
    with_app_home("onboarding", setup, async |app: &mut App| -> TestResult {
        let dialog = app.find("[data-testid=onboarding]").await?;
        // The server found is chosen for the user once the search ends.
        let found = app.find("[data-testid=source-found]").await?;
        for _ in 0..50 {
            if found.is_selected().await? {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(found.is_selected().await?, "the found server is the choice");
        assert!(dialog
            .text()
            .await?
            .contains(&format!("Ollama at {}", server.base_url())));
        app.find("[data-testid=onboarding-test]")
            .await?
            .click()
            .await?;
        let result = app.find("[data-testid=onboarding-result]").await?;
        let said = wait_for_text(&result, "It works").await?;
        assert!(said.contains("OK"), "{said}");
        app.snapshot("onboarding").await?;
        app.find("[data-testid=onboarding-finish]")
            .await?
            .click()
            .await?;
        let settings = std::fs::read_to_string(app.home.path().join("settings.json"))?;
        assert!(
            settings.contains("\"ollama\"") && settings.contains(&server.base_url()),
            "{settings}"
        );

        app.relaunch().await?;
        app.find("header h1").await?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let again = app
            .client
            .find_all(Locator::Css("[data-testid=onboarding]"))
            .await?;
        assert!(again.is_empty(), "onboarding shows on a fresh home only");
        Ok(())
    })
    .await;
}

async fn wait_for_text(
    el: &fantoccini::elements::Element,
    want: &str,
) -> Result<String, Box<dyn std::error::Error>> {
    for _ in 0..100 {
        let text = el.text().await?;
        if text.contains(want) {
            return Ok(text);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(format!("never showed {want:?}").into())
}

/// A chat hidden (Escape) with nothing running is released after a while — its window and
/// web process gone — and the tray's Open chat makes it again, showing the conversation
/// and taking the next request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_chat_is_released_and_made_again_with_its_conversation() {
    let server = ScriptedServer::start(vec![
        Step::text("The answer is forty-two."),
        Step::text("Still forty-two."),
    ])
    .await
    .expect("server");
    let setup = HomeSetup {
        settings: Some(provider(&server)),
        env: vec![("ZETA_CHAT_RELEASE_SECS".into(), "3".into())],
        ..HomeSetup::default()
    };
    with_app_home(
        "the chat released and made again",
        setup,
        async |app: &mut App| -> TestResult {
            type_request(app, "what is the answer").await?;
            wait_for(Duration::from_secs(30), || {
                (status_of(app, "what is the answer").as_deref() == Some("done")).then_some(())
            })
            .ok_or("the task did not finish")?;
            let before = harness::web_processes(app.app_pid);
            assert!(before >= 1, "the chat has a web process");
            let chat = || {
                let tray = xdotool(&["search", "--class", "tray-icon"]).unwrap_or_default();
                xdotool(&["search", "--onlyvisible", "--name", "^Zeta$"])
                    .unwrap_or_default()
                    .lines()
                    .filter(|w| !tray.lines().any(|t| t == *w))
                    .count()
            };
            app.find("textarea[aria-label=Message]")
                .await?
                .send_keys("\u{E00C}") // Escape
                .await?;
            wait_for(Duration::from_secs(20), || {
                (chat() == 0 && harness::web_processes(app.app_pid) == before - 1).then_some(())
            })
            .ok_or_else(|| {
                format!(
                    "the hidden chat was not released: {} Zeta windows shown, {} web processes (before: {before})",
                    chat(),
                    harness::web_processes(app.app_pid)
                )
            })?;
            harness::tray_pick(1, || chat() > 0)?;
            app.switch_to("Zeta").await?;
            let reply = app.find("article[data-status=done] .markdown").await?;
            wait_for_text(&reply, "forty-two").await?;
            type_request(app, "and again").await?;
            wait_for(Duration::from_secs(30), || {
                (status_of(app, "and again").as_deref() == Some("done")).then_some(())
            })
            .ok_or("the made-again chat did not take a request")?;
            app.snapshot("chat-made-again").await?;
            Ok(())
        },
    )
    .await;
}
