//! The check of what a window shows after the calls that acted on it: `act-not-shown`.
//! Each `ui_act` reads its element and window back after acting and says whether the
//! intended change shows (`ReadBack`), and so does the keyboard's typing (the focused
//! field read back); an act that failed says so too. An answer given
//! while an act's change does not show, and nothing later showed it (the same element's
//! change shown; for an act that failed, an act of the same kind in the same window that
//! worked) or acted on the window another way, goes back once with what the window
//! shows; at the cap the person reads that it was not done. An act that failed after
//! one that met the request in its window (`ReadBack::met`) did nothing and is left out.
//!
//! `window-untouched`: a task about a window on screen (the request names it, or is about
//! one, and it was read for the model) that orders something done, answered while no
//! act on any window went through and no call changed a file: whatever the answer says
//! was done, nothing was (seen: "You pressed Dismiss in the Reminder message" after a
//! command only; "The 'Undo' button was clicked" with no act; a calculator's sum worked
//! out with `bc`). The answer goes back once; at the cap the person reads that nothing
//! was done in the window. A change made to files another way (an editor's file edited
//! with `sed`) is left to the checks of files.
//!
//! And `window-not-saved`: text that landed in a window whose title names a file (an
//! editor's), while no call of the task changed that file: the window shows the change,
//! the file does not hold it. The answer goes back once (save it if the request asks for
//! that, else say it is not saved); at the cap the person reads that it was not saved.

use std::path::{Path, PathBuf};

use super::{Case, Check, Finding, Honest};
use crate::assist::evidence::CallEvidence;
use crate::tool::{ReadBack, Shown};

/// Tools that act on windows without a read-back of their own: after one of them, an
/// earlier act that did not show may have been done another way.
pub(super) const BLIND_INPUT: &[&str] = &["keyboard", "mouse"];

/// An act the window does not show, and nothing later settled.
pub struct ActNotShown;

impl ActNotShown {
    /// The read-backs that said "not shown" and stand at the end of the task: no later
    /// read-back of the same element showed its change, and no input without a read-back
    /// followed.
    pub fn unsettled(calls: &[CallEvidence]) -> Vec<&ReadBack> {
        let mut out = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            let Some(rb) = c
                .read_back
                .as_ref()
                .filter(|r| matches!(r.shown, Shown::No(_)))
            else {
                continue;
            };
            // An act that failed after one that met the request in this window (seen:
            // "answer No" pressed, the dialog closed, then a press of Yes refused): it
            // did nothing, and what the request asked shows already.
            let met_before = calls[..i].iter().any(|e| {
                e.ran
                    && e.ok
                    && e.read_back
                        .as_ref()
                        .is_some_and(|r| r.met() && r.window == rb.window)
            });
            // A failed act whose like went through before it (seen: FeatherPad's menu
            // item Save pressed, then its toolbar's Save refused, disabled since the file
            // was saved): what it meant was done already.
            let done_before = calls[..i].iter().any(|e| {
                e.ran
                    && e.ok
                    && e.read_back.as_ref().is_some_and(|r| {
                        r.window == rb.window
                            && kind(&r.action) == kind(&rb.action)
                            && !matches!(r.shown, Shown::No(_))
                            && r.name().is_some()
                            && r.name() == rb.name()
                    })
            });
            if !c.ok && (met_before || done_before) {
                continue;
            }
            let later = &calls[i + 1..];
            let settled = later.iter().any(|l| {
                l.ran && BLIND_INPUT.contains(&l.tool.as_str())
                    || l.read_back.as_ref().is_some_and(|r| {
                        let same = r.element == rb.element && matches!(r.shown, Shown::Yes(_));
                        // A failed act done another way: the same kind of act in the
                        // same window, which worked and did not show otherwise.
                        let instead = !c.ok
                            && l.ok
                            && r.window == rb.window
                            && kind(&r.action) == kind(&rb.action)
                            && !matches!(r.shown, Shown::No(_));
                        same || instead
                    })
            });
            if !settled {
                out.push(rb);
            }
        }
        out
    }
}

