//! Operating a window by its elements, end to end: the real `zeta`, the scripted model
//! calling `ui_outline` and `ui_act`, and a real GTK application under Xvfb with the
//! accessibility bus. The model reads the form, fills the field, ticks the box, picks a
//! colour and presses Save by number; the file the application wrote is the proof. The
//! same through OCR on the application started without accessibility. In `ask` mode the
//! user is asked about the element by its role and name.

use std::path::PathBuf;

use serde_json::{json, Value};
use zeta_scripted_llm::{Step, Wire};
use zeta_test_support::apps::{missing, start_form, App};
use zeta_test_support::{cannot_run, Needs};

use crate::harness::*;

/// One at a time: they share the display and the pointer.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn desktop(test: &str) -> bool {
    match missing() {
        Some(why) => {
            cannot_run(Needs::Desktop, test, why);
            false
        }
        None => true,
    }
}

/// The GTK test form on the display, held by one test at a time: the file its Save button
/// writes is `out`.
struct Form {
    out: PathBuf,
    _app: App,
    _dir: tempfile::TempDir,
    _serial: tokio::sync::MutexGuard<'static, ()>,
}

async fn form(title: &str, accessible: bool) -> Form {
    let serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("form.json");
    let app = start_form(&out, title, accessible).unwrap_or_else(|e| panic!("{e}"));
    Form {
        out,
        _app: app,
        _dir: dir,
        _serial: serial,
    }
}

/// The GTK settings window on the display, held by one test at a time: Apply and OK write
/// `out`.
struct SettingsWindow {
    out: PathBuf,
    _app: App,
    _dir: tempfile::TempDir,
    _serial: tokio::sync::MutexGuard<'static, ()>,
}

async fn settings_window(title: &str) -> SettingsWindow {
    let serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("settings.json");
    let app =
        zeta_test_support::apps::start_settings(&out, title).unwrap_or_else(|e| panic!("{e}"));
    SettingsWindow {
        out,
        _app: app,
        _dir: dir,
        _serial: serial,
    }
}

