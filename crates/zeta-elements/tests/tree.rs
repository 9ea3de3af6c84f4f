//! The accessibility tree and OCR on real applications under Xvfb with a private DBus
//! session: the GTK3 test form read as an outline and filled in by element number, an
//! application started without accessibility read and pressed through OCR, and the
//! failures: a stale number, a vanished window, an application that hangs on the bus, no
//! accessibility bus at all.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_core::tool::{Tool, ToolContext, ToolOutput};
use zeta_elements::{Desktop, Elements};
use zeta_test_support::apps::{missing, start_form, App};
use zeta_test_support::{cannot_run, Needs};
use zeta_tools::input::InputState;

/// One test at a time: they share the display and the pointer.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn serial(test: &str) -> Option<tokio::sync::MutexGuard<'static, ()>> {
    if let Some(why) = missing() {
        cannot_run(Needs::Desktop, test, why);
        return None;
    }
    Some(SERIAL.lock().await)
}

/// `serial`, for a test that reads by OCR: `None` (said why) without tesseract too.
async fn ocr_serial(test: &str) -> Option<tokio::sync::MutexGuard<'static, ()>> {
    let serial = serial(test).await?;
    if let Some(why) = zeta_test_support::apps::tesseract_missing() {
        cannot_run(Needs::Desktop, test, why);
        return None;
    }
    Some(serial)
}

struct Tools {
    outline: Arc<dyn Tool>,
    act: Arc<dyn Tool>,
    ctx: ToolContext,
}

