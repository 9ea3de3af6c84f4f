//! Requests about windows on screen, and how the loop has a model operate them: the
//! element tools (`ui_outline` reads a window as numbered elements, `ui_act` acts on one by
//! its number) are offered to a small model too when a request is about a window, and
//! every model that has them is told to read first, act by number, and check what changed
//! before it answers.

/// The element tools, by name (zeta-elements provides them).
pub const UI_TOOLS: [&str; 2] = ["ui_outline", "ui_act"];

/// What the model is told when it has the element tools.
pub const SCREEN_RULE: &str = include_str!("../../prompts/screen_rule.md");

/// Where a task about a window stands, for a model that reads the screen as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowTask {
    /// Not a request about a window, or the element tools are not offered, or the model
    /// sees the screen itself.
    No,
    /// The window is read for the model before its first step (one `ui_outline` call made
    /// by the loop), so a small model starts from the numbers instead of a guess.
    ReadFirst,
    /// Read: the window is on screen (an answer before any act in it is held by the
    /// `window-untouched` check).
    Read,
}

impl WindowTask {
    /// The window the request is about was read for the model: it is on screen.
    pub fn on_screen(self) -> bool {
        self == Self::Read
    }
}

/// Said after a keypad's result key pressed once all the request gives was keyed in
/// (`ReadBack::keyed`): the next step may only answer (seen: "There are 42 .txt files
/// in ~/notes; I wrote 42 into ~/count.txt.", the worked example, after "Answer now, in a
/// sentence, with the result").
pub const RESULT_IN_WINDOW: &str = "(What the request gives is keyed in and the window shows its result. Answer now, in a sentence, with the result as the window shows it: the calculation and its result, nothing else.)";
/// Said after the act that did what the request asks in its window
/// (`Finishing::done_in_window`): the next step may only answer.
pub const DONE_IN_WINDOW: &str = "(What the request asks is done in the window, as it shows. Answer now, in a sentence: what you did there.)";
/// Said with a command held back in a task about a window on screen.
pub const WINDOW_INSTEAD: &str = "(The window the request is about is already on screen: do the request in it with ui_act, on the element numbers of its outline, not with a command.)";

/// The one of `programs` (a command's, by path or name) that is one of `app`'s names
/// (a window's program, space-separated: "yad Yad"), in any case.
pub fn starts_again(programs: &[String], app: &str) -> Option<String> {
    programs.iter().find_map(|p| {
        let name = p.rsplit('/').next().unwrap_or(p);
        app.split_whitespace()
            .any(|a| !a.is_empty() && a.eq_ignore_ascii_case(name))
            .then(|| name.to_string())
    })
}

/// The call the loop makes to read the window first: the one titled `title` (the
/// request names it), or the active one.
pub fn first_read(title: Option<&str>) -> crate::model::ToolCall {
    let arguments = match title {
        Some(t) => serde_json::json!({ "window": t }),
        None => serde_json::json!({}),
    };
    crate::model::ToolCall {
        id: "zeta-read-window".into(),
        name: UI_TOOLS[0].into(),
        arguments,
    }
}

/// Element calls a small model wrote as a shell command (seen: `ui_act(1, 'type', 'hello')
/// && ui_act(4, 'click')` run through bash): the calls it meant, in order, when the whole
/// command is nothing but such calls (joined by `&&`, `;` or new lines); `None` for
/// anything else, which stays a shell command. Arguments may be positional (element,
/// action, then the text or option) or named (`element=1, action="press"`), in
/// parentheses or as a shell's words (seen: `ui_act press 1`, exit 127).
pub fn calls_written_as_command(command: &str, id: &str) -> Option<Vec<crate::model::ToolCall>> {
    let mut calls = Vec::new();
    let mut rest = command.trim();
    while !rest.is_empty() {
        let name = UI_TOOLS.iter().find(|n| {
            rest.starts_with(*n)
                && rest[n.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_whitespace() || c == '(')
        })?;
        let tail = &rest[name.len()..];
        let (args, after) = if tail.trim_start().starts_with('(') {
            let open = rest.find('(')?;
            split_args(&rest[open + 1..])?
        } else {
            // The shell's way (seen: `ui_act press 1`): words up to `&&`, `;` or a line's end.
            split_words(tail)?
        };
        let arguments = if *name == "ui_act" {
            act_arguments(&args)?
        } else {
            outline_arguments(&args)?
        };
        calls.push(crate::model::ToolCall {
            id: format!("{id}-{}", calls.len() + 1),
            name: (*name).to_string(),
            arguments,
        });
        rest = after
            .trim_start()
            .trim_start_matches("&&")
            .trim_start_matches(';')
            .trim_start();
    }
    (!calls.is_empty()).then_some(calls)
}

