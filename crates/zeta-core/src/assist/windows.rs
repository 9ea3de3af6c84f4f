//! Which window on screen a request names: the evidence that a request is about a window
//! (the display server's list of windows, read when the task starts) instead of words
//! that usually are ("button", "dialog", "tick"). "Press Dismiss in the Reminder
//! message" names the window titled "Reminder"; "With the Calculator app, compute 100
//! minus 58" names "Calculator"; "In FeatherPad, add the line pears…" names the window of
//! the program FeatherPad.
//!
//! A window's names are the parts of its title (split where titles join a document and
//! a program: " - ", " — ", " | ", ": "; a path stands for its file's name) and its
//! program's names (X11's `WM_CLASS`, a Wayland app id). A name with a character other
//! than letters or a capital inside ("notes.txt", "gtk3-widget-factory", "FeatherPad",
//! "XCalc") is matched whatever its case. A name of plain words ("Reminder", "Sign up",
//! "Update", and programs like "code" or "Mousepad") is one only where the request writes
//! it as the window does, and a capital that only starts a sentence does not count:
//! "Update the packages" does not name a window titled "Update", "in the Update dialog"
//! does. A plain lowercase name is left out: a program's ("code" in "count the lines of
//! code") or a title's part (an editor's project folder in "main.rs - zeta - Code"). A
//! word holding a `/` is a path, no window's name ("~/Mail"). Where the request's words
//! are about a window already ("In the xedit window, …"), a program's name counts in
//! any case (`named_loosely`). A plain title word in any case names its window beside a
//! part of the program's name ("the MATE calculator": "Calculator" of `mate-calc`).

use std::sync::Arc;

/// A window the display server shows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShownWindow {
    pub title: String,
    /// Its program's names, space-separated ("mousepad Mousepad"); empty when unknown.
    pub app: String,
}

/// Lists the windows on screen, bottom to top (empty without a display).
pub type OnScreen = Arc<dyn Fn() -> Vec<ShownWindow> + Send + Sync>;

/// One way a window is named.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Name {
    words: Vec<String>,
    /// Matched only as the window writes it, and not as a sentence's first word.
    as_written: bool,
}

/// A request's words, each with whether it begins a sentence.
fn request_words(request: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut starts = true;
    for raw in request.split_whitespace() {
        // A path is no window's name ("~/Mail"), though its last part may be a word.
        let word = if raw.contains('/') { "" } else { trimmed(raw) };
        out.push((word.to_string(), starts));
        starts = raw.ends_with(['.', '!', '?', ':', ';']) || word.is_empty() && starts;
    }
    out
}

/// A word without the punctuation around it ("Calculator," → "Calculator", "'OK'" →
/// "OK"); the dots, dashes and underscores inside stay ("notes.txt").
fn trimmed(word: &str) -> &str {
    word.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'))
}

/// Words of the language: only letters, and no capital but the first ("Reminder",
/// "Sign up", "Code"), where "FeatherPad", "XCalc" or "mate-calc" are names whatever
/// their case.
fn plain(words: &[String]) -> bool {
    words
        .iter()
        .all(|w| w.chars().all(char::is_alphabetic) && !w.chars().skip(1).any(char::is_uppercase))
}

fn name_of(text: &str) -> Option<Name> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(trimmed)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let letters: usize = words
        .iter()
        .map(|w| w.chars().filter(|c| c.is_alphabetic()).count())
        .sum();
    // Too short to be told from a word of the request ("OK", "vi"), or too long to be
    // written again (a document's first line as a title).
    if letters < 3 || words.len() > 4 {
        return None;
    }
    let as_written = plain(&words);
    Some(Name { words, as_written })
}

/// The names of a window: its title's parts and its program's names. `loosely`: the
/// request's words are about a window already, and a program's name is its name in any
/// case ("the xedit window": `xedit Xedit`).
fn names(w: &ShownWindow, loosely: bool) -> Vec<Name> {
    let mut out: Vec<Name> = Vec::new();
    let mut parts = vec![w.title.as_str()];
    for sep in [" - ", " — ", " – ", " | ", ": "] {
        parts = parts.iter().flat_map(|p| p.split(sep)).collect();
    }
    for part in parts {
        let part = part.trim().trim_start_matches(['*', '•']).trim();
        // A path stands for its file's name; a folder's (a terminal's title) for nothing.
        let part = if part.contains('/') {
            part.rsplit('/')
                .next()
                .filter(|f| f.contains('.'))
                .unwrap_or("")
        } else {
            part
        };
        out.extend(name_of(part).filter(capitalised_if_plain));
    }
    for program in w.app.split_whitespace() {
        // A reverse-domain id names the program by its last part ("org.gnome.Calculator").
        let program = if program.matches('.').count() >= 2 {
            program.rsplit('.').next().unwrap_or(program)
        } else {
            program
        };
        let name = name_of(program).map(|n| Name {
            as_written: n.as_written && !loosely,
            ..n
        });
        out.extend(name.filter(capitalised_if_plain));
    }
    out.dedup();
    out
}

