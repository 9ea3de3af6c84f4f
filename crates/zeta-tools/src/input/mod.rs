//! The `mouse` and `keyboard` tools, on the session's keyboard and pointer ([`device`]:
//! XTest, the Wayland virtual keyboard and pointer, or the desktop's RemoteDesktop
//! portal). Mouse coordinates are in the pixels of
//! the last screenshot, mapped back to the screen, or in screen pixels when none was taken
//! yet. The pointer is moved and settled before a click. Optionally a fresh screenshot is
//! attached after each action (`screenshot.afterAction`).
//!
//! One input connection is kept for the life of the tools (`InputState`). Some X servers
//! (Xvfb here) put the pointer back where it was when the client that moved it
//! disconnects, so a connection per action would undo every move.

use std::sync::{Arc, Mutex};
use std::thread::sleep;
use std::time::Duration;

mod device;

use enigo::{Axis, Button, Coordinate, Direction, Key};

pub use device::Device;
use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;
use zeta_core::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

use crate::screen::{screenshot_output, ScreenState, Target};

const SETTLE: Duration = Duration::from_millis(30);

/// The shared input connection, opened on first use and reopened after a failure, and
/// where the desktop portal's restore token is kept (none: the person is asked each
/// time the connection opens).
#[derive(Clone, Default)]
pub struct InputState(Arc<Mutex<Option<Device>>>, Option<Arc<std::path::PathBuf>>);

impl InputState {
    /// Input whose portal token (GNOME, KDE) is kept in `tokens`.
    pub fn keeping_token_in(tokens: std::path::PathBuf) -> InputState {
        InputState(Arc::default(), Some(Arc::new(tokens)))
    }

    /// Runs `work` with the connection. On failure the connection is dropped, so the next
    /// action reconnects (e.g. after the display restarted).
    fn with<T>(&self, work: impl FnOnce(&mut Device) -> Result<T, String>) -> Result<T, String> {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(Device::connect(self.1.as_deref().map(|p| p.as_path()))?);
        }
        let Some(dev) = slot.as_mut() else {
            return Err("no input connection".into());
        };
        let result = work(dev);
        if result.is_err() {
            *slot = None;
        }
        result
    }
}

impl InputState {
    /// Moves the pointer to (x, y) in screen pixels and clicks the left button there.
    /// Blocking.
    pub fn click(&self, x: i32, y: i32) -> Result<(), String> {
        self.with(|dev| {
            move_settled(dev, (x, y))?;
            dev.button(Button::Left, Direction::Click)
                .map_err(|e| format!("click: {e}"))
        })
    }

    /// Types `text` into the focused window. Blocking.
    pub fn type_text(&self, text: &str) -> Result<(), String> {
        self.with(|dev| type_into(dev, text))
    }

    /// Presses a key or combination such as `ctrl+a` or `Return`. Blocking.
    pub fn press(&self, combo: &str) -> Result<(), String> {
        let (mods, key) = parse_combo(combo)?;
        self.with(|dev| press_combo(dev, &mods, key))
    }
}

fn type_into(dev: &mut Device, text: &str) -> Result<(), String> {
    // A short pause first so the first character is not lost while the server settles
    // the keyboard mapping.
    sleep(Duration::from_millis(50));
    dev.text(text).map_err(|e| format!("type: {e}"))
}

fn press_combo(dev: &mut Device, mods: &[Key], key: Key) -> Result<(), String> {
    for m in mods {
        dev.key(*m, Direction::Press)
            .map_err(|e| format!("press: {e}"))?;
    }
    let clicked = dev
        .key(key, Direction::Click)
        .map_err(|e| format!("key: {e}"));
    for m in mods.iter().rev() {
        let _ = dev.key(*m, Direction::Release);
    }
    clicked
}

/// Runs blocking input work off the async threads, then attaches a screenshot if asked.
async fn act(
    name: &'static str,
    work: impl FnOnce() -> Result<String, String> + Send + 'static,
    state: &ScreenState,
    ctx: &ToolContext,
) -> ToolOutput {
    let done = match tokio::task::spawn_blocking(work).await {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => return ToolOutput::error(format!("{name}: {e}")),
        Err(e) => return ToolOutput::error(format!("{name}: the input thread failed: {e}")),
    };
    if !ctx.screenshot.after_action {
        return ToolOutput::ok(done.clone(), done);
    }
    tokio::time::sleep(Duration::from_millis(150)).await;
    let mut shot = screenshot_output(Target::All, state, ctx).await;
    shot.content = format!("{done}\n{}", shot.content);
    shot.summary = done;
    shot
}

