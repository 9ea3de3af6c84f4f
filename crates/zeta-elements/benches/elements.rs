//! What reading and acting by element costs on real applications: `ui_outline` of the GTK
//! test form and of galculator through the accessibility tree (elements, tokens, time),
//! `ui_act` on the form (toggle, set_text, press), and the same form read by OCR when it
//! shares no tree. Medians and p90 over repeated runs, printed as a table.
//!
//! Run under X with a DBus session (the accessibility bus starts with the first GTK app):
//! `Xvfb :99 -screen 0 1280x800x24 & DISPLAY=:99 dbus-run-session -- cargo bench -p
//! zeta-elements --bench elements`.

// Bench code: a failed unwrap or expect is the bench failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_core::tool::{Tool, ToolContext, ToolOutput};
use zeta_elements::outline::{number_of, numbers_in, tokens};
use zeta_elements::{Desktop, Elements};
use zeta_test_support::apps::{missing, start, start_form, tesseract_missing};
use zeta_tools::input::InputState;

const RUNS: usize = 20;

struct Tools {
    outline: Arc<dyn Tool>,
    act: Arc<dyn Tool>,
    ctx: ToolContext,
}

impl Tools {
    fn new() -> Self {
        let tools = Elements::new(Desktop::default(), InputState::default()).tools();
        Self {
            outline: tools[0].clone(),
            act: tools[1].clone(),
            ctx: ToolContext::detached(std::env::temp_dir()),
        }
    }
    async fn outline(&self, args: Value) -> ToolOutput {
        self.outline.run(args, &self.ctx).await
    }
    async fn act(&self, args: Value) -> ToolOutput {
        self.act.run(args, &self.ctx).await
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs `f` RUNS times (after one warm-up) and prints its median and p90.
async fn timed<F, Fut>(label: &str, runs: usize, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ToolOutput>,
{
    let first = f().await;
    assert!(first.ok, "{label}: {}", first.content);
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let out = f().await;
        times.push(t.elapsed());
        assert!(out.ok, "{label}: {}", out.content);
    }
    times.sort();
    println!(
        "| {label} | {:.1} ms | {:.1} ms |",
        ms(times[times.len() / 2]),
        ms(times[times.len() * 9 / 10])
    );
}

/// The size of one outline: element lines and tokens.
fn size(label: &str, out: &ToolOutput) {
    println!(
        "| {label} | {} elements | ~{} tokens |",
        numbers_in(&out.content).len(),
        tokens(&out.content)
    );
}

fn number(outline: &str, needle: &str) -> u32 {
    number_of(outline, needle).unwrap_or_else(|| panic!("no element {needle:?} in:\n{outline}"))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if let Some(why) = missing() {
        println!("elements bench: cannot run here: {why}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tools = Tools::new();

    let form = start_form(&dir.path().join("form.json"), "Zeta bench form", true).unwrap();
    let calc_home = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new("galculator");
    cmd.env("HOME", calc_home.path()).env_remove("NO_AT_BRIDGE");
    let calc = start(cmd, "^galculator$").ok();

    println!("\n| outline | elements | tokens |\n|---|---|---|");
    let read = tools.outline(json!({"window": "Zeta bench form"})).await;
    size("GTK form (tree)", &read);
    if calc.is_some() {
        size(
            "galculator (tree, default budget)",
            &tools.outline(json!({"window": "galculator"})).await,
        );
        size(
            "galculator (tree, max 400)",
            &tools
                .outline(json!({"window": "galculator", "max": 400}))
                .await,
        );
    }

    {
        let settings = zeta_test_support::apps::start_settings(
            &dir.path().join("settings.json"),
            "Zeta bench settings",
        )
        .unwrap();
        size(
            "GTK settings window (tree: tabs, spin button, list)",
            &tools
                .outline(json!({"window": "Zeta bench settings", "max": 80}))
                .await,
        );
        drop(settings);
        let mut qt = std::process::Command::new(zeta_test_support::apps::SYSTEM_PYTHON);
        qt.arg(zeta_test_support::apps::qt_form_script())
            .arg(dir.path().join("qt.json"))
            .arg("Zeta bench Qt")
            .env("QT_ACCESSIBILITY", "1")
            .env("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1");
        if let Ok(qt) = start(qt, "^Zeta bench Qt$") {
            size(
                "Qt5 form (tree)",
                &tools.outline(json!({"window": "Zeta bench Qt"})).await,
            );
            drop(qt);
        }
    }

    println!("\n| call ({RUNS} runs) | median | p90 |\n|---|---|---|");
    timed("ui_outline, GTK form", RUNS, || {
        tools.outline(json!({"window": "Zeta bench form"}))
    })
    .await;
    if calc.is_some() {
        timed("ui_outline, galculator", RUNS, || {
            tools.outline(json!({"window": "galculator"}))
        })
        .await;
    }
    let read = tools.outline(json!({"window": "Zeta bench form"})).await;
    let check = number(&read.content, "check box \"Subscribe\"");
    let name = number(&read.content, "\"Name\"");
    let save = number(&read.content, "button \"Save\"");
    timed("ui_act toggle (check box)", RUNS, || {
        tools.act(json!({"element": check, "action": "toggle"}))
    })
    .await;
    let mut flip = false;
    timed(
        "ui_act set_text (entry, a new text each time)",
        RUNS,
        || {
            flip = !flip;
            let text = if flip { "hello" } else { "world" };
            tools.act(json!({"element": name, "action": "set_text", "text": text}))
        },
    )
    .await;
    timed(
        "ui_act set_text (entry, the same text: nothing changes)",
        RUNS,
        || tools.act(json!({"element": name, "action": "set_text", "text": "same"})),
    )
    .await;
    timed(
        "ui_act press (Save, the form's status unchanged after the first)",
        RUNS,
        || tools.act(json!({"element": save, "action": "press"})),
    )
    .await;
    if calc.is_some() {
        let keys = tools.outline(json!({"window": "galculator"})).await;
        let seven = number(&keys.content, "button \"7\"");
        timed(
            "ui_act press (galculator's 7: its display changes)",
            RUNS,
            || tools.act(json!({"element": seven, "action": "press"})),
        )
        .await;
    }
    drop(form);

    if let Some(why) = tesseract_missing() {
        println!("\nOCR: cannot run here: {why}");
        return;
    }
    let _blind = start_form(&dir.path().join("blind.json"), "Zeta bench blind", false).unwrap();
    let ocr = tools
        .outline(json!({"window": "Zeta bench blind", "source": "ocr"}))
        .await;
    println!("\n| outline | elements | tokens |\n|---|---|---|");
    size("GTK form without accessibility (OCR)", &ocr);
    println!("\n| call (10 runs) | median | p90 |\n|---|---|---|");
    timed("ui_outline by OCR, 420x260 window", 10, || {
        tools.outline(json!({"window": "Zeta bench blind", "source": "ocr"}))
    })
    .await;
    timed("ui_outline by OCR, whole 1280x800 screen", 5, || {
        tools.outline(json!({"source": "ocr"}))
    })
    .await;
}
