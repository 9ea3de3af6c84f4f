//! The agent's tools on screen elements: `ui_outline` reads a window (the accessibility
//! tree, or OCR where there is none) as a numbered outline, and `ui_act` acts on an
//! element by its number and reports what changed. Both share the number table and the
//! last outline of each window (to tell what an action changed).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine;
use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::{ImageData, ToolSpec};
use zeta_core::tool::{Choose, ReadBack, Shown, Tool, ToolContext, ToolFuture, ToolOutput};
use zeta_tools::input::InputState;
use zeta_tools::screen::Target;

use crate::atspi::act::{act, again, live, Action};
use crate::atspi::read::{tree, windows, Window};
use crate::atspi::Desktop;
use crate::error::ElementsError;
use crate::node::{Key, Node};
use crate::numbers::{Entry, Numbers, Place};
use crate::ocr;
use crate::outline::{changes, clip, outline, tokens, Options, Outline};
use crate::readback;
use zeta_tools::windows::Fate;

/// What both tools share.
#[derive(Clone)]
pub struct Elements(Arc<Shared>);

struct Shared {
    desktop: Desktop,
    input: InputState,
    numbers: Mutex<Numbers>,
    /// The last outline of each window (by its key), to tell what an action changed.
    last: Mutex<HashMap<Key, Outline>>,
    /// The presses of the current request (`walk`).
    walk: Mutex<crate::walk::Walk>,
    /// The numbers the model was last shown: the last outline's, with what the windows
    /// it acted on showed after (`bound`).
    shown: Mutex<Vec<u32>>,
    /// After an act held for going past what the request names (`asked::refusal`,
    /// `asked::not_the_default`, `Walk::ahead`): the named elements left, which alone
    /// the next call may be given (`bound`); cleared by the next act or read.
    narrowed: Mutex<Option<Vec<u32>>>,
    /// The window of the last act that went through, and whether it closed.
    acted_in: Mutex<Option<(String, bool)>>,
    ocr_runs: AtomicU64,
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Elements {
    pub fn new(desktop: Desktop, input: InputState) -> Self {
        Self(Arc::new(Shared {
            desktop,
            input,
            numbers: Mutex::default(),
            last: Mutex::default(),
            walk: Mutex::default(),
            shown: Mutex::default(),
            narrowed: Mutex::default(),
            acted_in: Mutex::default(),
            ocr_runs: AtomicU64::new(0),
        }))
    }

    /// The two tools, sharing this state.
    pub fn tools(&self) -> Vec<Arc<dyn Tool>> {
        vec![
            Arc::new(UiOutline(self.clone())),
            Arc::new(UiAct(self.clone())),
        ]
    }

    /// What `request` names in `window` and which of it was acted on (`Walk::named`);
    /// `None` outside a task or where it names nothing there.
    fn named_in(&self, window: &str, request: &str) -> Option<String> {
        if request.trim().is_empty() {
            return None;
        }
        let numbers = locked(&self.0.numbers);
        let mut walk = locked(&self.0.walk);
        walk.for_request(request);
        walk.named(&numbers, window, request)
    }

    /// Asks the model, on its own, which key stands for each step between numbers of a
    /// keypad plan in `window` not chosen yet (`Walk::keyed_question`): in the middle of
    /// a task a small model follows the numbers it pressed ("times" pressed as π, seen on
    /// gnome-calculator), asked alone it reads the words (×).
    async fn choose_keys(&self, window: &str, request: &str, choose: &Choose) {
        if request.trim().is_empty() {
            return;
        }
        locked(&self.0.walk).for_request(request);
        for _ in 0..4 {
            let asked = {
                let numbers = locked(&self.0.numbers);
                let walk = locked(&self.0.walk);
                walk.keyed_question(&numbers, window, request)
            };
            let Some((at, question, names)) = asked else {
                return;
            };
            let answer = choose.one_of(&question, &names).await;
            tracing::info!(question, ?answer, "a keypad's key chosen by the model");
            locked(&self.0.walk).chose(at, answer);
        }
    }

    /// What `request` does to `now` when `text` is set in its place: the model's answer,
    /// asked on its own once for each (`edit::ask`, kept in the walk).
    async fn edit_of(
        &self,
        request: &str,
        now: &str,
        text: &str,
        choose: &Choose,
    ) -> Option<crate::edit::Edit> {
        let known = {
            let mut walk = locked(&self.0.walk);
            walk.for_request(request);
            walk.edit_of(now, text)
        };
        if known.is_some() {
            return known;
        }
        let edit = crate::edit::ask(choose, request, now, text).await?;
        locked(&self.0.walk).edit_answered(now, text, edit);
        Some(edit)
    }

    /// The elements of `entry`'s window, as its last outline shows them, of the same
    /// role as element `n` and not disabled (`asked::enabled_alike`).
    fn enabled_alike(&self, n: u32, entry: &Entry) -> Vec<(u32, String)> {
        let Some(root) = entry.place.root.as_ref() else {
            return Vec::new();
        };
        // Numbers before the outlines, in the order `act` takes them.
        let numbers = locked(&self.0.numbers);
        let last = locked(&self.0.last);
        last.get(root)
            .map(|outline| crate::asked::enabled_alike(&numbers, &outline.lines, n, entry))
            .unwrap_or_default()
    }

    fn render(&self, root: &Node, title: &str, place: &Place, options: &Options) -> Outline {
        let mut numbers = locked(&self.0.numbers);
        outline(root, title, place, options, &mut numbers)
    }

    /// A window's outline, read now and kept as its last.
    async fn read_window(&self, w: &Window, options: &Options) -> Result<Outline, ElementsError> {
        let mut root = tree(&self.0.desktop, &w.key, &w.app).await?;
        crate::atspi::origin::place(&self.0.desktop, &mut root, Some(&w.key), &w.title).await;
        crate::labels::name_fields(&mut root);
        let place = Place {
            window: w.title.clone(),
            app: w.app.clone(),
            root: Some(w.key.clone()),
            region: None,
        };
        let size = w
            .bounds
            .filter(|b| b.is_visible())
            .map(|b| format!(" at {},{} {}x{}", b.x, b.y, b.width, b.height))
            .unwrap_or_default();
        let title = format!("Window \"{}\" ({}){size}:", w.title, w.app);
        let out = self.render(&root, &title, &place, options);
        if options.find.is_none() {
            locked(&self.0.last).insert(w.key.clone(), out.clone());
        }
        Ok(out)
    }

    /// The window after an action, once it has settled: read at short intervals until it
    /// differs from `before` and then reads the same twice in a row (an application
    /// answers a press in tens of milliseconds, and some redraw in steps), or until
    /// `SETTLE` has passed (an action that changes nothing costs that wait).
    async fn settled(
        &self,
        w: &Window,
        before: Option<&Outline>,
    ) -> Result<Outline, ElementsError> {
        const SETTLE: Duration = Duration::from_millis(300);
        const STEP: Duration = Duration::from_millis(30);
        let started = Instant::now();
        let mut last: Option<Outline> = None;
        loop {
            tokio::time::sleep(STEP).await;
            let now = self.read_window(w, &Options::default()).await?;
            let moved = before.is_none_or(|b| b.lines != now.lines);
            let steady = last.as_ref().is_some_and(|l| l.lines == now.lines);
            if (moved && steady) || started.elapsed() >= SETTLE {
                return Ok(now);
            }
            last = Some(now);
        }
    }

    /// The screen (or a window's rectangle) read by OCR, numbered as a new run.
    async fn read_ocr(
        &self,
        target: Target,
        window: &str,
        why: &str,
        options: &Options,
    ) -> Result<Outline, ElementsError> {
        let scratch = tempfile::tempdir()
            .map_err(|e| ElementsError::Ocr(format!("no scratch folder: {e}")))?;
        let reading = ocr::read(target, scratch.path()).await?;
        let scales: Vec<String> = reading.scales.iter().map(|s| format!("{s}x")).collect();
        let unframed = if reading.unframed {
            ", the frames drawn around words taken out,"
        } else {
            ""
        };
        let how = format!(
            "read at {}{unframed} in {:.1} s",
            scales.join(" and "),
            reading.took.as_secs_f64()
        );
        let words = reading.words;
        let run = self.0.ocr_runs.fetch_add(1, Ordering::SeqCst) + 1;
        locked(&self.0.numbers).forget_words_before(run);
        let root = ocr::as_tree(run, &ocr::phrases(&words, &reading.walls), reading.blank);
        let region = match target {
            Target::Region {
                x,
                y,
                width,
                height,
            } => Some(crate::node::Bounds {
                x,
                y,
                width: width as i32,
                height: height as i32,
            }),
            _ => None,
        };
        let place = Place {
            window: window.into(),
            app: String::new(),
            root: None,
            region,
        };
        let title = format!(
            "Text on screen read by OCR ({why}; {how}). Each element is text at a place; ui_act press clicks it, type clicks it and types:"
        );
        Ok(self.render(&root, &title, &place, options))
    }
}

pub struct UiOutline(pub Elements);

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct OutlineArgs {
    /// A window by its title or application (default: the active one).
    window: Option<String>,
    /// An element's number: show everything inside it.
    expand: Option<u32>,
    /// Only elements whose role, name or value contains this.
    find: Option<String>,
    /// At most this many elements.
    max: Option<usize>,
    #[serde(default)]
    source: Source,
    /// Also a screenshot with each element's number drawn on it.
    #[serde(default)]
    marks: bool,
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Source {
    #[default]
    Auto,
    Tree,
    Ocr,
}

impl UiOutline {
    /// The outline `args` ask for; a window's, for `request`, ends with the elements the
    /// request names in it (`Walk::named`), as each act's read-back does.
    async fn outline(
        &self,
        args: OutlineArgs,
        request: &str,
        choose: &Choose,
    ) -> Result<Read, ElementsError> {
        let options = Options {
            budget: args.max.unwrap_or(40).clamp(5, 400),
            find: args.find.clone(),
            ..Options::default()
        };
        let el = &self.0;
        if let Some(n) = args.expand {
            let entry = locked(&el.0.numbers)
                .get(n)
                .map_err(ElementsError::Stale)?
                .clone();
            live(&el.0.desktop, n, &entry).await?;
            let mut root = tree(&el.0.desktop, &entry.key, &entry.place.app).await?;
            let window = &entry.place;
            crate::atspi::origin::place(
                &el.0.desktop,
                &mut root,
                window.root.as_ref(),
                &window.window,
            )
            .await;
            crate::labels::name_fields(&mut root);
            let title = format!(
                "Inside [{n}] {} in \"{}\":",
                entry.label(),
                entry.place.window
            );
            let out = el.render(&root, &title, &entry.place, &options);
            return Ok(Read {
                summary: format!("read inside element {n}: {} elements", out.shown),
                area: area(entry.bounds),
                shown: out.lines.keys().copied().collect(),
                shows: format!("{}\n{}", entry.place.window, out.shows),
                text: out.text,
                narrow: None,
            });
        }
        let started = Instant::now();
        let listed = match args.source {
            Source::Ocr => None,
            _ => match windows(&el.0.desktop).await {
                Ok(ws) => Some(Ok(ws)),
                Err(e) if args.source == Source::Tree => return Err(e),
                Err(e) => Some(Err(e)),
            },
        };
        let chosen = match &listed {
            Some(Ok(ws)) => match ws.choose(args.window.as_deref()) {
                Ok(w) => Ok(w.clone()),
                Err(e) => Err(e.to_string()),
            },
            Some(Err(e)) => Err(e.to_string()),
            None => Err("OCR was asked for".into()),
        };
        if let (Ok(w), Some(Ok(ws))) = (&chosen, &listed) {
            if args.source != Source::Ocr {
                let out = el.read_window(w, &options).await?;
                if out.shown > 0 || args.source == Source::Tree || options.find.is_some() {
                    let mut text = out.text.clone();
                    let others: Vec<String> = ws
                        .windows
                        .iter()
                        .filter(|o| o.key != w.key)
                        .map(|o| format!("\"{}\" ({})", o.title, o.app))
                        .collect();
                    if !others.is_empty() {
                        text.push_str(&format!("Other windows: {}\n", others.join(", ")));
                    }
                    for s in &ws.silent {
                        text.push_str(&format!("Not answering: {s}\n"));
                    }
                    // Seen without it: a form's Cancel pressed first, the first button
                    // read, while the request named its fields and OK.
                    el.choose_keys(&w.title, request, choose).await;
                    if let Some(named) = el.named_in(&w.title, request) {
                        text.push_str(&format!("{named}\n"));
                    }
                    // A keypad the request's numbers are keyed in on: the call after
                    // reading it is its next key (seen: mate-calc read, then "1" pressed
                    // for "23 times 4").
                    let narrow = {
                        let numbers = locked(&el.0.numbers);
                        let walk = locked(&el.0.walk);
                        walk.keyed_next(&numbers, &w.title, request)
                    };
                    tracing::debug!(
                        elements = out.shown,
                        tokens = tokens(&text),
                        ms = started.elapsed().as_millis() as u64,
                        "outline"
                    );
                    return Ok(Read {
                        summary: format!("read \"{}\": {} elements", clip(&w.title, 40), out.shown),
                        area: area(w.bounds),
                        shown: out.lines.keys().copied().collect(),
                        shows: format!("{}\n{}", w.title, out.shows),
                        text,
                        narrow,
                    });
                }
            }
        }
        if args.source == Source::Tree {
            return Err(ElementsError::NoWindow(chosen.err().unwrap_or_default()));
        }
        // No tree (or an empty one): read the window's rectangle by OCR, found through
        // the X server when the tree does not know it, or else the whole screen.
        let want = match &chosen {
            Ok(w) => w.title.clone(),
            Err(_) => args.window.clone().unwrap_or_default(),
        };
        let found = match &chosen {
            Ok(w) => w
                .bounds
                .filter(|b| b.is_visible())
                .map(|b| (w.title.clone(), b)),
            Err(_) => None,
        };
        let found = match found {
            Some(f) => Some(f),
            None => tokio::task::spawn_blocking(move || zeta_tools::windows::find(&want))
                .await
                .ok()
                .flatten()
                .map(|x| {
                    let r = x.bounds;
                    let bounds = crate::node::Bounds {
                        x: r.x,
                        y: r.y,
                        width: r.width,
                        height: r.height,
                    };
                    (x.title, bounds)
                }),
        };
        let (target, window, why) = match found {
            Some((title, b)) => (
                Target::Region {
                    x: b.x.max(0),
                    y: b.y.max(0),
                    width: b.width as u32,
                    height: b.height as u32,
                },
                title.clone(),
                format!("\"{title}\" shares no accessibility tree"),
            ),
            None => (
                Target::All,
                SCREEN.to_string(),
                format!(
                    "the whole screen: {}",
                    clip(&chosen.err().unwrap_or_default(), 200)
                ),
            ),
        };
        let out = match el.read_ocr(target, &window, &why, &options).await {
            Ok(o) => o,
            // A window's rectangle off screen: the whole screen instead.
            Err(_) if target != Target::All => {
                el.read_ocr(Target::All, SCREEN, &why, &options).await?
            }
            Err(e) => return Err(e),
        };
        Ok(Read {
            summary: format!("read the screen by OCR: {} elements", out.shown),
            area: target,
            shown: out.lines.keys().copied().collect(),
            shows: format!("{window}\n{}", out.shows),
            text: out.text,
            narrow: None,
        })
    }

    /// The area read, captured with each shown element boxed and numbered.
    async fn marked(&self, read: &Read, ctx: &ToolContext) -> Result<ImageData, String> {
        let marks: Vec<(u32, crate::node::Bounds)> = {
            let numbers = locked(&self.0 .0.numbers);
            read.shown
                .iter()
                .filter_map(|n| Some((*n, numbers.get(*n).ok()?.bounds?)))
                .collect()
        };
        let area = read.area;
        let settings = ctx.screenshot.clone();
        let shot = tokio::task::spawn_blocking(move || {
            let mut captured = zeta_tools::screen::capture(area)?;
            crate::marks::draw(&mut captured, &marks);
            zeta_tools::screen::finish(captured, &settings)
        })
        .await
        .map_err(|e| format!("the capture thread failed: {e}"))??;
        Ok(ImageData {
            media_type: shot.media_type.to_string(),
            base64: base64::engine::general_purpose::STANDARD.encode(&shot.bytes),
        })
    }
}

/// What `ui_outline` read: the text, the numbers it shows, and the part of the screen.
struct Read {
    text: String,
    summary: String,
    shown: Vec<u32>,
    /// What the area read shows (`Outline::shows`), headed by its window's title.
    shows: String,
    area: Target,
    /// What the next `ui_act` is narrowed to after this read: a keypad's next key, while
    /// the request's numbers are keyed in there (`Walk::keyed_next`).
    narrow: Option<Vec<u32>>,
}

/// The screen rectangle of `bounds`, or the whole screen.
fn area(bounds: Option<crate::node::Bounds>) -> Target {
    match bounds.filter(|b| b.is_visible() && b.x >= 0 && b.y >= 0) {
        Some(b) => Target::Region {
            x: b.x,
            y: b.y,
            width: b.width as u32,
            height: b.height as u32,
        },
        None => Target::All,
    }
}

impl Tool for UiOutline {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "ui_outline".into(),
            description: "Read a window's buttons, fields, check boxes and text as a numbered outline (default: the active window; OCR when it has no accessibility tree). Act on the numbers with ui_act.".into(),
            parameters: json!({"type": "object", "properties": {
                "window": {"type": "string", "description": "part of a window's title or app name"},
                "expand": {"type": "integer", "description": "an element's number: show all inside it"},
                "find": {"type": "string", "description": "only elements whose name, role or value contains this"},
                "max": {"type": "integer", "description": "most elements to show (default 40)"},
                "source": {"type": "string", "enum": ["auto", "tree", "ocr"]},
                "marks": {"type": "boolean", "description": "also a screenshot with the numbers drawn on (models that see)"}
            }, "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn target(&self, arguments: &Value) -> String {
        match arguments.get("window").and_then(Value::as_str) {
            Some(w) => format!("read window \"{}\"", clip(w, 60)),
            None => "read the active window".into(),
        }
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: OutlineArgs = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("ui_outline: bad arguments: {e}")),
            };
            let marks = args.marks;
            let read = match self.outline(args, &ctx.request, &ctx.choose).await {
                Ok(read) => read,
                Err(e) => return ToolOutput::error(format!("ui_outline: {e}")),
            };
            *locked(&self.0 .0.shown) = read.shown.clone();
            *locked(&self.0 .0.narrowed) = read.narrow.clone();
            let mut out = ToolOutput::ok(read.text.clone(), read.summary.clone());
            out.shows = Some(read.shows.clone());
            if marks && !ctx.images_supported {
                out.content
                    .push_str("(No marked screenshot: this model cannot see images.)\n");
            } else if marks {
                match self.marked(&read, ctx).await {
                    Ok(image) => {
                        out.content
                            .push_str("The screenshot shows each element boxed with its number.\n");
                        out.images.push(image);
                    }
                    Err(e) => out
                        .content
                        .push_str(&format!("(No marked screenshot: {e}.)\n")),
                }
            }
            out
        })
    }
}