/// A plain lowercase name is a word too often: a program's ("code", "files") or a
/// title's part (an editor's project folder, "main.rs - zeta - Code").
fn capitalised_if_plain(n: &Name) -> bool {
    !n.as_written || n.words[0].chars().next().is_some_and(char::is_uppercase)
}

/// How well `name` is written in the request: the number of its letters, or `None`.
fn found(name: &Name, request: &[(String, bool)]) -> Option<usize> {
    let n = name.words.len();
    let same = |have: &str, want: &str| {
        if name.as_written {
            have == want
        } else {
            have.to_lowercase() == want.to_lowercase()
        }
    };
    let capital = name.words[0].chars().next().is_some_and(char::is_uppercase);
    request.windows(n).find_map(|at| {
        let matches = at.iter().zip(&name.words).all(|((h, _), w)| same(h, w));
        // A capital that only starts a sentence says nothing of a name.
        let sentence_start = name.as_written && capital && at[0].1;
        (matches && !sentence_start).then(|| name.words.iter().map(|w| w.chars().count()).sum())
    })
}

/// The window of `shown` the request names (the longest name written wins; among equals,
/// the topmost window), leaving out Zeta's own windows.
pub fn named<'a>(request: &str, shown: &'a [ShownWindow]) -> Option<&'a ShownWindow> {
    named_as(request, shown, false)
}

/// The same for a request whose words are about a window already ("In the xedit window,
/// type …"): a program's name is its name in any case ("xedit" for `xedit Xedit`), as
/// it is not when the words say nothing of windows ("count the lines of code").
pub fn named_loosely<'a>(request: &str, shown: &'a [ShownWindow]) -> Option<&'a ShownWindow> {
    named_as(request, shown, true)
}

fn named_as<'a>(request: &str, shown: &'a [ShownWindow], loosely: bool) -> Option<&'a ShownWindow> {
    let words = request_words(request);
    let mut best: Option<(usize, &ShownWindow)> = None;
    for w in shown.iter().filter(|w| !is_zeta(w)) {
        let Some(length) = names(w, loosely)
            .iter()
            .filter_map(|n| found(n, &words))
            .max()
            .or_else(|| title_and_program(w, &words))
        else {
            continue;
        };
        // Bottom to top: a later window of the same length is above.
        if best.is_none_or(|(b, _)| length >= b) {
            best = Some((length, w));
        }
    }
    best.map(|(_, w)| w)
}

/// A plain title part written in any case beside a part of the program's name: two
/// names of one window ("Use the MATE calculator" for "Calculator" of `mate-calc`; "the
/// GNOME calculator" for `gnome-calculator`), where either alone is a word ("update").
/// The letters of both, or `None`.
fn title_and_program(w: &ShownWindow, request: &[(String, bool)]) -> Option<usize> {
    let lower: Vec<String> = request.iter().map(|(w, _)| w.to_lowercase()).collect();
    let has = |word: &str| lower.iter().any(|w| w == word);
    let title = names(w, false)
        .into_iter()
        .filter(|n| n.as_written && n.words.len() == 1)
        .map(|n| n.words[0].to_lowercase())
        .find(|t| has(t))?;
    let program = w
        .app
        .split_whitespace()
        .flat_map(|p| p.split(['-', '_', '.']))
        .map(str::to_lowercase)
        .filter(|p| p.chars().count() >= 3 && p.chars().all(char::is_alphabetic) && *p != title)
        .find(|p| has(p))?;
    Some(title.chars().count() + program.chars().count())
}

/// Zeta's own windows ("Zeta", "Zeta — confirm", its program `zeta`): never the one a
/// request is about.
fn is_zeta(w: &ShownWindow) -> bool {
    w.title == "Zeta"
        || w.title.starts_with("Zeta — ")
        || w.app
            .split_whitespace()
            .any(|a| a.eq_ignore_ascii_case("zeta"))
}

#[cfg(test)]
mod tests;