/// The kind of an act for telling whether another did it instead: a value typed or set is
/// one kind.
fn kind(action: &str) -> &str {
    match action {
        "type" | "set_text" => "value",
        other => other,
    }
}

/// "spin button "Copies" in "Print": set its text to "7" — it shows "1"".
fn fact(rb: &ReadBack) -> String {
    let shows = match &rb.shown {
        Shown::Yes(s) | Shown::No(s) | Shown::Unclear(s) => s,
    };
    format!("{}: {} — {}", rb.element, rb.intended, shows)
}

impl Check for ActNotShown {
    fn name(&self) -> &'static str {
        "act-not-shown"
    }
    fn of_effects(&self) -> bool {
        true
    }
    /// What the window shows is changed by acting on it, or read again; words do not
    /// change it.
    fn answered_by_acting(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let unsettled = Self::unsettled(&case.evidence.calls);
        if unsettled.is_empty() {
            return None;
        }
        let facts: Vec<String> = unsettled
            .iter()
            .map(|rb| format!("- {}", fact(rb)))
            .collect();
        let facts = facts.join("\n");
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_ACT_NOT_SHOWN,
                &[("facts", &facts)],
            ),
            honest: Honest::Before(format!("Not done: the window does not show it.\n{facts}")),
        })
    }
}

/// A task about a window on screen where nothing was done.
pub struct WindowUntouched;

impl WindowUntouched {
    /// An act on a window went through: an element tool's act, or input aimed at one.
    pub fn acted(calls: &[CallEvidence]) -> bool {
        calls.iter().any(|c| {
            c.ran
                && c.ok
                && (c.read_back.is_some()
                    || c.tool == "ui_act"
                    || BLIND_INPUT.contains(&c.tool.as_str()))
        })
    }
}

impl Check for WindowUntouched {
    fn name(&self) -> &'static str {
        "window-untouched"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn part_of_the_task(&self) -> bool {
        true
    }
    /// Sent back once, the 1.5B model mostly answered the same words again, without one
    /// act in between: 17 of the GUI bench's 28 tasks ended with nothing done in the
    /// window at 26ce9aa.
    fn answered_by_acting(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let window = case.window?;
        // A question about the window is answered by reading it.
        if case.request.only_asks() {
            return None;
        }
        let calls = &case.evidence.calls;
        if Self::acted(calls) || calls.iter().any(|c| !c.effects.is_empty()) {
            return None;
        }
        let named = if window.is_empty() {
            "the window".to_string()
        } else {
            format!("the window \"{}\"", crate::text::clip(window, 80))
        };
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_WINDOW_UNTOUCHED,
                &[("window", &named)],
            ),
            honest: Honest::Before(format!(
                "Not done: nothing was done in {named}; no act on it went through."
            )),
        })
    }
}

/// Text typed into a window whose title names a file, and the file not saved since.
pub struct WindowNotSaved;

/// The file a window's title names: a word of it that is the path of a file, or the name
/// of one in the home or the working folder (`"notes.txt - Mousepad"`,
/// `"*/home/me/list.txt - FeatherPad"`).
pub fn titled_file(title: &str, home: &Path, cwd: &Path) -> Option<PathBuf> {
    title
        .split(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | '(' | ')' | '"'))
        .map(|w| {
            w.trim_start_matches(['*', '•'])
                .trim_end_matches([',', ':', ';'])
        })
        .filter(|w| w.contains('.') || w.starts_with('/'))
        .find_map(|w| {
            let word = Path::new(w);
            let candidates: Vec<PathBuf> = if word.is_absolute() {
                vec![word.to_path_buf()]
            } else {
                vec![cwd.join(word), home.join(word)]
            };
            candidates.into_iter().find(|p| p.is_file())
        })
}