pub struct UiAct(pub Elements);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActArgs {
    element: u32,
    action: String,
    text: Option<String>,
    option: Option<String>,
}

fn parse_action(a: &ActArgs) -> Result<Action, String> {
    let text = || {
        a.text
            .clone()
            .ok_or_else(|| format!("{} needs `text`", a.action))
    };
    Ok(match a.action.trim().to_lowercase().replace([' ', '-'], "_").as_str() {
        "press" | "click" | "activate" => Action::Press,
        "focus" => Action::Focus,
        "set_text" | "fill" => Action::SetText(text()?),
        "type" => Action::Type(text()?),
        "select" | "choose" => Action::Select(
            a.option
                .clone()
                .or_else(|| a.text.clone())
                .ok_or("select needs `option`")?,
        ),
        "toggle" | "check" | "uncheck" => Action::Toggle,
        "scroll_into_view" | "scroll" => Action::ScrollIntoView,
        other => {
            return Err(format!(
                "{other:?} is not an action: use press, focus, set_text, type, select, toggle or scroll_into_view"
            ))
        }
    })
}

/// `word` is the name of an action ("type", "set_text", "click").
fn is_action_name(word: &str) -> bool {
    parse_action(&ActArgs {
        element: 0,
        action: word.to_string(),
        text: Some(String::new()),
        option: Some(String::new()),
    })
    .is_ok()
}