/// A scripted model with every answer checked (`verify: always`).
async fn checked(steps: Vec<Step>) -> Setup {
    Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        steps,
        json!({"verify": "always"}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_fills_in_a_form_by_element_number() {
    if !desktop("the_agent_fills_in_a_form_by_element_number") {
        return;
    }
    let form = form("Zeta agent form", true).await;
    // A fresh `zeta` numbers the form top to bottom: Name, Subscribe, Colour, Save.
    let steps = vec![
        Step::call("ui_outline", json!({"window": "Zeta agent form"})),
        Step::call(
            "ui_act",
            json!({"element": 1, "action": "set_text", "text": "Grace Hopper"}),
        ),
        Step::call("ui_act", json!({"element": 2, "action": "toggle"})),
        Step::call(
            "ui_act",
            json!({"element": 3, "action": "select", "option": "Blue"}),
        ),
        Step::call("ui_act", json!({"element": 4, "action": "press"})),
        Step::text("Saved the form for Grace Hopper."),
    ];
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        steps,
        json!({"permissions": {"mode": "ask"}}),
    )
    .await;
    let run = s.zeta_run("fill in the form for Grace Hopper, subscribe, blue, and save it");
    done_task(&run);
    assert_eq!(
        saved(&form.out),
        json!({"name": "Grace Hopper", "subscribe": true, "colour": "Blue"})
    );
    s.assert_invariants();

    let first = text_of(&s.requests()[0]);
    assert!(
        first.contains("read the window with ui_outline first"),
        "the model is told how: {first}"
    );
    let results = tool_results(&s);
    assert_eq!(results.len(), 5, "{results:?}");
    assert!(
        results[0].contains("[4] button \"Save\"") && results[0].contains("[1] text \"Name\""),
        "{}",
        results[0]
    );
    assert!(
        results[4].contains("label \"Saved\""),
        "the press reports what changed: {}",
        results[4]
    );

    // Each action asked in `ask` mode, about the element by role and name (the CLI said yes).
    let asked: Vec<String> = events(&run)
        .iter()
        .filter(|e| e["type"] == "approvalRequested")
        .map(|e| e.to_string())
        .collect();
    assert_eq!(asked.len(), 4, "{asked:?}");
    assert!(
        asked[3].contains("press button \\\"Save\\\" in \\\"Zeta agent form\\\""),
        "{}",
        asked[3]
    );
    let rows = audit_rows(&s);
    let acts: Vec<_> = rows.iter().filter(|r| r.0 == "ui_act").collect();
    assert_eq!(acts.len(), 4, "{rows:?}");
    let reads: Vec<_> = rows.iter().filter(|r| r.0 == "ui_outline").collect();
    assert!(
        reads.iter().all(|r| r.2 != "user"),
        "reading never asks: {rows:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_presses_a_button_it_read_by_ocr() {
    if !desktop("the_agent_presses_a_button_it_read_by_ocr") {
        return;
    }
    if let Some(why) = zeta_test_support::apps::tesseract_missing() {
        cannot_run(
            Needs::Desktop,
            "the_agent_presses_a_button_it_read_by_ocr",
            why,
        );
        return;
    }
    let form = form("Zeta blind form", false).await;
    // OCR reads the words top to bottom: Name, Subscribe, Colour, Red, Save, Not saved.
    let steps = vec![
        Step::call("ui_outline", json!({"window": "Zeta blind form"})),
        Step::call("ui_act", json!({"element": 5, "action": "press"})),
        Step::text("Pressed Save."),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let run = s.zeta_run("press Save in the Zeta blind form");
    done_task(&run);
    let results = tool_results(&s);
    assert!(
        results[0].contains("OCR") && results[0].contains("[5] text \"Save\""),
        "{}",
        results[0]
    );
    assert_eq!(saved(&form.out)["subscribe"], false);
    assert!(
        results[1].contains("Saved"),
        "the screen read again after the press: {}",
        results[1]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_doctor_says_whether_windows_can_be_read_by_their_elements() {
    if !desktop("the_doctor_says_whether_windows_can_be_read_by_their_elements") {
        return;
    }
    let form = form("Zeta doctor form", true).await;
    let blind = start_form(
        &form.out.with_extension("blind"),
        "Zeta doctor blind",
        false,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let s = Setup::new(Wire::OpenAi, Proto::Native, vec![]).await;
    let report = |bus: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_zeta"));
        cmd.args(["doctor", "--json"])
            .env("ZETA_HOME", s.home.path())
            .env("HOME", s.home.path());
        if !bus {
            cmd.env_remove("DBUS_SESSION_BUS_ADDRESS");
        }
        let out = cmd.output().expect("run zeta doctor");
        let checks: Vec<Value> = serde_json::from_slice(&out.stdout).expect("doctor json");
        checks
            .into_iter()
            .find(|c| c["name"] == "a11y")
            .expect("an a11y line")
    };
    let with = report(true);
    assert_eq!(with["level"], "ok", "{with}");
    assert!(
        with["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("accessibility bus reachable"),
        "{with}"
    );
    // Per application: the form shares its tree; the one started without is read by OCR.
    let detail = with["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("with a tree: ") && detail.contains("form_app.py"),
        "{with}"
    );
    assert!(
        detail.contains("no tree (read by OCR): ") && detail.contains("\"Zeta doctor blind\""),
        "{with}"
    );
    drop(blind);
    let without = report(false);
    assert_eq!(without["level"], "warn", "{without}");
    assert!(
        without["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("no DBus session"),
        "{without}"
    );
    assert!(
        without["fix"]
            .as_str()
            .unwrap_or_default()
            .contains("at-spi2-core"),
        "{without}"
    );
}

/// A press that names another element than its number's (the Name field's number with
/// "Save", as the local model once did) contradicts itself: nothing is pressed, and the
/// model is told what the number is; the right number then saves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_whose_text_names_another_element_is_refused_with_what_the_number_is() {
    if !desktop("a_press_whose_text_names_another_element_is_refused") {
        return;
    }
    let form = form("Zeta contradiction form", true).await;
    let steps = vec![
        Step::call("ui_outline", json!({"window": "Zeta contradiction form"})),
        Step::call(
            "ui_act",
            json!({"element": 1, "action": "press", "text": "Save"}),
        ),
        Step::call(
            "ui_act",
            json!({"element": 4, "action": "press", "text": "Save"}),
        ),
        Step::text("Saved."),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    done_task(&s.zeta_run("press Save on the form"));
    let results = tool_results(&s);
    assert!(
        results[1].contains("not pressed: [1]") && results[1].contains("Name"),
        "{}",
        results[1]
    );
    assert!(results[2].contains("label \"Saved\""), "{}", results[2]);
    assert!(
        saved(&form.out).is_object(),
        "the right press saved the form"
    );
    s.assert_invariants();
}

/// A value the window does not take (500 in a spin button of 1–99): the act's read-back
/// says it does not show; the model's "done" goes back once with what the window shows,
/// and when it claims it again the person reads that it was not done, before the claim.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_the_windows_read_back_contradicts_goes_back_and_is_then_said_not_done() {
    let test = "a_claim_the_windows_read_back_contradicts_goes_back_and_is_then_said_not_done";
    if !desktop(test) {
        return;
    }
    let window = settings_window("Zeta agent settings").await;
    // A fresh `zeta` numbers the window top to bottom: the tab list, General, Copies,
    // Title, Advanced, the label, Set label…, Apply, OK.
    let claim = "Copies is set to 500 and saved.";
    let steps = vec![
        Step::call("ui_outline", json!({"window": "Zeta agent settings"})),
        Step::call(
            "ui_act",
            json!({"element": 3, "action": "set_text", "text": "500"}),
        ),
        Step::call("ui_act", json!({"element": 9, "action": "press"})),
        Step::text(claim),
        Step::text(claim),
    ];
    let s = checked(steps).await;
    let run = s.zeta_run("set Copies to 500 in Zeta agent settings and press OK");
    let task = done_task(&run);
    // The application's own record: it took 99, its highest.
    assert_eq!(saved(&window.out)["copies"], 99);
    let results = tool_results(&s);
    assert!(
        results[1].contains("NOT SHOWN") && results[1].contains("it shows \"99\""),
        "{}",
        results[1]
    );
    let sent_back = text_of(&s.requests()[4]);
    assert!(
        sent_back.contains("The window does not show what you did")
            && sent_back.contains("spin button \\\"Copies\\\" in \\\"Zeta agent settings"),
        "{sent_back}"
    );
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(
        reply.starts_with("Not done: the window does not show it.")
            && reply.contains("it shows \"99\""),
        "{reply}"
    );
    let checks: Vec<String> = events(&run)
        .iter()
        .filter(|e| e["type"] == "answerChecked")
        .map(|e| format!("{} {}", e["check"], e["result"]))
        .collect();
    assert!(
        checks.iter().any(|c| c.starts_with("\"act-not-shown\"")),
        "{checks:?}"
    );
    s.assert_invariants();
}

/// A Qt application the agent starts with open_app shares its tree (Zeta gives the apps
/// it starts the accessibility environment: Qt joins the bus only when asked, and only
/// once the bus is up); open_app names the window that opened; the model fills the Qt
/// form by number, and the file the application wrote is the proof.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_qt_application_started_by_the_agent_is_operated_through_its_tree() {
    let test = "a_qt_application_started_by_the_agent_is_operated_through_its_tree";
    if !desktop(test) {
        return;
    }
    let qt = std::process::Command::new(zeta_test_support::apps::SYSTEM_PYTHON)
        .args(["-c", "from PyQt5 import QtWidgets"])
        .status();
    if !qt.is_ok_and(|s| s.success()) {
        cannot_run(Needs::Desktop, test, "no PyQt5 (apt install python3-pyqt5)");
        return;
    }
    let _serial = SERIAL.lock().await;
    let script = zeta_test_support::apps::qt_form_script();
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        vec![],
        json!({"permissions": {"mode": "auto"}}),
    )
    .await;
    let out = s.home.path().join("qt-form.json");
    let title = "Zeta agent Qt form";
    // Numbered top to bottom: Name, Subscribe, Copies, Save, the status label, the label
    // "Size" and its combo box (named as the option it shows).
    for step in [
        Step::call(
            "open_app",
            json!({"name": zeta_test_support::apps::SYSTEM_PYTHON,
                   "args": [script.display().to_string(), out.display().to_string(), title]}),
        ),
        Step::call("ui_outline", json!({"window": "agent qt"})),
        Step::call(
            "ui_act",
            json!({"element": 1, "action": "set_text", "text": "Ada"}),
        ),
        Step::call(
            "ui_act",
            json!({"element": 3, "action": "set_text", "text": "5"}),
        ),
        Step::call("ui_act", json!({"element": 2, "action": "toggle"})),
        Step::call(
            "ui_act",
            json!({"element": 7, "action": "select", "option": "Large"}),
        ),
        Step::call("ui_act", json!({"element": 4, "action": "press"})),
        Step::text("Saved the Qt form for Ada."),
    ] {
        s.server.push(step);
    }
    let run = s.zeta_run(
        "open the Qt form, fill it in for Ada with 5 copies, subscribe, size Large, save",
    );
    let results = tool_results(&s);
    // The application outlives the task: ended by its PID.
    let pid = results
        .first()
        .and_then(|r| r.split("as pid ").nth(1))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|p| p.parse::<i32>().ok());
    if let Some(pid) = pid {
        let _ = std::process::Command::new("kill")
            .arg(pid.to_string())
            .status();
    }
    done_task(&run);
    assert!(
        results[0].contains(&format!("Its window is open: \"{title}\"")),
        "{}",
        results[0]
    );
    assert!(
        results[1]
            .starts_with("<untrusted_data source=\"ui_outline\">\nWindow \"Zeta agent Qt form\"")
            && results[1].contains("[1] text \"Name\"")
            && results[1].contains("[4] button \"Save\""),
        "read by its tree, not OCR: {}",
        results[1]
    );
    // Qt's combo box takes no choice through Selection: chosen with the keys.
    assert!(
        results[5].contains("chose the option \"Large\"")
            && results[5].contains("combo box \"Large\""),
        "{}",
        results[5]
    );
    assert!(results[6].contains("label \"Saved\""), "{}", results[6]);
    assert_eq!(
        saved(&out),
        json!({"name": "Ada", "subscribe": true, "copies": 5, "size": "Large"})
    );
    s.assert_invariants();
}

/// An act that failed is on the record too: typing at a label's number is refused (it
/// would land wherever the keyboard is), and "typed it" is then said not done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_of_an_act_that_failed_is_said_not_done() {
    let test = "a_claim_of_an_act_that_failed_is_said_not_done";
    if !desktop(test) {
        return;
    }
    let _window = settings_window("Zeta agent failed act").await;
    // [6] is the label "Label: (none)".
    let claim = "I typed Kitchen as the label.";
    let steps = vec![
        Step::call("ui_outline", json!({"window": "Zeta agent failed act"})),
        Step::call(
            "ui_act",
            json!({"element": 6, "action": "type", "text": "Kitchen"}),
        ),
        Step::text(claim),
        Step::text(claim),
    ];
    let s = checked(steps).await;
    let run = s.zeta_run("type Kitchen as the label in Zeta agent failed act");
    let task = done_task(&run);
    let results = tool_results(&s);
    assert!(
        results[1].contains("does not take text"),
        "{}\n{}",
        results[0],
        results[1]
    );
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(
        reply.starts_with("Not done: the window does not show it.")
            && reply.contains("it was not done: label"),
        "{reply}\n{}",
        results[0]
    );
    s.assert_invariants();
}

/// The person's window has the keyboard (as after they clicked it).
fn give_focus(title: &str) {
    let found = std::process::Command::new("xdotool")
        .args(["search", "--onlyvisible", "--name", &format!("^{title}$")])
        .output()
        .expect("xdotool search");
    let id = String::from_utf8_lossy(&found.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(!id.is_empty(), "no window \"{title}\"");
    let ok = std::process::Command::new("xdotool")
        .args(["windowfocus", "--sync", &id])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "xdotool windowfocus");
    std::thread::sleep(std::time::Duration::from_millis(300));
}

/// What the keyboard tool types is read back from the field with the focus: typed into
/// the form's Name field it shows ("Shown: … now holds"), and the form saves it; typed
/// while the focus is on a button it does not land, the call says so, and a claim that it
/// was typed goes back and is then said not done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_is_read_back_from_the_focused_field() {
    if !desktop("typing_is_read_back_from_the_focused_field") {
        return;
    }
    let form = form("Zeta typed form", true).await;
    give_focus("Zeta typed form");
    // Numbered top to bottom: Name, Subscribe, Colour, Save.
    let steps = vec![
        Step::call("keyboard", json!({"text": "Grace Hopper"})),
        Step::call("ui_outline", json!({"window": "Zeta typed form"})),
        Step::call("ui_act", json!({"element": 4, "action": "focus"})),
        Step::call("keyboard", json!({"text": "Ada"})),
        Step::text("Typed Ada into the form."),
        Step::text("Typed Ada into the form."),
    ];
    let s = checked(steps).await;
    let run = s.zeta_run("type Grace Hopper into the form, then Ada");
    let task = done_task(&run);
    let results = tool_results(&s);
    assert!(
        results[0].contains("Shown: text \"Name\" now holds \"Grace Hopper\""),
        "{results:#?}"
    );
    assert!(
        results[3].contains(
            "NOT SHOWN: you meant to type \"Ada\", but button \"Save\" shows no text: the text did not land there"
        ),
        "{}",
        results[3]
    );
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(
        reply.starts_with("Not done: the window does not show it.")
            && reply.contains("button \"Save\" in \"Zeta typed form\": type \"Ada\""),
        "{reply}"
    );
    // Nothing was saved: the text never reached a field that keeps it.
    assert!(
        !form.out.exists(),
        "the form saved: {:?}",
        std::fs::read_to_string(&form.out)
    );
    s.assert_invariants();
}

/// A request names a window by its title alone, in words that are no window's
/// ("Put … in Parcel"): the small model is handed that window's outline first, though
/// another window is active, and an answer with nothing done in it goes back once, then
/// is said not done; the form saved nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_the_request_names_is_read_first_and_an_answer_with_nothing_done_there_says_so() {
    let test =
        "a_window_the_request_names_is_read_first_and_an_answer_with_nothing_done_there_says_so";
    if !desktop(test) {
        return;
    }
    let parcel = form("Parcel", true).await;
    // Started after it: the active window, the one read were the request not naming one.
    let other_dir = tempfile::tempdir().expect("temp dir");
    let _other = start_form(&other_dir.path().join("other.json"), "Lunch order", true)
        .unwrap_or_else(|e| panic!("{e}"));
    let claim = "I put Ada in as the name in Parcel and saved it.";
    let (s, task) = small_task(
        &[answer(claim), answer(claim)],
        "Put Ada in as the name in Parcel, then save it",
    )
    .await;
    let requests = s.requests();
    assert_eq!(requests.len(), 2, "sent back once, then it stands");
    let first = text_of(&requests[0]);
    assert!(
        first.contains("\\\"Parcel\\\"")
            && first.contains("button \\\"Save\\\"")
            && !first.contains("Lunch order\\\":"),
        "the named window's outline comes first: {first}"
    );
    let second = text_of(&requests[1]);
    assert!(
        second.contains("Nothing has been done in the window \\\"Parcel\\\" yet"),
        "{second}"
    );
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(
        reply.starts_with("Not done: nothing was done in the window \"Parcel\"")
            && reply.contains(claim),
        "{reply}"
    );
    assert!(!parcel.out.exists(), "the form saved nothing");
    s.assert_invariants();
}