/// The last call was an act that did what the request asks in its window, as far as the
/// evidence tells: every element the request names there acted on, the window not
/// contradicting it, no step of the request left there (`ReadBack::met`, `left`), and
/// the window closed (a dialog answered) or the file its title names written by this
/// very act (an editor's Save); or the act was a keypad's result key, pressed after all
/// the request gives was keyed in (`ReadBack::keyed`).
pub fn done_in_window(calls: &[CallEvidence], home: &Path, cwd: &Path) -> bool {
    let Some(last) = calls.last() else {
        return false;
    };
    let Some(rb) = last.read_back.as_ref().filter(|_| last.ran && last.ok) else {
        return false;
    };
    // The result key pressed after all the request gives was keyed in, in order: the
    // window shows the result (a calculator's "=").
    if rb.keyed && !matches!(rb.shown, Shown::No(_)) {
        return true;
    }
    if !rb.met() || rb.left.is_some() {
        return false;
    }
    rb.closed
        || titled_file(&rb.window, home, cwd).is_some_and(|file| {
            last.effects
                .iter()
                .any(|e| e.lands_at() == Some(file.as_path()))
        })
}

/// An act's text put in place of all an element held left out words the request names,
/// made again after it was held for them, and the answer does not name them: the person
/// is told, as a fact, after the answer (never sent back: cap 0). Whether those words
/// were to go ("change off to on") or stay ("add pears after apples") is the request's
/// meaning; the answer that does not account for them is what is told. Seen on the GUI
/// bench: FeatherPad's "apples" replaced by "pears", the call made again, the file
/// saved, and "I saved the file 'list.txt'." answered.
pub struct TextDropped;

impl Check for TextDropped {
    fn name(&self) -> &'static str {
        "text-dropped"
    }
    fn cap(&self) -> u32 {
        0
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let answer = case.answer.to_lowercase();
        let said: Vec<String> = case
            .evidence
            .calls
            .iter()
            .filter(|c| c.ran && c.ok)
            .filter_map(|c| c.read_back.as_ref())
            .filter(|rb| !matches!(rb.shown, Shown::No(_)))
            .filter_map(|rb| {
                let unsaid: Vec<&str> = rb
                    .dropped
                    .iter()
                    .map(String::as_str)
                    .filter(|w| !answer.contains(&w.to_lowercase()))
                    .collect();
                (!unsaid.is_empty()).then(|| {
                    format!(
                        "{} no longer holds {}, which the request names: {}",
                        rb.element,
                        unsaid.join(", "),
                        rb.intended
                    )
                })
            })
            .collect();
        if said.is_empty() {
            return None;
        }
        Some(Finding {
            message: String::new(),
            honest: Honest::After(format!("({}.)", said.join("; "))),
        })
    }
}

impl WindowNotSaved {
    /// The files of the windows text landed in, that no call changed after it landed.
    pub fn unsaved(calls: &[CallEvidence], home: &Path, cwd: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            let Some(rb) = c
                .read_back
                .as_ref()
                .filter(|r| c.ok && kind(&r.action) == "value" && !matches!(r.shown, Shown::No(_)))
            else {
                continue;
            };
            let Some(file) = titled_file(&rb.window, home, cwd) else {
                continue;
            };
            let saved = calls[i..]
                .iter()
                .flat_map(|l| l.effects.iter())
                .any(|e| e.lands_at() == Some(file.as_path()));
            if !saved && !out.contains(&file) {
                out.push(file);
            }
        }
        out
    }
}

impl Check for WindowNotSaved {
    fn name(&self) -> &'static str {
        "window-not-saved"
    }
    fn of_effects(&self) -> bool {
        true
    }
    /// Sent back, the 1.5B model said "saved" again without a step in four editor tasks
    /// of the GUI bench at 377c8be: the one step after may save, or read the window.
    fn answered_by_acting(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let files = Self::unsaved(&case.evidence.calls, &case.env.home, &case.env.cwd);
        if files.is_empty() {
            return None;
        }
        let shown: Vec<String> = files
            .iter()
            .map(|f| match f.strip_prefix(&case.env.home) {
                Ok(rest) => format!("~/{}", rest.display()),
                Err(_) => f.display().to_string(),
            })
            .collect();
        let files = shown.join(", ");
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_WINDOW_NOT_SAVED,
                &[("files", &files)],
            ),
            honest: Honest::After(format!(
                "Not saved: {files} still holds on disk what it held before; the change shows only in the window."
            )),
        })
    }
}
