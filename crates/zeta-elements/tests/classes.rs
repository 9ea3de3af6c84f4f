//! The classes of widget ordinary settings windows hold, operated by element number in a
//! real GTK3 application under Xvfb (`tests/elements/apps/settings_app.py`), each checked
//! by what the application itself writes: a number typed into a spin button counts once
//! committed; a notebook's hidden page is opened by its tab; a list's nameless toggle
//! cells are told apart by their row and toggled; a button whose handler runs a modal
//! dialog (gtk_dialog_run) does not block, and the dialog is read and answered; and every
//! act says, read back from the window, whether its change shows.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};
use zeta_core::tool::{Shown, Tool, ToolContext, ToolOutput};
use zeta_elements::{Desktop, Elements};
use zeta_test_support::apps::{missing, start_settings, App};
use zeta_test_support::{cannot_run, Needs};
use zeta_tools::input::InputState;

/// One test at a time: they share the display and the pointer.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

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
    async fn outline(&self, window: &str) -> String {
        let r = self
            .outline
            .run(json!({"window": window, "max": 80}), &self.ctx)
            .await;
        assert!(r.ok, "{}", r.content);
        r.content
    }
    async fn act(&self, args: Value) -> ToolOutput {
        let r = self.act.run(args.clone(), &self.ctx).await;
        println!("{args}\n{}", r.content);
        r
    }
}

fn number_of(outline: &str, needle: &str) -> u64 {
    zeta_elements::outline::number_of(outline, needle)
        .map(u64::from)
        .unwrap_or_else(|| panic!("no element line contains {needle:?} in:\n{outline}"))
}

/// The settings window, held by one test at a time.
async fn settings(
    test: &str,
    title: &str,
) -> Option<(App, tempfile::TempDir, tokio::sync::MutexGuard<'static, ()>)> {
    if let Some(why) = missing() {
        cannot_run(Needs::Desktop, test, why);
        return None;
    }
    let serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let app =
        start_settings(&dir.path().join("settings.json"), title).unwrap_or_else(|e| panic!("{e}"));
    Some((app, dir, serial))
}

fn written(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("settings.json"))
        .unwrap_or_else(|e| panic!("the application wrote no settings: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON: {e}: {text}"))
}

fn shown(r: &ToolOutput) -> &Shown {
    &r.read_back
        .as_ref()
        .unwrap_or_else(|| panic!("no read-back: {}", r.content))
        .shown
}