/// What element `n` is and the call its kind takes, for a call whose action was not
/// one. For a field that takes text, the call's own words (its `text`, else the word
/// it wrote as the action) are shown as the text, said as "if": they are the model's,
/// not Zeta's guess.
fn the_call_it_takes(n: u32, entry: &crate::numbers::Entry, args: &ActArgs) -> String {
    use crate::numbers::Takes;
    let label = entry.label();
    if !entry.options.is_empty() && entry.takes != Takes::Text {
        let shown: Vec<&str> = entry.options.iter().take(12).map(String::as_str).collect();
        return format!(
            "[{n}] is {label}, which takes one of its options ({}): {{\"element\": {n}, \"action\": \"select\", \"option\": \"…\"}}",
            shown.join(" | ")
        );
    }
    match entry.takes {
        Takes::Text => {
            let words = args.text.as_deref().unwrap_or(args.action.as_str()).trim();
            let text = serde_json::to_string(words).unwrap_or_else(|_| "\"TEXT\"".into());
            format!(
                "[{n}] is {label}, which takes text: if {text} is the text to put in it, the \
                 call is {{\"element\": {n}, \"action\": \"set_text\", \"text\": {text}}}"
            )
        }
        Takes::Toggle => format!(
            "[{n}] is {label}, which is ticked or unticked: {{\"element\": {n}, \"action\": \"toggle\"}}"
        ),
        Takes::Press => format!(
            "[{n}] is {label}, which is pressed: {{\"element\": {n}, \"action\": \"press\"}}"
        ),
        Takes::Unknown => format!("[{n}] is {label}"),
    }
}

/// A call whose action is not one, read as the only call its element allows, where the
/// call says which: a field that takes text, given no `text`, gets the call's own words
/// as its text, unless they name an element of the window; a button named by the
/// action (the number's own, or the one button of the window so named) is pressed (seen: `{"element": 1, "action": "hello"}` for "type 'hello' into the
/// Name field", six times in six, past the error that showed the right call); a button
/// named by the action is pressed; one of the element's own options named by the action
/// is chosen. Nothing else is read: a check box's "on" stays an error that shows the
/// call its kind takes. The words are the model's,
/// never Zeta's; the result says how the call was read, and the read-back shows what
/// it did.
fn read_as(
    numbers: &crate::numbers::Numbers,
    entry: &crate::numbers::Entry,
    args: &ActArgs,
    request: &str,
) -> Option<(ActArgs, String)> {
    use crate::numbers::Takes;
    let words = args.action.trim();
    if words.is_empty() || args.option.is_some() {
        return None;
    }
    // Words that name an element of the window are about that element, not text to
    // type (seen: `{"element": 1, "action": "Save"}` on the Name field typed "Save").
    let names_other = numbers.names_in_window(entry, words);
    let n = args.element;
    let label = entry.label();
    let quoted = serde_json::to_string(words).ok()?;
    // The words are one of the element's own options (seen: `{"element": 2, "action":
    // "Blue"}` on a combo box holding Red, Green and Blue): that option is chosen.
    if let Some(option) = entry
        .options
        .iter()
        .find(|o| o.trim().eq_ignore_ascii_case(words))
    {
        return Some((
            ActArgs {
                element: n,
                action: "select".into(),
                text: None,
                option: Some(option.clone()),
            },
            format!(
                "{quoted} is not an action; it is one of the options of [{n}] {label}, so the \
                 call was read as {{\"element\": {n}, \"action\": \"select\", \"option\": {quoted}}}."
            ),
        ));
    }
    // The words are what the element is (seen: `"action": "check_box"` on a check box):
    // the one act its kind takes.
    let role = |w: &str| w.to_lowercase().replace(['_', '-', ' '], "");
    if role(words) == role(&entry.role) {
        let action = match entry.takes {
            Takes::Toggle => "toggle",
            Takes::Press => "press",
            Takes::Text if args.text.is_some() => "set_text",
            // What the tree gives no action is pressed by a click (a page tab); a label
            // is text.
            Takes::Unknown if entry.role != "label" => "press",
            _ => return None,
        };
        return Some((
            ActArgs {
                element: n,
                action: action.into(),
                text: args.text.clone().filter(|_| action == "set_text"),
                option: None,
            },
            format!(
                "{quoted} is what [{n}] is, not an action; a {} takes {action}, so the call \
                 was read as that.",
                entry.role
            ),
        ));
    }
    // The words are the text the request gives, and the call's `text` is not, or is an
    // action's name (seen: `{"action": "ada", "text": "text"}` for "type ada into
    // Name"; `{"action": "hunter2", "text": "type"}` for "Type the password hunter2
    // …"): the request's words are the value.
    let value_in_action = args.text.as_deref().is_some_and(|t| {
        crate::asked::names(request, words)
            && (!crate::asked::names(request, t) || is_action_name(t))
    });
    match entry.takes {
        Takes::Text if (args.text.is_none() || value_in_action) && !names_other => Some((
            ActArgs {
                element: n,
                action: "set_text".into(),
                text: Some(words.to_string()),
                option: None,
            },
            format!(
                "{quoted} is not an action; [{n}] is {label}, which takes text, so the call \
                 was read as {{\"element\": {n}, \"action\": \"set_text\", \"text\": {quoted}}}."
            ),
        )),
        Takes::Press if entry.name.trim().eq_ignore_ascii_case(words) => Some((
            ActArgs {
                element: n,
                action: "press".into(),
                text: None,
                option: None,
            },
            format!(
                "{quoted} is not an action; [{n}] is {label}, so the call was read as a press."
            ),
        )),
        // The words name the one button of the window by its name, and the number is
        // another element's (seen: a 1.5B model walking the numbers 1, 2, 3 with "Save"):
        // the button its own words name is pressed, and the call says so.
        _ => {
            let (m, button) = numbers.the_button_named(entry, words)?;
            Some((
                ActArgs {
                    element: m,
                    action: "press".into(),
                    text: None,
                    option: None,
                },
                format!(
                    "{quoted} is not an action, and [{n}] is {label}; the call was read as a \
                     press of the element it names, [{m}] {}.",
                    button.label()
                ),
            ))
        }
    }
}

