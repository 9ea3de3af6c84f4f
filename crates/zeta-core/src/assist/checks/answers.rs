//! The checks of what an answer says and gives, held against what the calls printed:
//! `nothing-ran`, `named-self`, `ungrounded-value`, `ungrounded-path`, `no-value`,
//! `asked-count`.

use super::{sources, Case, Check, Finding, Honest};
use crate::assist::values::{expansions, ungrounded, values, Value};

/// An answer before anything ran: once, the model is told it has seen nothing.
pub struct NothingRan;

impl Check for NothingRan {
    fn name(&self) -> &'static str {
        "nothing-ran"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        if !case.evidence.calls.is_empty() {
            return None;
        }
        Some(Finding {
            message: String::new(), // worded by the protocol (see `finish`)
            honest: Honest::Stands,
        })
    }
}

/// The assistant's own name given as data no output showed ("Your user name is Zeta").
pub struct NamedSelf;

const OWN_NAME: &str = "zeta";

impl Check for NamedSelf {
    fn name(&self) -> &'static str {
        "named-self"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let has = |text: &str, words: &[&str]| {
            text.to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| words.contains(&w))
        };
        let named = has(case.answer, &[OWN_NAME])
            && !has(&case.request.text, &[OWN_NAME, "you", "your", "yourself"])
            && !case
                .evidence
                .calls
                .iter()
                .any(|c| has(&c.output, &[OWN_NAME]) || has(&c.line, &[OWN_NAME]));
        named.then(|| Finding {
            message: crate::prompts::NAMED_SELF.to_string(),
            honest: Honest::Stands,
        })
    }
}

/// The answer gives a value (a number, a date, a version) that no output printed.
pub struct UngroundedValue;

impl Check for UngroundedValue {
    fn name(&self) -> &'static str {
        "ungrounded-value"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        case.evidence.ran().next()?;
        // A request to be done in a window still open, not a question: its result is
        // what the window shows, whatever a command printed (seen: `echo 12 * 7 | bc`
        // printed 84, gnome-calculator showed 7, and "12 times 7 is 84" was answered).
        let window = open_window(case).filter(|_| !case.request.only_asks());
        let sources = match window {
            Some(_) => window_sources(case),
            None => sources(case),
        };
        let refs: Vec<&str> = sources.iter().map(String::as_str).collect();
        let mut missing = ungrounded(case.answer, &refs);
        // A shell expansion is grounded by an output that printed it as written, never by
        // the command that expands it.
        let printed = case.evidence.printed();
        missing.extend(
            expansions(case.answer)
                .into_iter()
                .filter(|e| !printed.iter().any(|p| p.contains(e.as_str())))
                .filter(|e| !case.request.text.contains(e.as_str()))
                .map(Value::Literal),
        );
        if missing.is_empty() {
            return None;
        }
        let shown: Vec<&str> = missing.iter().map(Value::as_written).collect();
        let list = shown.join(", ");
        // Done there as the window and the files show it: the value is unsupported, not
        // a sign the work was not done (seen: Mousepad's line added and saved, and "There
        // are 2 lines" answered).
        let done = super::done_in_window(&case.evidence.calls, &case.env.home, &case.env.cwd);
        if let (Some(window), true) = (window, done) {
            return Some(Finding {
                message: crate::prompts::fill(
                    crate::prompts::CHECK_UNGROUNDED_AFTER_WINDOW,
                    &[("window", window), ("values", &list)],
                ),
                honest: Honest::After(format!("(Not checked: \"{window}\" never showed {list}.)")),
            });
        }
        Some(Finding {
            message: match window {
                Some(window) => crate::prompts::fill(
                    crate::prompts::CHECK_UNGROUNDED_IN_WINDOW,
                    &[("window", window), ("values", &list)],
                ),
                None => crate::prompts::fill(
                    crate::prompts::CHECK_UNGROUNDED_VALUE,
                    &[("values", &list)],
                ),
            },
            honest: match window {
                // The window the request was to be done in is open and never showed
                // the answer's value: its result was not made there (seen: xcalc
                // showing "9955", the answer "the screen now shows 45").
                Some(window) => Honest::Before(format!(
                    "Not done in the window: \"{window}\" never showed {list}, which this answer gives."
                )),
                // Only shell expansions: the answer names a variable, not its value.
                None if missing.iter().all(|v| v.as_written().starts_with('$')) => {
                    Honest::After(format!(
                        "(I could not find the value: no command printed what {list} holds.)"
                    ))
                }
                None => Honest::After(format!("(Not checked: no command printed {list}.)")),
            },
        })
    }
}

/// The answer names a path (`~/count.txt`, `/srv/notes`) that is not on this computer
/// and that nothing of the task named: no call's line or output, no window, not the
/// request. Seen on the GUI bench: "There are 42 .txt files in ~/notes; I wrote 42 into
/// ~/count.txt." answered for 100 minus 58 keyed into a calculator, the worked example's
/// sentence with the result put in. A path the task deleted is named by the call that
/// deleted it; one it made is on disk.
pub struct UngroundedPath;

