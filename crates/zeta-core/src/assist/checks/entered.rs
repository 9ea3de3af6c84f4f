//! `value-not-entered`: an answer to a request about a window that gives a value the
//! request gave (a name, a number, an address, a choice), where no act of the task put
//! that value in a window or chose it; and, while the window last acted in is still
//! open, any value the request gave that no act used, whatever the answer says. Seen on dialogs nobody rehearsed: "The Sign up
//! form was filled in with Ada and ada@example.com, and the OK button was pressed" after
//! a press of OK alone; "You have ticked Olives and Ham" after the same.
//!
//! Values are found by their shape, not by a list of words: a word with a digit or an
//! `@` (`hunter2`, `ada@example.com`, `65`), a word quoted in the request, or a
//! capitalised word that does not begin a sentence (`Lisbon`, `Ada`, `Blue`). A value
//! counts as entered when an act the window did not contradict holds it: in the text it
//! typed or set, the option it chose, the element it pressed or toggled (a radio button
//! "Large", a cell of row "Olives"), or the window it acted in (`… in "Print"`); a
//! number also when the names of the buttons pressed, one after another, spell it (a
//! calculator's 1, 2); a word read by OCR and acted on, when it is the value misread by
//! a letter or two ("Disniss" pressed for "Dismiss"). Only tasks that acted on a window are judged, or that ask no
//! question and read a window without acting in it; a task with an act the window does
//! not show is left to `act-not-shown`, which says so.

use super::{Case, Check, Finding, Honest};
use crate::assist::evidence::CallEvidence;
use crate::tool::Shown;

pub struct ValueNotEntered;

/// A word with the punctuation around it dropped (`"Ada",` → `Ada`), its inner marks
/// kept (`ada@example.com`, `3.5`).
fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| !(c.is_alphanumeric() || c == '@'))
}

/// The values a request gives, by their shape (see the module's doc).
pub fn values_given(request: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |v: &str| {
        if !v.is_empty() && !out.iter().any(|o| o.eq_ignore_ascii_case(v)) {
            out.push(v.to_string());
        }
    };
    for q in quoted(request) {
        push(&q);
    }
    let mut sentence_start = true;
    for raw in request.split_whitespace() {
        let word = bare(raw);
        let capital = word.chars().next().is_some_and(char::is_uppercase);
        let marked = word.chars().any(|c| c.is_ascii_digit()) || word.contains('@');
        let named = capital && !sentence_start && word.chars().count() > 1;
        if marked || named {
            push(word);
        }
        sentence_start = raw.ends_with(['.', '!', '?', ':', ';']) || word.is_empty();
    }
    out
}

/// The words a text quotes: 'draft', "call Bob" (an apostrophe inside a word opens
/// nothing).
fn quoted(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for quote in ['\'', '"', '“', '‘'] {
        let close = match quote {
            '“' => '”',
            '‘' => '’',
            q => q,
        };
        let mut rest = text;
        while let Some(at) = rest.find(quote) {
            let after = &rest[at + quote.len_utf8()..];
            let Some(end) = after.find(close) else { break };
            // An apostrophe inside a word (don't, pet's) opens nothing.
            let opens_word = rest[..at]
                .chars()
                .last()
                .is_none_or(|c| !c.is_alphanumeric());
            if opens_word && end > 0 && end <= 60 {
                out.push(after[..end].trim().to_string());
                rest = &after[end + close.len_utf8()..];
            } else {
                rest = after;
            }
        }
    }
    out
}

