//! Whether an act shows: the element read back after acting on it, beside what it was
//! before, and what happened to the windows, judged per action (pure). A value set shows
//! when the element holds it (a number by its value, so "7" and "7.0" agree); a toggle
//! when its state flipped; a page tab when it is selected; a press on a check box as a
//! toggle; any other press when a window opened or closed or the window changed. What
//! nothing on screen can tell (a focus, a press with no visible effect) is `Unclear`,
//! never `No`: only a read-back that contradicts the act holds an answer back. Words
//! read by OCR are judged by the readings before and after (`ocr_shown`).

use zeta_core::tool::Shown;

use crate::atspi::act::Action;
use crate::node::Node;
use crate::outline::clip;

/// What happened to the windows around an act.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Windows {
    /// Titles of windows that appeared.
    pub opened: Vec<String>,
    /// The acted-on element's own window is gone.
    pub own_closed: bool,
    /// Lines of the window's outline that changed.
    pub changed: usize,
    /// The application stopped answering after the act (a modal dialog it waits in).
    pub silent: bool,
}

fn value_of(n: &Node) -> String {
    n.value.clone().unwrap_or_default()
}

/// A field that hides what it holds shows one mark per character ("●●●●"): as many
/// marks as characters meant is the value held, as far as the screen can tell.
fn hidden_as_many(n: &Node, shown: &str, wanted: &str) -> bool {
    let mut marks = shown.chars();
    let first = marks.next();
    n.role == "password text"
        && first.is_some_and(|c| !c.is_alphanumeric() && marks.all(|m| Some(m) == first))
        && shown.chars().count() == wanted.chars().count()
}

/// Two values the same to a person: equal text, or equal numbers.
fn same_value(shown: &str, wanted: &str) -> bool {
    let (a, b) = (shown.trim(), wanted.trim());
    if a == b {
        return true;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => (x - y).abs() < 1e-9,
        _ => false,
    }
}

fn opened(w: &Windows) -> Option<String> {
    (!w.opened.is_empty()).then(|| {
        let names: Vec<String> = w.opened.iter().map(|t| format!("\"{t}\"")).collect();
        format!("a new window opened: {}", names.join(", "))
    })
}

/// Whether the window shows `action` done to the element: `before` as it was, `after` as
/// read back (`None`: no longer there, or its application did not answer).
pub fn judge(action: &Action, before: &Node, after: Option<&Node>, windows: &Windows) -> Shown {
    if windows.own_closed {
        return match action {
            Action::Press => Shown::Yes("its window closed".into()),
            _ => Shown::Unclear("its window closed".into()),
        };
    }
    let Some(after) = after else {
        if let (Action::Press, Some(o)) = (action, opened(windows)) {
            return Shown::Yes(o);
        }
        return Shown::Unclear(if windows.silent {
            "its application has not answered since (it may be showing a dialog that waits for an answer)".into()
        } else {
            "it is no longer shown".into()
        });
    };
    match action {
        // A field that hides what it holds, read back empty: its toolkit gives no marks
        // either (Qt's password fields; seen: kdialog's "Vault" dialog took the password,
        // its program printed it, and the read-back said it was not done).
        Action::SetText(text) | Action::Type(text)
            if after.role == "password text"
                && value_of(after).is_empty()
                && !text.trim().is_empty() =>
        {
            Shown::Unclear("it hides what it holds, and shows no marks for it".into())
        }
        Action::SetText(text) | Action::Type(text)
            if hidden_as_many(after, &value_of(after), text) =>
        {
            Shown::Yes(format!(
                "it holds {} hidden characters",
                text.chars().count()
            ))
        }
        Action::SetText(text) => {
            let now = value_of(after);
            if same_value(&now, text) {
                Shown::Yes(format!("it shows \"{}\"", clip(&now, 80)))
            } else {
                Shown::No(format!("it shows \"{}\"", clip(&now, 80)))
            }
        }
        Action::Type(text) => {
            let now = value_of(after);
            if now.contains(text.trim_end_matches(['\n', '\r'])) {
                Shown::Yes(format!("it shows \"{}\"", clip(&now, 80)))
            } else if after.value.is_none() {
                Shown::Unclear("its text cannot be read".into())
            } else {
                Shown::No(format!("it shows \"{}\"", clip(&now, 80)))
            }
        }
        Action::Toggle => flipped(before, after),
        // A toggle button that springs back, as a keypad's keys do (galculator's), shows a
        // press by what else of its window changed (seen: "1" pressed, the display showing
        // 1, and "NOT SHOWN: it is still unchecked").
        Action::Press
            if before.states.checkable
                && before.role == "toggle button"
                && after.states.checked == before.states.checked
                && windows.changed > 1 =>
        {
            Shown::Yes(format!(
                "it sprang back, and {} elements of the window changed",
                windows.changed
            ))
        }
        Action::Press if before.states.checkable => flipped(before, after),
        Action::Press if before.role == "page tab" => {
            if after.states.selected {
                Shown::Yes("its page is showing".into())
            } else {
                Shown::No("its page is not showing".into())
            }
        }
        Action::Press => {
            if let Some(o) = opened(windows) {
                Shown::Yes(o)
            } else if windows.silent {
                Shown::Unclear(
                    "its application has not answered since (it may be showing a dialog that waits for an answer)".into(),
                )
            } else if windows.changed > 0 {
                Shown::Yes(format!(
                    "{} element{} of the window changed",
                    windows.changed,
                    if windows.changed == 1 { "" } else { "s" }
                ))
            } else {
                Shown::Unclear("nothing in the window changed".into())
            }
        }
        Action::Select(option) => match after.value.as_deref() {
            Some(v) if v.trim().eq_ignore_ascii_case(option.trim()) => {
                Shown::Yes(format!("it shows \"{}\"", clip(v, 80)))
            }
            Some(v) => Shown::No(format!("it shows \"{}\"", clip(v, 80))),
            None if after.states.selected => Shown::Yes("it is selected".into()),
            None => Shown::Unclear("what it shows cannot be read".into()),
        },
        Action::Focus => {
            if after.states.focused {
                Shown::Yes("it has the focus".into())
            } else {
                Shown::Unclear("it does not say it has the focus".into())
            }
        }
        Action::ScrollIntoView => {
            if after.bounds.is_some_and(|b| b.is_visible()) {
                Shown::Yes("it is on screen".into())
            } else {
                Shown::Unclear("its place on screen is not known".into())
            }
        }
    }
}