impl Tools {
    fn new(desktop: Desktop) -> Self {
        let tools = Elements::new(desktop, InputState::default()).tools();
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
    /// As the loop runs a call: read as its tool reads it first, told how.
    async fn act_as_read(&self, args: Value) -> ToolOutput {
        match self.act.read_as(&args, &self.ctx.request) {
            Some((read, note)) => {
                let mut out = self.act.run(read, &self.ctx).await;
                out.content = format!("{note}\n{}", out.content);
                out
            }
            None => self.act.run(args, &self.ctx).await,
        }
    }
}

/// The number the outline gives the element whose line contains `needle`.
fn number_of(outline: &str, needle: &str) -> u64 {
    zeta_elements::outline::number_of(outline, needle)
        .map(u64::from)
        .unwrap_or_else(|| panic!("no element line contains {needle:?} in:\n{outline}"))
}

fn form(dir: &Path, title: &str, accessible: bool) -> App {
    start_form(&dir.join("form.json"), title, accessible).unwrap_or_else(|e| panic!("{e}"))
}

fn saved(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("form.json"))
        .unwrap_or_else(|e| panic!("the form wrote no file: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("the form's file is not JSON: {e}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_form_is_read_as_an_outline_and_filled_in_by_number() {
    let Some(_serial) = serial("the_form_is_read_as_an_outline_and_filled_in_by_number").await
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = form(dir.path(), "Zeta form one", true);
    let tools = Tools::new(Desktop::default());

    let started = Instant::now();
    let read = tools.outline(json!({"window": "Zeta form one"})).await;
    let took = started.elapsed();
    assert!(read.ok, "{}", read.content);
    let text = &read.content;
    println!("outline in {took:?}, {} characters:\n{text}", text.len());
    assert!(text.starts_with("Window \"Zeta form one\""), "{text}");
    for needle in [
        "text \"Name\"",
        "check box \"Subscribe\" (unchecked",
        "combo box \"Colour\" = \"Red\" options: Red | Green | Blue",
        "button \"Save\"",
        "label \"Not saved\"",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    assert!(
        !text.contains("label \"Name\""),
        "a label repeating its field's name is left out:\n{text}"
    );
    assert!(
        !text.contains("panel"),
        "unnamed containers are left out:\n{text}"
    );
    let elements = text
        .lines()
        .filter(|l| l.trim_start().starts_with('['))
        .count();
    assert!(elements <= 40, "{elements} elements");

    let name = number_of(text, "text \"Name\"");
    let subscribe = number_of(text, "check box \"Subscribe\"");
    let colour = number_of(text, "combo box \"Colour\"");
    let save = number_of(text, "button \"Save\"");

    let r = tools
        .act(json!({"element": name, "action": "set_text", "text": "Ada Lovelace"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert!(
        r.content.contains("\"Ada Lovelace\""),
        "the report shows the new value:\n{}",
        r.content
    );
    let r = tools
        .act(json!({"element": subscribe, "action": "toggle"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert!(
        r.content.contains("checked) [click]") && r.content.contains("Shown: it is now checked."),
        "the report shows the box checked:\n{}",
        r.content
    );
    let r = tools
        .act(json!({"element": colour, "action": "select", "option": "Green"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert!(
        r.content.contains("= \"Green\""),
        "the report shows the new option:\n{}",
        r.content
    );
    let r = tools
        .act(json!({"element": colour, "action": "select", "option": "Purple"}))
        .await;
    assert!(
        !r.ok
            && r.content.contains("no option named \"Purple\"")
            && r.content.contains("Red, Green, Blue"),
        "{}",
        r.content
    );
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert!(
        r.content.contains("label \"Not saved\"") && r.content.contains("→  label \"Saved\""),
        "the report shows what changed:\n{}",
        r.content
    );
    assert_eq!(
        saved(dir.path()),
        json!({"name": "Ada Lovelace", "subscribe": true, "colour": "Green"})
    );

    // The numbers hold across outlines.
    let again = tools.outline(json!({"window": "Zeta form one"})).await;
    assert_eq!(
        number_of(&again.content, "button \"Save\""),
        save,
        "{}",
        again.content
    );
    let found = tools
        .outline(json!({"window": "Zeta form one", "find": "save"}))
        .await;
    assert!(found.ok, "{}", found.content);
    assert!(
        found.content.contains("button \"Save\"") && !found.content.contains("Subscribe"),
        "{}",
        found.content
    );
}

/// The calls a small model writes with the text or the button's name as the action
/// (seen: `{"element": 1, "action": "hello"}`, `{"element": 4, "action": "Save"}`) are
/// read as the one call the element allows (`Tool::read_as`, which the loop applies
/// before the gate), said so, and land in the real form; a check box's "on" is not
/// guessed.
#[tokio::test(flavor = "multi_thread")]
async fn a_call_with_the_text_or_the_name_as_its_action_is_read_as_its_element_allows() {
    let Some(_serial) = serial("a_call_with_the_text_or_the_name_as_its_action").await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = form(dir.path(), "Zeta form lax", true);
    let tools = Tools::new(Desktop::default());
    let read = tools.outline(json!({"window": "Zeta form lax"})).await;
    assert!(read.ok, "{}", read.content);
    let name = number_of(&read.content, "text \"Name\"");
    let subscribe = number_of(&read.content, "check box \"Subscribe\"");
    let save = number_of(&read.content, "button \"Save\"");

    // The words of a button of the window, at the field: not typed (seen: "Save" typed
    // into the Name field), but read as a press of the one button they name (below).
    let read = tools
        .act
        .read_as(&json!({"element": name, "action": "Save"}), "")
        .map(|(read, _)| read);
    assert_eq!(read, Some(json!({"element": save, "action": "press"})));
    let r = tools
        .act_as_read(json!({"element": name, "action": "hello"}))
        .await;
    assert!(r.ok, "{}", r.content);
    assert!(
        r.content.contains("so the call was read as") && r.content.contains("Shown:"),
        "{}",
        r.content
    );
    let r = tools
        .act(json!({"element": subscribe, "action": "on"}))
        .await;
    assert!(!r.ok && r.content.contains("\"toggle\""), "{}", r.content);
    // A call that names another element of the window (not a button) as its action, on a
    // check box: not done, and on the record as a press that was not done.
    let r = tools
        .act_as_read(json!({"element": subscribe, "action": "Not saved"}))
        .await;
    assert!(!r.ok, "{}", r.content);
    let back = r
        .read_back
        .as_deref()
        .expect("a failed act is on the record");
    assert_eq!(back.action, "press");
    assert!(
        matches!(back.shown, zeta_core::tool::Shown::No(_)),
        "{back:?}"
    );
    let r = tools
        .act_as_read(json!({"element": save, "action": "Save"}))
        .await;
    assert!(
        r.ok && r.content.contains("read as a press"),
        "{}",
        r.content
    );
    assert_eq!(
        saved(dir.path()),
        json!({"name": "hello", "subscribe": false, "colour": "Red"})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn typing_goes_through_the_keyboard_into_the_focused_field() {
    let Some(_serial) = serial("typing_goes_through_the_keyboard_into_the_focused_field").await
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = form(dir.path(), "Zeta form typing", true);
    let tools = Tools::new(Desktop::default());
    let read = tools.outline(json!({"window": "Zeta form typing"})).await;
    assert!(read.ok, "{}", read.content);
    let name = number_of(&read.content, "text \"Name\"");
    let r = tools
        .act(json!({"element": name, "action": "type", "text": "hello"}))
        .await;
    assert!(r.ok, "{}", r.content);
    let save = number_of(&read.content, "button \"Save\"");
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(saved(dir.path())["name"], "hello");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stale_number_and_a_vanished_window_are_refused_clearly() {
    let Some(_serial) = serial("a_stale_number_and_a_vanished_window_are_refused_clearly").await
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = form(dir.path(), "Zeta form gone", true);
    let tools = Tools::new(Desktop::default());
    let read = tools.outline(json!({"window": "Zeta form gone"})).await;
    assert!(read.ok, "{}", read.content);
    let save = number_of(&read.content, "button \"Save\"");

    let never = tools.act(json!({"element": 9999, "action": "press"})).await;
    assert!(
        !never.ok && never.content.contains("there is no element 9999"),
        "{}",
        never.content
    );

    app.kill();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    assert!(!r.ok, "{}", r.content);
    assert!(
        r.content.contains(&format!("element {save}")) && r.content.contains("ui_outline"),
        "{}",
        r.content
    );
    let again = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(
        !again.ok && again.content.contains("no longer on screen"),
        "{}",
        again.content
    );
    let w = tools
        .outline(json!({"window": "Zeta form gone", "source": "tree"}))
        .await;
    assert!(
        !w.ok
            && w.content
                .contains("no window's title or application contains \"Zeta form gone\""),
        "{}",
        w.content
    );
    assert!(!dir.path().join("form.json").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_application_that_hangs_on_the_bus_costs_a_time_limit_not_the_agent() {
    let Some(_serial) =
        serial("an_application_that_hangs_on_the_bus_costs_a_time_limit_not_the_agent").await
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let hung = form(dir.path(), "Zeta form hung", true);
    let other_dir = tempfile::tempdir().expect("temp dir");
    let _ok = form(other_dir.path(), "Zeta form fine", true);
    let tools = Tools::new(Desktop::default());
    let read = tools.outline(json!({"window": "Zeta form hung"})).await;
    assert!(read.ok, "{}", read.content);
    let save = number_of(&read.content, "button \"Save\"");

    let stop = |sig: &str| {
        let status = std::process::Command::new("kill")
            .args([sig, &hung.pid().to_string()])
            .status();
        assert!(status.is_ok_and(|s| s.success()));
    };
    stop("-STOP");
    let started = Instant::now();
    let listed = tools.outline(json!({"window": "Zeta form fine"})).await;
    let took = started.elapsed();
    let acted = tools.act(json!({"element": save, "action": "press"})).await;
    let took_act = started.elapsed() - took;
    stop("-CONT");
    assert!(listed.ok, "the other window is read: {}", listed.content);
    assert!(
        listed.content.contains("Not answering:") && listed.content.contains("did not answer"),
        "{}",
        listed.content
    );
    assert!(took < Duration::from_secs(6), "the outline took {took:?}");
    assert!(
        !acted.ok && acted.content.contains("did not answer"),
        "{}",
        acted.content
    );
    assert!(
        took_act < Duration::from_secs(6),
        "the action took {took_act:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn no_accessibility_bus_is_a_clear_error() {
    let tools = Tools::new(Desktop::at_address("unix:path=/nonexistent/zeta-a11y-bus"));
    let started = Instant::now();
    let r = tools.outline(json!({"source": "tree"})).await;
    assert!(started.elapsed() < Duration::from_secs(6));
    assert!(!r.ok);
    assert!(
        r.content
            .contains("the accessibility bus cannot be reached")
            && r.content.contains("at-spi2-core"),
        "{}",
        r.content
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_application_without_accessibility_is_read_and_pressed_through_ocr() {
    let Some(_serial) =
        serial("an_application_without_accessibility_is_read_and_pressed_through_ocr").await
    else {
        return;
    };
    if let Some(why) = zeta_test_support::apps::tesseract_missing() {
        cannot_run(
            Needs::Desktop,
            "an_application_without_accessibility_is_read_and_pressed_through_ocr",
            why,
        );
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = form(dir.path(), "Zeta form blind", false);
    let tools = Tools::new(Desktop::default());
    let started = Instant::now();
    let read = tools.outline(json!({"window": "Zeta form blind"})).await;
    println!("OCR outline in {:?}:\n{}", started.elapsed(), read.content);
    assert!(read.ok, "{}", read.content);
    assert!(read.content.contains("OCR"), "{}", read.content);
    let save = number_of(&read.content, "text \"Save\"");
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(saved(dir.path())["subscribe"], false);
    assert!(
        r.content.contains("Saved"),
        "the screen read again shows the new label:\n{}",
        r.content
    );
    // The words read again can be called next; the first read's cannot.
    let saved_now = number_of(&r.content, "text \"Saved\"");
    let takes = |element: u64| {
        tools.act.arguments_now().is_some_and(|schema| {
            jsonschema::validator_for(&schema)
                .is_ok_and(|v| v.is_valid(&json!({"element": element, "action": "press"})))
        })
    };
    assert!(takes(saved_now), "the new read's words are bound");
    assert!(!takes(save), "the earlier read's are not");
    let stale = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(
        !stale.ok && stale.content.contains("no longer on screen"),
        "an earlier OCR run's number is refused: {}",
        stale.content
    );
}

/// Text drawn small (8 px, as dense applications draw it) reads thin at the first scale:
/// the screenshot is read again at a second scale and the readings merged; the outline
/// says both scales and the time, and pressing the word read lands on the button.
#[tokio::test(flavor = "multi_thread")]
async fn small_text_is_read_at_a_second_scale_and_a_word_pressed_lands() {
    let test = "small_text_is_read_at_a_second_scale_and_a_word_pressed_lands";
    let Some(_serial) = ocr_serial(test).await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = drawn_form(dir.path(), "Zeta form small", &["8"]);
    let tools = Tools::new(Desktop::default());
    let read = tools.outline(json!({"window": "Zeta form small"})).await;
    println!("{}", read.content);
    assert!(read.ok, "{}", read.content);
    assert!(
        read.content.contains("read at 3x and 2x in "),
        "a thin first reading is read again at a second scale:\n{}",
        read.content
    );
    let save = number_of(&read.content, "text \"Save\"");
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(saved(dir.path())["subscribe"], false);
}

/// The test form titled `title`, saving into `dir`, with no accessibility tree, drawn as
/// `style` says (its text size in pixels, then "framed" for outlined buttons).
fn drawn_form(dir: &std::path::Path, title: &str, style: &[&str]) -> zeta_test_support::apps::App {
    let mut cmd = std::process::Command::new(zeta_test_support::apps::SYSTEM_PYTHON);
    cmd.arg(zeta_test_support::apps::form_script())
        .arg(dir.join("form.json"))
        .arg(title)
        .args(style)
        .env("NO_AT_BRIDGE", "1");
    zeta_test_support::apps::start(cmd, &format!("^{title}$")).unwrap_or_else(|e| panic!("{e}"))
}

/// Buttons drawn as outlines around their labels (as old toolkits draw them) hide words
/// from tesseract, the framed ones and others: the frames are taken out before reading,
/// the outline says so, a key labelled with one mark is read inside its frame, and
/// pressing the words read lands.
#[tokio::test(flavor = "multi_thread")]
async fn words_inside_drawn_frames_are_read_once_the_frames_are_taken_out() {
    let test = "words_inside_drawn_frames_are_read_once_the_frames_are_taken_out";
    let Some(_serial) = ocr_serial(test).await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = drawn_form(dir.path(), "Zeta form framed", &["10", "framed"]);
    let tools = Tools::new(Desktop::default());
    let read = tools.outline(json!({"window": "Zeta form framed"})).await;
    println!("{}", read.content);
    assert!(read.ok, "{}", read.content);
    assert!(
        read.content
            .contains("read at 3x and 2x, the frames drawn around words taken out, in "),
        "{}",
        read.content
    );
    // A key whose label is one mark, which the window's reading drops, is read from
    // inside its frame; a click on it lands.
    let plus = number_of(&read.content, "text \"+\"");
    let r = tools.act(json!({"element": plus, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert!(r.content.contains("Plus pressed"), "{}", r.content);
    let save = number_of(&r.content, "text \"Save\"");
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(saved(dir.path())["subscribe"], false);
}

/// GTK 4 says "showing" of its window alone and gives places inside the window: its
/// elements are read through the tree all the same, placed where the X server shows the
/// window, and acted on by number; the app's own file says the acts landed.
#[tokio::test(flavor = "multi_thread")]
async fn a_gtk4_window_is_read_through_its_tree_where_it_is_on_screen() {
    let test = "a_gtk4_window_is_read_through_its_tree_where_it_is_on_screen";
    let Some(_serial) = serial(test).await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("gtk4.json");
    let _app = match zeta_test_support::apps::start_gtk4_form(&out, "Zeta gtk4 form") {
        Ok(app) => app,
        Err(e) => {
            cannot_run(Needs::Desktop, test, e);
            return;
        }
    };
    let tools = Tools::new(Desktop::default());
    // Mapped is not yet drawn: a cold GTK 4 joins the accessibility bus, and paints, a
    // moment after its window is mapped (seen: read then, by OCR, with no text at all).
    // A person looks once it shows something; so does the test, for 10 s at most.
    let mut read = tools.outline(json!({"window": "Zeta gtk4 form"})).await;
    for _ in 0..20 {
        if !read.content.contains("no elements with a name") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        read = tools.outline(json!({"window": "Zeta gtk4 form"})).await;
    }
    println!("{}", read.content);
    assert!(read.ok, "{}", read.content);
    assert!(
        !read.content.contains("OCR"),
        "read through its tree:\n{}",
        read.content
    );
    let shown = zeta_tools::windows::find("Zeta gtk4 form").expect("the X server shows it");
    let save = number_of(&read.content, "button \"Save\"");
    let line = read
        .content
        .lines()
        .find(|l| l.contains("button \"Save\""))
        .unwrap_or_default();
    let at: Vec<i32> = line
        .rsplit('@')
        .next()
        .and_then(|p| p.split_whitespace().next())
        .map(|xy| xy.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert!(
        at.len() == 2 && shown.bounds.contains(at[0], at[1]) && (at[0], at[1]) != (0, 0),
        "Save at {at:?} lies in the window the X server shows at {:?}",
        shown.bounds
    );
    let name = number_of(&read.content, "text \"Name\"");
    let r = tools
        .act(json!({"element": name, "action": "set_text", "text": "Ada"}))
        .await;
    assert!(r.ok, "{}", r.content);
    let subscribe = number_of(&read.content, "check box \"Subscribe\"");
    let r = tools
        .act(json!({"element": subscribe, "action": "toggle"}))
        .await;
    assert!(r.ok, "{}", r.content);
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    let written = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("nothing saved: {e}"));
    let saved: serde_json::Value = serde_json::from_str(&written).expect("JSON");
    assert_eq!(saved, json!({"name": "Ada", "subscribe": true}));
}

/// An ordinary Debian application, not ours: galculator's keys pressed by number, its
/// display read back from the outline.
#[tokio::test(flavor = "multi_thread")]
async fn galculator_adds_seven_and_two_through_its_tree() {
    let Some(_serial) = serial("galculator_adds_seven_and_two_through_its_tree").await else {
        return;
    };
    let home = tempfile::tempdir().expect("temp home");
    let mut cmd = std::process::Command::new("galculator");
    cmd.env("HOME", home.path()).env_remove("NO_AT_BRIDGE");
    let _app = match zeta_test_support::apps::start(cmd, "^galculator$") {
        Ok(app) => app,
        Err(e) => {
            cannot_run(
                Needs::Desktop,
                "galculator_adds_seven_and_two_through_its_tree",
                e,
            );
            return;
        }
    };
    let tools = Tools::new(Desktop::default());
    let read = tools.outline(json!({"window": "galculator"})).await;
    assert!(read.ok, "{}", read.content);
    println!("{}", read.content);
    for key in ["\"7\"", "\"+\"", "\"2\"", "\"=\""] {
        let n = number_of(&read.content, &format!("button {key}"));
        let r = tools.act(json!({"element": n, "action": "press"})).await;
        assert!(r.ok, "{key}: {}", r.content);
    }
    let after = tools
        .outline(json!({"window": "galculator", "find": "text"}))
        .await;
    assert!(
        after.content.contains("text = \"9\""),
        "the display shows 9:\n{}",
        after.content
    );
}

/// Set-of-marks: with `marks` and a model that sees, the outline comes with a screenshot
/// of the window in which each element is boxed in the mark colour at its place.
#[tokio::test(flavor = "multi_thread")]
async fn marks_box_each_element_on_a_screenshot_for_a_model_that_sees() {
    let Some(_serial) =
        serial("marks_box_each_element_on_a_screenshot_for_a_model_that_sees").await
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = form(dir.path(), "Zeta form marks", true);
    let mut tools = Tools::new(Desktop::default());
    let blind = tools
        .outline(json!({"window": "Zeta form marks", "marks": true}))
        .await;
    assert!(
        blind.ok && blind.images.is_empty() && blind.content.contains("cannot see images"),
        "{}",
        blind.content
    );
    tools.ctx.images_supported = true;
    tools.ctx.screenshot.format = zeta_core::settings::ImageFormat::Png;
    let seen = tools
        .outline(json!({"window": "Zeta form marks", "marks": true}))
        .await;
    assert!(seen.ok, "{}", seen.content);
    assert_eq!(seen.images.len(), 1, "{}", seen.content);
    let png = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        &seen.images[0].base64,
    )
    .expect("base64");
    // Kept to be looked at: target/tmp/marks.png.
    let _ = std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("marks.png"),
        &png,
    );
    let img = image::load_from_memory(&png).expect("png").to_rgb8();
    // The window is at 40,40 on screen and 420x260; the Save button is at 112,184 (screen),
    // so its box's left edge is at (72, 144..) in the window's image.
    let line = seen
        .content
        .lines()
        .find(|l| l.contains("button \"Save\""))
        .expect("Save in the outline");
    let at = line.rsplit('@').next().expect("bounds");
    let (x, y) = at
        .split_whitespace()
        .next()
        .and_then(|p| p.split_once(','))
        .expect("x,y");
    let (x, y): (u32, u32) = (x.parse().expect("x"), y.parse().expect("y"));
    // The image is the window's rectangle, from the outline's first line ("… at 40,40 420x260:").
    let head = seen.content.lines().next().expect("a first line");
    let place = head.rsplit(" at ").next().expect("at");
    let (wx, wy) = place
        .split_whitespace()
        .next()
        .and_then(|p| p.split_once(','))
        .expect("window x,y");
    let (wx, wy): (u32, u32) = (wx.parse().expect("wx"), wy.parse().expect("wy"));
    let edge = img.get_pixel(x - wx, y - wy + 20).0;
    assert_eq!(
        edge,
        [230, 20, 120],
        "the Save button's box at its left edge"
    );
}

/// A window with no tree and an empty text (a Tk editor): OCR reads its buttons, and its
/// empty page as a blank area; text typed there lands in it (read back by OCR), and the
/// editor's own Save writes it.
#[tokio::test(flavor = "multi_thread")]
async fn an_empty_page_read_by_ocr_is_a_blank_area_that_takes_typing() {
    let test = "an_empty_page_read_by_ocr_is_a_blank_area_that_takes_typing";
    let Some(_serial) = ocr_serial(test).await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("memo.txt");
    let _app = zeta_test_support::apps::start_blank_editor(&out, "Zeta blank memo")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut tools = Tools::new(Desktop::default());
    tools.ctx.request =
        "In the Zeta blank memo window, type call Bob into the text and press its Save button"
            .into();
    let read = tools.outline(json!({"window": "Zeta blank memo"})).await;
    println!("{}", read.content);
    assert!(read.ok && read.content.contains("OCR"), "{}", read.content);
    // Its buttons read, the page around them painted their level first.
    assert!(read.content.contains("text \"Save\""), "{}", read.content);
    let blank = number_of(&read.content, "blank area");
    // Save before the text: held, with where the step before it may be done.
    let save = number_of(&read.content, "text \"Save\"");
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(
        !r.ok
            && r.content
                .contains(&format!("it may be done in [{blank}] blank area")),
        "{}",
        r.content
    );
    let r = tools
        .act(json!({"element": blank, "action": "type", "text": "call Bob"}))
        .await;
    println!("{}", r.content);
    assert!(r.ok && r.content.contains("Shown:"), "{}", r.content);
    let save = number_of(&r.content, "text \"Save\"");
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    let mut saved = String::new();
    for _ in 0..20 {
        saved = std::fs::read_to_string(&out).unwrap_or_default();
        if !saved.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(saved, "call Bob");
}

/// A press of a combo box while the request names one of its options is held with the
/// `select` call for that option, and the next call is given the combo box alone; the
/// option chosen as told is what the form saves. A press of one the request names no
/// option of opens it as before.
#[tokio::test(flavor = "multi_thread")]
async fn a_press_of_a_combo_box_whose_option_the_request_names_is_told_to_choose_it() {
    let test = "a_press_of_a_combo_box_whose_option_the_request_names_is_told_to_choose_it";
    let Some(_serial) = serial(test).await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let _app = form(dir.path(), "Zeta form pick", true);
    let mut tools = Tools::new(Desktop::default());
    tools.ctx.request =
        "Pick Blue as the colour in the Zeta form pick window and press Save".into();
    let read = tools.outline(json!({"window": "Zeta form pick"})).await;
    assert!(read.ok, "{}", read.content);
    let colour = number_of(&read.content, "combo box \"Colour\"");
    let save = number_of(&read.content, "button \"Save\"");
    let r = tools
        .act(json!({"element": colour, "action": "press"}))
        .await;
    assert!(
        !r.ok
            && r.content.contains(&format!(
                "{{\"element\": {colour}, \"action\": \"select\", \"option\": \"Blue\"}}"
            )),
        "{}",
        r.content
    );
    let takes = |call: Value| {
        tools.act.arguments_now().is_some_and(|schema| {
            jsonschema::validator_for(&schema).is_ok_and(|v| v.is_valid(&call))
        })
    };
    assert!(takes(
        json!({"element": colour, "action": "select", "option": "Blue"})
    ));
    assert!(!takes(json!({"element": save, "action": "press"})));
    let r = tools
        .act(json!({"element": colour, "action": "select", "option": "Blue"}))
        .await;
    assert!(r.ok && r.content.contains("= \"Blue\""), "{}", r.content);
    let r = tools.act(json!({"element": save, "action": "press"})).await;
    assert!(r.ok, "{}", r.content);
    assert_eq!(saved(dir.path())["colour"], "Blue");
}