/// The small model's plan grammar, in the real app: from the first step after the window
/// was read, `ui_act` takes only the calls the window's elements take (the field text,
/// the button a press), so a name written as the action is no plan the server lets
/// through.
#[tokio::test(flavor = "multi_thread")]
async fn the_small_model_s_element_calls_are_bound_to_the_window_read() {
    let test = "the_small_model_s_element_calls_are_bound_to_the_window_read";
    if !desktop(test) {
        return;
    }
    let _parcel = form("Parcel", true).await;
    let (s, _task) = small_task(
        &[answer("Not done."), answer("Not done.")],
        "Put Ada in as the name in Parcel, then save it",
    )
    .await;
    let requests = s.requests();
    let first = &requests[0].body;
    let schema = &first["response_format"]["json_schema"]["schema"];
    let outline: String = first["messages"]
        .as_array()
        .map(|m| m.iter().filter_map(|m| m["content"].as_str()).collect())
        .unwrap_or_default();
    let number = |needle: &str| {
        zeta_elements::outline::number_of(&outline, needle)
            .unwrap_or_else(|| panic!("no {needle:?} in {outline}"))
    };
    let (name, save) = (number("text \"Name\""), number("button \"Save\""));
    let takes = |args: Value| {
        let plan =
            json!({"command": "", "reply": "", "done": false, "tool": "ui_act", "args": args});
        jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{e}: {schema}"))
            .is_valid(&plan)
    };
    assert!(takes(
        json!({"action": "set_text", "element": name, "text": "Ada"})
    ));
    assert!(takes(json!({"action": "press", "element": save})));
    assert!(
        !takes(json!({"action": "Ada", "element": name})),
        "{schema}"
    );
    assert!(!takes(
        json!({"action": "set_text", "element": save, "text": "Ada"})
    ));
    s.assert_invariants();
}