pub struct Mouse(pub ScreenState, pub InputState);

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum MouseAction {
    Move,
    Click,
    DoubleClick,
    Drag,
    Scroll,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Which {
    Left,
    Right,
    Middle,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MouseArgs {
    action: MouseAction,
    x: f64,
    y: f64,
    #[serde(default = "left")]
    button: Which,
    to_x: Option<f64>,
    to_y: Option<f64>,
    /// Scroll steps: positive is down (or right with `horizontal`).
    #[serde(default)]
    amount: i32,
    #[serde(default)]
    horizontal: bool,
}
fn left() -> Which {
    Which::Left
}

/// Maps a point given by the model to the screen, checking it is on screen.
fn to_screen(state: &ScreenState, x: f64, y: f64, dev: &Device) -> Result<(i32, i32), String> {
    match state.get() {
        Some(mapping) => mapping.to_screen(x, y),
        None => {
            let (w, h) = dev
                .main_display()
                .map_err(|e| format!("screen size: {e}"))?;
            if x < 0.0 || y < 0.0 || x >= w as f64 || y >= h as f64 {
                return Err(format!("({x}, {y}) is off the {w}x{h} screen"));
            }
            Ok((x.round() as i32, y.round() as i32))
        }
    }
}

fn move_settled(dev: &mut Device, (x, y): (i32, i32)) -> Result<(), String> {
    for _ in 0..3 {
        dev.move_mouse(x, y, Coordinate::Abs)
            .map_err(|e| format!("move: {e}"))?;
        sleep(SETTLE);
        // Wayland tells no client where the pointer is: the absolute move is trusted.
        if !dev.tells_pointer() {
            return Ok(());
        }
        if dev.location().map_err(|e| format!("pointer: {e}"))? == (x, y) {
            return Ok(());
        }
    }
    Err(format!("the pointer did not reach ({x}, {y})"))
}

impl Tool for Mouse {
    fn target(&self, arguments: &Value) -> String {
        use crate::describe::{number, text};
        let (x, y) = (number(arguments, "x"), number(arguments, "y"));
        match text(arguments, "action") {
            "drag" => format!(
                "drag from ({x}, {y}) to ({}, {})",
                number(arguments, "to_x"),
                number(arguments, "to_y")
            ),
            "scroll" => format!("scroll {} at ({x}, {y})", number(arguments, "amount")),
            action => format!("{} at ({x}, {y})", action.replace('_', " ")),
        }
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "mouse".into(),
            description: "Move, click, double-click, drag or scroll at (x, y) in the last screenshot's pixels.".into(),
            parameters: json!({"type": "object", "properties": {
                "action": {"type": "string", "enum": ["move", "click", "double_click", "drag", "scroll"]},
                "x": {"type": "number"}, "y": {"type": "number"},
                "button": {"type": "string", "enum": ["left", "right", "middle"]},
                "to_x": {"type": "number"}, "to_y": {"type": "number"},
                "amount": {"type": "integer", "description": "scroll steps; positive is down/right"},
                "horizontal": {"type": "boolean"}
            }, "required": ["action", "x", "y"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    fn taints(&self, _arguments: &Value, output: &ToolOutput) -> bool {
        // The screen it may attach after acting can show anything.
        !output.images.is_empty()
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: MouseArgs = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("mouse: bad arguments: {e}")),
            };
            let state = self.0.clone();
            let input = self.1.clone();
            let work = move || {
                input.with(|dev| {
                    let at = to_screen(&state, args.x, args.y, dev)?;
                    let button = match args.button {
                        Which::Left => Button::Left,
                        Which::Right => Button::Right,
                        Which::Middle => Button::Middle,
                    };
                    move_settled(dev, at)?;
                    let click = |e: &mut Device| {
                        e.button(button, Direction::Click)
                            .map_err(|e| format!("click: {e}"))
                    };
                    let done = match args.action {
                        MouseAction::Move => format!("moved the pointer to ({}, {})", at.0, at.1),
                        MouseAction::Click => {
                            click(dev)?;
                            format!("clicked at ({}, {})", at.0, at.1)
                        }
                        MouseAction::DoubleClick => {
                            click(dev)?;
                            sleep(Duration::from_millis(60));
                            click(dev)?;
                            format!("double-clicked at ({}, {})", at.0, at.1)
                        }
                        MouseAction::Drag => {
                            let (Some(tx), Some(ty)) = (args.to_x, args.to_y) else {
                                return Err("drag needs to_x and to_y".into());
                            };
                            let to = to_screen(&state, tx, ty, dev)?;
                            dev.button(button, Direction::Press)
                                .map_err(|e| format!("press: {e}"))?;
                            for step in 1..=10 {
                                let x = at.0 + (to.0 - at.0) * step / 10;
                                let y = at.1 + (to.1 - at.1) * step / 10;
                                dev.move_mouse(x, y, Coordinate::Abs)
                                    .map_err(|e| format!("move: {e}"))?;
                                sleep(Duration::from_millis(10));
                            }
                            dev.button(button, Direction::Release)
                                .map_err(|e| format!("release: {e}"))?;
                            format!("dragged from ({}, {}) to ({}, {})", at.0, at.1, to.0, to.1)
                        }
                        MouseAction::Scroll => {
                            if args.amount == 0 {
                                return Err("scroll needs a non-zero amount".into());
                            }
                            let axis = if args.horizontal {
                                Axis::Horizontal
                            } else {
                                Axis::Vertical
                            };
                            dev.scroll(args.amount, axis)
                                .map_err(|e| format!("scroll: {e}"))?;
                            format!("scrolled {} at ({}, {})", args.amount, at.0, at.1)
                        }
                    };
                    Ok(format!("{done} (screen pixels)"))
                })
            };
            act("mouse", work, &self.0, ctx).await
        })
    }
}

pub struct KeyboardTool(pub ScreenState, pub InputState);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyArgs {
    /// Text to type.
    text: Option<String>,
    /// A key or combination, e.g. `ctrl+shift+t`, `Return`.
    keys: Option<String>,
}

/// Parses `ctrl+shift+t` into modifiers and a key.
fn parse_combo(combo: &str) -> Result<(Vec<Key>, Key), String> {
    let parts: Vec<&str> = combo
        .split('+')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let Some((last, mods)) = parts.split_last() else {
        return Err(format!("{combo:?} names no key"));
    };
    let modifiers = mods
        .iter()
        .map(|m| match m.to_lowercase().as_str() {
            "ctrl" | "control" => Ok(Key::Control),
            "shift" => Ok(Key::Shift),
            "alt" => Ok(Key::Alt),
            "super" | "meta" | "win" | "cmd" => Ok(Key::Meta),
            other => Err(format!(
                "{other:?} is not a modifier (ctrl, shift, alt, super)"
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let key = match last.to_lowercase().as_str() {
        "enter" | "return" => Key::Return,
        "tab" => Key::Tab,
        "esc" | "escape" => Key::Escape,
        "backspace" => Key::Backspace,
        "delete" | "del" => Key::Delete,
        "space" => Key::Space,
        "up" => Key::UpArrow,
        "down" => Key::DownArrow,
        "left" => Key::LeftArrow,
        "right" => Key::RightArrow,
        "home" => Key::Home,
        "end" => Key::End,
        "pageup" => Key::PageUp,
        "pagedown" => Key::PageDown,
        f if f.len() >= 2
            && f.starts_with('f')
            && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) =>
        {
            match &f[1..] {
                "1" => Key::F1,
                "2" => Key::F2,
                "3" => Key::F3,
                "4" => Key::F4,
                "5" => Key::F5,
                "6" => Key::F6,
                "7" => Key::F7,
                "8" => Key::F8,
                "9" => Key::F9,
                "10" => Key::F10,
                "11" => Key::F11,
                _ => Key::F12,
            }
        }
        single if single.chars().count() == 1 => Key::Unicode(single.chars().next().unwrap_or(' ')),
        other => return Err(format!("{other:?} is not a key name I know")),
    };
    Ok((modifiers, key))
}

/// Whether pressing `keys` ends the line a terminal is reading (runs it or drops it).
fn ends_line(keys: &str) -> bool {
    let k = keys.to_lowercase().replace(' ', "");
    matches!(
        k.as_str(),
        "return" | "enter" | "kp_enter" | "ctrl+c" | "ctrl+u" | "control+c" | "control+u"
    )
}

impl Tool for KeyboardTool {
    fn target(&self, arguments: &Value) -> String {
        use crate::describe::{clip, text};
        let what = match (text(arguments, "text"), text(arguments, "keys")) {
            (t, _) if !t.is_empty() => format!("type \"{}\"", clip(t, 200)),
            (_, k) => format!("press {k}"),
        };
        match crate::focus::focused() {
            Some(f) if crate::focus::runs_commands(&f.class) => {
                format!(
                    "{what} into {} (a terminal: judged as the command it runs)",
                    f.class
                )
            }
            Some(f) => format!("{what} into {}", f.class),
            None => what,
        }
    }
    /// Text aimed at a terminal is the command line it becomes (with what was typed into
    /// that window since its last Enter), judged like the shell's; other windows run
    /// nothing typed into them.
    fn commands(&self, arguments: &Value) -> Vec<String> {
        let text = crate::describe::text(arguments, "text");
        let Some(focused) = crate::focus::focused() else {
            return Vec::new();
        };
        if !crate::focus::runs_commands(&focused.class) {
            return Vec::new();
        }
        let line = crate::focus::line_with(focused.window, text);
        if line.trim().is_empty() {
            Vec::new()
        } else {
            vec![line]
        }
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "keyboard".into(),
            description: "Type text into the focused window, and/or press a key or combination such as ctrl+shift+t or Return.".into(),
            parameters: json!({"type": "object", "properties": {
                "text": {"type": "string"},
                "keys": {"type": "string", "description": "e.g. Return, ctrl+c, ctrl+shift+t"}
            }, "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    fn taints(&self, _arguments: &Value, output: &ToolOutput) -> bool {
        // The screen it may attach after acting can show anything.
        !output.images.is_empty()
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: KeyArgs = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("keyboard: bad arguments: {e}")),
            };
            if args.text.as_deref().unwrap_or("").is_empty() && args.keys.is_none() {
                return ToolOutput::error("keyboard: give `text` to type and/or `keys` to press");
            }
            let combo = match args.keys.as_deref().map(parse_combo).transpose() {
                Ok(c) => c,
                Err(e) => return ToolOutput::error(format!("keyboard: {e}")),
            };
            let input = self.1.clone();
            // What a terminal would run next, for the next call's judgement.
            if let Some(f) =
                crate::focus::focused().filter(|f| crate::focus::runs_commands(&f.class))
            {
                let ends = args.keys.as_deref().is_some_and(ends_line);
                crate::focus::typed(f.window, args.text.as_deref().unwrap_or(""), ends);
            }
            let work = move || {
                input.with(|dev| {
                    let mut done = Vec::new();
                    if let Some(text) = args.text.filter(|t| !t.is_empty()) {
                        type_into(dev, &text)?;
                        done.push(format!("typed {} characters", text.chars().count()));
                    }
                    if let Some((mods, key)) = combo {
                        press_combo(dev, &mods, key)?;
                        done.push(format!("pressed {}", args.keys.unwrap_or_default()));
                    }
                    Ok(done.join(", "))
                })
            };
            act("keyboard", work, &self.0, ctx).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combos_parse_into_modifiers_and_a_key() {
        let (mods, key) = parse_combo("ctrl+shift+t").expect("combo");
        assert_eq!(mods, vec![Key::Control, Key::Shift]);
        assert_eq!(key, Key::Unicode('t'));
        assert_eq!(parse_combo("Return").expect("key").1, Key::Return);
        assert_eq!(parse_combo("alt+F4").expect("key").1, Key::F4);
        assert!(parse_combo("hyper+x").is_err());
        assert!(parse_combo("ctrl+nonsense").is_err());
        assert!(parse_combo("").is_err());
    }
}
