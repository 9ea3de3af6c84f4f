//! The tool seam: the `Tool` trait that zeta-tools implements, what a tool is handed
//! (`ToolContext`), what it returns (`ToolOutput`), and the `ToolRegistry` the loop uses.

use std::collections::BTreeMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

pub use zeta_protocol::risk::Risk;

/// The loop's own tool that shows a whole plan before any of it runs
/// (`agent_loop::plan`); compaction keeps its calls whole.
pub const PROPOSE_PLAN: &str = "propose_plan";

use crate::agent::CancelToken;
use crate::model::{ImageData, ToolSpec};

/// Limits and hooks for one tool call, taken from the task's settings.
#[derive(Clone)]
pub struct ToolContext {
    pub cancel: CancelToken,
    /// Folder commands run in.
    pub workdir: PathBuf,
    pub command_timeout_ms: u64,
    pub max_output_length: usize,
    /// Whether the model can take images (a screenshot is sent, or described in words).
    pub images_supported: bool,
    pub screenshot: crate::settings::ScreenshotSettings,
    /// Receives output as it arrives (for the UI); may be called many times.
    pub on_output: Arc<dyn Fn(&str) + Send + Sync>,
    /// The task has read input the user did not type: what a tool keeps for later tasks
    /// (a saved fact) is marked untrusted.
    pub untrusted_input: bool,
    /// Where the processes this call starts may write (`policy::writable`); `None` runs
    /// them unconfined (the user approved this call's writes outside, or the kernel
    /// cannot confine).
    pub confine: Option<Arc<crate::policy::Writable>>,
    /// Told of every file change the call is about to make, so the task can be undone
    /// (`crate::undo`); `None` keeps nothing.
    pub keeper: Option<Arc<dyn crate::undo::Keeper>>,
    /// Whether the call's processes may reach the person's desktop session (display,
    /// session bus, terminal multiplexers, agents): only when a person approved it.
    pub session: Session,
    /// What the call leaves for the end of its task (ending the processes it left
    /// running).
    pub at_task_end: AtTaskEnd,
    /// The person's request the call serves (the task's message; empty outside a task):
    /// a tool that acts on what a person sees holds an act against what was asked.
    pub request: Arc<str>,
    /// A short question the tool may ask the task's model, answered with one of a few
    /// options (`Choose`); none outside a task.
    pub choose: Choose,
}

/// A question put to the task's model on its own, outside the conversation, whose
/// answer must be one of `options`: what a word of the request means among a window's
/// few names (which key of a keypad "times" is). Asked alone, a small model answers it
/// where, in the middle of a task, it follows the numbers it has pressed so far.
pub trait Chooser: Send + Sync {
    fn choose<'a>(
        &'a self,
        question: &'a str,
        options: &'a [String],
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>>;
}

/// The task's `Chooser`, when there is one.
#[derive(Clone, Default)]
pub struct Choose(Option<Arc<dyn Chooser>>);

impl Choose {
    pub fn new(chooser: Arc<dyn Chooser>) -> Self {
        Self(Some(chooser))
    }

    /// One of `options`, as the model answers `question`; `None` without a model, when
    /// it fails, or when its answer is none of them.
    pub async fn one_of(&self, question: &str, options: &[String]) -> Option<String> {
        let chooser = self.0.as_ref()?;
        let answer = chooser.choose(question, options).await?;
        options.iter().find(|o| **o == answer).cloned()
    }
}

/// Work calls leave for the end of their task, run once when the task ends, however it
/// ends (answered, failed, cancelled): ending the processes a command left running.
#[derive(Clone, Default)]
pub struct AtTaskEnd(Arc<std::sync::Mutex<Vec<EndWork>>>);

/// One piece of work left for the task's end.
type EndWork = Box<dyn FnOnce() + Send>;

impl AtTaskEnd {
    pub fn push(&self, work: impl FnOnce() + Send + 'static) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(Box::new(work));
    }

    /// Runs (and forgets) everything pushed so far.
    pub fn run(&self) {
        let work = std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()));
        for one in work {
            one();
        }
    }
}

/// Whether a call's processes may reach the person's desktop session (zeta-tools'
/// `doors`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Session {
    /// Nobody approved the call: the session's sockets are hidden from it.
    Closed,
    /// A person approved the call (asked, in a plan, or by an allowance they gave).
    Open,
}