fn flipped(before: &Node, after: &Node) -> Shown {
    let state = |n: &Node| {
        if n.states.checked {
            "checked"
        } else {
            "unchecked"
        }
    };
    if after.states.checked != before.states.checked {
        Shown::Yes(format!("it is now {}", state(after)))
    } else {
        Shown::No(format!("it is still {}", state(after)))
    }
}

/// Letters and digits alone, lowercased: OCR's spaces and marks come and go.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether an act on a word read by OCR shows, from the phrases read before and after
/// it (`after`: `None` when the screen could not be read again) and whether its window
/// closed. Typed text shows when a phrase read after holds it; typing after which
/// nothing on the screen changed did not land. A press shows when the screen changed;
/// one after which nothing changed may have its effect elsewhere (a file saved): unclear.
pub fn ocr_shown(
    action: &Action,
    before: &[String],
    after: Option<&[String]>,
    closed: bool,
) -> Shown {
    if closed {
        return Shown::Yes("its window closed".into());
    }
    let Some(after) = after else {
        return Shown::Unclear("the screen could not be read again".into());
    };
    let mut sorted_before: Vec<&String> = before.iter().collect();
    let mut sorted_after: Vec<&String> = after.iter().collect();
    sorted_before.sort();
    sorted_after.sort();
    let changed = sorted_before != sorted_after;
    let new: Vec<String> = after
        .iter()
        .filter(|w| !before.contains(w))
        .take(6)
        .map(|w| format!("\"{}\"", clip(w, 40)))
        .collect();
    match action {
        Action::Type(t) | Action::SetText(t) => {
            let want = squash(t);
            if !want.is_empty() && after.iter().any(|w| squash(w).contains(&want)) {
                Shown::Yes(format!("the screen now reads \"{}\"", clip(t, 60)))
            } else if changed {
                Shown::Unclear(format!(
                    "the screen changed (it now reads {}), but no text read there holds \"{}\"",
                    new.join(", "),
                    clip(t, 60)
                ))
            } else {
                Shown::No("nothing on the screen changed after typing".into())
            }
        }
        _ if changed && !new.is_empty() => Shown::Yes(format!(
            "the screen changed: it now reads {}",
            new.join(", ")
        )),
        _ if changed => Shown::Yes("the screen changed: text read before is gone".into()),
        _ => Shown::Unclear("nothing on the screen changed after it".into()),
    }
}