/// Arguments written as a shell writes them, `words 'quoted words' name=value`, up to
/// `&&`, `;` or a new line outside quotes, and what follows that.
fn split_words(text: &str) -> Option<(Vec<Arg>, &str)> {
    let mut read = Reading::default();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' | '"' => {
                read.word.clear();
                let value = quoted(&mut chars, c)?;
                read.push(Arg::Text(value));
            }
            '=' if read.pending.is_none() && !read.word.is_empty() => {
                read.pending = Some(std::mem::take(&mut read.word));
            }
            ';' | '\n' => return Some((read.done(), &text[i + 1..])),
            '&' if chars.peek().is_some_and(|(_, d)| *d == '&') => {
                return Some((read.done(), &text[i + 2..]))
            }
            c if c.is_whitespace() => read.end_word(),
            c => read.word.push(c),
        }
    }
    Some((read.done(), ""))
}

/// An argument as written: a number, a quoted string, or `name=value`.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Number(u32),
    Text(String),
    Named(String, Box<Arg>),
}

/// The arguments read so far, the name waiting for its value, and the word being read.
#[derive(Default)]
struct Reading {
    args: Vec<Arg>,
    pending: Option<String>,
    word: String,
}

impl Reading {
    fn push(&mut self, arg: Arg) {
        self.args.push(match self.pending.take() {
            Some(n) => Arg::Named(n, Box::new(arg)),
            None => arg,
        });
    }

    /// The word read, as a number or text, when there is one.
    fn end_word(&mut self) {
        let w = std::mem::take(&mut self.word);
        let w = w.trim();
        if !w.is_empty() {
            self.push(match w.parse::<u32>() {
                Ok(n) => Arg::Number(n),
                Err(_) => Arg::Text(w.to_string()),
            });
        }
    }

    fn done(mut self) -> Vec<Arg> {
        self.end_word();
        self.args
    }
}

/// The text up to the closing `quote`; `None` when it never closes.
fn quoted(chars: &mut impl Iterator<Item = (usize, char)>, quote: char) -> Option<String> {
    let mut value = String::new();
    for (_, d) in chars {
        if d == quote {
            return Some(value);
        }
        value.push(d);
    }
    None
}

/// The arguments up to the closing parenthesis, and what follows it.
fn split_args(text: &str) -> Option<(Vec<Arg>, &str)> {
    let mut read = Reading::default();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' | '"' => {
                let value = quoted(&mut chars, c)?;
                read.push(Arg::Text(value));
            }
            '=' | ':' => {
                read.pending = Some(read.word.trim().to_string()).filter(|w| !w.is_empty());
                read.word.clear();
            }
            ',' => read.end_word(),
            ')' => return Some((read.done(), &text[i + 1..])),
            c => read.word.push(c),
        }
    }
    None
}

fn value(arg: &Arg) -> serde_json::Value {
    match arg {
        Arg::Number(n) => serde_json::json!(n),
        Arg::Text(t) => serde_json::json!(t),
        Arg::Named(_, a) => value(a),
    }
}

fn act_arguments(args: &[Arg]) -> Option<serde_json::Value> {
    let mut out = serde_json::Map::new();
    let mut positional = Vec::new();
    for a in args {
        match a {
            Arg::Named(n, v) => {
                out.insert(n.clone(), value(v));
            }
            other => positional.push(other.clone()),
        }
    }
    let mut texts = Vec::new();
    for a in positional {
        match a {
            Arg::Number(n) if !out.contains_key("element") => {
                out.insert("element".into(), serde_json::json!(n));
            }
            Arg::Number(n) => texts.push(n.to_string()),
            Arg::Text(t) => texts.push(t),
            Arg::Named(..) => {}
        }
    }
    let mut texts = texts.into_iter();
    if !out.contains_key("action") {
        out.insert("action".into(), serde_json::json!(texts.next()?));
    }
    if let Some(t) = texts.next() {
        let select = out
            .get("action")
            .and_then(|a| a.as_str())
            .is_some_and(|a| a == "select");
        out.entry(if select { "option" } else { "text" })
            .or_insert(serde_json::json!(t));
    }
    out.contains_key("element")
        .then_some(serde_json::Value::Object(out))
}