impl ToolContext {
    /// A context with the default limits and a cancel token nobody holds, for calls
    /// made outside a task (tests, benchmarks).
    pub fn detached(workdir: PathBuf) -> Self {
        let (_, cancel) = CancelToken::new();
        Self {
            cancel,
            workdir,
            command_timeout_ms: 30_000,
            max_output_length: 30_000,
            images_supported: false,
            screenshot: crate::settings::ScreenshotSettings::default(),
            on_output: Arc::new(|_: &str| {}),
            untrusted_input: false,
            confine: None,
            keeper: None,
            session: Session::Closed,
            at_task_end: AtTaskEnd::default(),
            request: Arc::from(""),
            choose: Choose::default(),
        }
    }
}

/// Text a call would write into a file (`Tool::writes_text`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextWrite {
    pub path: PathBuf,
    pub text: String,
    /// Added at the end of what the file holds, rather than replacing it.
    pub append: bool,
}

/// What a call aimed at a window showed of its effect, read back from the window after it
/// (`ui_act`): evidence the answer checks hold a "done" against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadBack {
    /// The element acted on, as the outline names it, and its window:
    /// `spin button "Copies" in "Print settings"`.
    pub element: String,
    /// Its window's title.
    pub window: String,
    /// The kind of act: `press`, `set_text`, `type`, `select`, `toggle`, `focus`, `scroll`.
    pub action: String,
    /// What the call meant to do, in words: `set its text to "7"`.
    pub intended: String,
    pub shown: Shown,
    /// After this act, every element of the window that the request names had an act go
    /// through (the tool that acted knows the window's names; false where it cannot
    /// tell).
    pub request_met: bool,
    /// The act closed its window (a dialog answered): the window the element was in is
    /// gone from the screen.
    pub closed: bool,
    /// What of the request the tool can tell is left in this window, in words: while it
    /// is open, a step that names nothing there while the window's default button that
    /// does it was not pressed; once it `closed`, the elements the request names there
    /// that it closed without an act on. `None` where none is, or it cannot tell.
    pub left: Option<String>,
    /// The window's application, as the tool knows it ("" where it does not): its name
    /// is no value the request gives ("In FeatherPad, …").
    pub app: String,
    /// The element was a word read off the screen by OCR: its name may differ from what
    /// the screen shows by a letter or two (seen: xmessage's "Dismiss" read "Disniss").
    pub ocr: bool,
    /// The act was the last key of what the request gives keyed in on a keypad, its
    /// result key (a calculator's "="): what is left is to say the result it shows.
    pub keyed: bool,
    /// Words the request names that the element held and that the act's text, put in
    /// place of all of it, left out (a set_text made again after it was held for them).
    pub dropped: Vec<String>,
}

impl ReadBack {
    /// After this act every element the request names had been acted on, and the window
    /// did not contradict the act: the request met in the window, as far as it can tell.
    pub fn met(&self) -> bool {
        self.request_met && !matches!(self.shown, Shown::No(_))
    }

    /// The element's name, as `element` says it (`button "Save" in "…"`: `Save`).
    pub fn name(&self) -> Option<&str> {
        self.element
            .split('"')
            .nth(1)
            .map(str::trim)
            .filter(|n| !n.is_empty())
    }

    /// For tests: `action` on `element` in `window`, meant as `intended`, shown as
    /// `shown`; the request not met, the window open.
    #[cfg(test)]
    pub fn of(element: &str, window: &str, action: &str, intended: &str, shown: Shown) -> Self {
        Self {
            element: element.into(),
            window: window.into(),
            action: action.into(),
            intended: intended.into(),
            shown,
            request_met: false,
            closed: false,
            left: None,
            app: String::new(),
            ocr: false,
            keyed: false,
            dropped: Vec::new(),
        }
    }
}

/// Whether the window shows what a call meant to do, with what it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// It shows the intended change.
    Yes(String),
    /// It does not (what it shows instead), or the act failed (why).
    No(String),
    /// Nothing on screen tells either way (a press whose effect is elsewhere).
    Unclear(String),
}

/// What a tool call produced.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// False when the call failed (bad arguments, non-zero exit, timeout, ...).
    pub ok: bool,
    /// What the model reads.
    pub content: String,
    /// One line for the UI.
    pub summary: String,
    pub images: Vec<ImageData>,
    /// For a call aimed at a window: what the window showed after it.
    pub read_back: Option<Box<ReadBack>>,
    /// For a call that read a window or the screen: what it shows, its elements' own
    /// texts (names, values, options) without Zeta's words and numbers around them (an
    /// outline's `[45]`, a place `@680,490`): what the answer checks count as printed. A
    /// number in the outline's framing grounds no value (seen: xcalc showing "9955", the
    /// answer "the screen now shows 45", grounded by element `[45]`). `None`: the content
    /// is what the call printed.
    pub shows: Option<String>,
}