#[tokio::test(flavor = "multi_thread")]
async fn a_typed_number_counts_once_committed_and_one_out_of_range_is_not_shown() {
    let test = "a_typed_number_counts_once_committed_and_one_out_of_range_is_not_shown";
    let Some((_app, dir, _serial)) = settings(test, "Zeta settings commit").await else {
        return;
    };
    let tools = Tools::new();
    let outline = tools.outline("Zeta settings commit").await;
    assert!(
        outline.contains("page tab \"General\" (selected)"),
        "the page showing is said:\n{outline}"
    );
    let copies = number_of(&outline, "spin button \"Copies\" = \"1\"");

    // Out of range (1–99): the application keeps 99, and the act says it does not show.
    let r = tools
        .act(json!({"element": copies, "action": "set_text", "text": "500"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(shown(&r), &Shown::No("it shows \"99\"".into()));
    assert!(r.content.contains("NOT SHOWN"), "{}", r.content);

    // Typing into what takes no text would land wherever the keyboard is: refused.
    let label = number_of(&outline, "label \"Label: (none)\"");
    let r = tools
        .act(json!({"element": label, "action": "type", "text": "stray"}))
        .await;
    assert!(
        !r.ok && r.content.contains("does not take text"),
        "{}",
        r.content
    );
    let r = tools
        .act(json!({"element": copies, "action": "set_text", "text": "7"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert!(
        matches!(shown(&r), Shown::Yes(s) if s.contains('7')),
        "{r:?}"
    );
    assert!(r.content.contains("committed"), "{}", r.content);
    let ok = number_of(&outline, "button \"OK\"");
    let r = tools.act(json!({"element": ok, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(shown(&r), &Shown::Yes("its window closed".into()));
    let got = written(dir.path());
    assert_eq!(got["copies"], 7, "{got}");
    assert_eq!(got["title"], "", "nothing typed went astray: {got}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hidden_page_opens_by_its_tab_and_a_lists_toggle_cells_are_told_apart() {
    let test = "a_hidden_page_opens_by_its_tab_and_a_lists_toggle_cells_are_told_apart";
    let Some((_app, dir, _serial)) = settings(test, "Zeta settings pages").await else {
        return;
    };
    let tools = Tools::new();
    let outline = tools.outline("Zeta settings pages").await;
    assert!(
        !outline.contains("Verbose"),
        "a hidden page's widgets are not shown:\n{outline}"
    );
    let advanced = number_of(&outline, "page tab \"Advanced\"");
    let r = tools
        .act(json!({"element": advanced, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(shown(&r), &Shown::Yes("its page is showing".into()));

    let outline = tools.outline("Zeta settings pages").await;
    assert!(
        outline.contains("page tab \"Advanced\" (selected)"),
        "{outline}"
    );
    let beta = "table cell (row \"Beta\", column \"Enabled\") (unchecked)";
    let cell = number_of(&outline, beta);
    let verbose = number_of(&outline, "check box \"Verbose\" (unchecked)");
    let r = tools
        .act(json!({"element": cell, "action": "toggle"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(shown(&r), &Shown::Yes("it is now checked".into()));
    let r = tools
        .act(json!({"element": verbose, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(shown(&r), &Shown::Yes("it is now checked".into()));
    // A row named by its text cell, toggled: the text cannot be ticked, the row's box is.
    let gamma = number_of(&outline, "table cell \"Gamma\"");
    let r = tools
        .act(json!({"element": gamma, "action": "toggle"}))
        .await;
    assert!(
        r.ok && r.content.contains("the box of its row is"),
        "{}",
        r.content
    );
    assert_eq!(shown(&r), &Shown::Yes("it is now checked".into()));
    // The record says the row, what the act entered (the answer checks read it).
    let intended = r.read_back.as_ref().map(|rb| rb.intended.clone());
    assert_eq!(
        intended.as_deref(),
        Some("toggle it (the box of the row \"Gamma\")")
    );

    let outline = tools.outline("Zeta settings pages").await;
    assert!(
        outline.contains("table cell (row \"Beta\", column \"Enabled\") (checked")
            && outline.lines().any(|l| {
                l.contains("table cell (row \"Gamma\", column \"Enabled\")")
                    && l.contains("checked")
                    && !l.contains("unchecked")
            })
            && outline.contains("table cell (row \"Alpha\", column \"Enabled\") (unchecked)"),
        "{outline}"
    );
    let apply = number_of(&outline, "button \"Apply\"");
    let r = tools
        .act(json!({"element": apply, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    let got = written(dir.path());
    assert_eq!(got["verbose"], true, "{got}");
    assert_eq!(got["plugins"], json!(["Beta", "Gamma"]), "{got}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_button_that_runs_a_modal_dialog_does_not_block_and_the_dialog_is_answered() {
    let test = "a_button_that_runs_a_modal_dialog_does_not_block_and_the_dialog_is_answered";
    let Some((_app, dir, _serial)) = settings(test, "Zeta settings dialog").await else {
        return;
    };
    let tools = Tools::new();
    let outline = tools.outline("Zeta settings dialog").await;
    let set_label = number_of(&outline, "button \"Set label…\"");
    let r = tools
        .act(json!({"element": set_label, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(
        shown(&r),
        &Shown::Yes("a new window opened: \"Set label\"".into())
    );
    assert!(
        r.content
            .contains("read it with ui_outline and window \"Set label\""),
        "{}",
        r.content
    );
    // The application still answers while its dialog runs: the dialog is read by its tree.
    let dialog = tools.outline("Set label").await;
    assert!(dialog.starts_with("Window \"Set label\""), "{dialog}");
    let field = number_of(&dialog, "text \"Label\"");
    let r = tools
        .act(json!({"element": field, "action": "set_text", "text": "Kitchen"}))
        .await;
    assert!(matches!(shown(&r), Shown::Yes(_)), "{r:?}");
    let ok = number_of(&dialog, "button \"OK\"");
    let r = tools.act(json!({"element": ok, "action": "press"})).await;
    assert_eq!(shown(&r), &Shown::Yes("its window closed".into()));

    kitchen_applied(&tools, "Zeta settings dialog", dir.path()).await;
}

/// A press of what the request does not name, while it names another button of the
/// window, is refused before anything is done: the dialog stays open with its text, and
/// the button the request names then does the job. The window's default button is marked,
/// and a number set on a slider goes in through its Value.
#[tokio::test(flavor = "multi_thread")]
async fn a_press_the_request_does_not_name_is_refused_and_nothing_is_lost() {
    let test = "a_press_the_request_does_not_name_is_refused_and_nothing_is_lost";
    let Some((_app, dir, _serial)) = settings(test, "Zeta settings asked").await else {
        return;
    };
    let mut tools = Tools::new();
    tools.ctx.request =
        "Set the label to Kitchen in the Set label dialog and press OK, then Apply".into();
    // The request names "Set label" too: the press goes ahead.
    let dialog = open_set_label(&tools, "Zeta settings asked").await;
    assert!(dialog.contains("button \"OK\" (default)"), "{dialog}");
    let field = number_of(&dialog, "text \"Label\"");
    let r = tools
        .act(json!({"element": field, "action": "set_text", "text": "Kitchen"}))
        .await;
    assert!(matches!(shown(&r), Shown::Yes(_)), "{r:?}");
    let cancel = number_of(&dialog, "button \"Cancel\"");
    let ok = number_of(&dialog, "button \"OK\"");
    let r = tools
        .act(json!({"element": cancel, "action": "press"}))
        .await;
    assert!(!r.ok, "{}", r.content);
    assert!(
        r.content
            .contains(&format!("it names button \"OK\" (element {ok})")),
        "{}",
        r.content
    );
    assert!(matches!(shown(&r), Shown::No(_)), "{r:?}");
    // The next call is given only what the request names and is not done yet: OK.
    let takes = |element: u64| {
        tools.act.arguments_now().is_some_and(|schema| {
            jsonschema::validator_for(&schema)
                .is_ok_and(|v| v.is_valid(&json!({"element": element, "action": "press"})))
        })
    };
    assert!(
        takes(ok) && !takes(cancel),
        "{:?}",
        tools.act.arguments_now()
    );
    // Nothing was pressed: the dialog is there, holding what was typed.
    let again = tools.outline("Set label").await;
    assert!(again.contains("= \"Kitchen\""), "{again}");
    // A slider takes no text: a number is set through its Value.
    let volume = number_of(&again, "slider \"Volume\"");
    let r = tools
        .act(json!({"element": volume, "action": "set_text", "text": "65"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert!(
        matches!(shown(&r), Shown::Yes(s) if s.contains("65")),
        "{r:?}"
    );
    let r = tools.act(json!({"element": ok, "action": "press"})).await;
    assert_eq!(shown(&r), &Shown::Yes("its window closed".into()));
    kitchen_applied(&tools, "Zeta settings asked", dir.path()).await;
    assert_eq!(written(dir.path())["volume"], 65);
}

/// "Confirm it" names no element of the dialog: after the label is typed, the read-back
/// says the step is left, with the dialog's default button, and the request is not met;
/// once the default is pressed, the dialog closes with the request met and nothing left.
#[tokio::test(flavor = "multi_thread")]
async fn a_step_the_request_names_nothing_for_is_left_until_the_default_is_pressed() {
    let test = "a_step_the_request_names_nothing_for_is_left_until_the_default_is_pressed";
    let Some((_app, dir, _serial)) = settings(test, "Zeta settings confirm").await else {
        return;
    };
    let mut tools = Tools::new();
    tools.ctx.request =
        "Type Kitchen as the label in the Set label dialog and confirm it, then press Apply".into();
    let dialog = open_set_label(&tools, "Zeta settings confirm").await;
    let field = number_of(&dialog, "text \"Label\"");
    let ok = number_of(&dialog, "button \"OK\" (default)");
    // The outline ends with what the request names there, as each act's read-back does.
    assert!(
        dialog.contains(&format!(
            "The request names: [{field}] text \"Label\" (not acted on yet)."
        )),
        "{dialog}"
    );
    let r = tools
        .act(json!({"element": field, "action": "set_text", "text": "Kitchen"}))
        .await;
    let rb = r.read_back.as_ref().expect("read back");
    assert!(matches!(rb.shown, Shown::Yes(_)), "{rb:?}");
    assert!(!rb.request_met, "the step is left: {rb:?}");
    let left = rb.left.as_deref().unwrap_or_default();
    assert!(
        left.contains("\"confirm it\"") && left.contains("button \"OK\""),
        "{rb:?}"
    );
    assert!(
        r.content
            .contains(&format!("[{ok}] button \"OK\" (the one Enter presses)")),
        "the model reads which button does it:\n{}",
        r.content
    );
    let r = tools.act(json!({"element": ok, "action": "press"})).await;
    let rb = r.read_back.as_ref().expect("read back");
    assert!(rb.closed && rb.request_met && rb.left.is_none(), "{rb:?}");
    kitchen_applied(&tools, "Zeta settings confirm", dir.path()).await;
}

/// The default button stands where "confirm it" is in the request: pressed before the
/// field the request names first, nothing is pressed and the dialog stays; pressed all
/// the same (its name in `text`), the dialog closes, and the read-back says it closed
/// without an act on the field, the request not met.
#[tokio::test(flavor = "multi_thread")]
async fn the_default_pressed_before_the_named_field_is_held_and_closing_says_what_was_left() {
    let test = "the_default_pressed_before_the_named_field_is_held_and_closing_says_what_was_left";
    let Some((_app, _dir, _serial)) = settings(test, "Zeta settings short").await else {
        return;
    };
    let mut tools = Tools::new();
    tools.ctx.request = "Type Kitchen as the label in the Set label dialog and confirm it".into();
    let dialog = open_set_label(&tools, "Zeta settings short").await;
    let field = number_of(&dialog, "text \"Label\"");
    let ok = number_of(&dialog, "button \"OK\" (default)");
    let r = tools.act(json!({"element": ok, "action": "press"})).await;
    assert!(!r.ok, "held: {}", r.content);
    assert!(
        r.content.contains(&format!("[{field}] text \"Label\""))
            && r.content.contains("\"confirm it\""),
        "{}",
        r.content
    );
    let still = tools.outline("Set label").await;
    assert!(
        still.contains("text \"Label\""),
        "the dialog stays: {still}"
    );
    let r = tools
        .act(json!({"element": ok, "action": "press", "text": "OK"}))
        .await;
    let rb = r.read_back.as_ref().expect("read back");
    assert!(rb.closed && !rb.request_met, "{rb:?}");
    let left = rb.left.as_deref().unwrap_or_default();
    assert!(
        left.contains("closed with no act on text \"Label\""),
        "{rb:?}"
    );
    // The dialog gave the window an empty label: nothing was typed.
    let outline = tools.outline("Zeta settings short").await;
    assert!(outline.contains("label \"Label:\""), "{outline}");
}

/// Each act that goes through narrows the next call to what the request names and no
/// act went through on (as a check's send-back does, `Tool::narrow_to_request`): the
/// slider first, then, after it was set, OK alone; once the dialog closed, nothing is
/// narrowed and no call is forced.
#[tokio::test(flavor = "multi_thread")]
async fn after_each_act_the_next_call_is_narrowed_to_what_the_request_still_names() {
    let test = "after_each_act_the_next_call_is_narrowed_to_what_the_request_still_names";
    let Some((_app, dir, _serial)) = settings(test, "Zeta settings narrowed").await else {
        return;
    };
    let mut tools = Tools::new();
    let request = "In the Set label dialog, set the label to Kitchen, the Volume slider to 65, \
                   and press OK, then Apply";
    tools.ctx.request = request.into();
    let dialog = open_set_label(&tools, "Zeta settings narrowed").await;
    let field = number_of(&dialog, "text \"Label\"");
    let volume = number_of(&dialog, "slider \"Volume\"");
    let ok = number_of(&dialog, "button \"OK\"");
    let takes = |call: Value| {
        tools.act.arguments_now().is_some_and(|schema| {
            jsonschema::validator_for(&schema).is_ok_and(|v| v.is_valid(&call))
        })
    };
    let r = tools
        .act(json!({"element": field, "action": "set_text", "text": "Kitchen"}))
        .await;
    assert!(r.ok, "{}", r.content);
    // The next call is the slider's, and a send-back narrows it the same.
    assert!(tools.act.call_next());
    tools.act.narrow_to_request(request);
    assert!(tools.act.call_next());
    let set_volume = json!({"element": volume, "action": "set_text", "text": "65"});
    assert!(takes(set_volume.clone()));
    assert!(!takes(json!({"element": ok, "action": "press"})));
    let r = tools.act(set_volume).await;
    assert!(r.ok, "{}", r.content);
    // Then OK alone, still a call.
    assert!(tools.act.call_next());
    assert!(takes(json!({"element": ok, "action": "press"})));
    assert!(!takes(
        json!({"element": field, "action": "set_text", "text": "x"})
    ));
    let r = tools.act(json!({"element": ok, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert!(
        !tools.act.call_next(),
        "the dialog closed: nothing left to force"
    );
    kitchen_applied(&tools, "Zeta settings narrowed", dir.path()).await;
    assert_eq!(written(dir.path())["volume"], 65);
}

/// The "Set label" dialog, opened by its button in `window`: its outline.
async fn open_set_label(tools: &Tools, window: &str) -> String {
    let outline = tools.outline(window).await;
    let set_label = number_of(&outline, "button \"Set label…\"");
    let r = tools
        .act(json!({"element": set_label, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    tools.outline("Set label").await
}

/// The settings window shows the label "Kitchen" the dialog set, and Apply writes it.
async fn kitchen_applied(tools: &Tools, window: &str, dir: &Path) {
    let outline = tools.outline(window).await;
    assert!(outline.contains("label \"Label: Kitchen\""), "{outline}");
    let apply = number_of(&outline, "button \"Apply\"");
    let r = tools
        .act(json!({"element": apply, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(written(dir)["label"], "Kitchen");
}

/// What a constrained model may call (`Tool::arguments_now`) follows the real window:
/// the elements the outline shows, each with the acts its kind takes; a hidden page's
/// elements once its tab is pressed; nothing of the window once it closed.
#[tokio::test(flavor = "multi_thread")]
async fn the_calls_a_constrained_model_may_make_follow_the_window() {
    let test = "the_calls_a_constrained_model_may_make_follow_the_window";
    let Some((_app, _dir, _serial)) = settings(test, "Zeta settings bound").await else {
        return;
    };
    let tools = Tools::new();
    let takes = |call: Value| {
        let schema = tools
            .act
            .arguments_now()
            .unwrap_or_else(|| panic!("nothing bound for {call}"));
        jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("{e}: {schema}"))
            .is_valid(&call)
    };
    let outline = tools.outline("Zeta settings bound").await;
    let copies = number_of(&outline, "spin button \"Copies\"");
    let advanced = number_of(&outline, "page tab \"Advanced\"");
    let label = number_of(&outline, "label \"Label: (none)\"");
    assert!(takes(
        json!({"action": "set_text", "element": copies, "text": "7"})
    ));
    assert!(!takes(json!({"action": "toggle", "element": copies})));
    assert!(takes(json!({"action": "press", "element": advanced})));
    assert!(
        !takes(json!({"action": "press", "element": label})),
        "text alone"
    );
    assert!(!takes(json!({"action": "7", "element": copies})));
    let r = tools
        .act(json!({"element": advanced, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    let outline = tools.outline("Zeta settings bound").await;
    let verbose = number_of(&outline, "check box \"Verbose\"");
    assert!(takes(json!({"action": "toggle", "element": verbose})));
    let ok = number_of(&outline, "button \"OK\"");
    let r = tools.act(json!({"element": ok, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(
        tools.act.arguments_now(),
        None,
        "the window closed: none of its elements can be called"
    );
}

/// The test editor on the display, titled `title` and holding `text`, held by one test
/// at a time: its Save writes `out`, in `dir`.
struct Editor {
    out: std::path::PathBuf,
    _app: zeta_test_support::apps::App,
    _dir: tempfile::TempDir,
    _serial: tokio::sync::MutexGuard<'static, ()>,
}

async fn editor(file: &str, title: &str, text: &str) -> Editor {
    let serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join(file);
    let app =
        zeta_test_support::apps::start_editor(&out, title, text).unwrap_or_else(|e| panic!("{e}"));
    Editor {
        out,
        _app: app,
        _dir: dir,
        _serial: serial,
    }
}

/// What the editor saved to `out`, once it has (waited for up to 2 s).
fn saved(out: &std::path::Path) -> String {
    let mut saved = String::new();
    for _ in 0..20 {
        saved = std::fs::read_to_string(out).unwrap_or_default();
        if !saved.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    saved
}

/// An editor's menus, closed, list their items: Save is found inside File, chosen there
/// as an option (its own action, the menu never opened), and the file the editor writes
/// holds the text set before. File is held while the request's step before it, which
/// names nothing there, has had no act (`Walk::step_first`).
#[tokio::test(flavor = "multi_thread")]
async fn a_closed_menus_items_are_its_options_and_one_is_chosen() {
    let test = "a_closed_menus_items_are_its_options_and_one_is_chosen";
    if let Some(why) = missing() {
        cannot_run(Needs::Desktop, test, why);
        return;
    }
    let title = "Zeta notes editor";
    let editor = editor("notes.txt", title, "draft").await;
    let out = &editor.out;
    let mut tools = Tools::new();
    tools.ctx.request = "Change draft to final in the notes editor and save the file".into();
    let outline = tools.outline(title).await;
    let file = number_of(&outline, "menu \"File\" options: New | Open… | Save | Quit");
    let text = number_of(&outline, "text = \"draft\"");

    // The menu before the text: held, and said why.
    let r = tools.act(json!({"element": file, "action": "press"})).await;
    assert!(
        !r.ok
            && r.content.contains("the request's step")
            && r.content
                .contains(&format!("it may be done in [{text}] text)")),
        "{}",
        r.content
    );
    // "final" in place of all of "draft", which the request names: held once with
    // both texts (`Walk::drops_named`); the same call again goes through.
    let r = tools
        .act(json!({"element": text, "action": "set_text", "text": "final"}))
        .await;
    assert!(
        !r.ok
            && r.content.contains("holds \"draft\" now")
            && r.content.contains("leaving out draft"),
        "{}",
        r.content
    );
    let r = tools
        .act(json!({"element": text, "action": "set_text", "text": "final"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert!(!out.exists(), "nothing saved yet");
    // The next call is the File menu's, where Save is.
    assert!(tools.act.call_next());
    let takes = |call: Value| {
        tools.act.arguments_now().is_some_and(|schema| {
            jsonschema::validator_for(&schema).is_ok_and(|v| v.is_valid(&call))
        })
    };
    assert!(takes(
        json!({"action": "select", "element": file, "option": "Save"})
    ));
    assert!(!takes(
        json!({"action": "set_text", "element": text, "text": "final"})
    ));
    let r = tools
        .act(json!({"element": file, "action": "select", "option": "Save"}))
        .await;
    assert!(
        r.ok && r.content.contains("chose its item \"Save\""),
        "{}",
        r.content
    );
    assert_eq!(saved(out), "final");
    // No item of that name: said, with the items there are.
    let r = tools
        .act(json!({"element": file, "action": "select", "option": "Export"}))
        .await;
    assert!(
        !r.ok && r.content.contains("Save") && r.content.contains("Quit"),
        "{}",
        r.content
    );
}

/// Text typed into an editor's text goes at the end of what it holds, through the tree,
/// wherever its caret is (at the start, as a file opens): the line added after the one
/// there, kept a line of its own, and the file the editor saves holds both.
#[tokio::test(flavor = "multi_thread")]
async fn typed_text_is_added_at_the_end_of_what_the_text_holds() {
    let test = "typed_text_is_added_at_the_end_of_what_the_text_holds";
    if let Some(why) = missing() {
        cannot_run(Needs::Desktop, test, why);
        return;
    }
    let title = "Zeta list editor";
    let editor = editor("list.txt", title, "apples\n").await;
    let mut tools = Tools::new();
    tools.ctx.request =
        "In the list editor, add the line pears after apples and save the file".into();
    let outline = tools.outline(title).await;
    let file = number_of(&outline, "menu \"File\"");
    let text = number_of(&outline, "text = \"apples");
    let r = tools
        .act(json!({"element": text, "action": "type", "text": "pears\n"}))
        .await;
    assert!(
        r.ok && r.content.contains("added \"pears") && r.content.contains("at the end of its text"),
        "{}",
        r.content
    );
    // The menu opened by a press, then its item pressed: the item chose it from the
    // menu, so the menu the request names ("the file") counts as acted on.
    let r = tools.act(json!({"element": file, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    let outline = tools.outline(title).await;
    let save = number_of(&format!("{}\n{outline}", r.content), "menu item \"Save\"");
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(saved(&editor.out), "apples\npears\n");
    // Every element the request names acted on, and its file written: the request met.
    let met = r.read_back.as_ref().is_some_and(|rb| rb.request_met);
    assert!(met, "{:?}", r.read_back);
}

/// A slider "set" to the number it shows already, which the request does not give, is
/// held and the next call given the slider alone; the number the request gives goes
/// through, and the settings written hold it.
#[tokio::test(flavor = "multi_thread")]
async fn a_value_set_to_what_it_holds_already_is_held_and_the_one_asked_goes_in() {
    let test = "a_value_set_to_what_it_holds_already_is_held_and_the_one_asked_goes_in";
    let Some((_app, dir, _serial)) = settings(test, "Zeta settings same").await else {
        return;
    };
    let mut tools = Tools::new();
    tools.ctx.request =
        "Set the Volume slider to 65 in the Set label dialog and press OK, then Apply".into();
    let dialog = open_set_label(&tools, "Zeta settings same").await;
    let volume = number_of(&dialog, "slider \"Volume\"");
    let line = dialog
        .lines()
        .find(|l| l.contains("slider \"Volume\" = \""))
        .unwrap_or_else(|| panic!("no slider value in:\n{dialog}"));
    let now = line
        .split("= \"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .unwrap_or_else(|| panic!("{line}"));
    assert_ne!(now, "65", "{dialog}");
    let r = tools
        .act(json!({"element": volume, "action": "set_text", "text": now}))
        .await;
    assert!(
        !r.ok && r.content.contains("already") && r.content.contains(now),
        "{}",
        r.content
    );
    let takes = |call: Value| {
        tools.act.arguments_now().is_some_and(|schema| {
            jsonschema::validator_for(&schema).is_ok_and(|v| v.is_valid(&call))
        })
    };
    assert!(takes(
        json!({"element": volume, "action": "set_text", "text": "65"})
    ));
    let ok = number_of(&dialog, "button \"OK\"");
    assert!(!takes(json!({"element": ok, "action": "press"})));
    let r = tools
        .act(json!({"element": volume, "action": "set_text", "text": "65"}))
        .await;
    assert!(r.ok, "{}", r.content);
    // The request names the dialog's "Set label" button, and so its Label field: OK
    // is pressed all the same, naming itself.
    let r = tools
        .act(json!({"element": ok, "action": "press", "text": "OK"}))
        .await;
    assert!(r.ok, "{}", r.content);
    let window = tools.outline("Zeta settings same").await;
    let apply = number_of(&window, "button \"Apply\"");
    let r = tools
        .act(json!({"element": apply, "action": "press"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(written(dir.path())["volume"], 65);
}