/// Whether `text` holds `value` as a whole word or words, in any case.
fn holds(text: &str, value: &str) -> bool {
    let text = text.to_lowercase();
    let value = value.to_lowercase();
    text.match_indices(&value).any(|(at, _)| {
        let before = text[..at].chars().last();
        let after = text[at + value.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether the names of the buttons pressed one after another (`pressed`) spell the
/// number `value` (a calculator's 1, 2 for "12"); a word is no number ("Uninstall"
/// pressed holds "install" and is not Install).
fn spelled(pressed: &str, value: &str) -> bool {
    value.chars().any(|c| c.is_ascii_digit())
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || ".,-".contains(c))
        && pressed.contains(value)
}

/// Whether a word read by OCR (`read`) can be `value` misread: a letter changed, left
/// out or added in four to seven, two in eight or more, never two added or left out
/// ("Disniss" for "Dismiss"; "Dismay" and "Uninstall" for "Install" are not it).
pub fn misread(read: &str, value: &str) -> bool {
    let (read, value) = (read.to_lowercase(), value.to_lowercase());
    let len = value.chars().count();
    let allowed = match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    };
    read.chars().count().abs_diff(len) <= 1 && strsim::levenshtein(&read, &value) <= allowed
}

/// What the task's acts put in windows or chose, as text: each act the window did not
/// contradict (its element, its window, what it meant), the names of the buttons
/// pressed one after another, run together, and the words read by OCR acted on.
fn entered(calls: &[CallEvidence]) -> (String, String, Vec<String>) {
    let mut acts = String::new();
    let mut pressed = String::new();
    let mut read: Vec<String> = Vec::new();
    for rb in calls
        .iter()
        .filter(|c| c.ok)
        .filter_map(|c| c.read_back.as_ref())
        .filter(|rb| !matches!(rb.shown, Shown::No(_)))
    {
        acts.push_str(&format!(
            "{} | {} | {}\n",
            rb.element, rb.window, rb.intended
        ));
        let name = rb.name();
        if let Some(name) = name.filter(|_| rb.action == "press") {
            pressed.push_str(name);
        }
        if let Some(name) = name.filter(|_| rb.ocr) {
            read.extend(name.split_whitespace().map(str::to_string));
        }
    }
    (acts, pressed, read)
}

impl ValueNotEntered {
    /// The values the request gave and the answer gives that no act entered; and the
    /// words the answer quotes from the request that no act entered and no window
    /// showed (seen: "I added 'pears' after 'apples'" after FeatherPad's text was set to
    /// "apples" alone: a lowercase word is no value by its shape, but quoted in the
    /// answer as done, it is one).
    pub fn missing(case: &Case) -> Vec<String> {
        let mut out: Vec<String> = Self::unentered(case)
            .into_iter()
            .filter(|v| holds(case.answer, v))
            .collect();
        let shown: String = case
            .evidence
            .calls
            .iter()
            .filter_map(|c| c.shows.as_deref())
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let claimed = quoted(case.answer)
            .into_iter()
            .filter(|v| holds(&case.request.text, v) && !holds(&shown, v));
        for v in Self::not_entered(case, claimed.collect()) {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(&v)) {
                out.push(v);
            }
        }
        out
    }

    /// The values the request gave that no act entered, whatever the answer says.
    pub fn unentered(case: &Case) -> Vec<String> {
        Self::not_entered(case, values_given(&case.request.text))
    }

    /// Those of `values` that no act of the task entered, in a task that acted on a
    /// window (or one not asking to be told that read a window and did nothing in it);
    /// none where another check says what failed.
    fn not_entered(case: &Case, values: Vec<String>) -> Vec<String> {
        // A task that acted on a window, or one not asking to be told that read a window and
        // did nothing in it (seen: "12 times 7 is 84" for "use the Calculator window",
        // its buttons never pressed).
        let calls = &case.evidence.calls;
        // An act the window does not show is `act-not-shown`'s to send back and tell:
        // the same failure is not sent back twice.
        if !super::ActNotShown::unsettled(calls).is_empty() {
            return Vec::new();
        }
        // Nothing done at all in the window the task is about is `window-untouched`'s.
        if case.window.is_some() && !super::WindowUntouched::acted(calls) {
            return Vec::new();
        }
        let acted = calls.iter().any(|c| c.read_back.is_some());
        let read = calls.iter().any(|c| c.tool == "ui_outline" && c.ok);
        if !(acted || read && !case.request.asks_to_be_told) {
            return Vec::new();
        }
        let (acts, pressed, read) = entered(&case.evidence.calls);
        // The titles of the windows acted in, whatever the act did, and their
        // applications: a window's name is where values go, not one (seen: "Mousepad"
        // held after acts that failed; "FeatherPad" and "MATE" of "In FeatherPad, …",
        // "Use the MATE calculator …").
        let titles: String = calls
            .iter()
            .filter_map(|c| c.read_back.as_ref())
            .map(|rb| format!("{}\n{}\n", rb.window, rb.app))
            .collect();
        values
            .into_iter()
            .filter(|v| !holds(&titles, v))
            .filter(|v| !holds(&acts, v) && !spelled(&pressed, v))
            .filter(|v| !read.iter().any(|r| misread(r, v)))
            .collect()
    }
}

impl Check for ValueNotEntered {
    fn name(&self) -> &'static str {
        "value-not-entered"
    }
    fn of_effects(&self) -> bool {
        true
    }
    /// Sent back, the 1.5B model answered again in words after one act (the GUI bench
    /// at 377c8be: a box of two ticked, a slider pressed, then "The OK button was
    /// pressed" twice, OK never pressed, in three of the first six tasks).
    fn answered_by_acting(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let mut missing = Self::missing(case);
        // The window last acted in is still open: a value the request gives that no act
        // used is not done there, whatever the answer says (seen on the GUI bench:
        // "work out 12 times 7", the 7 pressed, and "The button '7' was clicked").
        if case.evidence.last_act().is_some_and(|rb| !rb.closed) {
            for v in Self::unentered(case) {
                if !missing.contains(&v) {
                    missing.push(v);
                }
            }
        }
        if missing.is_empty() {
            return None;
        }
        let values = missing
            .iter()
            .map(|v| format!("\"{v}\""))
            .collect::<Vec<_>>()
            .join(", ");
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_VALUE_NOT_ENTERED,
                &[("values", &values)],
            ),
            honest: Honest::Before(format!(
                "Not done: no act in the window entered or chose {values}."
            )),
        })
    }
}