impl ToolOutput {
    pub fn ok(content: impl Into<String>, summary: impl Into<String>) -> Self {
        Self {
            ok: true,
            content: content.into(),
            summary: summary.into(),
            images: Vec::new(),
            read_back: None,
            shows: None,
        }
    }

    pub fn error(message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            ok: false,
            summary: message.lines().next().unwrap_or_default().to_string(),
            content: message,
            images: Vec::new(),
            read_back: None,
            shows: None,
        }
    }
}

pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = ToolOutput> + Send + 'a>>;

pub trait Tool: Send + Sync {
    fn spec(&self) -> ToolSpec;
    /// True when running it can change something outside Zeta.
    fn has_side_effects(&self) -> bool;
    /// Whether this call can change something: `has_side_effects`, unless the tool can
    /// tell that this call only reads (the shell: `policy::reads_only`). A call that only
    /// reads never asks.
    fn changes_things(&self, _arguments: &Value) -> bool {
        self.has_side_effects()
    }
    /// True when it changes what Zeta carries into later tasks (a saved fact): like a side
    /// effect, it asks once the task has read untrusted input.
    fn keeps_state(&self) -> bool {
        false
    }
    /// True when the call hands data to another process or off the machine in its
    /// arguments (an MCP server's tool, whatever it says it does): once the task has read
    /// untrusted or secret input, it asks, like a change.
    fn sends_out(&self, _arguments: &Value) -> bool {
        false
    }
    /// True when every call asks the user first, whatever the permission mode or an
    /// earlier allowance (it changes Zeta itself: `update_settings`).
    fn asks_always(&self) -> bool {
        false
    }
    /// Whether this call's output is input the user did not type (a file, a page, command
    /// output, the screen). After such output, every side-effecting call of the task asks,
    /// even in `auto` mode. True unless a tool knows better: failing closed.
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        true
    }
    /// A call written in a form this tool reads one way only (a weak model's
    /// `{"element": 1, "action": "hello"}` on a text field): the arguments it means, and
    /// a sentence saying how it was read. The loop replaces the call with them before
    /// anything judges, shows or runs it, so what is judged is what runs; `None` (the
    /// default) leaves the call as written. `request` is the person's request the call
    /// serves (the words a call may take from).
    fn read_as(&self, _arguments: &Value, _request: &str) -> Option<(Value, String)> {
        None
    }
    /// The arguments this tool takes at this moment, where what it last showed makes them
    /// narrower than its spec's (the element tool: the numbers of the elements shown, each
    /// with the acts it takes). A constrained model's grammar is built from them before
    /// each step (`agent_loop::grammar::bind_now`); `None` (the default) keeps the spec's.
    fn arguments_now(&self) -> Option<Value> {
        None
    }
    /// The next step must call a tool, not answer: this tool's last call was held, and
    /// it narrowed what may be called next to what the request still needs (the element
    /// tool after a press that went past the request's fields). Asked before each step.
    fn call_next(&self) -> bool {
        false
    }
    /// What `arguments` act on, where their own words do not stay the same for the same
    /// thing (the element tool: a word read by OCR is numbered anew at every reading, so
    /// a press of the same word at the same place is the same call whatever its number).
    /// The loop counts a call's comebacks in a task by it (`guard`). `None` (the
    /// default): the arguments are the call.
    fn identity(&self, _arguments: &Value) -> Option<String> {
        None
    }
    /// A check sent the answer to `request` back for an act to answer
    /// (`Check::answered_by_acting`): narrow what this tool takes next to what the
    /// request still needs, where it can tell (the element tool: the elements the
    /// request names in the window last acted in that no act went through on). Nothing
    /// by default.
    fn narrow_to_request(&self, _request: &str) {}
    /// The command lines this call would hand to a shell, checked against the blocked
    /// list before anything runs (see `policy::blocked`).
    fn commands(&self, _arguments: &Value) -> Vec<String> {
        Vec::new()
    }
    /// The paths a call with `arguments` would write, known before it runs (a file tool's
    /// own path; commands are read by the shell judge instead). `base`: its folder.
    fn named_writes(&self, _arguments: &Value, _base: &Path) -> Vec<PathBuf> {
        Vec::new()
    }
    /// The text a call would write into a file, known before it runs (a file tool's
    /// content): what an approval shows, as the file's new text or its diff.
    fn writes_text(&self, _arguments: &Value, _base: &Path) -> Option<TextWrite> {
        None
    }
    /// What the call acts on, in one line for the confirmation dialog: the command, path,
    /// URL, app or screen point.
    fn target(&self, arguments: &Value) -> String {
        crate::text::clip(&arguments.to_string(), 160)
    }
    /// The folder this call runs in, where its relative paths point: the task's working
    /// folder `base`, unless the call names another (the shell's `workdir`). Its commands
    /// are judged from there.
    fn workdir(&self, _arguments: &Value, base: &Path) -> PathBuf {
        base.to_path_buf()
    }
    /// How risky this call is, run from `workdir` (see `Tool::workdir`).
    fn risk(&self, _arguments: &Value, _workdir: &Path) -> Risk {
        if self.has_side_effects() {
            Risk::Medium
        } else {
            Risk::Low
        }
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a>;
}

