//! Requests about windows on screen, and how the loop has a model operate them: the
//! element tools (`ui_outline` reads a window as numbered elements, `ui_act` acts on one by
//! its number) are offered to a small model too when a request is about a window, and
//! every model that has them is told to read first, act by number, and check what changed
//! before it answers.

/// The element tools, by name (zeta-elements provides them).
pub const UI_TOOLS: [&str; 2] = ["ui_outline", "ui_act"];

/// What the model is told when it has the element tools.
pub const SCREEN_RULE: &str = "\
For windows and apps on screen (buttons, fields, check boxes, menus): read the window with \
ui_outline first; its elements have numbers. Act with ui_act on an element's number \
(press, set_text, type, select, toggle). ui_act says what changed: check it shows what was \
asked before you answer, and read the window again if it does not.";

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