/// What a call whose action is not one (and that `read_as` could not read) meant, for the
/// record of a failed act: a press, when its words name an element of the window (seen:
/// `{"element": 2, "action": "Save"}` on a check box, then "the Save button has been
/// clicked"); else the act its element's kind takes. The act did not happen, whatever it
/// meant: the answer checks hold a claim of it against that.
fn meant_by_words(
    numbers: &crate::numbers::Numbers,
    entry: &crate::numbers::Entry,
    args: &ActArgs,
) -> Option<Action> {
    use crate::numbers::Takes;
    let words = args.action.trim();
    if entry
        .options
        .iter()
        .any(|o| o.trim().eq_ignore_ascii_case(words))
    {
        return Some(Action::Select(words.to_string()));
    }
    if numbers.names_in_window(entry, words) {
        return Some(Action::Press);
    }
    match entry.takes {
        Takes::Text => Some(Action::SetText(
            args.text.clone().unwrap_or_else(|| words.to_string()),
        )),
        Takes::Toggle => Some(Action::Toggle),
        Takes::Press => Some(Action::Press),
        Takes::Unknown => None,
    }
}

/// The kind of an act, as the evidence records it.
fn kind(action: &Action) -> &'static str {
    match action {
        Action::Press => "press",
        Action::Focus => "focus",
        Action::SetText(_) => "set_text",
        Action::Type(_) => "type",
        Action::Select(_) => "select",
        Action::Toggle => "toggle",
        Action::ScrollIntoView => "scroll",
    }
}

fn verb(action: &Action) -> String {
    match action {
        Action::Press => "press".into(),
        Action::Focus => "focus".into(),
        Action::SetText(t) => format!("set the text of, to \"{}\":", clip(t, 80)),
        Action::Type(t) => format!("type \"{}\" into", clip(t, 80)),
        Action::Select(o) => format!("choose \"{}\" in", clip(o, 60)),
        Action::Toggle => "toggle".into(),
        Action::ScrollIntoView => "scroll to".into(),
    }
}

impl UiAct {
    /// Acts on an OCR word: the mouse at its centre, then the keyboard for text.
    async fn act_on_word(&self, entry: &Entry, action: &Action) -> Result<String, ElementsError> {
        let Some(b) = entry.bounds else {
            return Err(ElementsError::Unsupported(
                "that text has no place on screen".into(),
            ));
        };
        let (x, y) = b.centre();
        let input = self.0 .0.input.clone();
        let action = action.clone();
        let work = move || -> Result<String, String> {
            match action {
                Action::Press | Action::Focus => input
                    .click(x, y)
                    .map(|_| format!("clicked it at ({x}, {y})")),
                Action::Type(t) => {
                    input.click(x, y)?;
                    input.type_text(&t)?;
                    Ok(format!(
                        "clicked it at ({x}, {y}) and typed {} characters",
                        t.chars().count()
                    ))
                }
                Action::SetText(t) => {
                    input.click(x, y)?;
                    input.press("ctrl+a")?;
                    input.type_text(&t)?;
                    Ok(format!(
                        "clicked it at ({x}, {y}), selected all and typed the new text"
                    ))
                }
                _ => Err("text read by OCR can only be pressed, focused or typed into".into()),
            }
        };
        match tokio::task::spawn_blocking(work).await {
            Ok(r) => r.map_err(ElementsError::Input),
            Err(e) => Err(ElementsError::Input(format!(
                "the input thread failed: {e}"
            ))),
        }
    }

    /// An act for `request` went through in `window` (`closed` when it closed it):
    /// noted, and the next call narrowed to what the request names there and no act
    /// went through on yet, act after act until nothing is left or the window closes
    /// (seen on the GUI bench at 16b591c: one narrowed act, the row the request names
    /// ticked, and then the answer, its OK never pressed; at 343412f: FeatherPad's text
    /// changed, then the same change made again and the answer, its Save never pressed).
    fn acted(&self, window: &str, closed: bool, request: &str) {
        let shared = &self.0 .0;
        *locked(&shared.acted_in) = Some((window.to_string(), closed));
        if request.trim().is_empty() {
            return;
        }
        let left = if closed {
            Vec::new()
        } else {
            let numbers = locked(&shared.numbers);
            locked(&shared.walk).left_named(&numbers, window, request)
        };
        tracing::debug!(
            window,
            closed,
            ?left,
            "the next call narrowed to what the request names left"
        );
        if !left.is_empty() {
            *locked(&shared.narrowed) = Some(left);
        }
    }

    /// An act on a word read by OCR (`n`, of reading `run`), then the window read again:
    /// what it reads now, and a read-back from the two readings (`ocr_read_back`).
    async fn act_on_read_word(
        &self,
        n: u32,
        run: u64,
        entry: &Entry,
        action: &Action,
        request: &str,
    ) -> Result<Acted, ElementsError> {
        let el = &self.0;
        let window = entry.place.window.clone();
        let before = words_of_run(&locked(&el.0.numbers), run);
        let open_before = window != SCREEN && titled(&x11_windows().await, &window);
        let how = self.act_on_word(entry, action).await?;
        tokio::time::sleep(Duration::from_millis(400)).await;
        let closed = open_before && !titled(&x11_windows().await, &window);
        let target = area(entry.place.region);
        let mut shows = format!("{window}\n");
        let (after, now) = match el
            .read_ocr(target, &window, "after the action", &Options::default())
            .await
        {
            Ok(o) => {
                // Its words are numbered anew, and can be acted on next (seen: a
                // dialog read by OCR, its field typed into, and no number of the
                // second read taken). The earlier reading's are forgotten
                // (`Numbers::forget_words_before`): they go from what is shown too.
                let numbers = locked(&el.0.numbers);
                {
                    let mut shown = locked(&el.0.shown);
                    shown.retain(|m| numbers.get(*m).is_ok());
                    shown.extend(o.lines.keys().copied());
                }
                let now: Vec<String> = o
                    .lines
                    .keys()
                    .filter_map(|m| numbers.get(*m).ok().map(|e| e.name.clone()))
                    .collect();
                shows.push_str(&o.shows);
                (o.text, Some(now))
            }
            Err(e) => (format!("(could not read the screen again: {e})"), None),
        };
        let shown = crate::readback::ocr_shown(action, &before, now.as_deref(), closed);
        let intended = readback::intended(action);
        let (request_met, named) = {
            let numbers = locked(&el.0.numbers);
            let mut walk = locked(&el.0.walk);
            walk.acted(n, entry, action, request);
            (
                walk.all_named_done(&numbers, &window, request),
                walk.named(&numbers, &window, request),
            )
        };
        let mut report = format!("Did: {} [{n}] \"{}\": {how}.\n", verb(action), entry.name);
        report.push_str(&match &shown {
            Shown::Yes(what) => format!("Shown: {what}.\n"),
            Shown::No(what) => format!("NOT SHOWN: you meant to {intended}, but {what}.\n"),
            Shown::Unclear(what) => format!("Not confirmed on screen: {what}.\n"),
        });
        if let Some(named) = named {
            report.push_str(&named);
            report.push('\n');
        }
        report.push_str(&format!("The screen now (new numbers):\n{after}"));
        self.acted(&window, closed, request);
        let read_back = Box::new(ReadBack {
            element: format!("text \"{}\" in \"{window}\"", clip(&entry.name, 40)),
            window: window.clone(),
            action: kind(action).into(),
            intended,
            shown,
            request_met,
            closed,
            left: None,
            app: entry.place.app.clone(),
            ocr: true,
            keyed: false,
            dropped: Vec::new(),
        });
        Ok(Acted {
            text: report,
            summary: format!("{} \"{}\"", verb(action), clip(&entry.name, 40)),
            read_back,
            shows,
        })
    }