/// Tools that come and go with the settings (an MCP server's), offered per task.
pub trait ToolSource: Send + Sync {
    /// The tools a task about `request` may use, at most `limit` of them, the ones that fit
    /// the request best (none that do not fit). Whatever must start to list them starts
    /// now; what cannot is left out, and said so, so the task goes on without it.
    fn tools_for<'a>(
        &'a self,
        request: &'a str,
        settings: &'a crate::settings::Settings,
        limit: usize,
    ) -> ToolsFuture<'a>;
}

/// The tools a `ToolSource` offers one task.
pub type ToolsFuture<'a> = Pin<Box<dyn Future<Output = OfferedTools> + Send + 'a>>;

/// What a `ToolSource` offers one task.
#[derive(Default)]
pub struct OfferedTools {
    pub tools: Vec<Arc<dyn Tool>>,
    /// One line per part that could not be used (a server that did not start), for the
    /// model: it then knows those tools are missing, and why.
    pub unavailable: Vec<String>,
    /// Why the tools themselves carry text the person did not write and has not
    /// reviewed (an MCP server's descriptions): the task is marked, as after reading
    /// such input.
    pub untrusted: Option<String>,
}

/// The tools offered to the model, by name, each with its compiled argument schema.
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn Tool>>,
    validators: BTreeMap<String, Arc<jsonschema::Validator>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a tool. Its schema is compiled now; a schema that does not compile is a bug in
    /// the tool, reported in the log, and its arguments then go unchecked.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        let spec = tool.spec();
        match jsonschema::validator_for(&spec.parameters) {
            Ok(v) => {
                self.validators.insert(spec.name.clone(), Arc::new(v));
            }
            Err(e) => tracing::error!(
                "tool {}: its argument schema does not compile: {e}",
                spec.name
            ),
        }
        self.tools.insert(spec.name, tool);
    }

    /// Checks `arguments` against the tool's schema. `Err` lists every problem, by path.
    pub fn validate(&self, name: &str, arguments: &Value) -> Result<(), String> {
        let Some(validator) = self.validators.get(name) else {
            return Ok(());
        };
        let problems: Vec<String> = validator
            .iter_errors(arguments)
            .map(|e| {
                let at = e.instance_path().to_string();
                if at.is_empty() {
                    e.to_string()
                } else {
                    format!("{at}: {e}")
                }
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the arguments for `{name}` do not match its schema: {}",
                problems.join("; ")
            ))
        }
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.get(name)
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools.values().map(|t| t.spec()).collect()
    }

    pub fn names(&self) -> Vec<&str> {
        self.tools.keys().map(String::as_str).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Echo;
    impl Tool for Echo {
        fn spec(&self) -> ToolSpec {
            ToolSpec {
                name: "echo".into(),
                description: "echo".into(),
                parameters: json!({"type": "object", "properties": {"text": {"type": "string"}, "n": {"type": "integer", "minimum": 0}}, "required": ["text"], "additionalProperties": false}),
            }
        }
        fn has_side_effects(&self) -> bool {
            false
        }
        fn run<'a>(&'a self, _a: Value, _c: &'a ToolContext) -> ToolFuture<'a> {
            Box::pin(async { ToolOutput::ok("", "") })
        }
    }

    #[test]
    fn arguments_are_checked_against_the_schema() {
        let mut r = ToolRegistry::new();
        r.register(Arc::new(Echo));
        assert!(r.validate("echo", &json!({"text": "hi", "n": 2})).is_ok());
        let e = r
            .validate("echo", &json!({"n": -1, "extra": true}))
            .unwrap_err();
        assert!(e.contains("\"text\" is a required property"), "{e}");
        assert!(e.contains("/n"), "{e}");
        assert!(e.contains("extra"), "{e}");
        let e = r.validate("echo", &json!({"text": 5})).unwrap_err();
        assert!(e.contains("/text"), "{e}");
    }
}