fn outline_arguments(args: &[Arg]) -> Option<serde_json::Value> {
    let mut out = serde_json::Map::new();
    for a in args {
        match a {
            Arg::Named(n, v) => {
                out.insert(n.clone(), value(v));
            }
            Arg::Text(t) => {
                out.insert("window".into(), serde_json::json!(t));
            }
            Arg::Number(n) => {
                out.insert("expand".into(), serde_json::json!(n));
            }
        }
    }
    Some(serde_json::Value::Object(out))
}

/// Whether `request` is about operating something on screen, from its words: a control
/// (button, field, check box, menu, tab…), a window or dialog, or an action done to one
/// (click, press, tick, fill in, type into).
pub fn about_windows(request: &str) -> bool {
    let text = request.to_lowercase();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.contains(&w);
    let phrase = |p: &str| {
        let p: Vec<&str> = p.split(' ').collect();
        words.windows(p.len()).any(|w| w == p.as_slice())
    };
    const CONTROLS: [&str; 20] = [
        "button",
        "buttons",
        "checkbox",
        "checkboxes",
        "textbox",
        "dropdown",
        "combo",
        "combobox",
        "menu",
        "menus",
        "tab",
        "tabs",
        "dialog",
        "dialogs",
        "window",
        "windows",
        "slider",
        "toolbar",
        "radio",
        "gui",
    ];
    const PHRASES: [&str; 12] = [
        "check box",
        "text field",
        "fill in",
        "fill out",
        "type into",
        "type in the",
        "press save",
        "press ok",
        "tick the",
        "untick the",
        "on screen",
        "the form",
    ];
    if CONTROLS.iter().any(|w| has(w)) || PHRASES.iter().any(|p| phrase(p)) {
        return true;
    }
    // A field to fill ("the Name field"), not a field of study or of view.
    if (has("field") || has("fields")) && !phrase("field of") && !phrase("fields of") {
        return true;
    }
    // "click", "double-click" and "tick" are about the screen on their own.
    ["click", "clicks", "double-click", "right-click", "tick"]
        .iter()
        .any(|w| has(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests about windows, in the many ways people put them.
    const ABOUT_WINDOWS: &[&str] = &[
        "type 'hello' into the Name field and press Save",
        "click the OK button",
        "Click OK",
        "double-click the Documents icon",
        "right-click the desktop",
        "tick the Subscribe box and save",
        "tick subscribe",
        "untick the newsletter check box",
        "fill in the form with my name",
        "fill out the signup form",
        "choose Blue in the Colour dropdown",
        "open the File menu and pick Save As",
        "switch to the second tab in the browser",
        "close the dialog",
        "what does the window on the left say?",
        "read me what's in the calculator window",
        "press the = button in the calculator",
        "set the volume slider to half",
        "select the radio option Express",
        "press Save in the editor",
        "what is on screen right now?",
        "type my address in the text field",
        "turn on the checkbox for dark mode",
        "use the toolbar to make the text bold",
        "in the GUI, enable auto-save",
        "press OK on the error",
    ];

    /// Requests that are not: files, commands, questions, the web.
    const NOT_ABOUT_WINDOWS: &[&str] = &[
        "find the largest log file and show me its last 20 lines",
        "how much disk space is free?",
        "what is my user name?",
        "list the files in Downloads",
        "write a press release for the launch to ~/release.md",
        "compress the photos folder into a zip",
        "what time is it in Tokyo?",
        "check whether nginx is running",
        "check my email settings file for typos",
        "save the weather forecast to weather.txt",
        "count the lines of code in this project",
        "fetch https://example.com and summarise it",
        "remind me to call Ana at 5pm",
        "kill the process using port 8080",
        "type of file is report.bin?",
        "how many tickets are open in tickets.csv",
        "show the git log of the last week",
        "rename every .jpeg to .jpg",
        "what's the field of view of a 35mm lens?",
        "formatting the USB stick: which filesystem is best?",
    ];

    #[test]
    fn element_calls_written_as_commands_are_the_calls_meant() {
        use serde_json::json;
        let calls = |c: &str| {
            calls_written_as_command(c, "c").map(|v| {
                v.into_iter()
                    .map(|c| (c.name, c.arguments))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            calls("ui_act(1, 'type', 'hello') && ui_act(4, 'click')"),
            Some(vec![
                (
                    "ui_act".into(),
                    json!({"element": 1, "action": "type", "text": "hello"})
                ),
                ("ui_act".into(), json!({"element": 4, "action": "click"})),
            ])
        );
        for (command, expected) in [
            (
                "ui_act(3, \"select\", \"Green\")",
                json!({"element": 3, "action": "select", "option": "Green"}),
            ),
            (
                "ui_act(element=2, action='toggle')",
                json!({"element": 2, "action": "toggle"}),
            ),
            (
                "ui_act(element: 1, action: \"set_text\", text: \"a, b (c)\")",
                json!({"element": 1, "action": "set_text", "text": "a, b (c)"}),
            ),
            (
                "ui_act( 4 , press )",
                json!({"element": 4, "action": "press"}),
            ),
            (
                "ui_act(1, 'set_text', 'hello');",
                json!({"element": 1, "action": "set_text", "text": "hello"}),
            ),
        ] {
            assert_eq!(
                calls(command),
                Some(vec![("ui_act".into(), expected)]),
                "{command}"
            );
        }
        assert_eq!(
            calls("ui_outline()"),
            Some(vec![("ui_outline".into(), json!({}))])
        );
        assert_eq!(
            calls("ui_outline('Mousepad')"),
            Some(vec![("ui_outline".into(), json!({"window": "Mousepad"}))])
        );
        // The shell's way, words after the name (seen: `ui_act press 1`).
        for (command, expected) in [
            ("ui_act press 1", json!({"element": 1, "action": "press"})),
            ("ui_act 1 press", json!({"element": 1, "action": "press"})),
            (
                "ui_act 3 set_text 'call Bob'",
                json!({"element": 3, "action": "set_text", "text": "call Bob"}),
            ),
            (
                "ui_act set_text 3 \"a; b && c\"",
                json!({"element": 3, "action": "set_text", "text": "a; b && c"}),
            ),
            (
                "ui_act element=2 action=toggle",
                json!({"element": 2, "action": "toggle"}),
            ),
            (
                "ui_act select 4 Green;",
                json!({"element": 4, "action": "select", "option": "Green"}),
            ),
            (
                "  ui_act\tpress   7  ",
                json!({"element": 7, "action": "press"}),
            ),
        ] {
            assert_eq!(
                calls(command),
                Some(vec![("ui_act".into(), expected)]),
                "{command}"
            );
        }
        assert_eq!(
            calls("ui_act type 1 hello && ui_act press 4"),
            Some(vec![
                (
                    "ui_act".into(),
                    json!({"element": 1, "action": "type", "text": "hello"})
                ),
                ("ui_act".into(), json!({"element": 4, "action": "press"})),
            ])
        );
        assert_eq!(
            calls("ui_outline"),
            Some(vec![("ui_outline".into(), json!({}))])
        );
        assert_eq!(
            calls("ui_outline Calculator"),
            Some(vec![("ui_outline".into(), json!({"window": "Calculator"}))])
        );
        // Anything else stays a shell command.
        for command in [
            "ls -la",
            "ui_act press 1 && rm -rf ~/x",
            "ui_act press 1; ls",
            "ui_act press",
            "ui_act",
            "ui_act press 'unterminated 1",
            "ui_actor press 1",
            "ui_act(1, 'press') && rm -rf ~/x",
            "echo ui_act(1)",
            "ui_act(1, 'type', 'unterminated)",
            "ui_act('press')",
            "ui_actor(1, 'press')",
            "",
        ] {
            assert_eq!(calls(command), None, "{command}");
        }
    }

    /// Random mixes of the parser's own tokens never panic, and what parses names only
    /// element tools with an element number for every `ui_act`.
    #[test]
    fn any_command_is_read_without_a_panic() {
        let pieces = [
            "ui_act",
            "ui_outline",
            "(",
            ")",
            "'",
            "\"",
            ",",
            "=",
            ":",
            "1",
            "42",
            "press",
            "&&",
            ";",
            " ",
            "é",
            "\\",
            "\n",
            "text",
            "element",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..30_000 {
            let mut command = String::new();
            for _ in 0..(state % 24) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                command.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if let Some(calls) = calls_written_as_command(&command, "c") {
                for call in calls {
                    assert!(UI_TOOLS.contains(&call.name.as_str()), "{command:?}");
                    if call.name == "ui_act" {
                        assert!(
                            call.arguments.get("element").is_some(),
                            "{command:?} → {call:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn requests_about_windows_are_told_from_others() {
        let missed: Vec<&&str> = ABOUT_WINDOWS.iter().filter(|r| !about_windows(r)).collect();
        let false_alarms: Vec<&&str> = NOT_ABOUT_WINDOWS
            .iter()
            .filter(|r| about_windows(r))
            .collect();
        assert!(missed.is_empty(), "missed: {missed:?}");
        assert!(false_alarms.is_empty(), "false alarms: {false_alarms:?}");
    }
}