    async fn act(
        &self,
        args: ActArgs,
        request: &str,
        choose: &Choose,
    ) -> Result<Acted, ElementsError> {
        let el = &self.0;
        let n = args.element;
        let action = match parse_action(&args) {
            Ok(action) => action,
            // Not an action: said with what the element is and the call its kind takes
            // (seen: a 1.5B model writing the text to type as the action, three times
            // over, after a bare list of the action names).
            Err(why) => {
                let shaped = locked(&el.0.numbers)
                    .get(n)
                    .ok()
                    .map(|entry| the_call_it_takes(n, entry, &args));
                return Err(ElementsError::Unsupported(match shaped {
                    Some(shaped) => format!("{why}. {shaped}"),
                    None => why,
                }));
            }
        };
        let mut entry = locked(&el.0.numbers)
            .get(n)
            .map_err(ElementsError::Stale)?
            .clone();
        // A toggle of what cannot be ticked, in a row that holds one box: that box is
        // toggled, and the report says so.
        let mut n = n;
        let mut read_toggle = None;
        // The row's name, when its box is toggled for it: what the act entered.
        let mut row_of_box = None;
        if matches!(action, Action::Toggle) && entry.takes != crate::numbers::Takes::Toggle {
            let numbers = locked(&el.0.numbers);
            if let Some((m, row_box)) = crate::asked::box_of_row(&numbers, n, &entry) {
                read_toggle = Some(format!(
                    "[{n}] {} cannot be ticked; the box of its row is [{m}] {}, and that was toggled.\n",
                    entry.label(),
                    row_box.label()
                ));
                row_of_box = Some(entry.name.clone());
                n = m;
                entry = row_box.clone();
            }
        }
        let label = entry.label();
        // Text that is an action's name, which the request does not give (seen:
        // `{"action": "set_text", "text": "activate"}` on field after field of a settings
        // window): the call meant an act, not the text. Nothing is typed.
        if let Action::SetText(text) | Action::Type(text) = &action {
            if is_action_name(text)
                && !request.trim().is_empty()
                && !crate::asked::names(request, text)
            {
                return Err(ElementsError::Unsupported(format!(
                    "not typed: {:?} is the name of an action, not text the request gives for [{n}] {label}; to act on it, the call is {{\"element\": {n}, \"action\": {:?}}}",
                    text.trim(),
                    text.trim().to_lowercase()
                )));
            }
        }
        if let Action::SetText(text) | Action::Type(text) = &action {
            if let Some(why) = locked(&el.0.walk).named_text(n, &entry, text, request) {
                return Err(ElementsError::Unsupported(why));
            }
        }
        // A press that names what it means to press, and names another element than
        // the number's: the call contradicts itself (seen: the field's number with
        // "Save"). Nothing is done; the model is told what the number is.
        if let (Action::Press, Some(meant)) = (&action, args.text.as_deref()) {
            let meant = meant.trim().to_lowercase();
            let name = entry.name.to_lowercase();
            if !meant.is_empty() && !name.contains(&meant) && !meant.contains(&name) {
                return Err(ElementsError::Unsupported(format!(
                    "not pressed: [{n}] is {label}, not \"{}\"; a press takes the number of \
                     the element itself, from the outline",
                    args.text.as_deref().unwrap_or_default().trim()
                )));
            }
        }
        // A press or toggle of what the request does not name, where it names another
        // of the same kind in this window: nothing is done (`asked`). A press of a
        // label the tree gives no action (seen: a dialog's question pressed, then "I
        // answered No"): nothing to press; the window's buttons are named instead.
        *locked(&el.0.narrowed) = None;
        if matches!(action, Action::Press | Action::Toggle) {
            let numbers = locked(&el.0.numbers);
            // Noted before anything refuses it: a refused press is part of a walk too.
            let walking = locked(&el.0.walk).press(&numbers, n, &entry, request);
            // Held for going past what the request names: the next call is given only
            // what it names and no act went through on yet (seen: a form's Cancel
            // pressed, then OK held twice, then its box ticked three times over, its
            // number field never set).
            let held = |why: String| {
                let left = locked(&el.0.walk).left_named(&numbers, &entry.place.window, request);
                if !left.is_empty() {
                    *locked(&el.0.narrowed) = Some(left);
                }
                Err(ElementsError::Unsupported(why))
            };
            if let Some(why) = crate::asked::refusal(&numbers, n, &entry, request) {
                return held(why);
            }
            // A press that does not name its button itself ("text"), of one the request
            // does not name, beside the window's default: said first, with the default.
            if args.text.is_none() {
                if let Some(why) = crate::asked::not_the_default(&numbers, n, &entry, request) {
                    return held(why);
                }
            }
            if let Some(why) = crate::asked::text_only(&numbers, n, &entry) {
                return Err(ElementsError::Unsupported(why));
            }
            if let Some(why) = crate::asked::option_to_choose(n, &entry, request) {
                // The next call is given this element, where the option is chosen.
                *locked(&el.0.narrowed) = Some(vec![n]);
                return Err(ElementsError::Unsupported(why));
            }
            if let Some(why) = crate::asked::value_only(n, &entry) {
                // The next call is given this element, which takes only its number.
                *locked(&el.0.narrowed) = Some(vec![n]);
                return Err(ElementsError::Unsupported(why));
            }
            let last = locked(&el.0.last);
            let outline = entry.place.root.as_ref().and_then(|root| last.get(root));
            let shown = |m: u32| outline.is_none_or(|o| o.lines.contains_key(&m));
            if let Some(why) = crate::asked::holds_others(&numbers, n, &entry, &shown) {
                return Err(ElementsError::Unsupported(why));
            }
            if let Some(why) = walking {
                return Err(ElementsError::Unsupported(why));
            }
            if args.text.is_none() {
                let ahead = locked(&el.0.walk).ahead(&numbers, n, &entry, request);
                if let Some(why) = ahead {
                    return held(why);
                }
            }
        }
        if let Key::Word { run, .. } = entry.key {
            return self
                .act_on_read_word(n, run, &entry, &action, request)
                .await;
        }
        let node = match live(&el.0.desktop, n, &entry).await {
            Ok(node) => node,
            Err(e @ ElementsError::Stale(_)) => {
                locked(&el.0.numbers).forget(n);
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        // Text into a field that is disabled, while the window shows others of its kind
        // that are not: said with those, and the next call given them (seen on the GUI
        // bench: gtk3-widget-factory's disabled entry typed into twice for "the first
        // text field", refused both times).
        if !node.states.enabled && matches!(action, Action::SetText(_) | Action::Type(_)) {
            let alike = el.enabled_alike(n, &entry);
            if !alike.is_empty() {
                let listed: Vec<String> = alike
                    .iter()
                    .map(|(m, line)| format!("[{m}] {line}"))
                    .collect();
                *locked(&el.0.narrowed) = Some(alike.iter().map(|(m, _)| *m).collect());
                return Err(ElementsError::Unsupported(format!(
                    "{} is disabled: it takes no text now. Of its kind, this window shows these that do: {}",
                    entry.label(),
                    listed.join(", ")
                )));
            }
        }
        // Text set in place of what the element holds, leaving out words of it the
        // request names: whether the request adds to the text or changes it is asked
        // of the model on its own (`edit::ask`); an addition is held, told how to add,
        // and without an answer the call is held once with both texts
        // (`Walk::drops_named`).
        let mut dropped = Vec::new();
        if let (Action::SetText(text), Some(now)) = (&action, node.value.as_deref()) {
            if let Some(why) = crate::asked::holds_already(n, &entry, now, text, request) {
                *locked(&el.0.narrowed) = Some(vec![n]);
                return Err(ElementsError::Unsupported(why));
            }
            let left_out = crate::walk::Walk::left_out_named(&entry, now, text, request);
            let edit = if left_out.is_empty() {
                None
            } else {
                el.edit_of(request, now, text, choose).await
            };
            let held = locked(&el.0.walk).drops_named(n, &entry, now, text, request, edit);
            if let Some(why) = held {
                return Err(ElementsError::Unsupported(why));
            }
            // Gone through while the request may keep them: told with the answer.
            if edit != Some(crate::edit::Edit::Changes) {
                dropped = left_out;
            }
        }
        let windows_before = x11_windows().await;
        let how = act(&el.0.desktop, &entry, &node, &action, &el.0.input).await?;
        let mut report = read_toggle.unwrap_or_default();
        report.push_str(&format!("Did: {} [{n}] {label}: {how}.\n", verb(&action)));
        let mut watched = readback::Windows::default();
        let mut bus_gone = false;
        let mut shows = format!("{}\n", entry.place.window);
        if let Some(root) = entry.place.root.clone() {
            let before = locked(&el.0.last).get(&root).cloned();
            let w = Window {
                key: root.clone(),
                title: entry.place.window.clone(),
                role: String::new(),
                app: entry.place.app.clone(),
                active: true,
                bounds: None,
            };
            match el.settled(&w, before.as_ref()).await {
                Ok(after) => {
                    shows.push_str(&after.shows);
                    // What the window shows now can be acted on next (a page's fields
                    // once its tab is pressed).
                    let mut shown = locked(&el.0.shown);
                    for m in after.lines.keys() {
                        if !shown.contains(m) {
                            shown.push(*m);
                        }
                    }
                    drop(shown);
                    let changed = before
                        .as_ref()
                        .map(|b| changes(b, &after))
                        .unwrap_or_default();
                    watched.changed = changed.len();
                    if changed.is_empty() {
                        let now = after
                            .lines
                            .get(&n)
                            .map(|l| format!("[{n}] {l}"))
                            .unwrap_or_else(|| format!("[{n}] {label} is no longer shown"));
                        report
                            .push_str(&format!("Nothing else in the window changed. Now: {now}\n"));
                    } else {
                        report.push_str("What changed:\n");
                        for c in changed.iter().take(30) {
                            report.push_str(&format!("  {c}\n"));
                        }
                        if changed.len() > 30 {
                            report.push_str(&format!(
                                "  … and {} more changes\n",
                                changed.len() - 30
                            ));
                        }
                    }
                }
                Err(ElementsError::Bus { .. }) => bus_gone = true,
                Err(ElementsError::Timeout { .. }) => watched.silent = true,
                Err(e) => report.push_str(&format!("(could not read the window again: {e})\n")),
            }
        }
        let windows_after = x11_windows().await;
        // Windows are followed by their id: an editor's "notes.txt" that became
        // "*notes.txt" once its text changed did not close (seen: "The window closed" and
        // "A new window opened" after set_text in l3afpad).
        watched.opened = zeta_tools::windows::opened_windows(&windows_before, &windows_after);
        let own = &entry.place.window;
        watched.own_closed = match zeta_tools::windows::fate(&windows_before, &windows_after, own) {
            Fate::Closed => true,
            Fate::Kept => false,
            Fate::Retitled(now) => {
                report.push_str(&format!("Its window's title is now \"{now}\".\n"));
                false
            }
            Fate::Unknown => bus_gone,
        };
        if watched.own_closed {
            report.push_str(&format!("The window \"{own}\" closed.\n"));
            let numbers = locked(&el.0.numbers);
            locked(&el.0.shown).retain(|m| numbers.get(*m).is_ok_and(|e| e.place.window != *own));
        }
        for t in &watched.opened {
            report.push_str(&format!(
                "A new window opened: \"{t}\"; read it with ui_outline and window \"{t}\".\n"
            ));
        }
        if watched.silent {
            report.push_str(
                "Its application has not answered since: it may be showing a dialog that waits for an answer.\n",
            );
        }
        let after = if watched.silent || watched.own_closed {
            None
        } else {
            again(&el.0.desktop, &entry).await
        };
        let shown = readback::judge(&action, &node, after.as_ref(), &watched);
        // A row's box toggled for its name says the row (seen: "Olives" ticked through
        // its box, then "no act entered Olives" said of a list done right).
        let intended = match &row_of_box {
            Some(row) => format!(
                "{} (the box of the row \"{}\")",
                readback::intended(&action),
                clip(row, 60)
            ),
            None => readback::intended(&action),
        };
        report.push_str(&match &shown {
            Shown::Yes(what) => format!("Shown: {what}.\n"),
            Shown::No(what) => format!("NOT SHOWN: you meant to {intended}, but {what}.\n"),
            Shown::Unclear(what) => format!("Not confirmed on screen: {what}.\n"),
        });
        {
            let numbers = locked(&el.0.numbers);
            let mut walk = locked(&el.0.walk);
            walk.acted(n, &entry, &action, request);
            // The row's text cell the call named, when its box was toggled for it.
            if row_of_box.is_some() {
                walk.done(args.element, request);
            }
            walk.done_alike(&numbers, n, &entry, &action, request);
        }
        // A number keyed in on a keypad: the key for what comes next, by meaning.
        el.choose_keys(own, request, choose).await;
        // What the request names in this window, and which of it has been acted on.
        let (named, request_met, left, keyed) = {
            let numbers = locked(&el.0.numbers);
            let walk = locked(&el.0.walk);
            (
                walk.named(&numbers, own, request),
                walk.all_named_done(&numbers, own, request),
                // A window that closed has no step left in it to do, only what it
                // closed without: the elements the request names there that no act
                // went through on.
                if watched.own_closed {
                    closed_without(&walk.unacted(&numbers, own, request), own)
                } else {
                    walk.step_left(&numbers, own, request)
                        .map(|(step, _, button)| {
                            format!(
                                "the request's step \"{step}\" is left: in \"{own}\" the default {button} does it, and it was not pressed"
                            )
                        })
                },
                walk.keyed_result(&numbers, own, request, n),
            )
        };
        if let Some(named) = named {
            report.push_str(&named);
            report.push('\n');
        }
        self.acted(own, watched.own_closed, request);
        let read_back = Box::new(ReadBack {
            element: format!("{label} in \"{own}\""),
            window: own.clone(),
            action: kind(&action).into(),
            intended,
            shown,
            request_met,
            closed: watched.own_closed,
            left,
            app: entry.place.app.clone(),
            ocr: false,
            keyed,
            dropped,
        });
        for t in &watched.opened {
            shows.push_str(&format!("{t}\n"));
        }
        Ok(Acted {
            text: report,
            summary: format!("{} {label}", verb(&action)),
            read_back,
            shows,
        })
    }
}

/// What an act did: the report the model reads, its one line, the read-back, and what
/// the window shows after it (`ToolOutput::shows`).
struct Acted {
    text: String,
    summary: String,
    read_back: Box<ReadBack>,
    shows: String,
}

/// The window of OCR words read off the whole screen.
const SCREEN: &str = "the screen (OCR)";

/// The words of OCR reading `run` that `numbers` holds.
fn words_of_run(numbers: &crate::numbers::Numbers, run: u64) -> Vec<String> {
    numbers
        .all()
        .filter(|(_, e)| matches!(e.key, Key::Word { run: r, .. } if r == run))
        .filter(|(_, e)| !e.name.is_empty())
        .map(|(_, e)| e.name.clone())
        .collect()
}

/// Whether the display server shows a window titled `title`.
fn titled(windows: &[zeta_tools::windows::XWindow], title: &str) -> bool {
    windows.iter().any(|w| w.title == title)
}

/// A window that closed without an act on elements the request names there, in words
/// (`ReadBack::left` of a closed window); `None` when none is left.
fn closed_without(unacted: &[(u32, String)], window: &str) -> Option<String> {
    if unacted.is_empty() {
        return None;
    }
    let each: Vec<&str> = unacted.iter().map(|(_, label)| label.as_str()).collect();
    Some(format!(
        "\"{window}\" closed with no act on {}, which the request names",
        each.join(", ")
    ))
}

/// The display server's windows, bottom to top (none without one).
async fn x11_windows() -> Vec<zeta_tools::windows::XWindow> {
    tokio::task::spawn_blocking(zeta_tools::windows::windows)
        .await
        .unwrap_or_default()
}

impl Tool for UiAct {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "ui_act".into(),
            description: "Act on an element of the last ui_outline by its number: press (click a button), set_text (a field's whole text), type (add text at its end), select (an option), toggle (a check box), focus, scroll_into_view. Says what changed.".into(),
            parameters: json!({"type": "object", "properties": {
                "element": {"type": "integer", "description": "the element's number in the outline"},
                // Not an enum: a call whose action is not one reaches the tool, which
                // says what the element is and the call its kind takes, and keeps the
                // failed act on the record (a schema's refusal did neither).
                "action": {"type": "string", "description": "press, set_text, type, select, toggle, focus or scroll_into_view"},
                "text": {"type": "string", "description": "for set_text and type"},
                "option": {"type": "string", "description": "for select: the option's name"}
            }, "required": ["element", "action"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    /// A call whose action is not one, read as the one call its element allows (see
    /// `read_as`), before the gate judges it: text read as set_text into a terminal is
    /// judged as the command line it becomes.
    /// The calls the elements last shown take (`bound`).
    fn arguments_now(&self) -> Option<Value> {
        let narrowed = locked(&self.0 .0.narrowed).clone();
        // Narrowed to what the request names: the options it names, where it names some.
        let request = narrowed
            .is_some()
            .then(|| locked(&self.0 .0.walk).request().to_string());
        let shown = narrowed.unwrap_or_else(|| locked(&self.0 .0.shown).clone());
        crate::bound::arguments_for(&locked(&self.0 .0.numbers), &shown, request.as_deref())
    }
    /// A word read by OCR by its text and place, rounded to 10 pixels: numbered anew at
    /// each reading, the same word is the same element (seen on the GUI bench at
    /// 16b591c: xcalc's "and", "or" and "xor" keys pressed in turn 30 times, every press
    /// a new number, for 20 minutes).
    fn identity(&self, arguments: &Value) -> Option<String> {
        let n = arguments.get("element")?.as_u64()?;
        let numbers = locked(&self.0 .0.numbers);
        let n = u32::try_from(n).ok()?;
        let entry = numbers.get(n).ok()?;
        let walk = locked(&self.0 .0.walk);
        if let Some(at) = walk.keyed_at(&numbers, n, walk.request()) {
            return Some(format!("{arguments} as step {at} of keying in"));
        }
        drop(walk);
        if !matches!(entry.key, Key::Word { .. }) {
            return None;
        }
        let (x, y) = entry.bounds?.centre();
        let action = arguments
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or("");
        let text = arguments.get("text").and_then(Value::as_str).unwrap_or("");
        Some(format!(
            "{action} {:?} at {},{} {text}",
            entry.name,
            x / 10 * 10,
            y / 10 * 10
        ))
    }
    /// After a check's send-back that only an act answers, the next call is narrowed
    /// as after a held press: to the elements the request names in the window last
    /// acted in, still open, that no act went through on (seen on the GUI bench: the
    /// text of an editor changed, "save it now" sent back, and the answer written
    /// again instead, the File menu the request names never opened).
    fn narrow_to_request(&self, request: &str) {
        let Some((window, false)) = locked(&self.0 .0.acted_in).clone() else {
            return;
        };
        let left = {
            let numbers = locked(&self.0 .0.numbers);
            let walk = locked(&self.0 .0.walk);
            // The last act was for this request, or it is another task's window.
            if walk.request() != request {
                return;
            }
            walk.left_named(&numbers, &window, request)
        };
        if !left.is_empty() {
            *locked(&self.0 .0.narrowed) = Some(left);
        }
    }
    /// A held press narrowed the next call (seen on the GUI bench at 194c590: OK held
    /// before the toppings the request names were ticked, and the model answered
    /// instead, "Not done" its end).
    fn call_next(&self) -> bool {
        locked(&self.0 .0.narrowed).is_some()
    }
    fn read_as(&self, arguments: &Value, request: &str) -> Option<(Value, String)> {
        let args: ActArgs = serde_json::from_value(arguments.clone()).ok()?;
        if parse_action(&args).is_ok() {
            return None;
        }
        let numbers = locked(&self.0 .0.numbers);
        let entry = numbers.get(args.element).ok()?;
        let (read, note) = read_as(&numbers, entry, &args, request)?;
        let mut arguments = json!({"element": read.element, "action": read.action});
        if let Some(text) = read.text {
            arguments["text"] = json!(text);
        }
        if let Some(option) = read.option {
            arguments["option"] = json!(option);
        }
        Some((arguments, note))
    }
    /// Text typed or set into a terminal (its element's role, or its application's
    /// name) is the command line it becomes, judged like the shell's; other windows run
    /// nothing typed into them. OCR words of a terminal window count too: a click there
    /// and typing is the same keyboard.
    fn commands(&self, arguments: &Value) -> Vec<String> {
        let Ok(args) = serde_json::from_value::<ActArgs>(arguments.clone()) else {
            return Vec::new();
        };
        let text = match parse_action(&args) {
            Ok(Action::Type(t) | Action::SetText(t)) => t,
            _ => return Vec::new(),
        };
        let numbers = locked(&self.0 .0.numbers);
        let Ok(entry) = numbers.get(args.element) else {
            return Vec::new();
        };
        let terminal = entry.role.to_lowercase().contains("terminal")
            || zeta_tools::focus::runs_commands(&entry.place.app)
            || zeta_tools::focus::runs_commands(&entry.place.window);
        if terminal && !text.trim().is_empty() {
            vec![text]
        } else {
            Vec::new()
        }
    }
    fn target(&self, arguments: &Value) -> String {
        let n = arguments
            .get("element")
            .and_then(Value::as_u64)
            .unwrap_or(0) as u32;
        let args: Result<ActArgs, _> = serde_json::from_value(arguments.clone());
        let what = args
            .as_ref()
            .ok()
            .and_then(|a| parse_action(a).ok())
            .map(|a| verb(&a))
            .unwrap_or_else(|| "act on".into());
        match locked(&self.0 .0.numbers).get(n) {
            Ok(e) => format!("{what} {} in \"{}\"", e.label(), clip(&e.place.window, 60)),
            Err(_) => format!("{what} element {n} (not in any outline)"),
        }
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: ActArgs = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("ui_act: bad arguments: {e}")),
            };
            // What a failed act meant, on the record: the answer checks hold a claim of
            // it against the failure.
            let meant = {
                let numbers = locked(&self.0 .0.numbers);
                numbers.get(args.element).ok().and_then(|entry| {
                    let action = parse_action(&args)
                        .ok()
                        .or_else(|| meant_by_words(&numbers, entry, &args))?;
                    Some((action, entry.clone()))
                })
            };
            match self.act(args, &ctx.request, &ctx.choose).await {
                Ok(acted) => ToolOutput {
                    read_back: Some(acted.read_back),
                    shows: Some(acted.shows),
                    ..ToolOutput::ok(acted.text, acted.summary)
                },
                Err(e) => {
                    let message = format!("ui_act: {e}");
                    let read_back = meant.map(|(action, entry)| {
                        Box::new(ReadBack {
                            element: format!("{} in \"{}\"", entry.label(), entry.place.window),
                            window: entry.place.window.clone(),
                            action: kind(&action).into(),
                            intended: readback::intended(&action),
                            shown: Shown::No(format!(
                                "it was not done: {}",
                                clip(&e.to_string(), 160)
                            )),
                            request_met: false,
                            closed: false,
                            left: None,
                            app: entry.place.app.clone(),
                            ocr: matches!(entry.key, Key::Word { .. }),
                            keyed: false,
                            dropped: Vec::new(),
                        })
                    });
                    // A failed act shows nothing: its message's numbers are Zeta's.
                    ToolOutput {
                        read_back,
                        shows: Some(String::new()),
                        ..ToolOutput::error(message)
                    }
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Key;
    use serde_json::json;

    /// A call whose action is not one is told what the element is and the call its
    /// kind takes, read from the element's states: the text field's call carries the
    /// call's own words; a check box toggles; a button presses; nothing else is guessed.
    #[test]
    fn a_call_whose_action_is_not_one_is_shown_the_call_its_element_takes() {
        let entry = |states: crate::node::States, actions: Vec<String>, role: &str, name: &str| {
            let mut node = Node::at(&format!("/{name}"), role, name);
            node.states = states;
            node.actions = actions;
            crate::numbers::Entry {
                key: node.key.clone(),
                role: node.role.clone(),
                name: node.name.clone(),
                takes: crate::numbers::Takes::of(&node),
                bounds: None,
                place: Place::default(),
                options: node.options.clone(),
                default: false,
                value: false,
                interactive: node.is_interactive(),
            }
        };
        let args = |action: &str, text: Option<&str>| ActArgs {
            element: 1,
            action: action.into(),
            text: text.map(str::to_string),
            option: None,
        };
        let field = entry(
            crate::node::States {
                editable: true,
                ..Default::default()
            },
            vec![],
            "text",
            "Name",
        );
        let said = the_call_it_takes(1, &field, &args("hello", None));
        assert!(
            said.contains(r#"{"element": 1, "action": "set_text", "text": "hello"}"#)
                && said.contains("if \"hello\" is the text"),
            "{said}"
        );
        let said = the_call_it_takes(1, &field, &args("write", Some("hi there")));
        assert!(said.contains(r#""text": "hi there""#), "{said}");
        let tick = entry(
            crate::node::States {
                checkable: true,
                ..Default::default()
            },
            vec!["toggle".into()],
            "check box",
            "Subscribe",
        );
        assert!(the_call_it_takes(1, &tick, &args("on", None)).contains(r#""action": "toggle""#));
        let button = entry(
            Default::default(),
            vec!["click".into()],
            "push button",
            "Save",
        );
        let said = the_call_it_takes(1, &button, &args("Save", None));
        assert!(
            said.contains(r#""action": "press""#) && !said.contains("set_text"),
            "{said}"
        );
        let label = entry(Default::default(), vec![], "label", "Hint");
        assert_eq!(
            the_call_it_takes(1, &label, &args("x", None)),
            "[1] is label \"Hint\""
        );

        // Read as the one call the element allows, where the call says which: a field
        // given no text takes the call's words; a button named by the call is pressed.
        // (Words naming another element of the window: the real form, tests/tree.rs.)
        let none = crate::numbers::Numbers::default();
        let (read, note) =
            read_as(&none, &field, &args(" hello ", None), "").expect("read as set_text");
        assert_eq!(
            (read.action.as_str(), read.text.as_deref()),
            ("set_text", Some("hello"))
        );
        assert!(
            note.contains(r#"read as {"element": 1, "action": "set_text", "text": "hello"}"#),
            "{note}"
        );
        let (read, _) = read_as(&none, &button, &args("save", None), "").expect("read as a press");
        assert_eq!((read.action.as_str(), read.text), ("press", None));
        // Nothing else: a field with a text of its own, a button named otherwise, a check
        // box, an element the tree says nothing of, an empty action.
        assert!(read_as(&none, &field, &args("write", Some("hi there")), "").is_none());
        // The value written as the action, a placeholder as the text (seen: `{"action":
        // "ada", "text": "text"}`): the words the request gives are the value; the
        // request giving the text, or neither, leaves the call as it is.
        let (read, note) = read_as(
            &none,
            &field,
            &args("ada", Some("text")),
            "Type ada into the Name field and press OK",
        )
        .expect("read as set_text");
        assert_eq!(
            (read.action.as_str(), read.text.as_deref()),
            ("set_text", Some("ada"))
        );
        assert!(note.contains(r#""text": "ada""#), "{note}");
        let (read, _) = read_as(
            &none,
            &field,
            &args("hunter2", Some("type")),
            "Type the password hunter2 into the Unlock dialog and confirm it",
        )
        .expect("read as set_text");
        assert_eq!(read.text.as_deref(), Some("hunter2"));
        for (action, text) in [("ada", "ada lovelace"), ("bob", "text"), ("write", "ada")] {
            assert!(
                read_as(
                    &none,
                    &field,
                    &args(action, Some(text)),
                    "Type ada lovelace into the Name field",
                )
                .is_none(),
                "{action} {text}"
            );
        }
        assert!(read_as(&none, &button, &args("Cancel", None), "").is_none());
        assert!(read_as(&none, &tick, &args("on", None), "").is_none());
        assert!(read_as(&none, &label, &args("Hint", None), "").is_none());
        assert!(read_as(&none, &field, &args("  ", None), "").is_none());

        // A combo box's own option named as the action is chosen; another word is not,
        // and its error lists the options.
        let mut combo = entry(Default::default(), vec!["press".into()], "combo box", "Red");
        combo.options = vec!["Red".into(), "Green".into(), "Blue".into()];
        let (read, note) = read_as(&none, &combo, &args("blue", None), "").expect("read as select");
        assert_eq!(
            (read.action.as_str(), read.option.as_deref()),
            ("select", Some("Blue"))
        );
        assert!(note.contains("one of the options"), "{note}");
        assert!(read_as(&none, &combo, &args("Purple", None), "").is_none());
        // The element's own role as the action: the act its kind takes.
        let (read, _) = read_as(&none, &tick, &args("check_box", None), "").expect("a toggle");
        assert_eq!(read.action, "toggle");
        let (read, _) = read_as(&none, &button, &args("Push Button", None), "").expect("a press");
        assert_eq!(read.action, "press");
        assert!(read_as(&none, &label, &args("label", None), "").is_none());
        // A page tab, which the tree gives no action: its role is read as a press (seen:
        // `"action": "page tab"` on the tab the request names).
        let tab = entry(Default::default(), vec![], "page tab", "Advanced");
        let (read, said) = read_as(&none, &tab, &args("page tab", None), "").expect("read");
        assert_eq!(read.action, "press", "{said}");
        let said = the_call_it_takes(1, &combo, &args("Purple", None));
        assert!(
            said.contains("Red | Green | Blue") && said.contains(r#""action": "select""#),
            "{said}"
        );
        assert!(matches!(
            meant_by_words(&none, &combo, &args("Green", None)),
            Some(Action::Select(o)) if o == "Green"
        ));
    }

    fn numbered(elements: &Elements, role: &str, app: &str, window: &str) -> u32 {
        let node = Node::new(
            Key::Tree {
                bus: ":1.9".into(),
                path: format!("/{role}/{app}"),
            },
            role,
            "",
        );
        let place = Place {
            window: window.into(),
            app: app.into(),
            ..Place::default()
        };
        locked(&elements.0.numbers).number(&node, &place)
    }

    #[test]
    fn text_typed_into_a_terminal_is_judged_as_the_command_it_becomes() {
        let elements = Elements::new(
            Desktop::at_address("unix:path=/nonexistent"),
            InputState::default(),
        );
        let act = UiAct(elements.clone());
        let terminal = numbered(&elements, "terminal", "gnome-terminal-server", "~");
        let by_app = numbered(&elements, "text", "xfce4-terminal", "bash");
        let field = numbered(&elements, "text", "gedit", "notes.txt");
        for (element, action) in [(terminal, "type"), (terminal, "set_text"), (by_app, "type")] {
            let call = json!({"element": element, "action": action, "text": "rm -rf ~\n"});
            assert_eq!(
                act.commands(&call),
                vec!["rm -rf ~\n".to_string()],
                "{call}"
            );
        }
        for call in [
            json!({"element": field, "action": "type", "text": "rm -rf ~"}),
            json!({"element": terminal, "action": "press"}),
            json!({"element": 99, "action": "type", "text": "rm -rf ~"}),
        ] {
            assert!(act.commands(&call).is_empty(), "{call}");
        }
    }

    /// Text that is an action's name, not given by the request, is not typed (seen:
    /// "activate" set into field after field of a settings window); the request's own
    /// word is, and outside a task nothing is held.
    #[tokio::test]
    async fn an_actions_name_given_as_text_is_not_typed() {
        let elements = Elements::new(
            Desktop::at_address("unix:path=/nonexistent"),
            InputState::default(),
        );
        let act = UiAct(elements.clone());
        let field = numbered(&elements, "text", "settings_app.py", "Options");
        let request =
            "In the Options window, open the Advanced tab, tick Verbose, then press Apply";
        for (action, text) in [
            ("set_text", "activate"),
            ("type", "Check"),
            ("set_text", " toggle "),
            ("type", "scroll_into_view"),
        ] {
            let args = ActArgs {
                element: field,
                action: action.into(),
                text: Some(text.into()),
                option: None,
            };
            match act.act(args, request, &Choose::default()).await {
                Err(ElementsError::Unsupported(why)) => {
                    assert!(why.starts_with("not typed:"), "{why}")
                }
                other => panic!("{action} {text:?}: {:?}", other.map(|o| o.text)),
            }
        }
        // The request gives the word, or there is no request: it goes on to the window
        // (which this desktop does not have).
        for (text, request) in [
            ("press", "type 'press' into the Title field"),
            ("activate", ""),
            ("Lisbon", request),
        ] {
            let args = ActArgs {
                element: field,
                action: "set_text".into(),
                text: Some(text.into()),
                option: None,
            };
            if let Err(ElementsError::Unsupported(why)) =
                act.act(args, request, &Choose::default()).await
            {
                assert!(!why.starts_with("not typed:"), "{text:?}: {why}");
            }
        }
    }
}