/// `request` run to its end by the real `zeta` with the local small model's path (a fake
/// llama-server playing `turns`, the JSON plan): the setup, its server stopped, and the
/// task.
async fn small_task(turns: &[Turn], request: &str) -> (Setup, Value) {
    let s = Setup::small(script(turns, Proto::Json), json!({})).await;
    let run = s
        .small_command(&["run", "--json", "--approve", "all", request])
        .output()
        .expect("zeta run");
    let task = done_task(&run);
    s.stop_small();
    (s, task)
}

/// `request` run by the real `zeta` on the small model's path (`steps` played) while
/// the test editor shows `name`, a file of the home holding `content`: the setup, its
/// server stopped, the task, and what the editor saved to the file.
async fn editor_task(
    steps: Vec<Step>,
    name: &str,
    content: &str,
    request: &str,
) -> (Setup, Value, String) {
    let s = Setup::small(steps, json!({})).await;
    let file = s.home.path().join(name);
    std::fs::write(&file, content).expect("the editor's file");
    let _editor =
        zeta_test_support::apps::start_editor(&file, &format!("{name} - Editor"), content)
            .unwrap_or_else(|e| panic!("{e}"));
    let run = s
        .small_command(&["run", "--json", "--approve", "all", request])
        .output()
        .expect("zeta run");
    let task = done_task(&run);
    s.stop_small();
    let saved = std::fs::read_to_string(&file).expect("the editor's file read");
    (s, task, saved)
}