/// The intended change in words, for the evidence: `set its text to "7"`.
pub fn intended(action: &Action) -> String {
    match action {
        Action::Press => "press it".into(),
        Action::Focus => "focus it".into(),
        Action::SetText(t) => format!("set its text to \"{}\"", clip(t, 80)),
        Action::Type(t) => format!("type \"{}\" into it", clip(t, 80)),
        Action::Select(o) => format!("choose \"{}\"", clip(o, 60)),
        Action::Toggle => "toggle it".into(),
        Action::ScrollIntoView => "scroll it into view".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Bounds, Key};

    /// An act on OCR words judged from the readings around it, every kind of act ×
    /// closed, changed with the text, changed without it, unchanged, unread.
    #[test]
    fn an_act_on_read_words_shows_by_what_the_screen_reads_after() {
        let words = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let before = words(&["Quit", "Save", "Load"]);
        let typed = words(&["Quit", "Save", "Load", "cal1 Bob"]);
        let other = words(&["Quit", "Save", "Load", "c"]);
        let type_ = Action::Type("call Bob".into());
        let kind = |s: &Shown| match s {
            Shown::Yes(_) => "yes",
            Shown::No(_) => "no",
            Shown::Unclear(_) => "unclear",
        };
        for (action, after, closed, want) in [
            (&type_, Some(&typed), false, "unclear"),
            (&Action::Type("Bob".into()), Some(&typed), false, "yes"),
            (&type_, Some(&other), false, "unclear"),
            (&type_, Some(&before), false, "no"),
            (&type_, None, false, "unclear"),
            (&type_, Some(&before), true, "yes"),
            (&Action::Press, Some(&other), false, "yes"),
            (
                &Action::Press,
                Some(&words(&["Quit", "Save"])),
                false,
                "yes",
            ),
            (
                &Action::Press,
                Some(&words(&["Load", "Save", "Quit"])),
                false,
                "unclear",
            ),
            (&Action::Press, None, false, "unclear"),
            (&Action::Press, Some(&before), true, "yes"),
        ] {
            let shown = ocr_shown(action, &before, after.map(Vec::as_slice), closed);
            assert_eq!(
                kind(&shown),
                want,
                "{action:?} {after:?} {closed}: {shown:?}"
            );
        }
    }

    fn node(role: &str, value: Option<&str>) -> Node {
        let mut n = Node::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: "/a".into(),
            },
            role,
            "Copies",
        );
        n.value = value.map(str::to_string);
        n
    }

    fn yes(s: &Shown) -> bool {
        matches!(s, Shown::Yes(_))
    }
    fn no(s: &Shown) -> bool {
        matches!(s, Shown::No(_))
    }
    fn unclear(s: &Shown) -> bool {
        matches!(s, Shown::Unclear(_))
    }

    #[test]
    fn a_value_shows_when_the_element_holds_it() {
        let quiet = Windows::default();
        let set = Action::SetText("7".into());
        let before = node("spin button", Some("1"));
        assert!(yes(&judge(
            &set,
            &before,
            Some(&node("spin button", Some("7"))),
            &quiet
        )));
        assert!(yes(&judge(
            &set,
            &before,
            Some(&node("spin button", Some("7.0"))),
            &quiet
        )));
        let s = judge(&set, &before, Some(&node("spin button", Some("1"))), &quiet);
        assert_eq!(s, Shown::No("it shows \"1\"".into()));
        let typed = Action::Type("hello\n".into());
        let field = node("text", Some("say hello"));
        assert!(yes(&judge(&typed, &before, Some(&field), &quiet)));
        assert!(no(&judge(
            &typed,
            &before,
            Some(&node("text", Some("say"))),
            &quiet
        )));
        assert!(unclear(&judge(
            &typed,
            &before,
            Some(&node("text", None)),
            &quiet
        )));
        let pick = Action::Select("Green".into());
        assert!(yes(&judge(
            &pick,
            &before,
            Some(&node("combo box", Some("green"))),
            &quiet
        )));
        assert!(no(&judge(
            &pick,
            &before,
            Some(&node("combo box", Some("Red"))),
            &quiet
        )));
    }

    #[test]
    fn a_hidden_value_shows_as_as_many_marks() {
        let quiet = Windows::default();
        let before = node("password text", Some(""));
        let typed = Action::Type("hunter2".into());
        let after = node("password text", Some("●●●●●●●"));
        assert!(yes(&judge(&typed, &before, Some(&after), &quiet)));
        let short = node("password text", Some("●●●"));
        assert!(no(&judge(&typed, &before, Some(&short), &quiet)));
        // Marks in a field that hides nothing are text like any other.
        let plain = node("text", Some("•••••••"));
        assert!(no(&judge(&typed, &before, Some(&plain), &quiet)));
        let set = Action::SetText("pw".into());
        assert!(yes(&judge(
            &set,
            &before,
            Some(&node("password text", Some("**"))),
            &quiet
        )));
        // No marks at all (Qt): what it holds cannot be seen, which is no failure; an
        // empty text field is.
        for act in [&typed, &set] {
            assert!(matches!(
                judge(act, &before, Some(&node("password text", Some(""))), &quiet),
                Shown::Unclear(_)
            ));
            assert!(no(&judge(
                act,
                &before,
                Some(&node("text", Some(""))),
                &quiet
            )));
        }
    }

    #[test]
    fn a_toggle_shows_when_its_state_flipped() {
        let quiet = Windows::default();
        let mut before = node("check box", None);
        before.states.checkable = true;
        let mut after = before.clone();
        assert_eq!(
            judge(&Action::Toggle, &before, Some(&after), &quiet),
            Shown::No("it is still unchecked".into())
        );
        // A press on a check box is a toggle too.
        assert!(no(&judge(&Action::Press, &before, Some(&after), &quiet)));
        after.states.checked = true;
        assert!(yes(&judge(&Action::Toggle, &before, Some(&after), &quiet)));
        assert!(yes(&judge(&Action::Press, &before, Some(&after), &quiet)));
        // A keypad's toggle button springs back: pressed, it shows by what else changed
        // (galculator's display); a check box, or a key with nothing else changed, does not.
        let mut key = node("toggle button", None);
        key.states.checkable = true;
        let busy = Windows {
            changed: 2,
            ..Windows::default()
        };
        assert!(yes(&judge(&Action::Press, &key, Some(&key), &busy)));
        assert!(no(&judge(&Action::Press, &key, Some(&key), &quiet)));
        assert!(no(&judge(&Action::Press, &before, Some(&before), &busy)));
        let one = Windows {
            changed: 1,
            ..Windows::default()
        };
        assert!(no(&judge(&Action::Press, &key, Some(&key), &one)));
    }

    #[test]
    fn a_press_shows_by_what_it_did_to_the_windows() {
        let button = node("push button", None);
        let quiet = Windows::default();
        assert!(unclear(&judge(
            &Action::Press,
            &button,
            Some(&button),
            &quiet
        )));
        let changed = Windows {
            changed: 2,
            ..Windows::default()
        };
        assert!(yes(&judge(
            &Action::Press,
            &button,
            Some(&button),
            &changed
        )));
        let dialog = Windows {
            opened: vec!["Set label".into()],
            silent: true,
            ..Windows::default()
        };
        assert_eq!(
            judge(&Action::Press, &button, None, &dialog),
            Shown::Yes("a new window opened: \"Set label\"".into())
        );
        let silent = Windows {
            silent: true,
            ..Windows::default()
        };
        assert!(unclear(&judge(&Action::Press, &button, None, &silent)));
        let closed = Windows {
            own_closed: true,
            ..Windows::default()
        };
        assert!(yes(&judge(&Action::Press, &button, None, &closed)));
        assert!(unclear(&judge(
            &Action::SetText("x".into()),
            &button,
            None,
            &closed
        )));
        let mut tab = node("page tab", None);
        assert!(no(&judge(
            &Action::Press,
            &tab,
            Some(&tab.clone()),
            &changed
        )));
        tab.states.selected = true;
        assert!(yes(&judge(
            &Action::Press,
            &node("page tab", None),
            Some(&tab),
            &quiet
        )));
    }

    #[test]
    fn what_cannot_be_seen_is_unclear_not_a_failure() {
        let quiet = Windows::default();
        let n = node("text", Some(""));
        assert!(unclear(&judge(&Action::Focus, &n, Some(&n), &quiet)));
        assert!(unclear(&judge(
            &Action::ScrollIntoView,
            &n,
            Some(&n),
            &quiet
        )));
        let mut placed = n.clone();
        placed.bounds = Some(Bounds {
            x: 1,
            y: 1,
            width: 10,
            height: 10,
        });
        assert!(yes(&judge(
            &Action::ScrollIntoView,
            &n,
            Some(&placed),
            &quiet
        )));
        assert!(unclear(&judge(
            &Action::SetText("7".into()),
            &n,
            None,
            &quiet
        )));
    }
}