impl UngroundedPath {
    /// The answer's paths that no evidence bears out, as written.
    pub fn unfounded(case: &Case) -> Vec<String> {
        let mut texts = sources(case);
        texts.extend(window_sources(case));
        texts.extend(case.evidence.calls.iter().map(|c| c.line.clone()));
        let mut out: Vec<String> = Vec::new();
        for (_, path) in crate::assist::request::path_words(case.answer) {
            if !anchored(&path) || out.contains(&path) {
                continue;
            }
            let at = crate::assist::request::resolve(&path, case.env);
            let full = at.display().to_string();
            let trimmed = path.trim_end_matches('/');
            let named = texts
                .iter()
                .any(|t| t.contains(trimmed) || t.contains(full.trim_end_matches('/')));
            if !named && !at.exists() {
                out.push(path);
            }
        }
        out
    }
}

/// Written from the home or the root, as `ungrounded-path` and `missing-path` read them.
pub(super) fn anchored(path: &str) -> bool {
    ["~/", "$HOME/", "/"].iter().any(|a| {
        path.strip_prefix(a)
            .and_then(|rest| rest.chars().next())
            .is_some_and(|c| c.is_alphabetic() || c == '.' || c == '_')
    })
}

impl Check for UngroundedPath {
    fn name(&self) -> &'static str {
        "ungrounded-path"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        case.evidence.ran().next()?;
        let paths = Self::unfounded(case);
        if paths.is_empty() {
            return None;
        }
        let list = paths.join(", ");
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_UNGROUNDED_PATH,
                &[("paths", &list)],
            ),
            honest: Honest::After(format!(
                "(Not so: {list} does not exist on this computer, and nothing this task ran named it.)"
            )),
        })
    }
}

/// What a value in the answer to a request done in a window may come from: what the
/// windows read showed, what the acts meant to enter, and the request.
fn window_sources(case: &Case) -> Vec<String> {
    let mut out: Vec<String> = case
        .evidence
        .ran()
        .flat_map(|c| {
            let shows = c.shows.clone();
            let meant = c.read_back.as_ref().map(|r| r.intended.clone());
            shows.into_iter().chain(meant)
        })
        .collect();
    out.push(case.request.text.clone());
    out
}

/// The window the task last acted in, when that act left it open: where a result the
/// request asks of it would show.
fn open_window<'a>(case: &'a Case) -> Option<&'a str> {
    case.evidence
        .last_act()
        .filter(|r| !r.closed)
        .map(|r| r.window.as_str())
}

/// A question's answer names nothing any output printed ("The command completed
/// successfully" for "How many lines …?"), though the outputs are not empty.
pub struct NoValue;

/// Words of three letters or more, and values, of `text`.
pub(super) fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || "._-".contains(c)))
        .map(|w| w.trim_matches(|c: char| ".-_".contains(c)).to_string())
        .filter(|w| w.chars().count() >= 3)
        .collect();
    out.extend(values(text).iter().map(|v| v.as_written().to_string()));
    out
}

impl Check for NoValue {
    fn name(&self) -> &'static str {
        "no-value"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        // An answer that gives a value is `ungrounded-value`'s.
        if !case.request.only_asks() || !values(case.answer).is_empty() {
            return None;
        }
        let printed: Vec<String> = case
            .evidence
            .ran()
            .filter(|c| c.ok)
            .map(|c| c.printed())
            .filter(|t| !t.trim().is_empty())
            .collect();
        if printed.is_empty() {
            return None;
        }
        let asked = tokens(&case.request.text);
        let found: Vec<String> = printed.iter().flat_map(|p| tokens(p)).collect();
        let carries = tokens(case.answer)
            .iter()
            .any(|t| !asked.contains(t) && found.contains(t));
        if carries {
            return None;
        }
        // What a call that worked printed last: a failed one's error (seen: the
        // traceback of the second way's program) is no finding to show the person.
        let last = printed
            .last()
            .map(|t| crate::text::shown(t, 600))
            .unwrap_or_default();
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_NO_VALUE,
                &[("last", &crate::text::clip(&last, 400))],
            ),
            honest: Honest::After(format!("What the commands printed:\n{last}")),
        })
    }
}

/// A question asks how many, and the answer gives no number at all ("The biggest file is
/// report.md" for "Count the files and tell me which is biggest").
pub struct AskedCount;

impl Check for AskedCount {
    fn name(&self) -> &'static str {
        "asked-count"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let numbers = values(case.answer)
            .iter()
            .any(|v| matches!(v, Value::Number(..)));
        // Nothing ran, or nothing changed where a change was asked: other checks'.
        if !case.request.asks_count || numbers || case.evidence.ran().next().is_none() {
            return None;
        }
        Some(Finding {
            message: crate::prompts::CHECK_ASKED_COUNT.to_string(),
            honest: Honest::After(
                "(Not answered: the request asks how many, and the answer gives no number.)"
                    .to_string(),
            ),
        })
    }
}