/// An editor's whole text set to the new line alone, which leaves out the line the
/// request says it goes after: the model, asked on its own, says the request adds to
/// the text, after what it holds; the call is held every time it is made, told the
/// `type` call that adds at the end, never to make the same call again. The line typed
/// is saved through the File menu, and the step after that save may only answer (the
/// small model's grammar offers no call and no command): the file the application
/// wrote is the proof.
#[tokio::test(flavor = "multi_thread")]
async fn an_editors_text_left_out_is_held_and_after_its_save_the_next_step_answers() {
    let test = "an_editors_text_left_out_is_held_and_after_its_save_the_next_step_answers";
    if !desktop(test) {
        return;
    }
    let _serial = SERIAL.lock().await;
    let plan = |args: Value| Step::text(json!({"args": args, "tool": "ui_act"}).to_string());
    // A fresh `zeta` numbers the editor top to bottom: the menu bar, File, Edit, the text.
    let steps = vec![
        plan(json!({"action": "set_text", "element": 4, "text": "pears"})),
        Step::text(json!({"choice": "add"}).to_string()),
        Step::text(json!({"choice": "after"}).to_string()),
        plan(json!({"action": "set_text", "element": 4, "text": "pears"})),
        plan(json!({"action": "type", "element": 4, "text": "pears"})),
        plan(json!({"action": "select", "element": 2, "option": "Save"})),
        Step::text(
            json!({"command": "", "reply": "I added pears after apples and saved list.txt."})
                .to_string(),
        ),
    ];
    let (s, task, saved) = editor_task(
        steps,
        "list.txt",
        "apples\n",
        "In the list.txt window, add the line pears after apples and save the file",
    )
    .await;
    assert_eq!(
        saved.lines().collect::<Vec<_>>(),
        ["apples", "pears"],
        "{task}"
    );
    let requests = s.requests();
    let said = said_in(requests.last().expect("requests"));
    assert!(
        said.contains("leaving out apples")
            && said.contains(r#"{"action": "type", "element": 4, "text": "pears"}"#)
            && !said.contains("same call again")
            && said.contains("What the request asks is done in the window"),
        "{said}"
    );
    // Held both times, the question asked once, on its own.
    assert_eq!(said.matches("not set yet").count(), 2, "{said}");
    let asked: Vec<String> = requests
        .iter()
        .map(said_in)
        .filter(|t| t.contains("Is this request asking to add something"))
        .collect();
    assert!(
        asked.len() == 1
            && asked[0].contains("add the line pears after apples")
            && !asked[0].contains("ui_outline"),
        "{asked:?}"
    );
    // The request after the save: only an answer.
    let last = &requests.last().expect("requests").body;
    let schema = &last["response_format"]["json_schema"]["schema"];
    let valid = |plan: Value| {
        jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{e}: {schema}"))
            .is_valid(&plan)
    };
    assert!(
        valid(json!({"command": "", "reply": "Saved.", "done": true})),
        "{schema}"
    );
    assert!(
        !valid(
            json!({"command": "", "reply": "", "done": false, "tool": "ui_act", "args": {"action": "press", "element": 2}})
        ),
        "{schema}"
    );
    assert!(
        !valid(json!({"command": "ls", "reply": "", "done": false})),
        "{schema}"
    );
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(reply.contains("pears"), "{reply}");
    s.assert_invariants();
}

/// A text the request changes ("say on instead of off"): the model, asked on its own,
/// says so, and the text set in place of all the editor held goes through at once,
/// with nothing told after the answer about the word it left out.
#[tokio::test(flavor = "multi_thread")]
async fn an_editors_text_the_request_changes_is_set_at_once() {
    let test = "an_editors_text_the_request_changes_is_set_at_once";
    if !desktop(test) {
        return;
    }
    let _serial = SERIAL.lock().await;
    let plan = |args: Value| Step::text(json!({"args": args, "tool": "ui_act"}).to_string());
    let steps = vec![
        plan(json!({"action": "set_text", "element": 4, "text": "on"})),
        Step::text(json!({"choice": "change"}).to_string()),
        plan(json!({"action": "select", "element": 2, "option": "Save"})),
        Step::text(json!({"command": "", "reply": "The file says on now, saved."}).to_string()),
    ];
    let (s, task, saved) = editor_task(
        steps,
        "mode.txt",
        "off\n",
        "In the mode.txt window, make it say on instead of off and save the file",
    )
    .await;
    assert_eq!(saved.trim(), "on", "{task}");
    let requests = s.requests();
    let said = said_in(requests.last().expect("requests"));
    assert!(
        !said.contains("not set yet") && said.contains("set its text to \"on\""),
        "{said}"
    );
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(
        reply.contains("says on") && !reply.contains("no longer holds"),
        "{reply}"
    );
    s.assert_invariants();
}

/// A number the request gives is keyed in on a keypad nobody rehearsed, digit by digit,
/// and what it says between two numbers ("times") is a key the model chose when asked on
/// its own: galculator's keys are pressed in the order the request gives them, each call
/// bound to the next key, and after its "=" the next step may only answer. galculator
/// itself shows the result.
#[tokio::test(flavor = "multi_thread")]
async fn a_calculation_is_keyed_in_key_by_key_and_its_result_read_from_the_calculator() {
    let test = "a_calculation_is_keyed_in_key_by_key_and_its_result_read_from_the_calculator";
    if !desktop(test) {
        return;
    }
    let _serial = SERIAL.lock().await;
    let press = |n: u32| {
        Step::text(json!({"args": {"action": "press", "element": n}, "tool": "ui_act"}).to_string())
    };
    // A fresh `zeta` numbers galculator's keys as it reads them: 1 is [26], 2 [27], * [24],
    // 7 [16], = [30]. The first request is the question of the key for "times".
    let steps = vec![
        Step::text(json!({"choice": "*"}).to_string()),
        press(26),
        press(27),
        press(24),
        press(16),
        press(30),
        Step::text(
            json!({"command": "", "reply": "The calculator shows 84.", "done": true}).to_string(),
        ),
    ];
    let s = Setup::small(steps, json!({})).await;
    let calc_home = tempfile::tempdir().expect("galculator's home");
    let mut cmd = std::process::Command::new("galculator");
    cmd.env("HOME", calc_home.path()).env_remove("NO_AT_BRIDGE");
    let _calc = match zeta_test_support::apps::start(cmd, "^galculator$") {
        Ok(app) => app,
        Err(e) => {
            cannot_run(Needs::Desktop, test, e);
            return;
        }
    };
    let run = s
        .small_command(&[
            "run",
            "--json",
            "--approve",
            "all",
            "In the galculator window, work out 12 times 7",
        ])
        .output()
        .expect("zeta run");
    let task = done_task(&run);
    s.stop_small();
    let requests = s.requests();
    let bodies: Vec<String> = requests.iter().map(said_in).collect();
    // The question, asked on its own: the request's words, the keys that are no digit.
    let asked = bodies
        .iter()
        .find(|b| b.contains("between 12 and 7"))
        .unwrap_or_else(|| panic!("no question of the key: {bodies:?}"));
    assert!(
        asked.contains("Keys: ") && asked.contains("*") && !asked.contains("ui_outline"),
        "{asked}"
    );
    // The step after 1 and 2: its one call is "*", the key chosen.
    let after_two = requests
        .iter()
        .find(|r| said_in(r).contains("[27] \"2\" (pressed), [24] \"*\""))
        .unwrap_or_else(|| panic!("no step after 2: {bodies:?}"));
    let schema = &after_two.body["response_format"]["json_schema"]["schema"];
    let valid = |plan: Value| {
        jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{e}: {schema}"))
            .is_valid(&plan)
    };
    let act = |n: u32| json!({"command": "", "reply": "", "done": false, "tool": "ui_act", "args": {"action": "press", "element": n}});
    assert!(valid(act(24)), "{schema}");
    assert!(!valid(act(16)) && !valid(act(29)), "{schema}");
    assert!(
        !valid(json!({"command": "", "reply": "84", "done": true})),
        "{schema}"
    );
    // galculator's own display, as the last act read it back, and only an answer after.
    let said = said_in(requests.last().expect("requests"));
    assert!(said.contains("text = \"84\""), "{said}");
    assert!(
        said.contains("keyed in and the window shows its result"),
        "{said}"
    );
    let reply = task["reply"].as_str().unwrap_or_default();
    assert!(reply.contains("84"), "{reply}");
    s.assert_invariants();
}
